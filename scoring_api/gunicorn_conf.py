"""How gunicorn serves the app on the open internet (docs/deployment.md, "The server").

    gunicorn -c python:scoring_api.gunicorn_conf 'scoring_api:create_app()'

Options given on the command line win over these (the Procfile passes ``--bind`` and
``--workers``).

Why gevent workers (measured by ``benchmarks/slow_clients.py``, figures in
docs/performance.md): a sync worker serves one connection at a time, so a few clients that
connect and send nothing, or send their headers or body a byte at a time, leave everyone
else unanswered; threads only raise that number. A gevent worker holds each connection in
a greenlet, so an idle connection or a chat waiting on the model costs memory, not a
worker. The scorers themselves are CPU work and run one at a time per worker, as before.

What bounds every connection:

* ``keepalive``: under gevent workers, the time a client has to send each request's line
  and headers (the first request's too), and to start the next one; then gunicorn closes
  the connection.
* ``SCORING_BODY_TIMEOUT`` (an app setting): the time to send the body, then a JSON 408.
  A body announced with ``Expect: 100-continue`` and a ``Content-Length`` over the limit is
  not invited: no ``100 Continue``, the JSON 413 at once, then the connection closes
  (:func:`pre_request`).
* ``SCORING_SEND_TIMEOUT`` (an app setting): the time the client has to take each write of
  an answer (a whole answer that is not streamed), then the connection is reset
  (:class:`SendDeadline`): a client that asks for answers and never reads them would
  otherwise hold its connection for as long as it likes.
* ``limit_request_*``: the request line and headers; ``SCORING_MAX_CONTENT_LENGTH``: the
  body (a JSON 413).
* ``timeout``: a worker that stops answering gunicorn's heartbeat this long is restarted.

The refusals gunicorn makes itself, before the app sees a request (a request line or
headers over the limits, a malformed request), are written in the service's JSON error
shape too, with the security headers of every other answer (:func:`post_worker_init`).

``/metrics`` adds up every worker's numbers through files in ``PROMETHEUS_MULTIPROC_DIR``
(:func:`on_starting` makes the folder, :func:`child_exit` takes a dead worker's gauges out;
docs/deployment.md, "Metrics").
"""

import errno
import functools
import json
import socket
import struct
from collections.abc import Callable
from contextlib import suppress

# trio, when some other package installed it, cannot be imported once gevent has patched
# ``select`` (the model client's HTTP library looks for it): import it before the fork.
with suppress(ImportError):
    import trio  # noqa: F401

bind = "127.0.0.1:8000"
worker_class = "gevent"
workers = 2
worker_connections = 1000  # open connections per worker
keepalive = 5  # seconds for a request's line and headers, and between requests
timeout = 30
graceful_timeout = 30
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190
accesslog = "-"
errorlog = "-"
control_socket_disable = True  # gunicorn 25+: no control socket in $HOME (gunicornc is not used)


#: gunicorn's own refusals: status -> the service's error code and catalogue key.
_REFUSALS = {
    414: ("request_line_too_long", "errors.request_line_too_long"),
    431: ("headers_too_large", "errors.headers_too_large"),
}


def _json_refusal(sock, status_int, reason, mesg):
    """gunicorn's ``util.write_error``, answering the error JSON (the request was not read,
    so its ``?lang`` is unknown: the message is Japanese, ``details`` has both languages)."""
    from gunicorn import util

    from scoring_api import SECURITY_HEADERS
    from scoring_api.error_shape import error_document
    from scoring_api.i18n import DEFAULT_LANG, LANGS, t

    code, key = _REFUSALS.get(status_int, ("bad_request", "errors.bad_request"))
    texts = [t(key, lang) for lang in (DEFAULT_LANG, *sorted(set(LANGS) - {DEFAULT_LANG}))]
    body = json.dumps(error_document(code, texts[0], {"$": texts}), ensure_ascii=False).encode()
    security = "".join(f"{name}: {value}\r\n" for name, value in SECURITY_HEADERS.items())
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n{security}\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + body)


class AnswerNotTaken(BrokenPipeError):
    """An answer the client did not take in time: a broken pipe to gunicorn, which then
    closes the connection quietly, as it does for a client that went away."""


class SendDeadline:
    """The client's socket as gunicorn writes an answer on it (every other use is the
    socket's own): each write must be taken by the client within ``seconds``.

    gevent's ``sendall`` honours the socket's timeout over the whole call, so the headers
    and a body that is not streamed each get ``seconds`` (``sendfile``, used for the form's
    files, gets them per piece). Past that the connection is reset: ``SO_LINGER`` 0 drops
    what the kernel still holds for the client instead of keeping it queued. Reading a
    request is left alone (its bounds are ``keepalive`` and ``SCORING_BODY_TIMEOUT``)."""

    def __init__(self, sock: socket.socket, seconds: float, log, peer) -> None:
        self._sock = sock
        self._seconds = seconds
        self._log = log
        self._peer = peer

    def __getattr__(self, name):
        return getattr(self._sock, name)

    def _write(self, method, *args, **kwargs):
        previous = self._sock.gettimeout()
        self._sock.settimeout(self._seconds)
        try:
            return method(*args, **kwargs)
        except TimeoutError:
            self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self._log.warning(
                "Reset the connection of %s: the answer was not taken within %s s (SCORING_SEND_TIMEOUT)",
                self._peer[0] if isinstance(self._peer, tuple) else self._peer,
                self._seconds,
            )
            raise AnswerNotTaken(errno.EPIPE, "answer not taken in time") from None
        finally:
            self._sock.settimeout(previous)

    def send(self, *args, **kwargs):
        return self._write(self._sock.send, *args, **kwargs)

    def sendall(self, *args, **kwargs):
        return self._write(self._sock.sendall, *args, **kwargs)

    def sendfile(self, *args, **kwargs):
        return self._write(self._sock.sendfile, *args, **kwargs)


#: The routes that read their body within ``CHAT_MAX_BODY_BYTES`` (photos), not
#: ``MAX_CONTENT_LENGTH`` (:func:`scoring_api.api.body.read_chat_json`).
CHAT_PATHS = frozenset({"/api/v1/chat", "/v1/chat/completions"})


def pre_request(worker, req):
    """A body announced with ``Expect: 100-continue`` and a ``Content-Length`` over the
    route's limit (the chat's for :data:`CHAT_PATHS`, as Flask routes them: decoded; else
    the app's) is not invited:
    gunicorn sends no ``100 Continue``, the app answers its 413 without reading the body
    (:mod:`scoring_api.api.body`), and the connection closes after the answer (the unsent
    body cannot be told apart from a next request)."""
    if not getattr(req, "_expected_100_continue", False):
        return
    from urllib.parse import unquote

    from scoring_api.settings import chat_body_limit

    config = worker.wsgi.config
    limit = chat_body_limit(config) if unquote(req.path) in CHAT_PATHS else config["MAX_CONTENT_LENGTH"]
    length = next((value for name, value in req.headers if name == "CONTENT-LENGTH"), "")
    if length.isdigit() and int(length) > limit:
        req._expected_100_continue = False
        req.must_close = True


def post_worker_init(worker):
    """In each worker, once the app is loaded: gunicorn's refusals in the service's JSON,
    every answer written through :class:`SendDeadline` (gevent workers; the app's
    ``SEND_TIMEOUT``), and the loaded app out of the garbage collector's sight.

    ``gc.freeze()``: the app's modules, schemas and tables (about 155,000 objects) live as
    long as the worker, yet every full collection walked them all again, 70-150 ms during
    which the worker answered nobody: the p99 of a steady load (docs/performance.md,
    "Targets"). Frozen, a full collection walks only what requests made."""
    import gc

    from gunicorn import util
    from gunicorn.workers.base_async import AsyncWorker

    util.write_error = _json_refusal
    if isinstance(worker, AsyncWorker):
        seconds = worker.wsgi.config["SEND_TIMEOUT"]
        handle_request = worker.handle_request

        def handle_with_deadline(listener_name, req, sock, addr):
            return handle_request(listener_name, req, SendDeadline(sock, seconds, worker.log, addr), addr)

        worker.handle_request = handle_with_deadline
    if type(worker).__name__ == "GeventWorker":
        import gevent

        _after_each_request.append(functools.partial(gevent.sleep, 0))
    gc.collect()  # what loading left behind, not frozen with the rest
    gc.freeze()


#: What each request ends with in this worker (:func:`post_request`).
_after_each_request: list[Callable[[], object]] = []


def post_request(worker, req, environ, resp):
    """After each answer, under gevent workers, the worker's other connections go first
    (``gevent.sleep(0)``). Without it a connection whose next request is already waiting
    when its answer is written is served again at once, and again, while the others wait:
    one worker, hello-world, two busy keep-alive connections (wrk): p99 370-406 ms (p50
    0.28 ms); with it 0.8-0.9 ms, for 1-5% of the requests a second (docs/performance.md,
    "Targets")."""
    for call in _after_each_request:
        call()


# --- /metrics under several workers (scoring_api/api/metrics.py) -------------------------

#: The metrics folder this master made, removed when it exits.
_metrics_folder_made: list[str] = []


def on_starting(server):
    """Before the first worker: ``PROMETHEUS_MULTIPROC_DIR``, the folder where each worker
    writes its numbers and the one answering ``/metrics`` reads everyone's
    (prometheus-client's multiprocess mode). Not set: a temporary folder of this master's.
    Set: the operator's folder, made if missing and emptied of a previous run's files (as
    prometheus-client asks). prometheus-client reads the variable when it is first imported,
    so with ``--preload`` (the app loaded before this hook) the operator must set it."""
    import os
    import tempfile
    from pathlib import Path

    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        for stale in Path(folder).glob("*.db"):
            stale.unlink()
        return
    if server.cfg.preload_app:
        raise RuntimeError(
            "--preload: set PROMETHEUS_MULTIPROC_DIR to a folder for /metrics (docs/deployment.md, Metrics)"
        )
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder = tempfile.mkdtemp(prefix="scoring-metrics-")
    _metrics_folder_made.append(folder)


def child_exit(server, worker):
    """A worker ended: its gauges (requests in flight, streams, where it counted the limits)
    leave the sums; its counters stay in the totals."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    import shutil

    for folder in _metrics_folder_made:
        shutil.rmtree(folder, ignore_errors=True)
