"""Every scoring operation as a tool an LLM can call (OpenAI function calling, MCP).

The parameters' JSON Schema is generated from the same marshmallow schema the REST
endpoint loads with, then made valid for OpenAI *strict* function calling, following the
rules of the openai SDK's own strict-schema converter:

* every object has ``additionalProperties: false`` and lists ALL its properties as
  ``required``; a property the endpoint treats as optional becomes nullable instead;
* no ``default`` (and no other keyword strict mode does not accept): a tool says a
  default in words, at the end of the field's description (``Default: 100.``);
* ``$ref`` is inlined, so each tool is self-contained.

Strict mode cannot describe a free-keyed map (Applejack's ``{"red": 2}``), so a map is
offered as a list of ``{"key", "value"}`` pairs and turned back into a map before the
arguments reach the schema. Nulls for optional fields are dropped the same way, so a tool
call is loaded exactly like the REST body.

The tool list goes to the model with every chat round and to every MCP host, so a tool
says what a model needs, once (:func:`_for_model`; figures in docs/chat-frontends.md, "The
tool list"). The schemas' descriptions are written for both readers (what a name, a type,
an enum and the bounds do not say already), and a tool's copy of its schema leaves out:

* a ``pattern`` longer than :data:`PATTERN_SHOWN` characters (a player name's list of
  invisible characters): the endpoint still checks it and names the field it refuses;
  the short ones, the exact spellings of Pedro's cards and suits, stay;
* ``minItems: 0``, which says nothing;
* a description the tool gave already, at a field before it (the orchard's tiles and the
  tile placed, one team's captured cards and the other's), and a map's sentence about
  its pairs (the shape says it).

Every bound and enum stays, so a call valid for the tool's schema is valid for the
endpoint but for those long patterns. The OpenAPI document's tool-execution paths
(:func:`documented_parameters`) keep everything (the defaults in words too). A tool's
description is its operation's (the OpenAPI one, at most 300 characters), followed by
:data:`PHOTO`'s sentence for the tools a photo of the table is likely to feed.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable
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
#: The longest ``pattern`` a tool shows the model (Pedro's card, 40 characters, is shown;
#: a player name's list of invisible characters, over 800, is the endpoint's to check).
PATTERN_SHOWN = 64

#: For a tool whose arguments are likely read off a photo of the table: how to read them,
#: after its operation's description (docs/rules/ for each game's cards and tiles).
_ASK = "ask the player about anything unclear."
_ORCHARD_PHOTO = (
    "From a photo: each tile by field (apples, blossoms, beehive edges, price) and the board's beehives; " + _ASK
)
_CAPTURED_PHOTO = "From a photo of each team's won tricks: the trump, then every card of each pile; " + _ASK
PHOTO: dict[str, str] = {
    "score_apero": f"From a photo: one player at a time, list every card with its colour and value; {_ASK}",
    "apero_pick": f"From a photo: each player's cards and the face-up table cards, colour and value; {_ASK}",
    "applejack_harvest": _ORCHARD_PHOTO,
    "applejack_placement": _ORCHARD_PHOTO,
    "applejack_blossoms": _ORCHARD_PHOTO,
    "applejack_final_score": _ORCHARD_PHOTO,
    "applejack_placements": _ORCHARD_PHOTO,
    "score_fairy_black_box": (
        f"From a photo: one player at a time, each treasure card's name and points as printed, and the mood; {_ASK}"
    ),
    "pedro_hand": _CAPTURED_PHOTO,
    "pedro_game": _CAPTURED_PHOTO,
}


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
            pairs: dict = {"type": "array"}
            if description and strict:  # the tool's copy: its shape says "pairs"
                pairs["description"] = description
            pairs["items"] = {
                "type": "object",
                "properties": {
                    "key": {"type": "string"},
                    "value": _strict(extra, (*path, "*", "value"), [], keywords, strict),
                },
                "required": ["key", "value"],
                "additionalProperties": False,
            }
            if max_entries is not None:
                pairs["maxItems"] = max_entries
            if strict:
                return pairs
            as_map = {k: v for k, v in node.items() if k != "description"}
            as_map["additionalProperties"] = _strict(extra, path, [], keywords, strict)
            said = (description + " " if description else "") + "As a list of {key, value} pairs."
            return {"description": f"{said} A JSON object map is accepted too.", "anyOf": [pairs, as_map]}
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
    parameters with optional fields optional (or null), the length bounds kept, every
    description, and the defaults in words as the tools say them."""
    keywords = frozenset(STRICT_KEYWORDS | DOCUMENTED_BOUNDS | {"default"})
    return _each_node(_strict(_json_schema(_operation(operation_id)), (), [], keywords, strict=False), _said_default)


def _operation(name: str) -> Operation:
    op = find_operation(name)
    if op is None:
        raise UnknownTool(name)
    return op


def _each_node(node: dict, change: Callable[[dict], dict]) -> dict:
    """``change`` made to a copy of ``node``, then to every schema under it (properties,
    items, anyOf options), in the document's order."""
    node = change(dict(node))
    if "properties" in node:
        node["properties"] = {name: _each_node(child, change) for name, child in node["properties"].items()}
    if isinstance(node.get("items"), dict):
        node["items"] = _each_node(node["items"], change)
    if "anyOf" in node:
        node["anyOf"] = [_each_node(option, change) for option in node["anyOf"]]
    return node


def _said_default(node: dict) -> dict:
    """The node with its ``default`` (a keyword strict mode refuses) said at the end of its
    description: ``Default: 100.``"""
    if "default" in node:
        words = f"Default: {json.dumps(node.pop('default'), ensure_ascii=False)}."
        node["description"] = f"{node['description']} {words}" if node.get("description") else words
    return node


def _for_model(parameters: dict) -> dict:
    """A tool's strict parameters (with their defaults) as the model reads them, by the
    rules in this module's docstring: no long ``pattern``, no ``minItems: 0``, each
    description once, the defaults in words (each said where it applies)."""
    said: set[str] = set()

    def change(node: dict) -> dict:
        if len(node.get("pattern", "")) > PATTERN_SHOWN:
            del node["pattern"]
        if node.get("minItems") == 0:
            del node["minItems"]
        description = node.get("description")
        if description in said:
            del node["description"]
        elif description:
            said.add(description)
        return _said_default(node)

    return _each_node(parameters, change)


def tool_description(op: Operation) -> str:
    """The operation's description, then how to read a photo into its arguments (:data:`PHOTO`)."""
    photo = PHOTO.get(op.operation_id)
    return f"{op.description} {photo}" if photo else op.description


@cache
def _tool(operation_id: str) -> tuple[dict, tuple]:
    op = _operation(operation_id)
    maps: list = []
    parameters = _for_model(_strict(_json_schema(op), (), maps, frozenset(STRICT_KEYWORDS | {"default"})))
    definition = {
        "type": "function",
        "function": {
            "name": op.operation_id,
            "description": tool_description(op),
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
    return op.run(rest_arguments(name, arguments, lang), lang)


def rest_arguments(name: str, arguments, lang: str):
    """A call of the tool ``name`` (a scoring operation's) in its REST endpoint's shape,
    as :func:`call_tool` reads it before the schema does: :func:`_restore`, and an ApiError
    ``repeated_key`` for a map's pairs that repeat a key."""
    definition, maps = _tool(name)
    repeated: list = []
    restored = _restore(arguments, definition["function"]["parameters"], (), maps, (), repeated)
    if repeated:  # JSON Schema cannot say "unique by key", so it is not a shape error
        details = {json_path(where): [t("assistant.repeated_pair_key", lang, repeated=key)] for where, key in repeated}
        first = repeated[0][1]
        raise ApiError(400, "repeated_key", "assistant.repeated_pair_key", details=details, repeated=first)
    return restored
