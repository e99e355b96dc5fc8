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
"""

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
