"""Remote MCP at /mcp (Streamable HTTP, stateless, JSON responses), driven by the official
SDK's own client against the service as the README's gunicorn command serves it."""

from __future__ import annotations

import asyncio
import json
import os
import urllib.request

import pytest
from mcp import ClientSession, MCPError
from mcp.client.streamable_http import streamable_http_client

from scoring_api import mcp_view
from tests.servers import gunicorn
from tests.test_mcp import CARD_META, LISTED_VIEWS, SCORING_TOOLS, SKYBRIDGE, VIEW, listed_documents

pytestmark = pytest.mark.slow  # a live gunicorn process (docs/development.md)

APERO = {"players": [{"name": "Aki", "cards": [{"color": "green", "value": 2}, {"color": "green", "value": 3}]}]}


@pytest.fixture(scope="module")
def base_url():
    """gunicorn with two gevent workers (the README's command), as a separate process."""
    limits = {"SCORING_RATE_LIMIT": "100000 per minute", "SCORING_MCP_RATE_LIMIT": "100000 per minute"}
    with gunicorn({**os.environ, **limits}, workers=2) as port:
        yield f"http://127.0.0.1:{port}"


def mcp_session(url: str, work):
    """Run ``work(session)`` in an initialized MCP client session to ``url``."""

    async def run():
        async with streamable_http_client(url) as (read, write, *_), ClientSession(read, write) as session:
            await session.initialize()
            return await work(session)

    return asyncio.run(run())


def rest(base_url: str, method: str, path: str, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base_url + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def test_the_same_tools_as_the_rest_tool_list(base_url):
    async def list_tools(session):
        return (await session.list_tools()).tools

    tools = mcp_session(base_url + "/mcp", list_tools)
    openai_tools = rest(base_url, "GET", "/api/v1/tools")
    assert [tool.name for tool in tools] == [tool["function"]["name"] for tool in openai_tools]
    for tool, listed in zip(tools, openai_tools, strict=True):
        assert tool.description == listed["function"]["description"]
        assert tool.input_schema == listed["function"]["parameters"]
        assert tool.annotations.read_only_hint is True


def test_a_call_answers_what_the_rest_endpoint_answers(base_url):
    async def call(session):
        return await session.call_tool("score_apero", APERO)

    result = mcp_session(base_url + "/mcp", call)
    assert result.is_error is False
    assert result.structured_content == rest(base_url, "POST", "/api/v1/apero/score", APERO)
    assert result.structured_content["players"][0]["total"] == 6
    assert json.loads(result.content[0].text) == result.structured_content


def test_the_scoring_tools_name_their_result_card_and_the_views_are_read(base_url):
    """The same _meta, resource list and documents as over stdio (tests/test_mcp.py), though
    every request here is a session of its own that knows nothing of the client."""

    async def work(session):
        tools = (await session.list_tools()).tools
        listed = await session.list_resources()
        view = await session.read_resource(VIEW)
        skybridge = await session.read_resource(SKYBRIDGE)
        return tools, listed, view, skybridge

    tools, listed, view, skybridge = mcp_session(base_url + "/mcp?lang=en", work)
    assert [tool.name for tool in tools if tool.meta] == SCORING_TOOLS
    assert all(tool.meta == CARD_META for tool in tools if tool.meta)
    assert [r.model_dump(by_alias=True, mode="json", exclude_none=True) for r in listed.resources] == (
        LISTED_VIEWS + listed_documents("en")  # ?lang=en: the English documents first
    )
    [content] = view.contents
    assert (content.uri, content.mime_type, content.text) == (VIEW, "text/html;profile=mcp-app", mcp_view.view_html())
    assert content.meta == {"ui": {"prefersBorder": True, "csp": {"connectDomains": [], "resourceDomains": []}}}
    assert (skybridge.contents[0].mime_type, skybridge.contents[0].text) == ("text/html+skybridge", content.text)


def test_an_unknown_resource_is_a_json_rpc_error(base_url):
    async def work(session):
        with pytest.raises(MCPError) as error:
            await session.read_resource("ui://board-game-scoring/old.html")
        return error.value

    error = mcp_session(base_url + "/mcp?lang=en", work)
    assert (error.code, error.message) == (
        -32602,
        'There is no resource "ui://board-game-scoring/old.html"; resources/list lists them.',
    )


def test_errors_are_tool_results_with_the_services_error_json_in_the_chosen_language(base_url):
    async def call(session):
        return await session.call_tool(
            "score_apero", {"players": [{"name": "Aki", "cards": [{"color": "red", "value": 9}]}]}
        )

    ja = mcp_session(base_url + "/mcp", call)
    assert ja.is_error is True
    assert ja.structured_content["error"]["code"] == "invalid_input"
    assert ja.structured_content["error"]["message"] == "入力に誤りがあります。details に項目ごとの理由があります。"
    en = mcp_session(base_url + "/mcp?lang=en", call)
    assert en.structured_content["error"]["details"] == {
        "players[0].cards[0].value": ["Use one of these: -3, -2, -1, 1, 2, 3."]
    }


def test_an_unknown_tool_is_an_error_result_not_a_protocol_error(base_url):
    async def call(session):
        return await session.call_tool("nope", {})

    result = mcp_session(base_url + "/mcp?lang=en", call)
    assert result.is_error is True and result.structured_content["error"]["code"] == "unknown_tool"


def test_a_bad_language_is_the_services_json_400(base_url):
    request = urllib.request.Request(base_url + "/mcp?lang=fr", data=b"{}", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 400
    assert json.loads(refused.value.read())["error"]["details"] == {
        "lang": ["lang は ja か en を指定してください。", "lang must be ja or en."]
    }
