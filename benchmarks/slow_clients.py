"""Slow and idle clients, and chats waiting on a slow model: does everyone else still get answers?

    apt-get install -y wrk                 # once (for the throughput part)
    python benchmarks/slow_clients.py      # the README's command, then the old sync and a gthread setup
    python benchmarks/slow_clients.py --slow-readers   # part 4 only, on the README's command

Each server setup is started on 127.0.0.1 (a free port) and put through, every part bounded
in time:

1. **Slow clients** (``--hold`` s, default 30): 200 connections that send nothing, 50 that
   send their headers a line a second and 50 that send a body a byte a second, each opened
   again at once when the server cuts it. Meanwhile ``/healthz`` and a scorer
   (``POST /api/v1/apero/score``) are each probed every 0.25 s on a new connection; a probe
   unanswered after 5 s counts as unanswered. Target: all answered, p99 under 200 ms.
2. **Chats on a slow model**: 10 chats whose model (a local fake) waits 20 s before it
   answers; meanwhile two scorers are probed every 0.1 s. Target: all answered, p99 under
   100 ms, and the 10 chats answered.
3. **Throughput** (with ``wrk``): every scoring endpoint mixed, 64 keep-alive connections,
   ``--rounds`` interleaved rounds of ``--seconds`` on the README's setup and on 2 sync
   workers (the former command). Target: the README's setup at least as fast.

4. **Slow readers** (``--slow-readers``, alone): ``--readers`` connections (default 60), each
   with a 1 KiB receive buffer, ask for ``--pipelined`` answers at once (default 32 x
   ``GET /openapi.yaml``, 210 KB each: more than the kernel queues for them) and never read,
   against one worker of ``--slots`` connections (default 25, ``--worker-connections``), for
   ``--hold`` s (default 60). Meanwhile ``/healthz`` is probed every second, each probe waiting until the
   end of the part. Counted: probes answered, slow readers the server cut (their TCP
   connection left ESTABLISHED; Linux's ``TCP_INFO``) and how long each held its slot.
   Target: every probe answered, every slow reader cut.

The README's setup is the first ``gunicorn`` command in README.md; the script exits 1 when
it misses a target of parts 1, 2 or 4. Figures: docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shlex
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from load import REQUESTS, ROOT, free_port, run_wrk, started

PROBE_TIMEOUT = 5.0
APERO = json.dumps(REQUESTS["POST /api/v1/apero/score"], ensure_ascii=False).encode()
PEDRO = json.dumps(REQUESTS["POST /api/v1/pedro/hand"], ensure_ascii=False).encode()

#: Setups compared with the README's command (the options after ``gunicorn``).
OTHERS = {
    "sync": "--workers 2 --timeout 120 --access-logfile - --error-logfile -",  # the Procfile before gevent
    "gthread": "--workers 2 --worker-class gthread --threads 4 --timeout 120 --access-logfile - --error-logfile -",
}


def readme_command(port: int) -> list[str]:
    """The README's serve command (the gunicorn part of its first command), on ``port``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if "gunicorn -c" in line)
    command = shlex.split(next(part for part in line.split("&&") if "gunicorn -c" in part))
    # the README's .venv/bin/gunicorn: this interpreter's gunicorn, whichever environment runs
    command[0] = os.path.join(os.path.dirname(sys.executable), "gunicorn")
    return [part.replace("127.0.0.1:8000", f"127.0.0.1:{port}") for part in command]


def start(command: list[str], port: int, model_port: int) -> subprocess.Popen:
    env = {
        **os.environ,
        # the benchmark is one client: the limits stay in the road, high enough never to refuse it
        "SCORING_RATE_LIMIT": "100000000 per minute",
        "SCORING_CHAT_RATE_LIMIT": "1000 per minute",
        "SCORING_CHAT_MAX_IN_FLIGHT": "10",
        "SCORING_CHAT_OPEN": "true",
        "SCORING_CHAT_MAX_RETRIES": "0",
        "OPENAI_BASE_URL": f"http://127.0.0.1:{model_port}/v1",
        "OPENAI_API_KEY": "benchmark",
        "OPENAI_MODEL": "slow-model",
    }
    return started(command, port, env)


def slow_model(seconds: float) -> ThreadingHTTPServer:
    """An OpenAI-compatible model on 127.0.0.1 that answers every completion after ``seconds``."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            time.sleep(seconds)
            body = json.dumps(
                {
                    "id": "chatcmpl-slow",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": "slow-model",
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": "お待たせしました。"},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
                }
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# --- clients ---------------------------------------------------------------------------


def request_bytes(method: str, path: str, body: bytes | None = None) -> bytes:
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    if body is None:
        return (head + "\r\n").encode()
    return (head + f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body


async def probe(port: int, data: bytes, timeout: float = PROBE_TIMEOUT) -> tuple[int | None, float]:
    """One request on a new connection: its status (None: no answer in time) and milliseconds."""
    start = time.perf_counter()
    writer = None
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(data)
            answer = await reader.read()
        status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else None
    except (TimeoutError, OSError, ValueError):
        status = None
    finally:
        if writer is not None:
            writer.close()
    return status, (time.perf_counter() - start) * 1000


async def probe_every(port: int, data: bytes, interval: float, seconds: float) -> list[tuple[int | None, float]]:
    """A probe every ``interval`` s for ``seconds``, each on its own (a stuck one holds no other)."""
    tasks = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        tasks.append(asyncio.create_task(probe(port, data)))
        await asyncio.sleep(interval)
    return list(await asyncio.gather(*tasks))


class Attack:
    """Connections that hold the server, each opened again when the server cuts it."""

    def __init__(self, port: int, until: float) -> None:
        self.port = port
        self.until = until
        self.cuts = {"idle": 0, "slow header": 0, "slow body": 0}

    async def _connection(self, kind: str, trickle) -> None:
        while time.monotonic() < self.until:
            writer = None
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                if not await trickle(reader, writer):
                    return
                self.cuts[kind] += 1
            except OSError:
                self.cuts[kind] += 1
                await asyncio.sleep(0.05)
            finally:
                if writer is not None:
                    writer.close()

    async def _wait(self, reader, seconds: float) -> bool:
        """Until the server closes (True) or ``seconds`` or the attack's end pass (False)."""
        left = min(seconds, self.until - time.monotonic())
        if left <= 0:
            return False
        try:
            async with asyncio.timeout(left):
                while await reader.read(4096):
                    pass
            return True
        except TimeoutError:
            return False

    # Each way of holding a connection returns True when the server cut it, False when the
    # attack is over.

    async def idle(self, reader, writer) -> bool:
        return await self._wait(reader, self.until - time.monotonic())

    async def slow_header(self, reader, writer) -> bool:
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        return await self._trickle(reader, writer, (b"X-Slow-%d: a\r\n" % line for line in range(100_000)))

    async def slow_body(self, reader, writer) -> bool:
        writer.write(request_bytes("POST", "/api/v1/apero/score", b" " * 100_000)[:-100_000])
        return await self._trickle(reader, writer, (b" " for _ in range(100_000)))

    async def _trickle(self, reader, writer, pieces) -> bool:
        """A piece a second until the server cuts the connection or the attack ends."""
        for piece in pieces:
            writer.write(piece)
            await writer.drain()
            if await self._wait(reader, 1.0):
                return True
            if time.monotonic() >= self.until:
                return False
        return False

    async def hold(self, idle: int, slow_header: int, slow_body: int) -> None:
        kinds = [("idle", self.idle)] * idle
        kinds += [("slow header", self.slow_header)] * slow_header + [("slow body", self.slow_body)] * slow_body
        tasks = [asyncio.create_task(self._connection(kind, trickle)) for kind, trickle in kinds]
        await asyncio.gather(*tasks, return_exceptions=True)


# --- the parts -------------------------------------------------------------------------


def summary(results: list[tuple[int | None, float]]) -> dict:
    answered = sorted(ms for status, ms in results if status is not None and status < 500)
    p99 = answered[min(len(answered) - 1, int(len(answered) * 0.99))] if answered else float("inf")
    return {
        "sent": len(results),
        "answered": len(answered),
        "p50": statistics.median(answered) if answered else float("inf"),
        "p99": p99 if len(answered) == len(results) else float("inf"),
        "max": max((ms for _, ms in results), default=float("inf")),
    }


def line(name: str, s: dict) -> str:
    return f"  {name:<28} {s['answered']:>4}/{s['sent']:<4} answered   p50 {s['p50']:8.1f} ms   p99 {s['p99']:8.1f} ms   max {s['max']:8.1f} ms"


async def slow_clients(port: int, hold: float) -> dict:
    attack = Attack(port, time.monotonic() + hold)
    holding = asyncio.create_task(attack.hold(200, 50, 50))
    await asyncio.sleep(1.0)  # the attack is in place
    probes = hold - 1.5
    health, scorer = await asyncio.gather(
        probe_every(port, request_bytes("GET", "/healthz"), 0.25, probes),
        probe_every(port, request_bytes("POST", "/api/v1/apero/score", APERO), 0.25, probes),
    )
    await holding
    return {"healthz": summary(health), "scorer": summary(scorer), "cuts": attack.cuts}


async def chats_on_a_slow_model(port: int, wait: float) -> dict:
    chat = json.dumps({"messages": [{"role": "user", "content": "こんにちは"}]}).encode()
    chats = [
        asyncio.create_task(probe(port, request_bytes("POST", "/api/v1/chat", chat), wait + 15)) for _ in range(10)
    ]
    await asyncio.sleep(0.5)  # the chats are waiting on the model
    apero, pedro = await asyncio.gather(
        probe_every(port, request_bytes("POST", "/api/v1/apero/score", APERO), 0.1, wait - 1.5),
        probe_every(port, request_bytes("POST", "/api/v1/pedro/hand", PEDRO), 0.1, wait - 1.5),
    )
    done = await asyncio.gather(*chats)
    return {
        "scorers": summary(apero + pedro),
        "chats": [status for status, _ in done],
        "chat_seconds": max(ms for _, ms in done) / 1000,
    }


def throughput(ports: dict[str, int], rounds: int, seconds: float) -> dict[str, dict]:
    scoring = [(*key.split(" ", 1), body) for key, body in REQUESTS.items()]
    runs: dict[str, list[dict]] = {name: [] for name in ports}
    for _ in range(rounds):
        for name, port in ports.items():
            runs[name].append(run_wrk(port, scoring, seconds, 64, 1))
    return {
        name: {key: statistics.median(run[key] for run in results) for key in ("rps", "p50", "p99")}
        | {"errors": sum(run["non_2xx"] + run["socket_errors"] for run in results)}
        for name, results in runs.items()
    }


class SlowReaders:
    """Connections that ask for large answers and never read them."""

    OPENAPI = request_bytes("GET", "/openapi.yaml").replace(b"Connection: close\r\n", b"")
    TCP_ESTABLISHED = 1  # tcpi_state, the first byte of Linux's TCP_INFO

    def __init__(self, port: int, count: int, pipelined: int) -> None:
        self.port, self.count, self.pipelined = port, count, pipelined
        self.held: list[float] = []  # seconds each cut connection was held
        self.open: dict[socket.socket, float] = {}

    async def connect(self) -> None:
        loop = asyncio.get_running_loop()
        for _ in range(self.count):
            connection = socket.socket()
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            connection.setblocking(False)
            await loop.sock_connect(connection, ("127.0.0.1", self.port))
            await loop.sock_sendall(connection, self.OPENAPI * self.pipelined)
            self.open[connection] = time.monotonic()

    async def watch(self, until: float) -> None:
        """Until ``until``: note each connection the server cuts (without reading from it)."""
        while self.open and time.monotonic() < until:
            for connection, opened in list(self.open.items()):
                state = connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0]
                if state != self.TCP_ESTABLISHED:
                    self.held.append(time.monotonic() - opened)
                    del self.open[connection]
                    connection.close()
            await asyncio.sleep(0.1)

    def close(self) -> None:
        for connection in self.open:
            connection.close()


async def slow_readers(port: int, count: int, pipelined: int, hold: float) -> dict:
    readers = SlowReaders(port, count, pipelined)
    until = time.monotonic() + hold
    try:
        await readers.connect()
        watching = asyncio.create_task(readers.watch(until))
        tasks = []
        while time.monotonic() < until - 1:
            tasks.append(asyncio.create_task(probe(port, request_bytes("GET", "/healthz"), until - time.monotonic())))
            await asyncio.sleep(1.0)
        probes = await asyncio.gather(*tasks)
        await watching
    finally:
        readers.close()
    return {"healthz": summary(probes), "held": sorted(readers.held), "still_open": len(readers.open)}


def command_for(name: str, port: int) -> list[str]:
    if name == "readme":
        return readme_command(port)
    return ["gunicorn", "--bind", f"127.0.0.1:{port}", *shlex.split(OTHERS[name]), "scoring_api:create_app()"]


@contextmanager
def serving(name: str, model_port: int, options: tuple[str, ...] = ()) -> Iterator[int]:
    """A fresh server of setup ``name`` (nothing left over from an earlier part), with
    ``options`` added: its port."""
    port = free_port()
    server = start([*command_for(name, port), *options], port, model_port)
    try:
        yield port
    finally:
        server.terminate()
        try:
            server.wait(timeout=35)
        except subprocess.TimeoutExpired:
            server.kill()


def run_slow_readers(args: argparse.Namespace, model_port: int) -> bool:
    """Part 4 on the README's setup; whether it met its target."""
    hold = args.hold or 60
    options = ("--workers", "1", "--worker-connections", str(args.slots))
    print(f"\nreadme: {' '.join([*command_for('readme', 8000), *options])}", flush=True)
    with serving("readme", model_port, options) as port:
        result = asyncio.run(slow_readers(port, args.readers, args.pipelined, hold))
    held = result["held"]
    print(
        f" 4. {hold:.0f} s of {args.readers} slow readers ({args.pipelined} x GET /openapi.yaml each, "
        f"never read) against {args.slots} connection slots"
    )
    print(line("/healthz every 1 s", result["healthz"]))
    print(
        f"  slow readers the server cut: {len(held)}/{args.readers}"
        + (f", {statistics.median(held):.1f} s after connecting (median), {held[-1]:.1f} s at most" if held else "")
        + f"; still held at the end: {result['still_open']}"
    )
    ok = result["healthz"]["answered"] == result["healthz"]["sent"] and len(held) == args.readers
    print("  targets (every probe answered, every slow reader cut):", "PASS" if ok else "FAIL")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--hold", type=float, help="seconds the slow clients (default 30) or slow readers (default 60) are held"
    )
    parser.add_argument("--slow-readers", action="store_true", help="part 4 only: slow readers")
    parser.add_argument("--readers", type=int, default=60, help="slow readers (default 60)")
    parser.add_argument("--pipelined", type=int, default=32, help="answers each slow reader asks for (default 32)")
    parser.add_argument("--slots", type=int, default=25, help="the worker's connections in part 4 (default 25)")
    parser.add_argument("--model-wait", type=float, default=20, help="seconds the model waits (default 20)")
    parser.add_argument("--others", default="sync,gthread", help="setups to compare (default sync,gthread; '' none)")
    parser.add_argument("--rounds", type=int, default=3, help="throughput rounds (default 3; 0 skips)")
    parser.add_argument("--seconds", type=float, default=5, help="seconds of each throughput run (default 5)")
    args = parser.parse_args()

    model = slow_model(args.model_wait)
    model_port = model.server_address[1]
    if args.slow_readers:
        try:
            return 0 if run_slow_readers(args, model_port) else 1
        finally:
            model.shutdown()
    args.hold = args.hold or 30
    names = ["readme", *filter(None, args.others.split(","))]
    failed = False
    try:
        for name in names:
            print(f"\n{name}: {' '.join(command_for(name, 8000))}", flush=True)
            with serving(name, model_port) as port:
                held = asyncio.run(slow_clients(port, args.hold))
            print(f" 1. {args.hold:.0f} s of 200 idle, 50 slow-header and 50 slow-body connections")
            print(line("/healthz every 0.25 s", held["healthz"]))
            print(line("apero/score every 0.25 s", held["scorer"]))
            print("  connections the server cut:", ", ".join(f"{k} {v}" for k, v in held["cuts"].items()))
            with serving(name, model_port) as port:
                chats = asyncio.run(chats_on_a_slow_model(port, args.model_wait))
            answered = sum(1 for status in chats["chats"] if status == 200)
            print(f" 2. 10 chats waiting {args.model_wait:.0f} s on the model")
            print(line("two scorers every 0.1 s", chats["scorers"]))
            print(f"  chats answered 200: {answered}/10, the last after {chats['chat_seconds']:.1f} s", flush=True)
            if name == "readme":
                ok = (
                    held["healthz"]["p99"] < 200
                    and held["scorer"]["p99"] < 200
                    and chats["scorers"]["p99"] < 100
                    and answered == 10
                )
                print("  targets (all answered, p99 < 200 ms; with chats p99 < 100 ms):", "PASS" if ok else "FAIL")
                failed |= not ok
        if args.rounds:
            compared = ["readme", "sync"]
            print(
                f"\n 3. throughput, every scoring endpoint mixed, 64 connections, median of {args.rounds} x {args.seconds:.0f} s"
            )
            with serving("readme", model_port) as readme, serving("sync", model_port) as sync:
                figures = throughput(dict(zip(compared, (readme, sync), strict=True)), args.rounds, args.seconds)
            for name, row in figures.items():
                print(
                    f"  {name:<8} {row['rps']:8.0f} req/s   p50 {row['p50']:7.1f} ms   p99 {row['p99']:7.1f} ms   errors {row['errors']}"
                )
            print(f"  readme / sync: {figures['readme']['rps'] / figures['sync']['rps']:.2f}")
    finally:
        model.shutdown()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
