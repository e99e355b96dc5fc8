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
* ``limit_request_*``: the request line and headers; ``SCORING_MAX_CONTENT_LENGTH``: the
  body (a JSON 413).
* ``timeout``: a worker that stops answering gunicorn's heartbeat this long is restarted.

The refusals gunicorn makes itself, before the app sees a request (a request line or
headers over the limits, a malformed request), are written in the service's JSON error
shape too (:func:`post_worker_init`).
"""

import json
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

    from scoring_api.errors import error_document
    from scoring_api.i18n import DEFAULT_LANG, LANGS, t

    code, key = _REFUSALS.get(status_int, ("bad_request", "errors.bad_request"))
    texts = [t(key, lang) for lang in (DEFAULT_LANG, *sorted(set(LANGS) - {DEFAULT_LANG}))]
    body = json.dumps(error_document(code, texts[0], {"$": texts}), ensure_ascii=False).encode()
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + body)


def post_worker_init(worker):
    """In each worker, once the app is loaded: gunicorn's refusals in the service's JSON."""
    from gunicorn import util

    util.write_error = _json_refusal
