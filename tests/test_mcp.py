"""The MCP server (scoring_api.mcp): the same tools and validation as the REST API.

In memory through the SDK's in-process ``mcp.Client`` (both the modern direct dispatch
and the legacy initialize handshake), and once for real: ``python -m scoring_api.mcp``
as a subprocess over stdio.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")

import anyio
from mcp import Client, StdioServerParameters, stdio_client

from scoring_api.mcp import LANG_ENV, SERVER_NAME, create_server, server_lang
from scoring_api.tools import tool_definitions, tool_names

ROOT = Path(__file__).resolve().parent.parent
MODES = ["auto", "legacy"]
#: The most characters the tools of tools/list may take (compact JSON, no ASCII escapes,
#: as the server writes them): 34,377 on 2026-12-06, 47,027 before the tools said each
#: thing once (docs/chat-frontends.md, "The tool list").
TOOL_LIST_LIMIT = 35_000

OFFICIAL_EXAMPLE = {
    "sets": None,
    "players": [
        {
            "name": "A",
            "cards": [
                {"color": "赤", "value": 1},
                {"color": "緑", "value": 2},
                {"color": "緑", "value": 3},
                {"color": "紫", "value": -1},
                {"color": "紫", "value": -2},
                {"color": "紫", "value": -3},
            ],
        }
    ],
}
# Every field present, as a strict-mode model sends it (optional ones null).
PEDRO_HAND = {
    "bid": {"team": "NS", "amount": 7},
    "points": {"NS": 9, "EW": 5},
    "trump": None,
    "captured": None,
    "two_dealt_to": None,
    "two_played_by": None,
    "scores_before": {"NS": 15, "EW": 20},
}


def run(calls, *, lang="ja", mode="auto"):
    """Connect an in-process client to a fresh server and return ``calls(client)``."""

    async def main():
        async with Client(create_server(lang), mode=mode, raise_exceptions=True) as client:
            return await calls(client)

    return anyio.run(main)


def call(name, arguments, **kwargs):
    return run(lambda client: client.call_tool(name, arguments), **kwargs)


def document(result) -> dict:
    """The JSON text of a tool result (one text block), checked against its structured copy."""
    [block] = result.content
    assert block.type == "text"
    data = json.loads(block.text)
    assert result.structured_content == data
    return data


# -- tools/list ---------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_list_tools_is_the_tool_definitions(mode):
    listed = run(lambda client: client.list_tools(), mode=mode)
    assert [tool.name for tool in listed.tools] == tool_names()
    assert listed.next_cursor is None
    by_name = {tool.name: tool for tool in listed.tools}
    for spec in tool_definitions():
        function = spec["function"]
        tool = by_name[function["name"]]
        assert tool.input_schema == function["parameters"]
        assert tool.description == function["description"]
        assert tool.annotations.read_only_hint is True


def test_list_tools_stays_small():
    listed = run(lambda client: client.list_tools())
    tools = [tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in listed.tools]
    assert len(json.dumps(tools, ensure_ascii=False, separators=(",", ":"))) <= TOOL_LIST_LIMIT
    described = {tool.name: tool.description for tool in listed.tools}
    assert "From a photo: one player at a time" in described["score_apero"]
    assert "From a photo" not in described["fairy_black_box_setup"]


def test_server_identity():
    async def info(client):
        return client.server_info, client.instructions

    server_info, instructions = run(info, mode="legacy")
    assert (server_info.name, server_info.version) == (SERVER_NAME, "0.1.0")
    assert "アペロ" in instructions and "得点" in instructions  # Japanese by default


# -- tools/call: results ------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_apero_official_example(mode):
    result = call("score_apero", OFFICIAL_EXAMPLE, mode=mode)
    assert result.is_error is False
    body = document(result)
    [player] = body["players"]
    assert player["total"] == 16
    purple = next(c for c in player["colors"] if c["color"] == "purple")
    assert (purple["cards"], purple["score"], purple["expression"]) == ([-1, -2, -3], 9, "(-1 + -2) × -3")
    assert body["winners"] == ["A"]
    assert body["explanation"] == "勝者: A（16点）"


def test_apero_in_english():
    body = document(call("score_apero", OFFICIAL_EXAMPLE, lang="en"))
    assert body["players"][0]["total"] == 16
    assert body["explanation"].startswith("Winner")


def test_pedro_hand():
    result = call("pedro_hand", PEDRO_HAND)
    assert result.is_error is False
    body = document(result)
    assert body["bid_made"] is True
    assert body["deltas"] == {"NS": 9, "EW": 5}
    assert body["scores_after"] == {"NS": 24, "EW": 25}
    assert (body["game_over"], body["winner"]) == (False, None)


def test_arguments_without_the_nulls_load_alike():
    """The server does not hold the caller to the strict schema's every-field rule."""
    lean = {k: v for k, v in PEDRO_HAND.items() if v is not None}
    assert document(call("pedro_hand", lean)) == document(call("pedro_hand", PEDRO_HAND))


# -- tools/call: errors as isError results ------------------------------------------------


def test_invalid_argument_names_the_field():
    arguments = {"sets": None, "players": [{"name": "A", "cards": [{"color": "赤", "value": 4}]}]}
    result = call("score_apero", arguments)
    assert result.is_error is True
    error = document(result)["error"]
    assert error["code"] == "invalid_input"
    assert error["message"] == "入力に誤りがあります。details に項目ごとの理由があります。"
    assert list(error["details"]) == ["players[0].cards[0].value"]
    assert error["details"]["players[0].cards[0].value"] == ["次のどれかにしてください: -3, -2, -1, 1, 2, 3"]


def test_invalid_argument_in_english():
    arguments = {"sets": None, "players": [{"name": "A", "cards": [{"color": "red", "value": 4}]}]}
    error = document(call("score_apero", arguments, lang="en"))["error"]
    assert error["message"] == "The input is invalid; details lists each field and the reason."
    assert list(error["details"]) == ["players[0].cards[0].value"]


def test_missing_and_unknown_arguments():
    error = document(call("score_apero", {"people": []}))["error"]
    assert error["code"] == "invalid_input"
    assert error["details"] == {"players": ["必須の項目です。"], "people": ["この項目は使えません。"]}


def test_no_arguments_at_all():
    result = call("score_apero", None)
    assert result.is_error is True
    assert document(result)["error"]["details"] == {"players": ["必須の項目です。"]}


def test_rule_refusal():
    arguments = {
        "sets": 1,
        "players": [{"name": "A", "cards": [{"color": "赤", "value": 3}, {"color": "赤", "value": 3}]}],
    }
    result = call("score_apero", arguments)
    assert result.is_error is True
    error = document(result)["error"]
    assert error["code"] == "too_many_copies"
    assert list(error["details"]) == ["players[0].cards[1]"]
    assert error["details"]["players[0].cards[1]"] == [error["message"]]


def test_same_error_document_as_the_rest_endpoint(client):
    """One validator: the MCP error is the REST 400 body, byte for byte."""
    for arguments in (
        {"players": [{"name": "A", "cards": [{"color": "赤", "value": 4}]}]},
        {"sets": 1, "players": [{"name": "A", "cards": [{"color": "赤", "value": 3}, {"color": "赤", "value": 3}]}]},
    ):
        response = client.post("/api/v1/apero/score", json=arguments)
        assert response.status_code == 400
        assert document(call("score_apero", arguments)) == response.get_json()


def test_repeated_map_pairs_name_the_path(client):
    """Two {key, value} pairs with one key: the same 400 document as over HTTP."""
    tile = {"pasture": None, "blossoms": None, "beehives": None, "price": None}
    arguments = {
        "orchard": {
            "tiles": [
                {
                    "field": 1,
                    "apples": [{"key": "light_green", "value": 2}, {"key": "light_green", "value": 3}],
                    **tile,
                },
            ],
            "board": None,
        },
        "varieties": ["light_green"],
        "die": 1,
    }
    result = call("applejack_harvest", arguments)
    assert result.is_error is True
    assert document(result) == {
        "error": {
            "code": "repeated_key",
            "message": "キー「light_green」が繰り返されています。",
            "details": {"orchard.tiles[0].apples[1].key": ["キー「light_green」が繰り返されています。"]},
        }
    }
    assert client.post("/api/v1/tools/applejack_harvest", json=arguments).get_json() == document(result)


@pytest.mark.parametrize("mode", MODES)
def test_unknown_tool(mode):
    result = call("score_chess", {"moves": []}, mode=mode)
    assert result.is_error is True
    error = document(result)["error"]
    assert error["code"] == "unknown_tool"
    assert "score_chess" in error["message"] and "score_apero" in error["message"]
    assert error["details"] == {}


def test_errors_do_not_break_the_session():
    async def calls(client):
        bad = await client.call_tool("score_apero", {"players": "none"})
        unknown = await client.call_tool("nope", {})
        good = await client.call_tool("score_apero", OFFICIAL_EXAMPLE)
        return bad, unknown, good

    bad, unknown, good = run(calls)
    assert (bad.is_error, unknown.is_error, good.is_error) == (True, True, False)
    assert document(good)["players"][0]["total"] == 16


# -- language -----------------------------------------------------------------------------


def test_language_from_the_environment(monkeypatch):
    monkeypatch.delenv(LANG_ENV, raising=False)
    assert server_lang() == "ja"
    monkeypatch.setenv(LANG_ENV, "en")
    assert server_lang() == "en"
    monkeypatch.setenv(LANG_ENV, "fr")
    assert server_lang() == "ja"
    monkeypatch.setenv(LANG_ENV, "en")
    body = document(run(lambda client: client.call_tool("score_apero", OFFICIAL_EXAMPLE), lang=None))
    assert body["explanation"].startswith("Winner")


def test_bad_language_argument():
    with pytest.raises(ValueError):
        create_server("fr")


# -- python -m scoring_api.mcp over stdio -------------------------------------------------


def test_module_serves_over_stdio(tmp_path):
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "scoring_api.mcp"], cwd=str(ROOT), env={LANG_ENV: "en"}
    )

    async def main():
        with (tmp_path / "stderr.txt").open("w") as errlog, anyio.fail_after(20):
            async with Client(stdio_client(params, errlog=errlog)) as client:
                listed = await client.list_tools()
                result = await client.call_tool("score_apero", OFFICIAL_EXAMPLE)
                return client.server_info, listed, result

    server_info, listed, result = anyio.run(main)
    assert server_info.name == SERVER_NAME
    assert [tool.name for tool in listed.tools] == tool_names()
    body = document(result)
    assert body["players"][0]["total"] == 16
    assert body["explanation"].startswith("Winner")
