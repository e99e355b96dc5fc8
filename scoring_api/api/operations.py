"""The scoring operations: one registry feeding the REST routes and the OpenAPI document.

An :class:`Operation` names its path, its request and response schemas and a handler
``(loaded request, lang) -> the response``; :func:`make_blueprint` turns every operation
into a thin view (read the input -> load with the schema -> handler -> JSON). POST
operations read a JSON body; GET operations read the query string (``lang`` aside), with
the same schema, so a tool call can send the same fields as JSON.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache

from flask import Blueprint, jsonify, request
from marshmallow import Schema, fields

from ..errors import rule_error
from ..games.errors import RuleError
from ..schemas import compiled
from .body import read_json, request_lang

#: When true (the test suite turns it on), every result is checked against the response
#: schema: it must be ``response_schema.dump(result)`` as JSON, byte for byte.
CHECK_RESPONSES = False


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
    #: Optional ``(facts, lang) -> extra facts`` for refusal messages (localized names).
    display_facts: Callable[[dict, str], dict] | None = None

    def run(self, payload, lang: str) -> dict:
        """Load ``payload`` with the request schema and apply the rules: the response.

        The one road every caller takes (REST view, tool call, MCP): invalid input raises
        marshmallow's ValidationError, a rule's refusal an ApiError (both 400s).

        The handler writes its answer in the response schema's shape, so it is not dumped
        again: a dump would copy every object and list of it (5.4 µs of the 50 µs an
        Applejack final score adds to ``/healthz``) to give the same JSON. That it is the
        same is checked on every answer of the test suite (:data:`CHECK_RESPONSES`).
        """
        data = self.load(payload)
        try:
            result = self.handler(data, lang)
        except RuleError as error:
            shown = self.display_facts(error.facts, lang) if self.display_facts else {}
            raise rule_error(error, self.tag, lang, **shown) from None
        if CHECK_RESPONSES:
            self.check_response(result)
        return result

    def check_response(self, result) -> None:
        """Raise AssertionError unless ``result`` is the response schema's own dump of it,
        written as the same JSON: the same fields, in the schema's order, of its types."""
        try:
            written, dumped = _json(result), _json(self.response_schema.dump(result))
        except TypeError as error:  # a value JSON cannot write (a set, an object)
            raise AssertionError(f"{self.operation_id}: the handler wrote {result!r}: {error}") from None
        if written != dumped:
            raise AssertionError(
                f"{self.operation_id}: the handler wrote {written}\nbut the response schema dumps {dumped}"
            )

    @cached_property
    def request_schema(self) -> Schema:
        """One schema instance, reused: building one per request costs more than loading."""
        return self.request()

    @cached_property
    def response_schema(self) -> Schema:
        """The answer's shape: the OpenAPI document, the tool list and the tests read it."""
        return self.response()

    @cached_property
    def load(self) -> Callable:
        """``request_schema.load``, compiled (same result, a fraction of the time)."""
        return compiled.loader(self.request_schema)


def _json(value) -> str:
    """``value`` as JSON text, keys in their order (integers of any size, as the service
    writes them)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


OPERATIONS: list[Operation] = []


def operation(**fields) -> Callable:
    """Register the decorated handler as an operation."""

    def register(handler):
        OPERATIONS.append(Operation(handler=handler, **fields))
        return handler

    return register


#: A query integer: ASCII digits only (``\d`` and ``int()`` also take ``３`` and ``٣``).
_ASCII_INTEGER = re.compile(r"-?[0-9]{1,18}")


def query_input(schema: Schema, _environ: dict | None = None) -> dict:
    """The query string as the schema's input: ``lang`` left out, integers of ASCII digits
    converted (any other text stays text, which an integer field refuses)."""
    found = {}
    for key, value in request.args.items(multi=False):
        if key == "lang":
            continue
        field = schema.fields.get(key)
        if isinstance(field, fields.Integer) and _ASCII_INTEGER.fullmatch(value):
            value = int(value)
        found[key] = value
    return found


def _view(op: Operation):
    read = query_input if op.method == "GET" else (lambda _schema, environ: read_json(environ))

    def view():
        environ = request.environ  # looked up once: each look through the proxy costs 0.5 µs
        lang = request_lang(environ)
        return jsonify(op.run(read(op.request_schema, environ), lang))

    view.__name__ = op.operation_id
    view.__doc__ = op.summary
    return view


def find_operation(operation_id: str) -> Operation | None:
    return _by_id().get(operation_id)


@lru_cache(maxsize=1)
def _discover() -> None:
    """Import every module of this package once, so that each game registers its operations,
    then put them in one order whatever imported a module first: modules by name, each
    module's operations as written (the OpenAPI document and the tool list follow it)."""
    package = importlib.import_module(__package__)
    modules = sorted(pkgutil.iter_modules(package.__path__), key=lambda module: module.name)
    names = [f"{__package__}.{module.name}" for module in modules]
    for name in names:
        importlib.import_module(name)
    place = {name: index for index, name in enumerate(names)}
    OPERATIONS.sort(key=lambda op: place.get(op.handler.__module__, len(place)))  # stable: as written within a module


@lru_cache(maxsize=1)
def _by_id() -> dict[str, Operation]:
    return {op.operation_id: op for op in load_operations()}


def load_operations() -> list[Operation]:
    """Every registered operation (the package's modules are imported on the first call;
    a tool call or a chat round no longer lists the package folder each time)."""
    _discover()
    return OPERATIONS


def make_blueprint() -> Blueprint:
    bp = Blueprint("api", __name__, url_prefix="/api/v1")
    for op in load_operations():
        bp.add_url_rule(op.path, view_func=_view(op), methods=[op.method])
    return bp
