"""What the rate limiter adds to a request, in process, in CPU time.

    python benchmarks/limiter_cost.py [--requests 2000] [--rounds 9]

Two apps from the same settings answer the same WSGI requests (no server, no test client):
- ``limiter``: the service as shipped (flask-limiter, fixed window, the memory storage),
  with ``SCORING_RATE_LIMIT`` set so high that this one client never reaches it: every
  scoring request is counted, none refused;
- ``no limiter``: the same app with the limits' request hooks (the service's check before
  the views of the limited blueprints, and flask-limiter's own, should any be left) taken
  off: nothing is counted.

Each round sends ``--requests`` requests of one kind to one app and reads the process's CPU
time (``time.process_time``: every thread of the process, so a thread the storage starts
counts too) around them; the rounds go through the apps and requests in turn, and each
figure is the median of ``--rounds`` rounds, in CPU microseconds per request. ``added``
is ``limiter`` minus ``no limiter``, ``ratio`` their quotient. Then, for each app, the
threads started per 1,000 requests (a separate pass, ``threading.Thread.start`` counted).
It measures the checkout it lies in (to measure an older one, copy it there; it prints the
folder it measured); docs/performance.md, "Rate limiter", has the figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402

import scoring_api  # noqa: E402
from scoring_api import create_app  # noqa: E402
from scoring_api.api import limits  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from request_costs import environ  # noqa: E402

#: One client sends every request: the limit stays in the road, never reached.
UNREACHABLE = "1000000000 per minute"
BODY = json.dumps({"players": [{"name": "A", "cards": [{"color": "red", "value": 2}, {"color": "red", "value": 3}]}]})
REQUESTS = {
    "GET /healthz": ("GET", "/healthz", b""),
    "POST /api/v1/apero/score": ("POST", "/api/v1/apero/score", BODY.encode()),
    "GET /api/v1/fairy-black-box/setup": ("GET", "/api/v1/fairy-black-box/setup?players=3", b""),
}


def limited_app() -> Flask:
    return create_app({"RATE_LIMIT": UNREACHABLE, "CHAT_RATE_LIMIT": UNREACHABLE})


def unlimited_app() -> Flask:
    """The same app without the limits' hooks: no request is counted or looked up."""
    app = limited_app()
    limiter = app.extensions["rate_limits"]

    def ours(function: Callable) -> bool:
        bound = getattr(function, "__self__", None)  # flask-limiter's hooks, should any be left
        first = getattr(function, "args", ())[:1]  # functools.partial(Limiter.__inject_headers, limiter)
        return bound is limiter or first == (limiter,) or function.__module__ == limits.__name__

    for hooks in (app.before_request_funcs, app.after_request_funcs, app.teardown_request_funcs):
        for scope, functions in hooks.items():  # every request's (None), or a blueprint's
            hooks[scope] = [function for function in functions if not ours(function)]
    return app


def sender(app: Flask, method: str, target: str, raw: bytes) -> Callable[[], None]:
    statuses: list[str] = []

    def start_response(status, headers, exc_info=None):
        statuses.append(status)

    def send() -> None:
        b"".join(app(environ(method, target, raw), start_response))
        status = statuses.pop()
        if not status.startswith("200"):
            raise SystemExit(f"{method} {target}: {status}")

    return send


def cpu_us(send: Callable[[], None], requests: int) -> float:
    started = time.process_time()
    for _ in range(requests):
        send()
    return (time.process_time() - started) / requests * 1e6


def thread_starts(send: Callable[[], None], requests: int) -> int:
    counted = 0
    original = threading.Thread.start

    def counting(thread: threading.Thread) -> None:
        nonlocal counted
        counted += 1
        original(thread)

    threading.Thread.start = counting  # type: ignore[method-assign]
    try:
        for _ in range(requests):
            send()
    finally:
        threading.Thread.start = original  # type: ignore[method-assign]
    return counted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000, help="requests per round (default 2000)")
    parser.add_argument("--rounds", type=int, default=9, help="rounds per figure (default 9)")
    args = parser.parse_args()
    apps = {"limiter": limited_app(), "no limiter": unlimited_app()}
    senders = {
        (name, app_name): sender(app, *request) for name, request in REQUESTS.items() for app_name, app in apps.items()
    }
    for send in senders.values():  # warm up, and check every answer is a 200
        for _ in range(200):
            send()
    counts = {name: sum(app.extensions["rate_limits"].storage.storage.values()) for name, app in apps.items()}
    if counts["no limiter"] != 0 or counts["limiter"] != 2 * 200:  # the two scorers' requests
        raise SystemExit(f"counted: {counts}")
    figures: dict[tuple[str, str], list[float]] = {key: [] for key in senders}
    for _ in range(args.rounds):
        for key, send in senders.items():
            figures[key].append(cpu_us(send, args.requests))
    print(f"scoring_api of {Path(scoring_api.__file__).parent.parent}")
    print(f"CPU µs per request, median of {args.rounds} rounds of {args.requests} requests (range in brackets):")
    print(f"{'request':36} {'limiter':>20} {'no limiter':>20} {'added':>7} {'ratio':>6}")
    for name in REQUESTS:
        limited, unlimited = figures[(name, "limiter")], figures[(name, "no limiter")]
        with_, without = statistics.median(limited), statistics.median(unlimited)
        print(
            f"{name:36} {with_:7.1f} ({min(limited):5.1f}-{max(limited):5.1f}) "
            f"{without:7.1f} ({min(unlimited):5.1f}-{max(unlimited):5.1f}) {with_ - without:7.1f} {with_ / without:6.2f}"
        )
    print("threads started per 1,000 requests:")
    for name in REQUESTS:
        starts = {app_name: thread_starts(senders[(name, app_name)], 1000) for app_name in apps}
        print(f"  {name:34} limiter {starts['limiter']:4d}   no limiter {starts['no limiter']:4d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
