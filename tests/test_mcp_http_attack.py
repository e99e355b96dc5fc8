"""/mcp under load from clients that hold requests open or walk away: the rest of
the service keeps answering. Against gunicorn as the README serves it (gevent workers),
one worker, so its 1,000 connections are the limit in play.

Before the fix, every ``GET /mcp`` opened the SDK's standalone event stream, which never
ended and was never told that its client had gone: 300 clients asking four times each
left 1,200 streams on a worker of 1,000 connections, and /healthz went unanswered.
Every wait here is bounded; the figures are in docs/deployment.md ("Remote MCP",
``benchmarks/mcp_held.py``).
"""

from __future__ import annotations

import asyncio
import collections
import json
import os

import pytest

from tests.servers import gunicorn

pytestmark = pytest.mark.slow  # a live gunicorn process (docs/development.md)

CLIENTS = 300  # GET /mcp clients at once
ROUNDS = 4  # each asks this many times: 1,200 requests, more than the worker's 1,000 connections
UNFINISHED_POSTS = 100
WAIT = 5.0  # seconds any answer may take before the test counts it as missing

GET_MCP = b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
UNFINISHED_POST = (
    b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n" + b'{"jsonrpc": "2.0", '
)
APERO = json.dumps(
    {"players": [{"name": "Aki", "cards": [{"color": "green", "value": 2}, {"color": "green", "value": 3}]}]}
).encode()


@pytest.fixture(scope="module")
def port():
    with gunicorn({**os.environ, "SCORING_RATE_LIMIT": "100000 per minute"}, workers=1) as port:
        yield port


async def ask_for_mcp_stream(port: int, statuses: collections.Counter, keep: list) -> None:
    """``GET /mcp`` as an event-stream client: the answer's status (or ``"none"``), then the
    connection closed, or kept in ``keep`` when that is a list."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(GET_MCP)
    await writer.drain()
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WAIT)
        statuses[int(head.split()[1])] += 1
    except (TimeoutError, asyncio.IncompleteReadError, OSError):
        statuses["none"] += 1
    keep.append(writer)


async def send_half_a_body(port: int, keep: list) -> None:
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(UNFINISHED_POST)
    await writer.drain()
    keep.append(writer)


async def answer_to(port: int, request: bytes) -> tuple[int, dict] | None:
    """The status and JSON body of ``request`` on a new connection, or None after WAIT s."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), WAIT)
        try:
            writer.write(request)
            await writer.drain()
            answer = await asyncio.wait_for(reader.read(), WAIT)
        finally:
            writer.close()
    except (TimeoutError, OSError):
        return None
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


async def attack_then_probe(port: int):
    statuses: collections.Counter = collections.Counter()
    for _ in range(ROUNDS - 1):  # clients that ask, then go away
        gone: list = []
        await asyncio.gather(*(ask_for_mcp_stream(port, statuses, gone) for _ in range(CLIENTS)))
        for writer in gone:
            writer.close()
    held: list = []  # the last round stays, with unfinished POSTs beside it
    await asyncio.gather(*(ask_for_mcp_stream(port, statuses, held) for _ in range(CLIENTS)))
    await asyncio.gather(*(send_half_a_body(port, held) for _ in range(UNFINISHED_POSTS)))
    try:
        health = await answer_to(port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        score = await answer_to(
            port,
            b"POST /api/v1/apero/score HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(APERO), APERO),
        )
    finally:
        for writer in held:
            writer.close()
    return statuses, health, score


def test_held_and_abandoned_mcp_requests_leave_healthz_and_the_scorers_answering(port):
    statuses, health, score = asyncio.run(attack_then_probe(port))
    assert health is not None and health[0] == 200 and health[1]["status"] == "ok"
    assert score is not None and score[0] == 200 and score[1]["players"][0]["total"] == 6
    assert statuses == {405: CLIENTS * ROUNDS}  # answered at once, not left open
