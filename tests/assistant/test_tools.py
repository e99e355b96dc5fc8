"""The scorers as tools: one per operation, strict-mode schemas from the same marshmallow
schemas, and execution over HTTP with the endpoint's own validation."""

import re

import pytest

from scoring_api.error_shape import ApiError
from scoring_api.operations.registry import OPERATIONS
from scoring_api.tools import STRICT_KEYWORDS, call_tool, tool_definitions

TOOLS = {tool["function"]["name"]: tool for tool in tool_definitions()}


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
    assert 40 <= len(function["description"]) <= 300
    parameters = function["parameters"]
    assert parameters["type"] == "object"
    assert strict_problems(parameters) == []
    assert "default" not in schema_keywords(parameters)


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
