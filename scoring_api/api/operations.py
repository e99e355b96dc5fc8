"""The scoring operations: one registry feeding the REST routes and the OpenAPI document.

An :class:`Operation` names its path, its request and response schemas and a handler
``(loaded request, lang) -> plain data``; :func:`make_blueprint` turns every operation
into a thin view (read JSON -> load with the schema -> handler -> dump with the schema).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from flask import Blueprint, jsonify
from marshmallow import Schema

from .body import read_json, request_lang


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str
    path: str  # below /api/v1
    request: type[Schema]
    response: type[Schema]
    handler: Callable[[dict, str], dict]
    summary: str
    description: str
    tag: str


OPERATIONS: list[Operation] = []


def operation(**fields) -> Callable:
    """Register the decorated handler as an operation."""

    def register(handler):
        OPERATIONS.append(Operation(handler=handler, **fields))
        return handler

    return register


def _view(op: Operation):
    request_schema, response_schema = op.request(), op.response()

    def view():
        lang = request_lang()
        data = request_schema.load(read_json())
        return jsonify(response_schema.dump(op.handler(data, lang)))

    view.__name__ = op.operation_id
    view.__doc__ = op.summary
    return view


def make_blueprint() -> Blueprint:
    from . import apero  # noqa: F401  (registers its operations)

    bp = Blueprint("api", __name__, url_prefix="/api/v1")
    for op in OPERATIONS:
        bp.add_url_rule(op.path, view_func=_view(op), methods=[op.method])
    return bp
