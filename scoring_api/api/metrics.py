"""``GET /metrics``: what an operator watches, in Prometheus' text format (prometheus-client;
docs/deployment.md, "Metrics").

* requests answered and their latency, by Flask endpoint (``api.score_apero``,
  ``chat.chat_view``; never the raw path, so a scan of random paths adds no series; a path
  no route matches is ``none``) and status;
* requests being answered and streams open now;
* 429s by the limit that refused them (``scoring``, ``chat``, ``budget``, ``busy``,
  ``wrong_key``; any other 429 by its error code), counted in one place: after each
  request, from the answer's status and error code, whoever refused (flask-limiter's
  handler, an ``ApiError``, the OpenAI-shaped errors of ``/v1``);
* chats answered to the end, their model rounds and tokens;
* how many workers count the rate limits in Redis and how many in memory.

Latency runs from the request's arrival until its answer is closed (the last event of a
stream included), measured around the WSGI app, which also keeps the in-flight gauge.

Under gunicorn each worker writes its numbers to files in ``PROMETHEUS_MULTIPROC_DIR``
(gunicorn_conf makes the folder) and the worker answering a scrape adds every worker's up
(prometheus-client's multiprocess mode). Without the variable (tests, ``flask run``) the
numbers are the app's own registry.

Without ``SCORING_METRICS_TOKEN`` only this host may read ``/metrics``: a loopback
connection that came through no proxy (no forwarding header). With it, any client that
sends ``Authorization: Bearer <token>``, compared in constant time and never logged.
``/metrics`` is not rate-limited.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import os
import time
from typing import TYPE_CHECKING

from flask import Blueprint, Flask, Response, current_app, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.multiprocess import MultiProcessCollector
from werkzeug.wsgi import ClosingIterator

from ..error_shape import ApiError
from .body import bearer_key
from .limits import refused_limit

if TYPE_CHECKING:
    from ..assistant.chat import ChatResult

bp = Blueprint("metrics", __name__)

#: Latency buckets in seconds: a scorer takes milliseconds, a chat seconds.
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
#: The endpoint label of a request no route matched (404, 405).
UNROUTED = "none"
#: Where the request's endpoint is left for the WSGI wrapper, which counts after Flask.
_ENDPOINT = "scoring_api.endpoint"
#: Headers a proxy adds: a request carrying one did not come from this host.
_FORWARDING = ("Forwarded", "X-Forwarded-For", "X-Real-IP")


class Metrics:
    """The app's metrics (``app.extensions["metrics"]``)."""

    def __init__(self) -> None:
        self.multiprocess = "PROMETHEUS_MULTIPROC_DIR" in os.environ
        disable_created_metrics()  # the ``_created`` series, which multiprocess mode has not either
        self.registry = registry = CollectorRegistry()
        self.requests = Counter(
            "scoring_requests",
            "Requests answered, by Flask endpoint and status.",
            ["endpoint", "status"],
            registry=registry,
        )
        self.latency = Histogram(
            "scoring_request_duration_seconds",
            "Time from a request's arrival until its answer is closed (a stream's last event included).",
            ["endpoint"],
            buckets=BUCKETS,
            registry=registry,
        )
        self.in_flight = Gauge(
            "scoring_requests_in_flight", "Requests being answered now.", multiprocess_mode="livesum", registry=registry
        )
        self.streams = Gauge(
            "scoring_streams_open",
            "Answers being streamed now (server-sent events: the chat with stream=true).",
            multiprocess_mode="livesum",
            registry=registry,
        )
        self.refusals = Counter(
            "scoring_refusals", "429 answers, by the limit that refused the request.", ["limit"], registry=registry
        )
        self.chats = Counter("scoring_chats", "Chats answered to the end.", registry=registry)
        self.chat_rounds = Counter("scoring_chat_rounds", "Model round trips of the chats answered.", registry=registry)
        self.chat_tokens = Counter(
            "scoring_chat_tokens",
            "Model tokens of the chats answered, as the model reported them.",
            ["kind"],
            registry=registry,
        )
        self.limits_storage = Gauge(
            "scoring_limits_storage",
            "Workers counting the rate limits in redis, and in memory.",
            ["storage"],
            multiprocess_mode="livesum",
            registry=registry,
        )

    def counted_in(self, where: str) -> None:
        """This worker now counts the limits in ``where`` (``redis`` or ``memory``)."""
        for storage in ("redis", "memory"):
            self.limits_storage.labels(storage).set(1 if storage == where else 0)

    def exposition(self) -> bytes:
        """Every worker's numbers under gunicorn, else this app's."""
        if not self.multiprocess:
            return generate_latest(self.registry)
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
        return generate_latest(registry)


def register(app: Flask) -> None:
    """The route, the counting around every request, and the limits' storage gauge (after
    ``limit_requests``)."""
    metrics = app.extensions["metrics"] = Metrics()
    app.register_blueprint(bp)
    app.wsgi_app = _Counted(app.wsgi_app, metrics)  # type: ignore[method-assign]
    app.teardown_request(_leave_endpoint)
    app.after_request(_count_refusal)
    storage = app.extensions["limits_storage"]
    storage.listeners.append(metrics.counted_in)
    metrics.counted_in(storage.where)


def count_chat(result: ChatResult) -> None:
    """A chat answered to its end (called by the chat routes)."""
    metrics = current_app.extensions["metrics"]
    metrics.chats.inc()
    metrics.chat_rounds.inc(result.rounds)
    metrics.chat_tokens.labels("prompt").inc(result.usage.prompt_tokens)
    metrics.chat_tokens.labels("completion").inc(result.usage.completion_tokens)


def _leave_endpoint(_error: BaseException | None) -> None:
    """Runs after every request, even one refused before its view: its endpoint, for the
    WSGI wrapper."""
    request.environ[_ENDPOINT] = request.endpoint or UNROUTED


def _count_refusal(response: Response) -> Response:
    if response.status_code == 429:
        try:
            code = json.loads(response.get_data())["error"]["code"]
        except (ValueError, KeyError, TypeError):
            code = "unknown"
        current_app.extensions["metrics"].refusals.labels(refused_limit(str(code))).inc()
    return response


class _Counted:
    """The Flask WSGI app, counted: in flight from the call until the answer is closed,
    then one request of its endpoint and status, with its latency."""

    def __init__(self, wsgi_app, metrics: Metrics) -> None:
        self.wsgi_app = wsgi_app
        self.metrics = metrics

    def __call__(self, environ, start_response):
        metrics = self.metrics
        started = time.perf_counter()
        answer = {"status": "500", "stream": False}
        metrics.in_flight.inc()

        def starting(status, headers, exc_info=None):
            answer["status"] = status.split(" ", 1)[0]
            stream = any(k.lower() == "content-type" and v.startswith("text/event-stream") for k, v in headers)
            if stream and not answer["stream"]:
                answer["stream"] = True
                metrics.streams.inc()
            return start_response(status, headers, exc_info)

        def closed():
            endpoint = environ.get(_ENDPOINT, UNROUTED)
            metrics.requests.labels(endpoint, answer["status"]).inc()
            metrics.latency.labels(endpoint).observe(time.perf_counter() - started)
            if answer["stream"]:
                metrics.streams.dec()
            metrics.in_flight.dec()

        try:
            body = self.wsgi_app(environ, starting)
        except BaseException:
            closed()
            raise
        return ClosingIterator(body, closed)


@bp.get("/metrics")
def metrics_view():
    """The metrics, for Prometheus."""
    _check_reader()
    return Response(current_app.extensions["metrics"].exposition(), content_type=CONTENT_TYPE_LATEST)


def _check_reader() -> None:
    """A 401 without the operator's token when one is set; else a 403 for any client but
    this host."""
    token = current_app.config["METRICS_TOKEN"]
    if token is not None:
        given = bearer_key() or ""
        if not hmac.compare_digest(token.encode(), given.encode("utf-8", "replace")):
            raise ApiError(
                401, "metrics_token", "errors.metrics_token", headers={"WWW-Authenticate": 'Bearer realm="metrics"'}
            )
        return
    if not _from_this_host():
        raise ApiError(403, "metrics_this_host_only", "errors.metrics_this_host_only")


def _from_this_host() -> bool:
    try:
        loopback = ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False
    return loopback and not any(name in request.headers for name in _FORWARDING)
