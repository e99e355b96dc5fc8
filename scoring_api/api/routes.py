"""The scoring routes: one thin view per registered operation.

A POST operation reads its JSON body; a GET operation reads the query string (``lang``
aside) with the same schema, so a tool call can send the same fields as JSON.
"""

from __future__ import annotations

import re

from flask import Blueprint, jsonify, request
from marshmallow import Schema, fields

from ..i18n import LANGS
from ..operations.operation import Operation
from ..operations.registry import OPERATIONS
from ..schemas.localized import localized
from .body import read_json, request_lang

#: A query integer: ASCII digits only (``\d`` and ``int()`` also take ``３`` and ``٣``).
_ASCII_INTEGER = re.compile(r"-?[0-9]{1,18}")


def query_input(schema: Schema) -> dict:
    """The query string as the schema's input: ``lang`` left out, integers of ASCII digits
    converted (any other text stays text, which an integer field refuses)."""
    found: dict[str, str | int] = {}
    for key, text in request.args.items(multi=False):
        if key == "lang":
            continue
        field = schema.fields.get(key)
        found[key] = int(text) if isinstance(field, fields.Integer) and _ASCII_INTEGER.fullmatch(text) else text
    return found


def _view(op: Operation):
    def view():
        lang = request_lang()
        payload = query_input(op.request_schema) if op.method == "GET" else read_json()
        return jsonify(op.run(payload, lang))

    view.__name__ = op.operation_id
    view.__doc__ = op.summary
    return view


def make_blueprint() -> Blueprint:
    """The routes; every request schema is localized here, at start-up, so a schema whose
    messages the catalogue cannot give stops the app before it serves."""
    bp = Blueprint("api", __name__, url_prefix="/api/v1")
    for op in OPERATIONS:
        for lang in LANGS:
            localized(op.request, lang)
        bp.add_url_rule(op.path, view_func=_view(op), methods=[op.method])
    return bp
