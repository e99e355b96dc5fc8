"""Load and speed of the service under gunicorn, measured with wrk on loopback.

    apt-get install -y wrk                     # once
    python benchmarks/load.py                  # the Procfile's gunicorn settings
    python benchmarks/load.py --gunicorn "--workers 4 --worker-class gthread --threads 4"

It starts gunicorn on 127.0.0.1 (a free port) with the Procfile's command (or the options
given), then, each run bounded in time and loopback only:
1. ``--rounds`` rounds in which every scoring endpoint, and /healthz, runs for
   ``--seconds`` with ``--connections`` keep-alive connections: the median over the rounds
   of requests per second, p50 and p99 latency, and each endpoint's throughput as a share
   of /healthz's in the same round (target: at least 50%; p99 under 25 ms). Rounds interleave the endpoints
   so that a drift of the machine's speed hits all of them alike;
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
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Each scoring endpoint keeps at least this share of /healthz's throughput.
TARGET_SHARE = 0.5

REQUESTS = json.loads((ROOT / "benchmarks" / "requests.json").read_text(encoding="utf-8"))
REQUESTS.pop("_comment", None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def procfile_command(port: int) -> list[str]:
    """The Procfile's web command as a shell would run it here: ``${NAME:-default}`` from
    the environment (``PORT`` is the benchmark's own), bound to loopback."""
    line = next(text for text in (ROOT / "Procfile").read_text().splitlines() if text.startswith("web:"))
    values = {**os.environ, "PORT": str(port)}
    command = re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: values.get(m[1], m[2]), line.split(":", 1)[1].strip())
    command = command.replace("$PORT", str(port))
    return [a.replace("0.0.0.0", "127.0.0.1") for a in shlex.split(command)]


def start(port: int, options: str | None) -> subprocess.Popen:
    if options is None:
        command = procfile_command(port)
    else:
        command = ["gunicorn", "--bind", f"127.0.0.1:{port}", *shlex.split(options), "scoring_api:create_app()"]
    print("server:", " ".join(command))
    # wrk is one client: the rate limits stay in the road, high enough never to refuse it
    env = {**os.environ, "SCORING_RATE_LIMIT": "100000000 per minute", "SCORING_CHAT_RATE_LIMIT": "1000 per minute"}
    return started(command, port, env)


def started(command: list[str], port: int, env: dict, cwd: Path = ROOT) -> subprocess.Popen:
    """``command`` run from ``cwd`` (the repository) with ``env``, once /healthz answers on
    ``port`` (the script stops if it does not within 20 s)."""
    server = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    sys.exit(f"did not start: {' '.join(command)}")


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
            [
                "wrk",
                f"-t{threads}",
                f"-c{connections}",
                f"-d{max(1, round(seconds))}s",
                "--timeout",
                "5s",
                "--latency",
                "-s",
                script.name,
                f"http://127.0.0.1:{port}",
            ],
            capture_output=True,
            text=True,
            timeout=seconds + 30,
            check=True,
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
    parser.add_argument("--seconds", type=float, default=3, help="per endpoint and round (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3; 0: the mixed run only)")
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
        if args.rounds:  # 0: the mixed run only
            rounds: dict[str, list[dict]] = {key: [] for key in endpoints}
            for _ in range(args.rounds):
                for key, body in endpoints.items():
                    method, path = key.split(" ", 1)
                    result = run_wrk(port, [(method, path, body)], args.seconds, args.connections, args.threads)
                    result["ratio"] = None
                    rounds[key].append(result)
                base_rps = rounds["GET /healthz"][-1]["rps"]
                for key in endpoints:
                    rounds[key][-1]["ratio"] = rounds[key][-1]["rps"] / base_rps
            print(
                f"\n{args.connections} connections, {args.rounds} rounds of {args.seconds:g} s per endpoint, {os.cpu_count()} cores"
            )
            print(
                f"{'endpoint':52} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'vs healthz':>10} {'range':>11} {'errors':>7}"
            )
            ratios = {}
            for key, runs in rounds.items():
                bad = sum(r["non_2xx"] + r["socket_errors"] for r in runs)
                failures += bad
                median = {field: statistics.median(r[field] for r in runs) for field in ("rps", "p50", "p99", "ratio")}
                low, high = min(r["ratio"] for r in runs), max(r["ratio"] for r in runs)
                ratios[key] = median["ratio"]
                print(
                    f"{key:52} {median['rps']:8.0f} {median['p50']:8.2f} {median['p99']:8.2f} {median['ratio']:10.0%} "
                    f"{low:5.0%}-{high:<5.0%} {bad:7d}"
                )
            scoring = {k: v for k, v in ratios.items() if k != "GET /healthz"}
            if scoring:
                below = sorted(k for k, v in scoring.items() if v < TARGET_SHARE)
                print(
                    f"lowest scoring/healthz ratio: {min(scoring.values()):.0%} (target >= {TARGET_SHARE:.0%}); "
                    f"{len(scoring) - len(below)} of {len(scoring)} endpoints meet it"
                )
        mix = [(k.split(" ", 1)[0], k.split(" ", 1)[1], v) for k, v in REQUESTS.items()]
        r = run_wrk(port, mix, args.mix_seconds, args.connections, args.threads)
        bad = r["non_2xx"] + r["socket_errors"]
        failures += bad
        print(
            f"\nmixed load, {len(mix)} endpoints, {args.connections} connections, {args.mix_seconds:g} s: "
            f"{r['requests']} requests, {r['rps']:.0f} req/s, p50 {r['p50']:.2f} ms, p99 {r['p99']:.2f} ms, "
            f"{r['non_2xx']} non-2xx, {r['socket_errors']} socket errors"
        )
    finally:
        server.terminate()
        server.wait(timeout=20)
    print("PASS: no errors" if not failures else f"FAIL: {failures} errors")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
