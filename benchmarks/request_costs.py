"""Where a request's time goes, in-process: the steps of every benchmark request.

    python benchmarks/request_costs.py [--only REGEX]

For each request of ``benchmarks/requests.json`` (and ``GET /healthz``) it prints the best
of several runs, in microseconds, of:
- ``whole``: the request through the WSGI app (Flask, routing, reading, scoring, writing);
- ``read``: checking the content type and reading and parsing the JSON body;
- ``load``: the request schema's load (marshmallow);
- ``rules``: the handler: the game rules and the answer, explanations included;
- ``extra``: ``whole`` minus ``/healthz``'s ``whole``: what the endpoint adds to the
  cheapest request the service answers (docs/performance.md has the figures under gunicorn).
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring_api import create_app  # noqa: E402
from scoring_api.api.body import read_json  # noqa: E402
from scoring_api.operations.registry import OPERATIONS  # noqa: E402

REQUESTS = json.loads((ROOT / "benchmarks" / "requests.json").read_text(encoding="utf-8"))
REQUESTS.pop("_comment", None)


#: One client sends every request here: the rate limit stays in the road, never reached.
UNLIMITED = "1000000 per minute"


def best_us(function, number: int = 2000, repeat: int = 5) -> float:
    function()
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number * 1e6


def environ(method: str, target: str, raw: bytes) -> dict:
    path, _, query = target.partition("?")
    return {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "192.0.2.7",
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.input": io.BytesIO(raw),
        "CONTENT_LENGTH": str(len(raw)),
        "CONTENT_TYPE": "application/json",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="regular expression: requests to measure")
    args = parser.parse_args()
    app = create_app({"RATE_LIMIT": UNLIMITED})
    operations = {(op.method, f"/api/v1{op.path}"): op for op in OPERATIONS}

    def whole(method, target, raw):
        def run():
            b"".join(app(environ(method, target, raw), lambda status, headers, exc_info=None: None))

        return best_us(run)

    base = whole("GET", "/healthz", b"")
    print(f"{'request':50} {'whole':>7} {'read':>6} {'load':>6} {'rules':>6} {'extra':>7}  (µs)")
    print(f"{'GET /healthz':50} {base:7.1f}")
    for key, body in REQUESTS.items():
        if args.only and not re.search(args.only, key):
            continue
        method, target = key.split(" ", 1)
        path, _, query = target.partition("?")
        op = operations[(method, path)]
        raw = b"" if body is None else json.dumps(body, ensure_ascii=False).encode()
        data = dict(pair.split("=") for pair in query.split("&")) if method == "GET" else body
        if method == "GET":
            data = {k: int(v) if v.lstrip("-").isdigit() else v for k, v in data.items()}
        loaded = op.request_schema.load(data)
        if method == "POST":

            def read():
                with app.request_context(environ(method, target, raw)):
                    read_json()

            def context():
                with app.request_context(environ(method, target, raw)):
                    pass

            read_us = best_us(read) - best_us(context)
        else:
            read_us = float("nan")
        total = whole(method, target, raw)
        print(
            f"{key:50} {total:7.1f} {read_us:6.1f} {best_us(lambda: op.request_schema.load(data)):6.1f} "
            f"{best_us(lambda: op.handler(loaded, 'ja')):6.1f} "
            f"{total - base:7.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
