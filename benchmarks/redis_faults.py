"""What the limits' Redis failing costs the clients (docs/deployment.md, "Redis").

    python benchmarks/redis_faults.py                 # this tree
    python benchmarks/redis_faults.py --tree DIR      # another copy of the code (before/after)

Starts redis-server and the app under gunicorn (the package's settings, 2 gevent workers,
``SCORING_RATELIMIT_STORAGE_URI`` on that Redis), both on free ports of 127.0.0.1, then
probes a scorer (``POST /api/v1/apero/score``) and ``/healthz`` one after the other, each on
a new connection (given up after 15 s), for ``--seconds`` in each phase: Redis up, frozen
(SIGSTOP), thawed, killed, started again on the same port. Prints each phase's probes and
their latencies. Target: while Redis is frozen or gone, no probe slower than the slowest
with Redis up by more than 100 ms (what a frozen Redis may add: 25 ms per call, two calls
for the request that finds it frozen; the slowest probe with Redis up is this machine's
noise).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from load import REQUESTS, ROOT, free_port

APERO = json.dumps(REQUESTS["POST /api/v1/apero/score"], ensure_ascii=False).encode()
PROBE_TIMEOUT = 15.0
#: What Redis failing may add to the slowest probe, in seconds.
ADDED = 0.1


def redis_server(port: int, folder: str) -> subprocess.Popen:
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    server = subprocess.Popen([*command, "--dir", folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    return server


def probe(port: int, method: str, path: str, body: bytes | None = None) -> tuple[float, str]:
    """One request on a new connection: its latency and its status (or what went wrong)."""
    started_at = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PROBE_TIMEOUT)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
        text = answer.read().decode("utf-8", "replace")
        status = str(answer.status)
        if path == "/healthz":
            status += " " + json.loads(text).get("limits", "-")
    except OSError as error:
        status = type(error).__name__
    finally:
        connection.close()
    return time.perf_counter() - started_at, status


def phase(port: int, name: str, seconds: float) -> float:
    """Probes for ``seconds``; prints them; the slowest probe's latency."""
    scorer, health, statuses = [], [], {}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for latencies, args in ((scorer, ("POST", "/api/v1/apero/score", APERO)), (health, ("GET", "/healthz"))):
            took, status = probe(port, *args)
            latencies.append(took)
            statuses[f"{args[1]} {status}"] = statuses.get(f"{args[1]} {status}", 0) + 1
        time.sleep(0.05)
    print(f"{name}: {len(scorer)} scorer and {len(health)} /healthz probes; {statuses}")
    for label, latencies in (("scorer", scorer), ("/healthz", health)):
        ms = sorted(1000 * x for x in latencies)
        print(
            f"  {label:9} median {statistics.median(ms):7.1f} ms   max {ms[-1]:7.1f} ms"
            f"   over 100 ms: {sum(x > 100 for x in ms)}"
        )
    return max(scorer + health)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the copy of the code to serve (default: this one)")
    parser.add_argument("--seconds", type=float, default=10, help="probing per phase (default 10)")
    args = parser.parse_args()
    if shutil.which("redis-server") is None:
        sys.exit("redis-server is not installed (apt-get install redis-server)")
    folder = tempfile.mkdtemp(prefix="redis-faults-")
    redis_port, port = free_port(), free_port()
    redis = redis_server(redis_port, folder)
    env = {
        **os.environ,
        "PYTHONPATH": str(args.tree),
        "SCORING_RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{redis_port}/0",
        "SCORING_RATE_LIMIT": "100000000 per minute",
    }
    command = [sys.executable, "-m", "gunicorn", "-c", "python:scoring_api.gunicorn_conf"]
    command += ["--bind", f"127.0.0.1:{port}", "--workers", "2", "--access-logfile", "/dev/null"]
    # run from the tree: ``python -m`` puts the working folder first on the import path
    server = subprocess.Popen(
        [*command, "scoring_api:create_app()"],
        cwd=args.tree,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while probe(port, "GET", "/healthz")[1][:3] != "200":
        if time.monotonic() > deadline:
            server.kill()
            sys.exit("gunicorn did not start")
        time.sleep(0.2)
    try:
        slowest_up = phase(port, "Redis up", args.seconds)
        redis.send_signal(signal.SIGSTOP)
        slowest_away = phase(port, "Redis frozen (SIGSTOP)", args.seconds)
        redis.send_signal(signal.SIGCONT)
        phase(port, "Redis thawed (SIGCONT)", args.seconds)
        redis.kill()
        redis.wait()
        slowest_away = max(slowest_away, phase(port, "Redis killed", args.seconds))
        redis = redis_server(redis_port, folder)
        phase(port, "Redis started again", args.seconds)
    finally:
        server.terminate()
        server.wait(timeout=30)
        redis.send_signal(signal.SIGCONT)
        redis.kill()
        redis.wait()
        shutil.rmtree(folder, ignore_errors=True)
    added = slowest_away - slowest_up
    within = added <= ADDED
    print(f"slowest probe while Redis was frozen or gone: {1000 * added:+.1f} ms on the slowest with Redis up")
    print("target (at most +100 ms):", "met" if within else "MISSED")
    return 0 if within else 1


if __name__ == "__main__":
    sys.exit(main())
