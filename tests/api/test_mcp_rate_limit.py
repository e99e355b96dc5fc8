"""/mcp's rate limit (docs/deployment.md, "Remote MCP"): only tool calls (``tools/call``
requests) are counted, against ``SCORING_MCP_RATE_LIMIT`` and in a count of their own, apart
from the scorers'; past it, the service's JSON 429 ``rate_limited`` with ``Retry-After``.
Through the Flask test client, and once through the MCP SDK's own client."""

from __future__ import annotations

import asyncio
import json

import httpx2
from a2wsgi import WSGIMiddleware
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from scoring_api import create_app
from tests.servers import free_port

JSON_RPC_HEADERS = {"Accept": "application/json, text/event-stream"}
BODY = {"players": [{"name": "A", "cards": [{"color": "red", "value": 2}]}]}
SCORE = "/api/v1/apero/score"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
CALL = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "score_apero", "arguments": BODY}}
#: The uncounted messages a client may send: the session's set-up, listings, pings, notifications.
UNCOUNTED = [
    INITIALIZE,
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    LIST_TOOLS,
    {"jsonrpc": "2.0", "id": 4, "method": "ping"},
    {"jsonrpc": "2.0", "id": 5, "method": "resources/list"},
    {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "score_apero", "arguments": BODY}},  # a notification
]
MCP_COUNT = "LIMITER/scoring/ip:127.0.0.1/mcp/3/1/minute"
SCORING_COUNT = "LIMITER/scoring/ip:127.0.0.1/scoring/3/1/minute"


def limited(**settings):
    """An app whose /mcp allows 3 tool calls a minute, and its scorers 3 requests."""
    return create_app({"TESTING": True, "MCP_RATE_LIMIT": "3 per minute", "RATE_LIMIT": "3 per minute", **settings})


def post_mcp(client, body, lang="en", **headers):
    return client.post(
        f"/mcp?lang={lang}", data=json.dumps(body), content_type="application/json", headers=JSON_RPC_HEADERS | headers
    )


def counts(app) -> dict[str, int]:
    return dict(app.extensions["rate_limits"].limiter.storage.storage)


def assert_tool_call_refused(answer, lang="en"):
    assert answer.status_code == 429
    assert answer.mimetype == "application/json"
    seconds = answer.headers["Retry-After"]
    assert 1 <= int(seconds) <= 61
    message = {
        "en": f"Too many tool calls (limit: 3 per minute); try again in {seconds} seconds.",
        "ja": f"ツールの呼び出しが多すぎます（上限: 1分あたり3回）。{seconds}秒後にもう一度お試しください。",
    }[lang]
    assert answer.get_json() == {"error": {"code": "rate_limited", "message": message, "details": {}}}


def test_only_tool_calls_are_counted_and_the_fourth_is_refused():
    app = limited()
    client = app.test_client()
    for _ in range(20):  # far more than 3 of each
        answers = [post_mcp(client, message) for message in UNCOUNTED]
        assert [answer.status_code for answer in answers] == [200, 202, 200, 200, 200, 202]
    assert counts(app) == {}
    calls = [post_mcp(client, CALL) for _ in range(3)]
    assert [answer.status_code for answer in calls] == [200, 200, 200]
    assert [answer.get_json()["result"]["structuredContent"]["players"][0]["total"] for answer in calls] == [2, 2, 2]
    assert_tool_call_refused(post_mcp(client, CALL))
    assert_tool_call_refused(post_mcp(client, CALL, lang="ja"), lang="ja")
    assert [post_mcp(client, message).status_code for message in UNCOUNTED] == [200, 202, 200, 200, 200, 202]
    assert counts(app) == {MCP_COUNT: 5}


def test_a_refused_or_malformed_message_is_not_counted():
    app = limited()
    client = app.test_client()
    batch = post_mcp(client, [CALL] * 5)
    assert batch.status_code == 400 and batch.get_json()["error"]["code"] == -32600
    no_params = post_mcp(client, {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": [1]})
    assert no_params.status_code == 400
    assert counts(app) == {}


def test_the_scorers_count_and_the_mcp_count_are_apart():
    app = limited()
    client = app.test_client()
    assert [post_mcp(client, CALL).status_code for _ in range(3)] == [200, 200, 200]
    assert [client.post(SCORE, json=BODY).status_code for _ in range(3)] == [200, 200, 200]
    assert client.post(SCORE, json=BODY).status_code == 429
    assert client.post("/api/v1/tools/score_apero", json=BODY).status_code == 429  # the scorers' and tools' count
    assert_tool_call_refused(post_mcp(client, CALL))
    assert counts(app) == {MCP_COUNT: 4, SCORING_COUNT: 5}


def test_spent_scorers_leave_the_tool_calls_whole():
    app = limited()
    client = app.test_client()
    assert [client.post(SCORE, json=BODY).status_code for _ in range(4)] == [200, 200, 200, 429]
    assert [post_mcp(client, CALL).status_code for _ in range(4)] == [200, 200, 200, 429]
    assert counts(app) == {MCP_COUNT: 4, SCORING_COUNT: 4}


KEYS = ("first-connector-key-0123456789", "second-connector-key-abcdefghij")


def test_a_verified_key_has_its_own_count_a_made_up_one_the_address():
    app = limited(API_KEYS=",".join(KEYS))
    client = app.test_client()
    first, second = ({"Authorization": f"Bearer {key}"} for key in KEYS)
    assert [post_mcp(client, CALL, **first).status_code for _ in range(4)] == [200, 200, 200, 429]
    assert post_mcp(client, CALL, **second).status_code == 200
    made_up = [post_mcp(client, CALL, Authorization=f"Bearer made-up-{n}").status_code for n in range(4)]
    assert made_up == [200, 200, 200, 429]
    assert post_mcp(client, CALL).status_code == 429  # the address's count, spent by the made-up keys


def test_behind_a_trusted_proxy_each_forwarded_host_counts_alone():
    client = limited(TRUSTED_PROXIES="127.0.0.1").test_client()
    host = {"X-Forwarded-For": "203.0.113.7"}
    assert [post_mcp(client, CALL, **host).status_code for _ in range(4)] == [200, 200, 200, 429]
    assert post_mcp(client, CALL, **{"X-Forwarded-For": "203.0.113.8"}).status_code == 200


def test_while_redis_does_not_answer_the_fallback_counts_tool_calls_only():
    app = limited(RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{free_port()}/0")
    client = app.test_client()
    assert [post_mcp(client, message).status_code for message in UNCOUNTED] == [200, 202, 200, 200, 200, 202]
    assert [post_mcp(client, CALL).status_code for _ in range(3)] == [200, 200, 200]
    assert_tool_call_refused(post_mcp(client, CALL, lang="ja"), lang="ja")  # flask-limiter's own check refused it
    assert [post_mcp(client, message).status_code for message in UNCOUNTED] == [200, 202, 200, 200, 200, 202]
    assert counts(app) == {MCP_COUNT: 4}  # in the fallback's memory
    assert client.get("/healthz").get_json() == {"status": "ok", "limits": "memory"}


def test_what_the_mcp_sdks_client_makes_of_the_429():
    """The Python SDK's client, over HTTP to this app in process: its session's set-up is
    not counted, and a refused call becomes an MCPError without the answer's text
    (docs/deployment.md says so)."""
    app = limited(MCP_RATE_LIMIT="2 per minute")

    async def session_calls() -> list:
        transport = httpx2.ASGITransport(app=WSGIMiddleware(app))
        http = httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1")
        got: list = []
        async with (
            http,
            streamable_http_client("http://127.0.0.1/mcp?lang=en", http_client=http) as (read, write, *_),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            for _ in range(3):
                try:
                    got.append((await session.call_tool("score_apero", BODY)).structured_content["players"][0]["total"])
                except MCPError as error:
                    got.append((error.error.code, error.error.message))
        return got

    assert asyncio.run(session_calls()) == [2, 2, (-32603, "Server returned an error response")]
    assert counts(app) == {"LIMITER/scoring/ip:127.0.0.1/mcp/2/1/minute": 3}
