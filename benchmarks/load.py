"""Load and speed of the service under gunicorn against a hello-world Flask app, on loopback.

    apt-get install -y wrk                     # once (the closed-loop runs)
    python benchmarks/load.py                  # the Procfile's gunicorn settings, about 5 minutes
    python benchmarks/load.py --seconds 1 --rounds 1 --mix-seconds 5 --open-seconds 5   # a quick look
    python benchmarks/load.py --gunicorn "--workers 4 --worker-class gthread --threads 4"

It starts two servers on 127.0.0.1 (free ports) with the same gunicorn command, the
Procfile's (or the options given), differing only in the app: the service
(``scoring_api:create_app()``) and a hello-world Flask app (``benchmarks.hello_app:app``,
one route answering ``{"hello": "world"}``). Then, each run bounded in time, loopback only:

1. ``--rounds`` interleaved rounds (closed loop, wrk, ``--connections`` keep-alive
   connections, ``--seconds`` a run): hello-world's ``GET /hello`` opens the run and closes
   every round; within a round run ``POST /hello``, ``/healthz``, every scoring endpoint
   of benchmarks/requests.json and the mix of all of them (wrk cycles through them), in
   reverse order every other round. Each row's share is its requests per second over
   hello-world's ``GET /hello`` in the same round (the mean of the two runs around the
   round), so that a drift of the machine's speed hits every row alike; the table gives
   the medians over the rounds, the range of the shares, and the servers' CPU time per
   request (user + sys of gunicorn and its workers, from /proc), with hello-world's over
   the row's ("by CPU": the share if both were bound by the same CPU, less disturbed by
   other work on the machine than req/s).
2. The mix at ``--closed-connections`` (8) connections, closed loop (wrk), for
   ``--mix-seconds``: p50 and p99; then hello-world's ``GET /hello`` alike, for comparison.
3. The mix's capacity (req/s at saturation: closed loop, wrk, ``--connections``) measured
   for ``--capacity-seconds`` just before, then the mix open loop at ``--open-load`` (60%)
   of it for ``--open-seconds``, then the capacity again (did the machine's speed hold?):
   requests leave on a fixed schedule whatever the answers do, and each latency is taken
   from the time the request was due (no coordinated omission), so a server that falls
   behind shows it in the latency; then hello-world's ``GET /hello`` at the same rate, for
   comparison. The generator is this script's own (below); it prints the CPU it used
   itself, since it shares the machine's cores with the server, and how late it sent on a
   free connection (its own delay, counted in the latency), and the CPU the rest of the
   machine took meanwhile (/proc/stat's busy time less the server's and the generator's).

Then one table of the targets: every scoring endpoint at least 50% of
hello-world's throughput, the mix at least 60%, the mix's p99 under 25 ms open loop at 60%
of capacity and closed loop at 8 connections, with the figure and PASS or FAIL for each.
Every request is valid, so any non-2xx answer or socket error is a failure: the script
exits 1 if one occurs (a target missed is reported, not an error).

The open-loop generator: Debian 12 packages none of wrk2, vegeta or oha. Those it does
package either pace a closed loop and time each request from its actual send (hey -q,
bombardier -r, h2load --rps), or open a connection per session and report no
percentiles (httperf); none sends a mix of bodies on keep-alive connections on a fixed
schedule. So the script has one in asyncio: ``--connections`` keep-alive connections, the
i-th request of the run due at ``start + i / rate`` and sent on connection ``i mod n``
(as wrk2 does), each connection opened when its first request is due (not in a burst,
which one gevent worker would take whole), the answer read whole (Content-Length); its
latency runs from the due time to the answer's last byte. It needs nothing beyond Python
and costs about 100-200 µs of its own CPU a request (printed).
"""

from __future__ import annotations

import argparse
import asyncio
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
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVICE_APP = "scoring_api:create_app()"
HELLO_APP = "benchmarks.hello_app:app"  # benchmarks/hello_app.py, imported from ROOT
#: The targets: each scoring endpoint's and the mix's throughput as a share of
#: hello-world's; the mix's p99 (ms) open loop at OPEN_LOAD of capacity and at 8 connections.
TARGET_ENDPOINT_SHARE = 0.5
TARGET_MIX_SHARE = 0.6
TARGET_P99_MS = 25.0
OPEN_LOAD = 0.6

REQUESTS = json.loads((ROOT / "benchmarks" / "requests.json").read_text(encoding="utf-8"))
REQUESTS.pop("_comment", None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def procfile_command(port: int, app: str = SERVICE_APP) -> list[str]:
    """The Procfile's web command as a shell would run it here: ``${NAME:-default}`` from
    the environment (``PORT`` is the benchmark's own), bound to loopback, serving ``app``
    (the service's, or another in its place)."""
    line = next(text for text in (ROOT / "Procfile").read_text().splitlines() if text.startswith("web:"))
    values = {**os.environ, "PORT": str(port)}
    command = re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: values.get(m[1], m[2]), line.split(":", 1)[1].strip())
    command = command.replace("$PORT", str(port))
    args = [a.replace("0.0.0.0", "127.0.0.1") for a in shlex.split(command)]
    if args.count(SERVICE_APP) != 1:
        sys.exit(f"the Procfile's web command does not name the app as {SERVICE_APP!r} once: {line}")
    return [app if a == SERVICE_APP else a for a in args]


def start(port: int, options: str | None, app: str = SERVICE_APP, ready: str = "/healthz") -> subprocess.Popen:
    """gunicorn serving ``app`` on ``port``: the Procfile's command, or ``options``."""
    if options is None:
        command = procfile_command(port, app)
    else:
        command = ["gunicorn", "--bind", f"127.0.0.1:{port}", *shlex.split(options), app]
    print("server:", " ".join(command))
    # wrk is one client: the rate limits stay in the road, high enough never to refuse it
    env = {**os.environ, "SCORING_RATE_LIMIT": "100000000 per minute", "SCORING_CHAT_RATE_LIMIT": "1000 per minute"}
    return started(command, port, env, ready=ready)


def started(command: list[str], port: int, env: dict, cwd: Path = ROOT, ready: str = "/healthz") -> subprocess.Popen:
    """``command`` run from ``cwd`` (the repository) with ``env``, once ``ready`` (a path)
    answers on ``port`` (the script stops if it does not within 20 s)."""
    server = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}{ready}", timeout=1).read()
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


# --- the servers' CPU time, from /proc -----------------------------------------------------

_TICK = os.sysconf("SC_CLK_TCK")


def cpu_times(pid: int) -> dict[int, float]:
    """User + system CPU seconds of ``pid`` and of each of its descendants now alive
    (gunicorn's master and workers; a worker that died meanwhile drops out)."""
    stats: dict[int, tuple[int, float]] = {}  # pid -> (parent, seconds)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / _TICK)
    times, todo = {}, [pid]
    while todo:
        current = todo.pop()
        times[current] = stats.get(current, (0, 0.0))[1]
        todo += [child for child, (parent, _) in stats.items() if parent == current]
    return times


def machine_busy() -> float:
    """CPU seconds the machine has been busy, all cores together (/proc/stat: user, nice,
    system, irq, softirq, and steal: time the hypervisor gave to others)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, fields[:8])
    return (user + nice + system + irq + softirq + steal) / _TICK


def tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its descendants (:func:`cpu_times`) together."""
    return sum(cpu_times(pid).values())


# --- the open-loop generator ---------------------------------------------------------------


def raw_request(port: int, method: str, path: str, body: object) -> bytes:
    """The bytes of one HTTP/1.1 keep-alive request, as wrk sends it."""
    data = b"" if body is None else json.dumps(body, ensure_ascii=False).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
    return (head + "\r\n").encode() + data


async def read_answer(reader: asyncio.StreamReader) -> tuple[int, bool]:
    """An answer read whole: its status and whether the server closes the connection."""
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length, close = None, False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"connection":
            close = value.strip().lower() == b"close"
        elif name == b"transfer-encoding":
            raise ValueError("chunked answers are not expected")
    if length is None:
        raise ValueError("an answer without Content-Length")
    await reader.readexactly(length)
    return status, close


@dataclass
class OpenLoop:
    rate: float  # requests per second asked
    requests: int
    seconds: float  # from the first request due to the last answer
    latencies: list[float]  # ms from the time each request was due, sorted
    lags: list[float]  # ms the generator sent late on an idle connection, sorted
    non_2xx: int
    socket_errors: int
    cpu: float  # the generator's own CPU seconds

    def percentile(self, q: float, values: list[float] | None = None) -> float:
        values = self.latencies if values is None else values
        return values[max(0, min(len(values) - 1, int(len(values) * q + 0.999999) - 1))] if values else float("nan")


def open_loop(port: int, requests: list[bytes], rate: float, seconds: float, connections: int) -> OpenLoop:
    """``requests`` in turn at ``rate`` per second for ``seconds`` on ``connections``
    keep-alive connections: request i is due at ``start + i / rate`` on connection
    ``i mod connections``, sent then (or as soon as that connection's previous answer is in),
    and timed from its due time to its answer's last byte.

    Each connection opens when its first request is due, as a client's would (its opening
    counted in that request's latency), not all at once before the start: a gevent worker
    accepts up to 100 waiting connections in one go, so a burst of them would all land on
    one worker and stay there (keep-alive), leaving the other idle."""
    latencies: list[float] = []
    lags: list[float] = []
    counts = {"non_2xx": 0, "socket_errors": 0}

    async def connection(index: int, start: float, end: float) -> None:
        loop = asyncio.get_running_loop()
        reader = writer = None
        free_since = start  # when this connection's previous answer came in
        i = index
        while (due := start + i / rate) < end:
            now = loop.time()
            if due > now:
                await asyncio.sleep(due - now)
                now = loop.time()
            lags.append(now - max(due, free_since))
            try:
                if writer is None:
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                async with asyncio.timeout(5):
                    writer.write(requests[i % len(requests)])
                    status, close = await read_answer(reader)
            except (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                counts["socket_errors"] += 1
                if writer is not None:
                    writer.close()
                reader = writer = None
            else:
                latencies.append(loop.time() - due)
                if not 200 <= status < 300:
                    counts["non_2xx"] += 1
                if close:
                    writer.close()
                    writer = None
            free_since = loop.time()
            i += connections
        if writer is not None:
            writer.close()

    async def run() -> float:
        loop = asyncio.get_running_loop()
        start = loop.time() + 0.05
        await asyncio.gather(*(connection(c, start, start + seconds) for c in range(connections)))
        return loop.time() - start

    cpu = time.process_time()
    elapsed = asyncio.run(run())
    cpu = time.process_time() - cpu
    return OpenLoop(
        rate=rate,
        requests=len(latencies) + counts["socket_errors"],
        seconds=elapsed,
        latencies=sorted(x * 1000 for x in latencies),
        lags=sorted(x * 1000 for x in lags),
        non_2xx=counts["non_2xx"],
        socket_errors=counts["socket_errors"],
        cpu=cpu,
    )


# --- the run ---------------------------------------------------------------------------------


@dataclass
class Row:
    name: str
    server: subprocess.Popen
    port: int
    requests: list[tuple[str, str, object]]


def measured(row: Row, seconds: float, connections: int, threads: int) -> dict:
    """One wrk run of ``row``, with its server's CPU time per request."""
    cpu = tree_cpu(row.server.pid)
    result = run_wrk(row.port, row.requests, seconds, connections, threads)
    result["cpu_us"] = (tree_cpu(row.server.pid) - cpu) / max(1, result["requests"]) * 1e6
    return result


def load_average() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gunicorn", help="gunicorn options instead of the Procfile's (both servers)")
    parser.add_argument("--seconds", type=float, default=3, help="per row and round (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--connections", type=int, default=64, help="the rounds' and the open loop's (default 64)")
    parser.add_argument("--closed-connections", type=int, default=8, help="the mix's closed loop (default 8)")
    parser.add_argument("--mix-seconds", type=float, default=20, help="the mix's closed loop (default 20)")
    parser.add_argument("--open-load", type=float, default=OPEN_LOAD, help="open loop: share of capacity (0.6)")
    parser.add_argument("--open-seconds", type=float, default=20, help="the mix's open loop (default 20)")
    parser.add_argument(
        "--capacity-seconds", type=float, default=5, help="the mix's capacity, before and after the open loop (5)"
    )
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (default 1)")
    parser.add_argument("--only", help="regular expression: the scoring endpoints to run alone ('^$': none)")
    args = parser.parse_args()
    if args.rounds < 1 or not 0 < args.open_load <= 1:
        parser.error("--rounds must be at least 1 and --open-load within (0, 1]")
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install -y wrk")
    print(f"{os.cpu_count()} cores, {load_average()}")
    service_port = free_port()
    hello_port = next(port for port in iter(free_port, None) if port != service_port)
    service = start(service_port, args.gunicorn)
    try:
        hello = start(hello_port, args.gunicorn, app=HELLO_APP, ready="/hello")
    except BaseException:
        service.terminate()
        raise
    failures = 0
    try:
        mix = [(*key.split(" ", 1), body) for key, body in REQUESTS.items()]
        reference = Row("GET /hello (hello-world)", hello, hello_port, [("GET", "/hello", None)])
        rows = [  # the body: the first scoring request's
            Row("POST /hello (hello-world, body not read)", hello, hello_port, [("POST", "/hello", mix[0][2])]),
            Row("GET /healthz", service, service_port, [("GET", "/healthz", None)]),
        ]
        rows += [
            Row(f"{method} {path}", service, service_port, [(method, path, body)])
            for method, path, body in mix
            if not args.only or re.search(args.only, f"{method} {path}")
        ]
        mix_row = Row(f"the mix ({len(mix)} endpoints in turn)", service, service_port, mix)
        rows.append(mix_row)
        for row in (reference, mix_row, rows[1]):  # warm up
            r = run_wrk(row.port, row.requests, 2, args.connections, args.threads)
            failures += r["non_2xx"] + r["socket_errors"]

        # 1. interleaved rounds, closed loop
        references = [measured(reference, args.seconds, args.connections, args.threads)]
        runs: dict[str, list[dict]] = {row.name: [] for row in rows}
        for number in range(args.rounds):
            for row in rows if number % 2 == 0 else rows[::-1]:
                runs[row.name].append(measured(row, args.seconds, args.connections, args.threads))
            references.append(measured(reference, args.seconds, args.connections, args.threads))
            base = (references[-2]["rps"] + references[-1]["rps"]) / 2
            for row in rows:
                runs[row.name][-1]["share"] = runs[row.name][-1]["rps"] / base
        for r in references:
            r["share"] = 1.0
        runs = {reference.name: references, **runs}
        scoring = {f"{m} {p}" for m, p, _ in mix}

        print(
            f"\n1. Closed loop (wrk), {args.connections} connections, {args.rounds} interleaved rounds of "
            f"{args.seconds:g} s per row; medians over the rounds ({reference.name}: {len(references)} runs)\n"
        )
        print(
            "| row | req/s | p50 ms | p99 ms | server CPU µs/req | vs hello-world | range | target | "
            "vs hello-world by CPU | errors |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        hello_cpu = statistics.median(r["cpu_us"] for r in references)
        shares = {}
        for name, results in runs.items():
            bad = sum(r["non_2xx"] + r["socket_errors"] for r in results)
            failures += bad
            median = {f: statistics.median(r[f] for r in results) for f in ("rps", "p50", "p99", "cpu_us", "share")}
            low, high = min(r["share"] for r in results), max(r["share"] for r in results)
            shares[name] = median["share"]
            target = TARGET_MIX_SHARE if name == mix_row.name else TARGET_ENDPOINT_SHARE if name in scoring else None
            verdict = "" if target is None else f"≥ {target:.0%}: {'PASS' if median['share'] >= target else 'FAIL'}"
            print(
                f"| {name} | {median['rps']:.0f} | {median['p50']:.2f} | {median['p99']:.2f} | {median['cpu_us']:.0f} "
                f"| {median['share']:.0%} | {low:.0%}-{high:.0%} | {verdict} | {hello_cpu / median['cpu_us']:.0%} | {bad} |"
            )
        capacity = statistics.median(r["rps"] for r in runs[mix_row.name])

        # 2. the mix, closed loop at a few connections; hello-world alike, for comparison
        closed = {
            row.name: measured(row, args.mix_seconds, args.closed_connections, args.threads)
            for row in (mix_row, reference)
        }
        print(f"\n2. Closed loop (wrk), {args.closed_connections} connections, {args.mix_seconds:g} s each\n")
        print("| server | requests | req/s | p50 ms | p99 ms | server CPU µs/req | errors |")
        print("|---|---|---|---|---|---|---|")
        for name, r in closed.items():
            bad = r["non_2xx"] + r["socket_errors"]
            failures += bad
            print(
                f"| {name} | {r['requests']} | {r['rps']:.0f} | {r['p50']:.2f} | {r['p99']:.2f} | {r['cpu_us']:.0f} | {bad} |"
            )
        closed_p99 = closed[mix_row.name]["p99"]

        # 3. the mix, open loop at a share of its capacity just before; hello-world at the same rate, for comparison
        capacity_runs = [measured(mix_row, args.capacity_seconds, args.connections, args.threads)]
        rate = args.open_load * capacity_runs[0]["rps"]
        print(
            f"\n3. Open loop, {rate:.0f} req/s ({args.open_load:.0%} of the mix's capacity just before: "
            f"{capacity_runs[0]['rps']:.0f} req/s), {args.connections} connections, {args.open_seconds:g} s each; "
            f"latency from the time each request was due\n"
        )
        print(
            "| server | requests | p50 ms | p99 ms | p99.9 ms | max ms | server cores (workers) | generator: CPU | "
            "generator late on a free connection, p50 / p99 ms | other work on the machine, cores | errors |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        opened = {}
        for row in (mix_row, reference):
            busy, before = machine_busy(), cpu_times(row.server.pid)
            payloads = [raw_request(row.port, *request) for request in row.requests]
            o = opened[row.name] = open_loop(row.port, payloads, rate, args.open_seconds, args.connections)
            spent = {pid: seconds - before.get(pid, 0.0) for pid, seconds in cpu_times(row.server.pid).items()}
            server_cpu = sum(spent.values())
            others = machine_busy() - busy - server_cpu - o.cpu
            # the workers' shares: keep-alive connections stay with the worker that accepted them
            workers = sorted((seconds for pid, seconds in spent.items() if pid != row.server.pid), reverse=True)
            split = " + ".join(f"{seconds / o.seconds:.2f}" for seconds in workers)
            bad = o.non_2xx + o.socket_errors
            failures += bad
            print(
                f"| {row.name} | {o.requests} | {o.percentile(0.5):.2f} | {o.percentile(0.99):.2f} "
                f"| {o.percentile(0.999):.2f} | {o.percentile(1):.2f} | {server_cpu / o.seconds:.2f} ({split}) "
                f"| {o.cpu / o.seconds:.2f} cores, {o.cpu / max(1, o.requests) * 1e6:.0f} µs/req "
                f"| {o.percentile(0.5, o.lags):.2f} / {o.percentile(0.99, o.lags):.2f} | {others / o.seconds:.2f} | {bad} |"
            )
            if row is mix_row:  # did the machine's speed hold?
                capacity_runs.append(measured(mix_row, args.capacity_seconds, args.connections, args.threads))
        failures += sum(r["non_2xx"] + r["socket_errors"] for r in capacity_runs)
        print(
            f"\nThe mix's capacity (closed loop, {args.connections} connections, {args.capacity_seconds:g} s): "
            f"{capacity_runs[0]['rps']:.0f} req/s just before the open loop, {capacity_runs[1]['rps']:.0f} just after "
            f"(in 1: {capacity:.0f})."
        )
        open_p99 = opened[mix_row.name].percentile(0.99)

        # the targets
        endpoint_shares = {name: share for name, share in shares.items() if name in scoring}
        print(f"\nTargets ({load_average()}):\n")
        print("| target | measured | result |")
        print("|---|---|---|")
        if endpoint_shares:
            lowest = min(endpoint_shares, key=endpoint_shares.__getitem__)
            met = sum(share >= TARGET_ENDPOINT_SHARE for share in endpoint_shares.values())
            print(
                f"| every scoring endpoint ≥ {TARGET_ENDPOINT_SHARE:.0%} of hello-world's req/s "
                f"| {met} of {len(endpoint_shares)} meet it; lowest {endpoint_shares[lowest]:.0%} ({lowest}) "
                f"| {'PASS' if met == len(endpoint_shares) else 'FAIL'} |"
            )
        share = shares[mix_row.name]
        print(
            f"| the mix ≥ {TARGET_MIX_SHARE:.0%} of hello-world's req/s | {share:.0%} ({capacity:.0f} req/s) "
            f"| {'PASS' if share >= TARGET_MIX_SHARE else 'FAIL'} |"
        )
        print(
            f"| the mix's p99 < {TARGET_P99_MS:g} ms, open loop at {args.open_load:.0%} of capacity ({rate:.0f} req/s) "
            f"| {open_p99:.2f} ms | {'PASS' if open_p99 < TARGET_P99_MS else 'FAIL'} |"
        )
        print(
            f"| the mix's p99 < {TARGET_P99_MS:g} ms, closed loop at {args.closed_connections} connections "
            f"| {closed_p99:.2f} ms | {'PASS' if closed_p99 < TARGET_P99_MS else 'FAIL'} |"
        )
        print(f"| no non-2xx answer or socket error | {failures} | {'PASS' if not failures else 'FAIL'} |")
    finally:
        for server in (service, hello):
            server.terminate()
        for server in (service, hello):
            server.wait(timeout=20)
    print("PASS: no errors" if not failures else f"FAIL: {failures} errors")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
