"""What /mcp answers itself before the MCP SDK serves a request, and how the SDK's own
refusals reach a client (docs/deployment.md, "Remote MCP"): only POST; HTTP
refusals in the service's error shape; a body that is not one JSON-RPC message a JSON-RPC
error without an id; Host and Origin checked against loopback, SCORING_PUBLIC_URL and
SCORING_MCP_ALLOWED_HOSTS / _ORIGINS. Never a library's own report. Through the Flask test
client (its Host is "localhost"); tests/test_mcp_http.py drives the SDK's client against
gunicorn."""

from __future__ import annotations

import json

import pytest

from scoring_api import create_app

JSON_RPC_HEADERS = {"Accept": "application/json, text/event-stream"}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
#: Words of the libraries' own reports, which no answer may carry.
INTERNALS = ("validation error", "pydantic", "input_value", "Traceback", "set_int_max_str_digits", "union[")


@pytest.fixture(scope="module")
def local():
    """A client of the app with the default settings (loopback hosts only)."""
    return create_app({"TESTING": True}).test_client()


@pytest.fixture(scope="module")
def deployed():
    """A client of the app as deployed at https://scores.example, with an extra host and origin."""
    settings = {
        "TESTING": True,
        "PUBLIC_URL": "https://scores.example/",
        "MCP_ALLOWED_HOSTS": "mcp.internal:8080,10.0.0.5:*",
        "MCP_ALLOWED_ORIGINS": "https://app.example.org",
    }
    return create_app(settings).test_client()


def post_mcp(client, body, path="/mcp", headers=None, content_type="application/json"):
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return client.post(path, data=data, content_type=content_type, headers={**JSON_RPC_HEADERS, **(headers or {})})


@pytest.mark.parametrize(
    ("method", "ja", "en"),
    [
        ("GET", "GET はこのパスでは使えません。使えるメソッド: POST", "GET is not allowed here. Allowed: POST"),
        (
            "DELETE",
            "DELETE はこのパスでは使えません。使えるメソッド: POST",
            "DELETE is not allowed here. Allowed: POST",
        ),
        (
            "OPTIONS",
            "OPTIONS はこのパスでは使えません。使えるメソッド: POST",
            "OPTIONS is not allowed here. Allowed: POST",
        ),
    ],
)
def test_only_post_a_stateless_server_has_no_stream_to_open_nor_session_to_end(local, method, ja, en):
    for lang, message in (("ja", ja), ("en", en)):
        answer = local.open(f"/mcp?lang={lang}", method=method, headers={"Accept": "text/event-stream"})
        assert answer.status_code == 405
        assert answer.headers["Allow"] == "POST"
        assert answer.json == {"error": {"code": "method_not_allowed", "message": message, "details": {}}}


def jsonrpc_error(code, message):
    return {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("{", jsonrpc_error(-32700, "The request body is not valid JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)")),
        ("", jsonrpc_error(-32700, "The request body is empty; send a JSON object.")),
        (b"\xff\xfe", jsonrpc_error(-32700, "The request body is not valid JSON: not UTF-8 (byte 0)")),
        ('{"jsonrpc": "2.0", "id": ' + "9" * 5000 + ', "method": "ping"}', jsonrpc_error(-32700, "The request body is not valid JSON: a number has too many digits")),
        ('{"jsonrpc": "2.0", "jsonrpc": "2.0", "id": 1, "method": "ping"}', jsonrpc_error(-32700, "The request body is not valid JSON: duplicate key 'jsonrpc'")),
        ([LIST_TOOLS, LIST_TOOLS], jsonrpc_error(-32600, "Send one JSON-RPC message per request (batches are not accepted).")),
        ([], jsonrpc_error(-32600, "Send one JSON-RPC message per request (batches are not accepted).")),
        ('"tools/list"', jsonrpc_error(-32600, "The body must be one JSON-RPC 2.0 message (a single object).")),
        ({"id": 1, "method": "tools/list"}, jsonrpc_error(-32600, 'Set "jsonrpc" to "2.0".')),
        ({"jsonrpc": "1.0", "id": 1, "method": "tools/list"}, jsonrpc_error(-32600, 'Set "jsonrpc" to "2.0".')),
        ({"jsonrpc": "2.0", "id": 1, "method": 5}, jsonrpc_error(-32600, '"method" must be a string.')),
        ({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": [1]}, jsonrpc_error(-32600, '"params" must be an object.')),
        *(
            (
                {"jsonrpc": "2.0", "id": bad_id, "method": "tools/list"},
                jsonrpc_error(-32600, '"id" must be a string of at most 256 characters or a whole number from -9007199254740991 to 9007199254740991.'),
            )
            for bad_id in (None, 1.5, True, 2**53, -(2**53), int("9" * 400), "x" * 257)
        ),
        ({"jsonrpc": "2.0", "id": 1}, jsonrpc_error(-32600, "This is not a JSON-RPC 2.0 message (it needs a method, a result or an error).")),
    ],
    ids=[
        "not JSON", "empty", "not UTF-8", "a 5000-digit id", "a repeated key", "batch", "empty batch", "a string",
        "no jsonrpc", "jsonrpc 1.0", "method a number", "params a list",
        "id null", "id 1.5", "id true", "id 2**53", "id -2**53", "id of 400 digits", "id of 257 characters",
        "neither method nor result",
    ],
)  # fmt: skip
def test_a_body_that_is_not_one_json_rpc_message_is_a_json_rpc_error_without_internals(local, body, expected):
    answer = post_mcp(local, body, path="/mcp?lang=en")
    assert answer.status_code == 400
    assert answer.mimetype == "application/json"
    assert answer.json == expected
    assert not any(word in answer.get_data(as_text=True) for word in INTERNALS)


def test_the_json_rpc_errors_are_japanese_by_default(local):
    assert post_mcp(local, [LIST_TOOLS]).json == jsonrpc_error(
        -32600, "JSON-RPCのメッセージは1回に1つずつ送ってください（バッチは使えません）。"
    )
    assert post_mcp(local, {"jsonrpc": "2.0", "id": None, "method": "ping"}).json == jsonrpc_error(
        -32600, "「id」は256文字までの文字列か、絶対値が9007199254740991以下の整数にしてください。"
    )


@pytest.mark.parametrize(
    ("headers", "content_type", "status", "code", "ja"),
    [
        ({"Accept": "text/html"}, "application/json", 406, "not_acceptable", "Acceptヘッダーに「application/json」を含めてください。"),
        ({"Accept": ""}, "application/json", 406, "not_acceptable", "Acceptヘッダーに「application/json」を含めてください。"),
        ({"Accept": "text/event-stream", "MCP-Protocol-Version": "2026-07-28"}, "application/json", 406, "not_acceptable", "Acceptヘッダーに「application/json」を含めてください。"),
        ({}, "text/plain", 415, "unsupported_media_type", "Content-Type は application/json にしてください（受け取ったもの: text/plain）。"),
        ({}, None, 415, "unsupported_media_type", "Content-Type は application/json にしてください（受け取ったもの: -）。"),
    ],
    ids=["accept html", "no accept", "accept only a stream (2026 protocol)", "text/plain", "no content type"],
)  # fmt: skip
def test_wrong_accept_or_content_type_is_the_services_json_error(local, headers, content_type, status, code, ja):
    answer = post_mcp(local, LIST_TOOLS, headers=headers, content_type=content_type)
    assert answer.status_code == status
    assert answer.json == {"error": {"code": code, "message": ja, "details": {}}}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"jsonrpc": "2.0", "id": 7, "method": "nope"}, {"code": -32601, "message": "Method not found", "data": "nope"}),
        ({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": 5}}, {"code": -32602, "message": "Invalid request parameters", "data": ""}),
        ({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "score_apero", "arguments": [1]}}, {"code": -32602, "message": "Invalid request parameters", "data": ""}),
    ],
    ids=["unknown method", "a tool name that is a number", "arguments a list"],
)  # fmt: skip
def test_a_well_formed_request_the_server_refuses_is_answered_with_its_id_and_no_internals(local, body, expected):
    answer = post_mcp(local, body)
    assert answer.status_code == 200
    assert answer.json == {"jsonrpc": "2.0", "id": 7, "error": expected}
    assert not any(word in answer.get_data(as_text=True) for word in INTERNALS)


def test_no_request_opens_an_event_stream_a_2026_subscription_is_an_unknown_method(local):
    """The 2026 protocol's subscriptions/listen would answer with an event stream; this
    server offers none, so the request is answered at once, in JSON."""
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
    listen = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "subscriptions/listen",
        "params": {"_meta": meta, "notifications": {}},
    }
    headers = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen"}
    answer = post_mcp(local, listen, headers=headers)
    assert answer.status_code == 404
    assert answer.json == {
        "jsonrpc": "2.0",
        "id": 3,
        "error": {"code": -32601, "message": "Method not found", "data": "subscriptions/listen"},
    }


def test_a_notification_is_accepted_without_an_answer(local):
    answer = post_mcp(local, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert answer.status_code == 202
    assert answer.get_data() == b""


def tool_names(answer) -> list[str]:
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return [tool["name"] for tool in answer.json["result"]["tools"]][:2]


@pytest.mark.parametrize("host", ["localhost", "localhost:5000", "127.0.0.1", "127.0.0.1:8000", "[::1]", "[::1]:8080"])
def test_loopback_hosts_and_origins_are_always_served(local, host):
    origin = f"http://{host}"
    assert tool_names(post_mcp(local, LIST_TOOLS, headers={"Host": host, "Origin": origin})) == [
        "score_apero",
        "apero_pick",
    ]


@pytest.mark.parametrize(
    "host", ["scores.example", "scores.example:443", "Scores.Example", "mcp.internal:8080", "10.0.0.5:9000"]
)
def test_the_public_urls_host_and_the_allowed_hosts_are_served(deployed, host):
    assert tool_names(post_mcp(deployed, LIST_TOOLS, headers={"Host": host})) == ["score_apero", "apero_pick"]


@pytest.mark.parametrize("origin", ["https://scores.example", "https://app.example.org", "http://localhost:6274"])
def test_the_public_urls_origin_and_the_allowed_origins_are_served(deployed, origin):
    headers = {"Host": "scores.example", "Origin": origin}
    assert tool_names(post_mcp(deployed, LIST_TOOLS, headers=headers)) == ["score_apero", "apero_pick"]


HOST_REFUSED = {
    "ja": "このホスト名ではMCPエンドポイントを使えません（DNSリバインディング対策）。運営者はSCORING_PUBLIC_URLかSCORING_MCP_ALLOWED_HOSTSで許可できます。",
    "en": "This host name may not use the MCP endpoint (DNS rebinding protection); the operator can allow it with SCORING_PUBLIC_URL or SCORING_MCP_ALLOWED_HOSTS.",
}
ORIGIN_REFUSED = {
    "ja": "このオリジンのページからはMCPエンドポイントを使えません。運営者はSCORING_MCP_ALLOWED_ORIGINSで許可できます。",
    "en": "Pages from this origin may not use the MCP endpoint; the operator can allow it with SCORING_MCP_ALLOWED_ORIGINS.",
}


@pytest.mark.parametrize(
    ("app_name", "host"),
    [("local", "scores.example"), ("local", "evil.example"), ("deployed", "evil.example"), ("deployed", "scores.example:8443"), ("deployed", "mcp.internal"), ("deployed", "localhost.evil.example")],
)  # fmt: skip
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_another_host_is_a_json_421_dns_rebinding(request, app_name, host, lang):
    answer = post_mcp(request.getfixturevalue(app_name), LIST_TOOLS, path=f"/mcp?lang={lang}", headers={"Host": host})
    assert answer.status_code == 421
    assert answer.json == {"error": {"code": "host_not_allowed", "message": HOST_REFUSED[lang], "details": {}}}


@pytest.mark.parametrize(
    ("app_name", "origin"),
    [("local", "https://evil.example"), ("local", "null"), ("deployed", "https://evil.example"), ("deployed", "http://scores.example"), ("deployed", "https://scores.example:8443")],
)  # fmt: skip
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_page_of_another_origin_is_a_json_403(request, app_name, origin, lang):
    host = "localhost" if app_name == "local" else "scores.example"
    answer = post_mcp(
        request.getfixturevalue(app_name),
        LIST_TOOLS,
        path=f"/mcp?lang={lang}",
        headers={"Host": host, "Origin": origin},
    )
    assert answer.status_code == 403
    assert answer.json == {"error": {"code": "origin_not_allowed", "message": ORIGIN_REFUSED[lang], "details": {}}}


def test_good_allowed_hosts_and_origins_are_taken(monkeypatch):
    monkeypatch.setenv("SCORING_MCP_ALLOWED_HOSTS", "scores.example,mcp.internal:8080,10.0.0.5:*,[2001:db8::1]:443")
    monkeypatch.setenv("SCORING_MCP_ALLOWED_ORIGINS", "https://app.example.org,http://localhost:6274")
    app = create_app()
    assert app.config["MCP_ALLOWED_HOSTS"] == "scores.example,mcp.internal:8080,10.0.0.5:*,[2001:db8::1]:443"
    assert app.config["MCP_ALLOWED_ORIGINS"] == "https://app.example.org,http://localhost:6274"
