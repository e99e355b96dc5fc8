"""What アイちゃん's chat adds to the model's own time, through the OpenAI-compatible endpoint.

    python benchmarks/chat_overhead.py            # the README's command (gunicorn), 1 worker
    python benchmarks/chat_overhead.py --root /tmp/before   # the service from another tree

A local OpenAI-compatible model on 127.0.0.1 answers every request; the same ``openai``
SDK client calls it directly, and calls the service (the README's gunicorn command, on a
free port, run from ``--root``: by default this repository) whose chat calls it. Each
figure is the median (and p95) of ``--runs`` runs:

1. **Overhead per round, instant model**: the model answers at once (a score_apero tool
   call, then a sentence). Through the service minus the model called directly, per model
   round: what the service adds (reading, the key and limits, the loop, running the tool,
   the SDK's request to the model). Also the CPU time the service's worker spent per model
   round (its user + system time over the runs, from ``/proc``: it does not depend on what
   else the machine runs). Target: at most 8 ms per round.
2. **Time to first token, streaming model**: the model waits ``--first`` ms before its
   first chunk, then sends 40 chunks ``--every`` ms apart. Time to the first text chunk and
   to the end, directly and through the service, with no tool round and with one. Target:
   the service adds at most 10 ms to the first token.

The machine's speed drifts: to compare two versions, run the script on each in turn a few
times (``--root``) and compare the medians. Figures: docs/performance.md, "The chat".
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import openai
from load import ROOT, free_port, started
from slow_clients import readme_command

#: What the service may add to each model round (ms), and to the first streamed token.
TARGET_ROUND_MS = 8
TARGET_FIRST_TOKEN_MS = 10

ANSWER = "アキさんは赤1で1点、緑2と3で6点、合わせて7点です。"
TOOL_CALL = {
    "id": "call_0",
    "type": "function",
    "function": {
        "name": "score_apero",
        "arguments": json.dumps(
            {
                "sets": 1,
                "players": [
                    {
                        "name": "アキ",
                        "cards": [
                            {"color": "red", "value": 1},
                            {"color": "green", "value": 2},
                            {"color": "green", "value": 3},
                        ],
                    }
                ],
            },
            ensure_ascii=False,
        ),
    },
}
QUESTION = [{"role": "user", "content": "赤1、緑2、緑3なら何点？"}]


class Model:
    """The model: calls a tool first when ``tools_first`` (and the question has no tool
    answer yet), then answers; streamed when asked, ``first`` s before the first chunk and
    ``every`` s between chunks."""

    def __init__(self) -> None:
        self.tools_first = False
        self.first = 0.0
        self.every = 0.0
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def setup(self):
                super().setup()  # no Nagle delay between a response's writes (as a real server)
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                wants_tool = model.tools_first and body["messages"][-1]["role"] != "tool"
                message = (
                    {"role": "assistant", "content": None, "tool_calls": [TOOL_CALL]}
                    if wants_tool
                    else {"role": "assistant", "content": ANSWER}
                )
                if body.get("stream"):
                    return self.stream(message, wants_tool)
                data = json.dumps(
                    {
                        "id": "c",
                        "object": "chat.completion",
                        "created": 0,
                        "model": "m",
                        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
                    },
                    ensure_ascii=False,
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def stream(self, message, wants_tool):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()

                def send(delta, finish=None):
                    chunk = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m"}
                    chunk["choices"] = [{"index": 0, "delta": delta, "finish_reason": finish}]
                    self.wfile.write(b"data: " + json.dumps(chunk, ensure_ascii=False).encode() + b"\n\n")
                    self.wfile.flush()

                time.sleep(model.first)
                if wants_tool:
                    send({"role": "assistant", "tool_calls": [{"index": 0, **TOOL_CALL}]})
                    send({}, "tool_calls")
                else:
                    pieces = [ANSWER[i : i + 1] for i in range(len(ANSWER))][:40]
                    for number, piece in enumerate(pieces):
                        if number:
                            time.sleep(model.every)
                        send({"content": piece})
                    send({}, "stop")
                self.wfile.write(b"data: [DONE]\n\n")
                self.close_connection = True

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"


def worker_cpu(server: subprocess.Popen) -> float:
    """Seconds of CPU (user + system) the gunicorn master's workers have used."""
    ticks = os.sysconf("SC_CLK_TCK")
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    total = 0
    for pid in children:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def start_service(model: Model, root: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    command = [*readme_command(port), "--workers", "1"]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])),
        "OPENAI_BASE_URL": model.url,
        "OPENAI_API_KEY": "benchmark",
        "OPENAI_MODEL": "m",
        "SCORING_CHAT_OPEN": "true",
        "SCORING_CHAT_RATE_LIMIT": "1000000 per minute",
        "SCORING_CHAT_TOKEN_BUDGET": "100000000",
    }
    print("service:", " ".join(command), "(1 worker), from", root)
    # run from the tree, and its code first on the path (before this repository's editable install)
    return started(command, port, env, cwd=root), f"http://127.0.0.1:{port}/v1"


def timed_completion(client: openai.OpenAI, model: str, rounds: int) -> float:
    """Seconds of one whole answer; directly, ``rounds`` model requests in a row."""
    start = time.perf_counter()
    if model == "m":  # the model itself: the requests the service would make
        messages = list(QUESTION)
        for number in range(rounds):
            completion = client.chat.completions.create(model=model, messages=messages)
            if number + 1 < rounds:
                messages += [
                    completion.choices[0].message.model_dump(exclude_none=True),
                    {"role": "tool", "tool_call_id": "call_0", "content": "{}"},
                ]
    else:
        client.chat.completions.create(model=model, messages=QUESTION)
    return time.perf_counter() - start


def timed_stream(client: openai.OpenAI, model: str, rounds: int) -> tuple[float, float]:
    """Seconds to the first text chunk and to the end of a streamed answer."""
    start = time.perf_counter()
    messages = list(QUESTION)
    first = None
    for number in range(rounds if model == "m" else 1):
        for chunk in client.chat.completions.create(model=model, messages=messages, stream=True):
            if first is None and chunk.choices and chunk.choices[0].delta.content:
                first = time.perf_counter() - start
        if model == "m" and number + 1 < rounds:
            messages += [
                {"role": "assistant", "content": None, "tool_calls": [TOOL_CALL]},
                {"role": "tool", "tool_call_id": "call_0", "content": "{}"},
            ]
    return first or float("nan"), time.perf_counter() - start


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(ordered) * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50, help="runs of each measurement (default 50)")
    parser.add_argument("--first", type=float, default=300, help="ms before the model's first chunk (default 300)")
    parser.add_argument("--every", type=float, default=20, help="ms between the model's chunks (default 20)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the service's code tree (default: this repository)")
    args = parser.parse_args()

    model = Model()
    server, service_url = start_service(model, args.root.resolve())
    direct = openai.OpenAI(base_url=model.url, api_key="benchmark", max_retries=0)
    through = openai.OpenAI(base_url=service_url, api_key="unused", max_retries=0)
    failed = False
    try:
        for _ in range(5):  # warm up both paths
            timed_completion(through, "ai-chan", 1)
            timed_completion(direct, "m", 1)
        print(f"\n1. overhead per model round, instant model, {args.runs} runs each")
        for rounds, tools in ((1, False), (2, True)):
            model.tools_first = tools
            model_only = [timed_completion(direct, "m", rounds) for _ in range(args.runs)]
            cpu = worker_cpu(server)
            service = [timed_completion(through, "ai-chan", rounds) for _ in range(args.runs)]
            cpu = (worker_cpu(server) - cpu) / args.runs / rounds
            overhead = (statistics.median(service) - statistics.median(model_only)) / rounds
            label = "answer only" if rounds == 1 else "tool round + answer"
            print(f"  {label:<20} model directly: {summary(model_only)}")
            print(f"  {'':<20} through service: {summary(service)}")
            print(
                f"  {'':<20} overhead per round: {overhead * 1000:.1f} ms (target <= {TARGET_ROUND_MS} ms);"
                f" the worker's CPU per round: {cpu * 1000:.1f} ms"
            )
            failed |= overhead * 1000 > TARGET_ROUND_MS
        model.first, model.every = args.first / 1000, args.every / 1000
        print(
            f"\n2. streaming: first chunk after {args.first:.0f} ms, then 40 chunks {args.every:.0f} ms apart,"
            f" {max(5, args.runs // 5)} runs each"
        )
        for rounds, tools in ((1, False), (2, True)):
            model.tools_first = tools
            label = "answer only" if rounds == 1 else "tool round + answer"
            firsts = []
            for name, client, which in (("model directly", direct, "m"), ("through service", through, "ai-chan")):
                runs = [timed_stream(client, which, rounds) for _ in range(max(5, args.runs // 5))]
                firsts.append(statistics.median(r[0] for r in runs))
                first = summary([r[0] for r in runs])
                total = summary([r[1] for r in runs])
                print(f"  {label:<20} {name:<16} first token {first}   whole answer {total}")
            added = (firsts[1] - firsts[0]) * 1000
            print(
                f"  {'':<20} the service adds {added:.1f} ms to the first token (target <= {TARGET_FIRST_TOKEN_MS} ms)"
            )
            failed |= added > TARGET_FIRST_TOKEN_MS
    finally:
        server.terminate()
        server.wait(timeout=30)
        model.server.shutdown()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
