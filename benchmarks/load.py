"""Load and speed of the service under gunicorn, measured with wrk on loopback.

    apt-get install -y wrk                     # once
    python benchmarks/load.py                  # the Procfile's gunicorn settings
    python benchmarks/load.py --gunicorn "--workers 4 --worker-class gthread --threads 4"

It starts gunicorn on 127.0.0.1 (a free port) with the Procfile's command (or the options
given), then, each run bounded in time and loopback only:
1. every scoring endpoint, and /healthz, for ``--seconds`` each with ``--connections``
   keep-alive connections: requests per second, p50 and p99 latency, and each endpoint's
   throughput as a share of /healthz's (target: at least 80%);
2. a mixed run of every scoring endpoint together for ``--mix-seconds`` (default 20 s).
Every request is valid (benchmarks/requests.json), so any non-2xx answer or socket error
is a failure: the script exits 1 if one occurs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REQUESTS = json.loads((ROOT / "benchmarks" / "requests.json").read_text(encoding="utf-8"))
REQUESTS.pop("_comment", None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def procfile_command(port: int) -> list[str]:
    line = next(l for l in (ROOT / "Procfile").read_text().splitlines() if l.startswith("web:"))
    command = line.split(":", 1)[1].strip().replace("${PORT:-8000}", str(port)).replace("$PORT", str(port))
    return [a.replace("0.0.0.0", "127.0.0.1") for a in shlex.split(command)]


def start(port: int, options: str | None) -> subprocess.Popen:
    if options is None:
        command = procfile_command(port)
    else:
        command = ["gunicorn", "--bind", f"127.0.0.1:{port}", *shlex.split(options), "scoring_api:create_app()"]
    print("server:", " ".join(command))
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    sys.exit("gunicorn did not start")


def lua_for(requests: list[tuple[str, str, object]]) -> str:
    """A wrk script cycling through (method, path, body) requests."""
    rows = []
    for method, path, body in requests:
        text = "" if body is None else json.dumps(body, ensure_ascii=False)
        rows.append(f'{{"{method}", "{path}", [==[{text}]==]}}')
    return (
        "local requests = {" + ",\n".join(rows) + "}\n"
        "local i = 0\n"
        'wrk.headers["Content-Type"] = "application/json"\n'
        "request = function()\n"
        "  i = i % #requests + 1\n"
        "  local r = requests[i]\n"
        '  if r[1] == "GET" then return wrk.format("GET", r[2]) end\n'
        "  return wrk.format(r[1], r[2], nil, r[3])\n"
        "end\n"
    )


UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def run_wrk(port: int, requests, seconds: float, connections: int, threads: int) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False, encoding="utf-8") as script:
        script.write(lua_for(requests))
    try:
        output = subprocess.run(
            ["wrk", f"-t{threads}", f"-c{connections}", f"-d{max(1, round(seconds))}s", "--timeout", "5s", "--latency",
             "-s", script.name, f"http://127.0.0.1:{port}"],
            capture_output=True, text=True, timeout=seconds + 30, check=True,
        ).stdout
    finally:
        os.unlink(script.name)

    def latency(percent):
        match = re.search(rf"^\s+{percent}%\s+([\d.]+)(us|ms|s)\s*$", output, re.M)
        return float(match.group(1)) * UNITS[match.group(2)] if match else float("nan")

    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
        "requests": int(re.search(r"(\d+) requests in", output).group(1)),
        "p50": latency(50),
        "p99": latency(99),
        "non_2xx": int(m.group(1)) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", output)) else 0,
        "socket_errors": sum(map(int, errors.groups())) if errors else 0,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gunicorn", help="gunicorn options instead of the Procfile's")
    parser.add_argument("--seconds", type=float, default=5, help="per endpoint (default 5)")
    parser.add_argument("--mix-seconds", type=float, default=20, help="mixed run (default 20)")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (default 1)")
    parser.add_argument("--only", help="regular expression: endpoints to run")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install -y wrk")
    port = free_port()
    server = start(port, args.gunicorn)
    failures = 0
    try:
        endpoints = {"GET /healthz": None, **REQUESTS}
        if args.only:
            endpoints = {k: v for k, v in endpoints.items() if k == "GET /healthz" or re.search(args.only, k)}
        run_wrk(port, [("GET", "/healthz", None)], 2, args.connections, args.threads)  # warm up
        results = {}
        for key, body in endpoints.items():
            method, path = key.split(" ", 1)
            results[key] = run_wrk(port, [(method, path, body)], args.seconds, args.connections, args.threads)
        base = results["GET /healthz"]["rps"]
        print(f"\n{args.connections} connections, {args.seconds:g} s per endpoint, {os.cpu_count()} cores")
        print(f"{'endpoint':52} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'vs healthz':>10} {'errors':>7}")
        for key, r in results.items():
            bad = r["non_2xx"] + r["socket_errors"]
            failures += bad
            print(f"{key:52} {r['rps']:8.0f} {r['p50']:8.2f} {r['p99']:8.2f} {r['rps'] / base:10.0%} {bad:7d}")
        scoring = [r["rps"] / base for k, r in results.items() if k != "GET /healthz"]
        if scoring:
            print(f"lowest scoring/healthz ratio: {min(scoring):.0%} (target >= 80%)")
        mix = [(k.split(" ", 1)[0], k.split(" ", 1)[1], v) for k, v in REQUESTS.items()]
        r = run_wrk(port, mix, args.mix_seconds, args.connections, args.threads)
        bad = r["non_2xx"] + r["socket_errors"]
        failures += bad
        print(f"\nmixed load, {len(mix)} endpoints, {args.connections} connections, {args.mix_seconds:g} s: "
              f"{r['requests']} requests, {r['rps']:.0f} req/s, p50 {r['p50']:.2f} ms, p99 {r['p99']:.2f} ms, "
              f"{r['non_2xx']} non-2xx, {r['socket_errors']} socket errors")
    finally:
        server.terminate()
        server.wait(timeout=20)
    print("PASS: no errors" if not failures else f"FAIL: {failures} errors")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
