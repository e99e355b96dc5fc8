"""The scorers as tools: one per operation, strict-mode schemas from the same marshmallow
schemas, and execution over HTTP with the endpoint's own validation."""

import json
import re

import pytest
from jsonschema import Draft202012Validator
from marshmallow import ValidationError

from scoring_api.error_shape import ApiError
from scoring_api.operations.registry import OPERATIONS, find_operation
from scoring_api.tools import (
    PATTERN_SHOWN,
    PHOTO,
    STRICT_KEYWORDS,
    call_tool,
    documented_parameters,
    shared_tool_definitions,
    tool_definitions,
)

TOOLS = {tool["function"]["name"]: tool for tool in tool_definitions()}
#: The most characters the tool list may take as the chat sends it with every model round
#: (compact JSON, no ASCII escapes): 33,417 on 2026-12-06, 46,067 before the tools said
#: each thing once (docs/chat-frontends.md, "The tool list"); then the rules tool (732)
#: and Pedro's point schedule.
TOOL_LIST_LIMIT = 35_500


def strict_problems(node, path="$"):
    """Everything in a JSON Schema that OpenAI strict function calling would refuse."""
    problems = [f"{path}: keyword {key}" for key in node if key not in STRICT_KEYWORDS]
    kinds = node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]
    if "object" in kinds:
        properties = node.get("properties", {})
        if node.get("additionalProperties") is not False:
            problems.append(f"{path}: additionalProperties must be false")
        if sorted(node.get("required", [])) != sorted(properties):
            problems.append(f"{path}: every property must be required")
        for name, child in properties.items():
            problems += strict_problems(child, f"{path}.{name}")
    if "array" in kinds:
        problems += strict_problems(node.get("items", {}), f"{path}[]")
    for i, option in enumerate(node.get("anyOf", [])):
        problems += strict_problems(option, f"{path}|{i}")
    if "enum" in node and "null" in kinds and None not in node["enum"]:
        problems.append(f"{path}: nullable enum without null")
    return problems


def test_one_tool_per_scoring_operation():
    assert list(TOOLS) == [op.operation_id for op in OPERATIONS]
    assert {
        "score_apero",
        "pedro_auction",
        "pedro_trick",
        "pedro_hand",
        "pedro_game",
        "applejack_harvest",
        "applejack_placement",
        "applejack_blossoms",
        "applejack_final_score",
        "applejack_starting_honey",
        "score_fairy_black_box",
        "fairy_black_box_setup",
        "fairy_black_box_end_check",
        "fairy_black_box_next_player",
    } <= set(TOOLS)


@pytest.mark.parametrize("name", list(TOOLS))
def test_each_tool_is_valid_for_strict_function_calling(name):
    tool = TOOLS[name]
    function = tool["function"]
    assert tool["type"] == "function" and function["strict"] is True
    assert re.fullmatch(r"[a-z][a-z0-9_]{0,63}", function["name"])
    assert function["description"].startswith(find_operation(name).description)
    assert 40 <= len(function["description"]) <= 480
    parameters = function["parameters"]
    assert parameters["type"] == "object"
    assert strict_problems(parameters) == []
    assert "default" not in schema_keywords(parameters)
    Draft202012Validator.check_schema(parameters)


def schema_keywords(node):
    """Every keyword used anywhere in a JSON Schema (property names are not keywords)."""
    found = set(node)
    for child in node.get("properties", {}).values():
        found |= schema_keywords(child)
    if isinstance(node.get("items"), dict):
        found |= schema_keywords(node["items"])
    for option in node.get("anyOf", []):
        found |= schema_keywords(option)
    return found


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: op.operation_id)
def test_optional_fields_are_nullable_and_required_ones_are_not(op):
    properties = TOOLS[op.operation_id]["function"]["parameters"]["properties"]
    for name, field in op.request().fields.items():
        schema = properties[field.data_key or name]
        nullable = "null" in (schema.get("type") or []) or {"type": "null"} in schema.get("anyOf", [])
        assert nullable == (not field.required), name


def test_the_tool_list_stays_small():
    sent = json.dumps(shared_tool_definitions(), ensure_ascii=False, separators=(",", ":"))
    assert len(sent) <= TOOL_LIST_LIMIT
    assert max(len(json.dumps(tool, ensure_ascii=False, separators=(",", ":"))) for tool in TOOLS.values()) <= 3_600


def descriptions(node):
    """Every description in a JSON Schema, in the document's order."""
    found = [node["description"]] if "description" in node else []
    for child in node.get("properties", {}).values():
        found += descriptions(child)
    if isinstance(node.get("items"), dict):
        found += descriptions(node["items"])
    for option in node.get("anyOf", []):
        found += descriptions(option)
    return found


@pytest.mark.parametrize("name", list(TOOLS))
def test_a_tool_says_each_description_once(name):
    said = descriptions(TOOLS[name]["function"]["parameters"])
    assert len(said) == len(set(said))


def test_a_repeated_description_is_said_at_its_first_field_only():
    tile = TOOLS["applejack_placement"]["function"]["parameters"]["properties"]
    reading_order = "In reading order: rows of 3-4-5-4-3 from the top, 10 the centre."
    assert tile["orchard"]["properties"]["tiles"]["items"]["properties"]["field"]["description"] == reading_order
    assert "description" not in tile["tile"]["properties"]["field"]
    captured = TOOLS["pedro_hand"]["function"]["parameters"]["properties"]["captured"]["properties"]
    assert captured["NS"]["items"]["description"] == "Rank then suit, no space, either case: 10H, qs, 5♦."
    assert "description" not in captured["EW"]["items"]


BOUNDS = ("minimum", "maximum", "minItems", "maxItems", "enum", "const", "pattern")


def bounds(node, path="$", found=None):
    """What a schema allows at each path: the bounds, enums and patterns (anyOf options
    merged at their path; ``minItems: 0`` is no bound; ``[]`` an array's items)."""
    found = {} if found is None else found
    here = found.setdefault(path, {})
    here.update({key: node[key] for key in BOUNDS if key in node and not (key == "minItems" and node[key] == 0)})
    for name, child in node.get("properties", {}).items():
        bounds(child, f"{path}.{name}", found)
    if isinstance(node.get("items"), dict):
        bounds(node["items"], f"{path}[]", found)
    for option in node.get("anyOf", []):
        bounds(option, path, found)
    return found


@pytest.mark.parametrize("name", list(TOOLS))
def test_the_tool_keeps_every_bound_and_enum_of_the_endpoint(name):
    """The tool's copy is the documented schema of POST /api/v1/tools/<name> (every bound
    of the endpoint) less the long patterns only."""
    documented = bounds(documented_parameters(name))
    for where in documented.values():
        if len(where.get("pattern", "")) > PATTERN_SHOWN:
            del where["pattern"]
    assert bounds(TOOLS[name]["function"]["parameters"]) == documented


def test_long_patterns_are_left_to_the_endpoint():
    """The player name's pattern is not in the tool; the endpoint still refuses what it refuses."""
    player = TOOLS["score_apero"]["function"]["parameters"]["properties"]["players"]["items"]
    assert "pattern" not in player["properties"]["name"]
    hidden = {"sets": None, "players": [{"name": "A\u200b", "cards": [{"color": "red", "value": 1}]}]}
    Draft202012Validator(TOOLS["score_apero"]["function"]["parameters"]).validate(hidden)
    with pytest.raises(ValidationError) as refused:
        call_tool("score_apero", hidden, "en")
    assert refused.value.messages == {
        "players": {
            0: {
                "name": ["The player name contains an invisible character (U+200B); delete it and type the name again."]
            }
        }
    }


def test_defaults_are_said_in_words():
    rules = TOOLS["pedro_hand"]["function"]["parameters"]["properties"]["rules"]["properties"]
    assert rules["target"]["description"] == "Winning score. Default: 100."
    assert rules["schedule"]["description"].endswith('dealer at least 6). Default: "guide_14".')  # and the bids'
    assert rules["tie_rule"]["description"] == 'When both teams reach the target in one hand. Default: "extra_hand".'
    sets = TOOLS["score_apero"]["function"]["parameters"]["properties"]["sets"]
    assert sets["description"] == "36-card sets shuffled together. Default: 1."
    documented = documented_parameters("pedro_hand")["properties"]["rules"]["properties"]
    assert (
        documented["target"]["description"] == "Winning score. Default: 100." and "default" not in documented["target"]
    )


PHOTO_TOOLS = {
    "score_apero",
    "apero_pick",
    "applejack_harvest",
    "applejack_placement",
    "applejack_blossoms",
    "applejack_final_score",
    "applejack_placements",
    "score_fairy_black_box",
    "pedro_hand",
    "pedro_game",
}


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: op.operation_id)
def test_tools_fed_by_a_photo_say_how_to_read_it(op):
    description = TOOLS[op.operation_id]["function"]["description"]
    if op.operation_id in PHOTO_TOOLS:
        assert description == f"{op.description} {PHOTO[op.operation_id]}"
        assert "From a photo" in description and description.endswith("ask the player about anything unclear.")
    else:
        assert description == op.description
    assert set(PHOTO) == PHOTO_TOOLS


def test_the_photo_sentences_name_what_to_read():
    assert "every card with its colour and value" in TOOLS["score_apero"]["function"]["description"]
    assert "each tile by field" in TOOLS["applejack_final_score"]["function"]["description"]
    assert "each treasure card's name and points" in TOOLS["score_fairy_black_box"]["function"]["description"]
    assert "every card of each pile" in TOOLS["pedro_hand"]["function"]["description"]


def test_tools_endpoint_lists_them(client):
    response = client.get("/api/v1/tools")
    assert response.status_code == 200 and response.get_json() == tool_definitions()


APERO = {
    "sets": None,
    "players": [
        {
            "name": "A",
            "cards": [
                {"color": "purple", "value": -1},
                {"color": "purple", "value": -2},
                {"color": "purple", "value": -3},
            ],
        }
    ],
}


def test_tool_call_over_http_answers_like_the_endpoint(client):
    rest = client.post("/api/v1/apero/score", json={k: v for k, v in APERO.items() if v is not None})
    tool = client.post("/api/v1/tools/score_apero", json=APERO)
    assert tool.status_code == rest.status_code == 200
    assert tool.get_json() == rest.get_json()
    assert tool.get_json()["players"][0]["colors"][0]["expression"] == "(-1 + -2) × -3"


def test_maps_travel_as_key_value_pairs(client):
    orchard = {
        "tiles": [
            {
                "field": 1,
                "apples": [{"key": "light_green", "value": 2}],
                "pasture": None,
                "blossoms": None,
                "beehives": None,
                "price": None,
            },
            {
                "field": 3,
                "apples": [{"key": "light_green", "value": 3}],
                "pasture": None,
                "blossoms": None,
                "beehives": None,
                "price": None,
            },
        ],
        "board": None,
    }
    body = client.post(
        "/api/v1/tools/applejack_harvest", json={"orchard": orchard, "varieties": ["light_green"], "die": 1}
    ).get_json()
    assert body["honey"] == 3  # the rulebook's example: areas of 2 and 3 at die 1
    assert [a["fields"] for a in body["harvests"][0]["areas"]] == [[1], [3]]


def test_tool_errors_are_the_endpoints_400s(client):
    bad = {"sets": None, "players": [{"name": "A", "cards": [{"color": "red", "value": 4}]}]}
    response = client.post("/api/v1/tools/score_apero?lang=en", json=bad)
    assert response.status_code == 400
    assert list(response.get_json()["error"]["details"]) == ["players[0].cards[0].value"]
    response = client.post("/api/v1/tools/nope", json={})
    assert response.status_code == 404 and response.get_json()["error"]["code"] == "unknown_tool"


def test_call_tool_without_http():
    result = call_tool(
        "pedro_hand",
        {
            "bid": {"team": "EW", "amount": 10},
            "scores_before": {"NS": 15, "EW": 20},
            "points": {"NS": 8, "EW": 6},
            "trump": None,
            "captured": None,
            "two_dealt_to": None,
            "two_played_by": None,
            "rules": None,
        },
        "en",
    )
    assert result["scores_after"] == {"NS": 23, "EW": 10} and result["bid_made"] is False


REPEATED_PAIRS = {
    "orchard": {
        "tiles": [
            {
                "field": 1,
                "apples": [{"key": "light_green", "value": 2}],
                "pasture": None,
                "blossoms": None,
                "beehives": None,
                "price": None,
            },
            {
                "field": 3,
                "apples": [{"key": "red", "value": 1}, {"key": "light_green", "value": 3}, {"key": "red", "value": 2}],
                "pasture": None,
                "blossoms": None,
                "beehives": None,
                "price": None,
            },
        ],
        "board": None,
    },
    "varieties": ["light_green", "red"],
    "die": 1,
}


def test_repeated_map_pairs_are_a_400_naming_the_path(client):
    response = client.post("/api/v1/tools/applejack_harvest?lang=en", json=REPEATED_PAIRS)
    assert response.status_code == 400
    assert response.get_json() == {
        "error": {
            "code": "repeated_key",
            "message": 'The key "red" is repeated.',
            "details": {"orchard.tiles[1].apples[2].key": ['The key "red" is repeated.']},
        }
    }


def test_repeated_map_pairs_without_http():
    with pytest.raises(ApiError) as raised:
        call_tool("applejack_harvest", REPEATED_PAIRS, "ja")
    assert raised.value.status == 400
    assert raised.value.details == {"orchard.tiles[1].apples[2].key": ["キー「red」が繰り返されています。"]}
