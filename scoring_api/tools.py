"""Every scoring operation as a tool an LLM can call (OpenAI function calling, MCP).

The parameters' JSON Schema is generated from the same marshmallow schema the REST
endpoint loads with, then made valid for OpenAI *strict* function calling, following the
rules of the openai SDK's own strict-schema converter:

* every object has ``additionalProperties: false`` and lists ALL its properties as
  ``required``; a property the endpoint treats as optional becomes nullable instead;
* no ``default`` (and no other keyword strict mode does not accept);
* ``$ref`` is inlined, so each tool is self-contained.

Strict mode cannot describe a free-keyed map (Applejack's ``{"red": 2}``), so a map is
offered as a list of ``{"key", "value"}`` pairs and turned back into a map before the
arguments reach the schema. Nulls for optional fields are dropped the same way, so a tool
call is loaded exactly like the REST body.
"""

from __future__ import annotations

import copy
import functools
from functools import cache, lru_cache

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import ValidationError

from .error_shape import ApiError, api_error_body, error_document, json_path, validation_error_body
from .i18n import join_list, t
from .operations.operation import Operation
from .operations.registry import OPERATIONS, find_operation
from .tool_arguments import ArgumentsError

#: Keywords strict function calling accepts (others are dropped from tool schemas).
STRICT_KEYWORDS = {
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "description",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
}
#: Bounds strict mode may not accept but the endpoint enforces: the OpenAPI document keeps
#: them on the tool-execution paths, so a request valid there is valid for the endpoint.
DOCUMENTED_BOUNDS = {"minLength", "maxLength"}


@lru_cache(maxsize=1)
def _converter():
    plugin = MarshmallowPlugin()
    spec = APISpec("tools", "1", "3.1.0", plugins=[plugin])
    return plugin, spec


def _json_schema(op: Operation) -> dict:
    """The request schema as plain JSON Schema with every ``$ref`` resolved."""
    plugin, spec = _converter()
    root = plugin.converter.schema2jsonschema(op.request())
    components = spec.to_dict().get("components", {}).get("schemas", {})

    def inline(node):
        if isinstance(node, dict):
            if "$ref" in node:
                target = components[node["$ref"].rsplit("/", 1)[1]]
                rest = {k: v for k, v in node.items() if k != "$ref"}
                return inline({**copy.deepcopy(target), **rest})
            return {k: inline(v) for k, v in node.items()}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    return inline(root)


def _nullable(node: dict) -> dict:
    """The same schema, also admitting null."""
    node = dict(node)
    kind = node.get("type")
    if "anyOf" in node:
        node["anyOf"] = [*node["anyOf"], {"type": "null"}]
    elif isinstance(kind, list):
        node["type"] = kind if "null" in kind else [*kind, "null"]
    elif kind:
        node["type"] = [kind, "null"]
    else:
        node = {"anyOf": [node, {"type": "null"}]}
    if "enum" in node and None not in node["enum"]:
        node["enum"] = [*node["enum"], None]
    return node


def _strict(node: dict, path: tuple, maps: list, keywords: frozenset, strict: bool = True) -> dict:
    """Rewrite one JSON Schema node for strict mode; record map paths in ``maps``.

    With ``strict=False`` optional properties stay optional (but nullable): the shape the
    tool-execution endpoint accepts, documented in the OpenAPI file."""
    max_entries = node.get("maxProperties")
    node = {k: v for k, v in node.items() if k in keywords}
    if "anyOf" in node:
        node["anyOf"] = [_strict(option, path, maps, keywords, strict) for option in node["anyOf"]]
    kind = node.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "object" in kinds:
        extra = node.get("additionalProperties")
        if isinstance(extra, dict) and not node.get("properties"):
            maps.append(path)
            description = node.get("description", "")
            pairs = {
                "type": "array",
                "description": (description + " " if description else "") + "As a list of {key, value} pairs.",
                "items": {
                    "type": "object",
                    "properties": {
                        "key": {"type": "string"},
                        "value": _strict(extra, (*path, "*", "value"), [], keywords, strict),
                    },
                    "required": ["key", "value"],
                    "additionalProperties": False,
                },
            }
            if max_entries is not None:
                pairs["maxItems"] = max_entries
            if strict:
                return pairs
            as_map = {k: v for k, v in node.items() if k != "description"}
            as_map["additionalProperties"] = _strict(extra, path, [], keywords, strict)
            return {
                "description": f"{pairs.pop('description')} A JSON object map is accepted too.",
                "anyOf": [pairs, as_map],
            }
        required = set(node.get("required", []))
        properties = {}
        for name, child in node.get("properties", {}).items():
            child = _strict(child, (*path, name), maps, keywords, strict)
            properties[name] = child if name in required else _nullable(child)
        node["properties"] = properties
        node["required"] = list(properties) if strict else [n for n in properties if n in required]
        if not node["required"]:
            del node["required"]
        node["additionalProperties"] = False
    if "array" in kinds and "items" in node:
        node["items"] = _strict(node["items"], (*path, "*"), maps, keywords, strict)
    return node


def documented_parameters(operation_id: str) -> dict:
    """What ``POST /api/v1/tools/<name>`` accepts, for the OpenAPI document: the tool's
    parameters with optional fields optional (or null) and the length bounds kept."""
    keywords = frozenset(STRICT_KEYWORDS | DOCUMENTED_BOUNDS)
    return _strict(_json_schema(_operation(operation_id)), (), [], keywords, strict=False)


def _operation(name: str) -> Operation:
    op = find_operation(name)
    if op is None:
        raise UnknownTool(name)
    return op


@cache
def _tool(operation_id: str) -> tuple[dict, tuple]:
    op = _operation(operation_id)
    maps: list = []
    parameters = _strict(_json_schema(op), (), maps, frozenset(STRICT_KEYWORDS))
    definition = {
        "type": "function",
        "function": {
            "name": op.operation_id,
            "description": op.description,
            "parameters": parameters,
            "strict": True,
        },
    }
    return definition, tuple(maps)


def tool_definitions() -> list[dict]:
    """The OpenAI ``tools`` array: one function per scoring operation (a copy to keep)."""
    return copy.deepcopy(shared_tool_definitions())


@functools.cache
def shared_tool_definitions() -> list[dict]:
    """The same array, built once and shared: for senders that only read it (the chat
    sends it with every model request). Never change it."""
    return [_tool(op.operation_id)[0] for op in OPERATIONS]


def tool_names() -> list[str]:
    return [op.operation_id for op in OPERATIONS]


def _children(node: dict, key: str) -> dict:
    """The sub-schema under ``key`` (a property name, or "items"), through anyOf options."""
    for option in [node, *node.get("anyOf", [])]:
        found = option.get("properties", {}).get(key) if key != "items" else option.get("items")
        if found:
            return found
    return {}


def _restore(arguments, node: dict, path: tuple, maps: tuple, where: tuple = (), repeated: list | None = None):
    """Turn strict-mode arguments back into the endpoint's shape: a null for a documented
    property means "left out", and {key, value} lists become maps again. Anything else
    (unknown keys included) is left for the schema to judge. Two pairs with the same key
    are recorded in ``repeated`` as ``(where, key)`` (a JSON body cannot repeat a key
    either); ``where`` is the concrete path of ``arguments``."""
    if repeated is None:
        repeated = []
    if path in maps and isinstance(arguments, list):
        if all(isinstance(p, dict) and set(p) == {"key", "value"} and isinstance(p["key"], str) for p in arguments):
            restored = {}
            for index, pair in enumerate(arguments):
                if pair["key"] in restored:
                    repeated.append(((*where, index, "key"), pair["key"]))
                restored[pair["key"]] = pair["value"]
            return restored
        return arguments
    if isinstance(arguments, dict):
        return {
            key: _restore(value, _children(node, key), (*path, key), maps, (*where, key), repeated)
            for key, value in arguments.items()
            if not (value is None and _children(node, key))
        }
    if isinstance(arguments, list):
        items = _children(node, "items")
        return [_restore(value, items, (*path, "*"), maps, (*where, i), repeated) for i, value in enumerate(arguments)]
    return arguments


class UnknownTool(LookupError):
    pass


def error_body(error: Exception, lang: str) -> dict:
    """A failed tool call as the service's error JSON (what a REST client would get), so a
    model reads the same field-level reasons: for the chat loop and the MCP server."""
    if isinstance(error, ValidationError):
        return validation_error_body(error, lang)
    if isinstance(error, ApiError):
        return api_error_body(error, lang)
    details: dict = {}
    if isinstance(error, ArgumentsError):
        code, message = "invalid_arguments", t(error.key, lang, **error.params)
    elif isinstance(error, UnknownTool):
        code = "unknown_tool"
        message = unknown_tool_message(str(error), lang)
    elif isinstance(error, ValueError):
        code, message = "invalid_arguments", t("assistant.bad_arguments", lang)
    else:
        code, message = "internal_error", t("errors.internal_error", lang)
    return error_document(code, message, details)


def unknown_tool_message(name: str, lang: str) -> str:
    return t("assistant.unknown_tool", lang, name=name, tools=join_list(tool_names(), lang))


def call_tool(name: str, arguments, lang: str) -> dict:
    """Run one tool call with the endpoint's own validation and rules.

    Raises :class:`UnknownTool`, marshmallow's ValidationError or ApiError (the same 400s
    as the REST endpoint; also ``repeated_key`` for a map's {key, value} pairs that repeat
    a key, each named by the path of the repeated ``key``)."""
    op = find_operation(name)
    if op is None:
        raise UnknownTool(name)
    definition, maps = _tool(name)
    repeated: list = []
    restored = _restore(arguments, definition["function"]["parameters"], (), maps, (), repeated)
    if repeated:  # JSON Schema cannot say "unique by key", so it is not a shape error
        details = {json_path(where): [t("assistant.repeated_pair_key", lang, repeated=key)] for where, key in repeated}
        first = repeated[0][1]
        raise ApiError(400, "repeated_key", "assistant.repeated_pair_key", details=details, repeated=first)
    return op.run(restored, lang)
