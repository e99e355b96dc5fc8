"""The MCP server (scoring_api.mcp): the same tools and validation as the REST API.

In memory through the SDK's in-process ``mcp.Client`` (both the modern direct dispatch
and the legacy initialize handshake), and once for real: ``python -m scoring_api.mcp``
as a subprocess over stdio.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")

import anyio
from mcp import Client, MCPError, StdioServerParameters, stdio_client

from scoring_api import mcp_view
from scoring_api.mcp import LANG_ENV, SERVER_NAME, create_server, server_lang
from scoring_api.tools import tool_definitions, tool_names

ROOT = Path(__file__).resolve().parent.parent
MODES = ["auto", "legacy"]
#: The most characters the tools of tools/list may take (compact JSON, no ASCII escapes,
#: as the server writes them): 34,377 on 2026-12-06, 47,027 before the tools said each
#: thing once (docs/chat-frontends.md, "The tool list"); then the rules tool and Pedro's
#: point schedule.
TOOL_LIST_LIMIT = 36_500

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
    """What the model reads of the tools: their ``_meta`` (the result-card view) is for the
    host, which does not show it to the model."""
    listed = run(lambda client: client.list_tools())
    tools = [tool.model_dump(by_alias=True, mode="json", exclude_none=True, exclude={"meta"}) for tool in listed.tools]
    assert len(json.dumps(tools, ensure_ascii=False, separators=(",", ":"))) <= TOOL_LIST_LIMIT
    described = {tool.name: tool.description for tool in listed.tools}
    assert "From a photo: one player at a time" in described["score_apero"]
    assert "From a photo" not in described["fairy_black_box_setup"]


#: Every scoring tool, each a game's operation: the tools the result-card view draws.
SCORING_TOOLS = [
    "score_apero",
    "apero_pick",
    "applejack_harvest",
    "applejack_placement",
    "applejack_blossoms",
    "applejack_final_score",
    "applejack_starting_honey",
    "applejack_placements",
    "score_fairy_black_box",
    "fairy_black_box_setup",
    "fairy_black_box_end_check",
    "fairy_black_box_next_player",
    "pedro_auction",
    "pedro_trick",
    "pedro_hand",
    "pedro_game",
]
#: The views' addresses: a hash of the document in each, so a changed card has a new one.
VIEW = f"ui://board-game-scoring/result-card.{mcp_view.view_version()}.html"
SKYBRIDGE = f"ui://board-game-scoring/result-card.{mcp_view.view_version()}.skybridge.html"
CARD_META = {"ui": {"resourceUri": VIEW}, "ui/resourceUri": VIEW, "openai/outputTemplate": SKYBRIDGE}
VIEW_META = {"ui": {"prefersBorder": True, "csp": {"connectDomains": [], "resourceDomains": []}}}
SKYBRIDGE_META = {
    "openai/widgetPrefersBorder": True,
    "openai/widgetCSP": {"connect_domains": [], "resource_domains": []},
}
LISTED_VIEWS = [
    {"name": "result-card", "uri": VIEW, "mimeType": "text/html;profile=mcp-app", "_meta": VIEW_META},
    {"name": "result-card-skybridge", "uri": SKYBRIDGE, "mimeType": "text/html+skybridge", "_meta": SKYBRIDGE_META},
]
TITLES = {
    "ja": [
        "アペロ（Apero）",
        "アップルジャック（Applejack）",
        "フェアリー＆ブラックボックス（Fairy & Black Box）",
        "ピードロ（Pedro）",
    ],
    "en": ["Apero (アペロ)", "Applejack", "Fairy & Black Box (フェアリー＆ブラックボックス)", "Pedro (ピードロ)"],
}


def listed_documents(first: str) -> list[dict]:
    """The rules documents as resources/list gives them: the server's language first."""
    suffix = {"ja": ".ja.md", "en": ".md"}
    return [
        {
            "name": f"rules-{game}-{lang}",
            "title": title,
            "uri": f"rules://board-game-scoring/{game}{suffix[lang]}",
            "mimeType": "text/markdown",
        }
        for lang in (first, *({"ja", "en"} - {first}))
        for game, title in zip(("apero", "applejack", "fairy-black-box", "pedro"), TITLES[lang], strict=True)
    ]


LISTED_RESOURCES = LISTED_VIEWS + listed_documents("ja")


@pytest.mark.parametrize("mode", MODES)
def test_every_scoring_tool_names_its_result_card_and_no_other_tool_does(mode):
    listed = run(lambda client: client.list_tools(), mode=mode)
    wire = {tool.name: tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in listed.tools}
    assert [name for name, tool in wire.items() if "_meta" in tool] == SCORING_TOOLS
    for name in SCORING_TOOLS:
        assert wire[name]["_meta"] == CARD_META
    assert set(wire) - set(SCORING_TOOLS) <= {"rules"}  # the rules documents draw no card


# -- resources: the result-card view --------------------------------------------------------


def resource_calls(client):
    async def calls():
        listed = await client.list_resources()
        view = await client.read_resource(VIEW)
        skybridge = await client.read_resource(SKYBRIDGE)
        return listed, view, skybridge

    return calls()


@pytest.mark.parametrize("mode", MODES)
def test_the_views_are_listed_and_read(mode):
    listed, view, skybridge = run(resource_calls, mode=mode)
    assert [r.model_dump(by_alias=True, mode="json", exclude_none=True) for r in listed.resources] == LISTED_RESOURCES
    assert listed.next_cursor is None
    [content] = view.contents
    assert content.model_dump(by_alias=True, mode="json", exclude={"text"}) == {
        "uri": VIEW,
        "mimeType": "text/html;profile=mcp-app",
        "_meta": VIEW_META,
    }
    assert content.text == mcp_view.view_html()
    assert content.text.startswith("<!doctype html>")
    assert re.fullmatch(r"ui://board-game-scoring/result-card\.[0-9a-f]{12}\.html", VIEW)
    assert mcp_view.view_version() == hashlib.sha256(content.text.encode()).hexdigest()[:12]
    [template] = skybridge.contents
    assert (template.mime_type, template.meta, template.text) == ("text/html+skybridge", SKYBRIDGE_META, content.text)


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        (
            "ja",
            "「ui://board-game-scoring/nope.html」というリソースはありません。resources/list で一覧を確かめてください。",
        ),
        ("en", 'There is no resource "ui://board-game-scoring/nope.html"; resources/list lists them.'),
    ],
)
def test_an_unknown_resource_is_an_invalid_params_error_in_the_servers_language(lang, message):
    async def main():
        async with Client(create_server(lang), mode="legacy") as client:
            with pytest.raises(MCPError) as error:
                await client.read_resource("ui://board-game-scoring/nope.html")
            listed = await client.list_resources()  # the session goes on
            return error.value, listed

    error, listed = anyio.run(main)
    assert (error.code, error.message, error.data) == (-32602, message, {"uri": "ui://board-game-scoring/nope.html"})
    assert len(listed.resources) == 10


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_rules_documents_are_read_as_markdown_without_their_checking_marks(lang):
    async def main():
        async with Client(create_server(lang), mode="legacy") as client:
            return await client.read_resource("rules://board-game-scoring/pedro.ja.md"), await client.read_resource(
                "rules://board-game-scoring/apero.md"
            )

    pedro, apero = anyio.run(main)
    [japanese], [english] = pedro.contents, apero.contents
    assert japanese.mime_type == english.mime_type == "text/markdown"
    raw = (ROOT / "docs" / "rules" / "pedro.ja.md").read_text(encoding="utf-8")
    assert "<!-- example:" in raw and "<!--" not in japanese.text
    assert japanese.text == re.sub(r"<!--.*?-->\n?", "", raw, flags=re.S)
    assert japanese.text.startswith("# ピードロ（Pedro）\n")
    assert english.text.startswith("# Apero (アペロ)\n") and "## Decisions" in english.text


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
    assert body["explanation"] == "Aさんの勝ち（16点）"


def test_apero_in_english():
    body = document(call("score_apero", OFFICIAL_EXAMPLE, lang="en"))
    assert body["players"][0]["total"] == 16
    assert body["explanation"] == "A wins (16)"


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
    assert body["explanation"] == "A wins (16)"


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
                resources, view, _ = await resource_calls(client)
                return client.server_info, listed, result, resources, view

    server_info, listed, result, resources, view = anyio.run(main)
    assert server_info.name == SERVER_NAME
    assert [tool.name for tool in listed.tools] == tool_names()
    assert listed.tools[0].meta == CARD_META
    assert [
        r.model_dump(by_alias=True, mode="json", exclude_none=True) for r in resources.resources
    ] == LISTED_VIEWS + listed_documents("en")
    assert view.contents[0].text == mcp_view.view_html()
    body = document(result)
    assert body["players"][0]["total"] == 16
    assert body["explanation"] == "A wins (16)"
