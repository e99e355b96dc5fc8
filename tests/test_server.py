"""The service as gunicorn serves it (the README's command): raw HTTP on 127.0.0.1.

What only a real server shows: chunked bodies decoded by gunicorn itself, the chat's log
lines in gunicorn's error log, and the time limits on slow and idle clients.
"""

from __future__ import annotations

import json
import os
import socket
import time

import pytest

from scoring_api import SECURITY_HEADERS
from tests.conftest import API_KEY, chat_env
from tests.fake_openai import calls, reply
from tests.servers import gunicorn

pytestmark = pytest.mark.slow  # live gunicorn processes (docs/development.md)

APERO = b'{"players":[{"name":"Aki","cards":[{"color":"green","value":2},{"color":"green","value":3}]}]}'


@pytest.fixture(scope="module")
def server(tmp_path_factory, fake_model):
    """gunicorn with one worker on a free port; its error log in a file."""
    log = tmp_path_factory.mktemp("gunicorn") / "error.log"
    env = chat_env(fake_model, SCORING_CHAT_OPEN="true")
    with gunicorn(env, log=log) as port:
        yield port, log


def _exchange(port: int, data: bytes) -> tuple[int, dict, bytes]:
    """Send raw bytes; the status, headers and body of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(data)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


def _chunked(path: str, chunks: bytes) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    ).encode() + chunks


def test_a_chunked_body_is_read(server):
    port, _ = server
    chunks = b"%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n" % (10, APERO[:10], len(APERO) - 10, APERO[10:])
    status, headers, body = _exchange(port, _chunked("/api/v1/apero/score", chunks))
    assert status == 200
    assert b'"total":6' in body  # green 2 × 3
    assert headers["content-security-policy"] == "default-src 'self'; frame-ancestors 'none'; base-uri 'none'"


def test_a_malformed_chunk_is_a_json_400(server):
    port, log = server
    status, headers, body = _exchange(port, _chunked("/api/v1/apero/score", b"zz\r\n{}\r\n0\r\n\r\n"))
    assert status == 400
    assert headers["content-type"] == "application/json"
    assert body.decode().startswith('{"error":{"code":"invalid_body","message":"リクエスト本文を読み取れません')
    assert "Traceback" not in log.read_text()


def test_a_chunked_body_over_the_limit_is_a_413(server):
    port, _ = server
    big = b'{"players":[' + b"{}," * 30000 + b"{}]}"  # 90 KB, sent as one chunk: over 64 KiB
    status, headers, body = _exchange(
        port, _chunked("/api/v1/apero/score?lang=en", b"%x\r\n%s\r\n0\r\n\r\n" % (len(big), big))
    )
    assert status == 413
    assert headers["content-type"] == "application/json"
    assert b'"code": "payload_too_large"' in body or b'"code":"payload_too_large"' in body


def test_the_chat_logs_each_tool_call_in_gunicorns_error_log(server, fake_model):
    port, log = server
    fake_model.play(
        calls(("score_apero", {"sets": 1, "players": [{"name": "Aki", "cards": [{"color": "green", "value": 2}]}]})),
        reply("Akiさんは2点です。"),
    )
    body = b'{"messages":[{"role":"user","content":"Aki: green 2"}]}'
    request = (
        "POST /api/v1/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body
    status, _, answer = _exchange(port, request)
    assert status == 200, answer
    for _ in range(50):  # the worker's log handler writes right after the request
        text = log.read_text()
        if "chat tool call: round 1, tool score_apero, ok" in text:
            break
        time.sleep(0.1)
    assert "chat tool call: round 1, tool score_apero, ok" in text
    assert API_KEY not in text
    assert "Aki: green 2" not in text


@pytest.fixture(scope="module")
def impatient(tmp_path_factory):
    """One worker that gives 1 s for a request's head (``--keep-alive``) and 1 s for its body."""
    env = {**os.environ, "SCORING_BODY_TIMEOUT": "1"}
    with gunicorn(env, options=("--keep-alive", "1")) as port:
        yield port


def _closed_after(connection: socket.socket) -> tuple[float, bytes]:
    """Seconds until the server closes ``connection``, and what it sent before."""
    start = time.monotonic()
    answer = b""
    while chunk := connection.recv(65536):
        answer += chunk
    return time.monotonic() - start, answer


def test_an_idle_connection_is_closed_after_the_head_timeout(impatient):
    with socket.create_connection(("127.0.0.1", impatient), timeout=10) as connection:
        seconds, answer = _closed_after(connection)
    assert answer == b""
    assert 0.8 < seconds < 3


def test_headers_sent_a_byte_at_a_time_are_cut_off_at_the_head_timeout(impatient):
    with socket.create_connection(("127.0.0.1", impatient), timeout=10) as connection:
        start = time.monotonic()
        connection.sendall(b"GET /healthz HTTP/1.1\r\n")
        with pytest.raises((BrokenPipeError, ConnectionResetError)):
            for byte in b"X-Slow: " + b"a" * 40:
                connection.sendall(bytes([byte]))
                time.sleep(0.1)
        assert time.monotonic() - start < 3


def _slow_post(port: int, path: str, sent: bytes, length: int) -> tuple[float, int, dict, bytes]:
    """A POST that says ``length`` bytes and sends only ``sent``: seconds to the answer, and the answer."""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Accept: application/json, text/event-stream\r\nContent-Length: {length}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(head.encode() + sent)
        seconds, answer = _closed_after(connection)
    head_text, _, body = answer.partition(b"\r\n\r\n")
    lines = head_text.decode("latin-1").split("\r\n")
    headers = {k.lower(): v for k, v in (line.split(": ", 1) for line in lines[1:])}
    return seconds, int(lines[0].split()[1]), headers, body


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/api/v1/apero/score", "リクエスト本文が1秒以内に届きませんでした。もう一度送ってください。"),
        ("/api/v1/apero/score?lang=en", "The request body did not arrive within 1 second; send it again."),
        ("/mcp", "リクエスト本文が1秒以内に届きませんでした。もう一度送ってください。"),
    ],
)
def test_a_body_that_stops_arriving_is_a_json_408_then_the_connection_closes(impatient, path, message):
    seconds, status, headers, body = _slow_post(impatient, path, APERO[:10], len(APERO))
    assert status == 408
    assert headers["content-type"] == "application/json"
    assert json.loads(body) == {"error": {"code": "body_timeout", "message": message, "details": {}}}
    assert 1.8 < seconds < 4  # the body's second, then the head timeout's for the rest of it


def test_idle_and_slow_connections_do_not_hold_the_worker(impatient):
    """One worker, ten connections sending nothing: the scorers still answer at once."""
    idle = [socket.create_connection(("127.0.0.1", impatient), timeout=10) for _ in range(10)]
    try:
        start = time.monotonic()
        request = (
            "POST /api/v1/apero/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(APERO)}\r\nConnection: close\r\n\r\n"
        ).encode() + APERO
        status, _, body = _exchange(impatient, request)
        assert status == 200
        assert b'"total":6' in body
        assert time.monotonic() - start < 0.5
    finally:
        for connection in idle:
            connection.close()


def test_a_body_over_the_limit_is_a_413_the_client_receives(impatient):
    """The refused rest is read and dropped, so a client still sending gets the answer, not a reset."""
    big = b'{"players":[' + b"{}," * 30000 + b"{}]}"
    request = (
        "POST /api/v1/apero/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(big)}\r\nConnection: close\r\n\r\n"
    ).encode() + big
    status, _headers, body = _exchange(impatient, request)
    assert status == 413
    assert json.loads(body)["error"]["code"] == "payload_too_large"


@pytest.mark.parametrize(
    ("request_head", "status", "code"),
    [
        (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "request_line_too_long"),
        (b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: a\r\n" % i for i in range(60)) + b"\r\n", 431, "headers_too_large"),
        (b"GET / HTTP/1.1\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n", 431, "headers_too_large"),
        (b"NOT HTTP AT ALL\r\n\r\n", 400, "bad_request"),
    ],
    ids=["long request line", "60 headers", "a 9000-byte header", "not HTTP"],
)
def test_gunicorns_own_refusals_are_the_services_json(impatient, request_head, status, code):
    answer_status, headers, body = _exchange(impatient, request_head)
    assert answer_status == status
    assert headers["content-type"] == "application/json"
    error = json.loads(body)["error"]
    assert error["code"] == code
    assert error["details"]["$"][0] == error["message"]
    assert len(error["details"]["$"]) == 2
    assert {name: headers[name.lower()] for name in SECURITY_HEADERS} == SECURITY_HEADERS


def _expect_continue(path: str, length: int) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n"
    ).encode()


@pytest.mark.parametrize(
    ("path", "length", "message"),
    [
        ("/api/v1/apero/score?lang=en", 100_000, "The request is too large (limit: 65536 bytes)."),
        ("/api/v1/chat", 100_000, "リクエストが大きすぎます（上限65536バイト）。"),  # no photos: 64 KiB
    ],
)
def test_a_body_announced_over_the_limit_is_refused_before_it_is_sent(server, path, length, message):
    """``Expect: 100-continue`` and a length over the route's limit (64 KiB; the chat's too
    while it takes no photos): the JSON 413 at once, without ``100 Continue`` (the client has sent no body and
    need not), then the connection closes."""
    port, _ = server
    status, headers, body = _exchange(port, _expect_continue(path, length))
    assert status == 413
    assert json.loads(body) == {"error": {"code": "payload_too_large", "message": message, "details": {}}}
    assert headers["connection"] == "close"
    assert {name: headers[name.lower()] for name in SECURITY_HEADERS} == SECURITY_HEADERS


def test_a_chat_completion_announced_over_the_limit_is_refused_in_openais_shape(server):
    port, _ = server
    status, headers, body = _exchange(port, _expect_continue("/v1/chat/completions", 100_000))
    assert status == 413 and headers["connection"] == "close"
    assert json.loads(body) == {
        "error": {
            "message": "リクエストが大きすぎます（上限65536バイト）。",
            "type": "invalid_request_error",
            "code": "payload_too_large",
            "param": None,
        }
    }


def test_a_body_within_the_limit_is_still_invited(server):
    port, _ = server
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(_expect_continue("/api/v1/apero/score", len(APERO)))
        assert connection.recv(100) == b"HTTP/1.1 100 Continue\r\n\r\n"
        connection.sendall(APERO)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 200 OK\r\n")
    assert b'"total":6' in answer
