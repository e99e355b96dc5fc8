"""Held and abandoned /mcp requests: does everyone else still get answers?

    python benchmarks/mcp_held.py                        # the README's 2 workers
    python benchmarks/mcp_held.py --workers 1 --rounds 4

The README's gunicorn command runs on a free port of 127.0.0.1 with ``--workers`` gevent
workers (default 2, each of 1,000 connections), and is put through, every wait bounded:

1. **Abandoned**: ``--clients`` (default 300) clients at once send ``GET /mcp`` with
   ``Accept: text/event-stream`` (the SDK's stateless transport would open a standalone
   event stream that never ends; the service answers 405), wait ``--head-wait`` seconds at most (default 1) for
   the head of the answer and close the connection; ``--rounds`` times (default 8: 2,400
   requests, more than 2 workers' 2,000 connections, sent faster than an abandoned stream
   used to notice that its client had gone: at a keep-alive ping, every 15 s).
2. **Held**: as many ``GET /mcp`` again, their connections kept open, and ``--posts``
   (default 100) ``POST /mcp`` announcing a 1,000-byte body and sending half of it.
3. **Probes**, while those are held: ``/healthz`` and a scorer (``POST
   /api/v1/apero/score``), ``--probes`` each (default 8), one every 0.25 s, each on a new
   connection and unanswered after 5 s.

It prints the statuses the ``GET /mcp`` requests got, the probes answered with their p50
and p99, and exits 1 when a probe went unanswered. Figures: docs/deployment.md ("Remote
MCP").
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import signal
import statistics
import subprocess
import sys
import time

from load import REQUESTS, free_port, started

WAIT = 5.0  # seconds a probe may take
PROBE_EVERY = 0.25
APERO = json.dumps(REQUESTS["POST /api/v1/apero/score"], ensure_ascii=False).encode()

GET_MCP = b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
UNFINISHED_POST = (
    b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n" + b" " * 500
)
PROBES = {
    "healthz": b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    "apero": (
        b"POST /api/v1/apero/score HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        b"Content-Type: application/json\r\nContent-Length: " + str(len(APERO)).encode() + b"\r\n\r\n" + APERO
    ),
}


async def get_mcp(port: int, wait: float, statuses: collections.Counter, keep: list) -> None:
    """``GET /mcp``: the status of the answer's head ("none" within ``wait`` seconds), the
    connection added to ``keep``."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), wait)
    except (TimeoutError, OSError):
        statuses["not connected"] += 1
        return
    keep.append(writer)
    try:
        writer.write(GET_MCP)
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), wait)
        statuses[head.split(b" ")[1].decode()] += 1
    except (TimeoutError, asyncio.IncompleteReadError, OSError):
        statuses["none"] += 1


async def unfinished_post(port: int, keep: list) -> None:
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), WAIT)
    except (TimeoutError, OSError):
        return
    keep.append(writer)
    writer.write(UNFINISHED_POST)
    await writer.drain()


async def probe(port: int, request: bytes) -> float | None:
    """Seconds until a complete 200 answer to ``request`` on a new connection (None: none in time)."""
    begun = time.monotonic()
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), WAIT)
        try:
            writer.write(request)
            await writer.drain()
            answer = await asyncio.wait_for(reader.read(), timeout=WAIT - (time.monotonic() - begun))
        finally:
            writer.close()
    except (OSError, TimeoutError):
        return None
    return time.monotonic() - begun if answer.startswith(b"HTTP/1.1 200") else None


async def probes(port: int, request: bytes, count: int) -> list[float | None]:
    tasks = []
    for _ in range(count):
        tasks.append(asyncio.create_task(probe(port, request)))
        await asyncio.sleep(PROBE_EVERY)
    return list(await asyncio.gather(*tasks))


async def attack(port: int, args) -> bool:
    statuses: collections.Counter = collections.Counter()
    for _ in range(args.rounds):
        gone: list = []
        await asyncio.gather(*(get_mcp(port, args.head_wait, statuses, gone) for _ in range(args.clients)))
        for writer in gone:
            writer.close()
    print(f"  {args.rounds} x {args.clients} GET /mcp, abandoned: {dict(statuses.most_common())}")
    statuses.clear()
    held: list = []
    await asyncio.gather(*(get_mcp(port, args.head_wait, statuses, held) for _ in range(args.clients)))
    await asyncio.gather(*(unfinished_post(port, held) for _ in range(args.posts)))
    print(f"  {args.clients} GET /mcp held: {dict(statuses.most_common())}; {args.posts} unfinished POST /mcp held")
    try:
        results = await asyncio.gather(*(probes(port, request, args.probes) for request in PROBES.values()))
    finally:
        for writer in held:
            writer.close()
    all_answered = True
    for name, timings in zip(PROBES, results, strict=True):
        answered = sorted(t for t in timings if t is not None)
        all_answered &= len(answered) == len(timings)
        figures = ""
        if answered:
            p99 = answered[min(len(answered) - 1, int(len(answered) * 0.99))]
            figures = f", p50 {statistics.median(answered) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms"
        print(f"  {name}: {len(answered)} of {len(timings)} answered within {WAIT:g} s{figures}")
    return all_answered


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=300, help="GET /mcp clients at once (default 300)")
    parser.add_argument("--rounds", type=int, default=8, help="rounds of abandoned GET /mcp (default 8)")
    parser.add_argument("--posts", type=int, default=100, help="unfinished POST /mcp held (default 100)")
    parser.add_argument("--probes", type=int, default=8, help="probes of each kind (default 8)")
    parser.add_argument("--head-wait", type=float, default=1.0, help="seconds to wait for a GET's answer (default 1)")
    args = parser.parse_args()
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "-c", "python:scoring_api.gunicorn_conf"]
    command += ["--bind", f"127.0.0.1:{port}", "--workers", str(args.workers), "--access-logfile", "/dev/null"]
    # one client: the rate limit stays in the road, high enough never to refuse it
    env = {**os.environ, "SCORING_RATE_LIMIT": "100000000 per minute"}
    server = started([*command, "scoring_api:create_app()"], port, env)
    print(f"gunicorn, {args.workers} gevent workers of 1000 connections:")
    try:
        ok = asyncio.run(attack(port, args))
    finally:
        server.send_signal(signal.SIGINT)  # gunicorn's quick shutdown: held requests are not waited for
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
