"""Reading a request: its language, its bearer key and its JSON body, strictly.

The body must be ``application/json`` (415 otherwise), not empty, and valid JSON as
:class:`JSONProvider` reads it (400); the size limit is Flask's ``MAX_CONTENT_LENGTH``
(413), for bodies with a ``Content-Length`` and chunked ones alike; one announced over the
limit with ``Expect: 100-continue`` is refused before the client sends it. The chat routes
read theirs with :func:`read_chat_json`, within ``CHAT_MAX_BODY_BYTES`` instead (photos).
Under gevent workers (the served setup, :mod:`scoring_api.gunicorn_conf`) the body must
arrive within ``BODY_TIMEOUT`` seconds (408).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from flask import Request, current_app, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.wsgi import LimitedStream

from .. import strict_json
from ..error_shape import ApiError
from ..i18n import DEFAULT_LANG, LANGS, t
from ..settings import chat_body_limit

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

#: The most of a refused body read and dropped (:meth:`JSONRequest._discard_body`).
DISCARD_MOST = 16 * 1024 * 1024


def request_lang() -> str:
    """``?lang=ja`` (default) or ``?lang=en``; anything else is a 400 naming ``lang``."""
    lang = request.args.get("lang", DEFAULT_LANG)
    if lang not in LANGS:
        reasons = [t("errors.invalid_lang", DEFAULT_LANG), t("errors.invalid_lang", "en")]
        raise ApiError(400, "invalid_input", "errors.invalid_input", details={"lang": reasons})
    return lang


def bearer_key(environ: WSGIEnvironment | None = None) -> str | None:
    """The key of an ``Authorization: Bearer <key>`` header (the scheme in any case), if any,
    of the current request (or of ``environ``, when the caller has it at hand)."""
    scheme, _, key = (environ or request.environ).get("HTTP_AUTHORIZATION", "").partition(" ")
    key = key.strip()
    return key if scheme.lower() == "bearer" and key else None


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, read with the strictness the API promises (UTF-8, then
    :func:`scoring_api.strict_json.loads`); answers are written as UTF-8 in the schemas'
    field order."""

    ensure_ascii = False
    sort_keys = False

    def loads(self, s, **kwargs):
        return strict_json.loads(s.decode("utf-8") if isinstance(s, bytes) else s)


@contextmanager
def body_timeout() -> Iterator[None]:
    """Reading the body inside this block stops after ``BODY_TIMEOUT`` seconds with a 408,
    when gevent runs the server (gunicorn then gives the rest of the body its head timeout,
    ``keepalive``, and closes the connection): a client sending its body
    a byte at a time then holds a greenlet for that long, no more. Under any other server
    the block does nothing (a sync worker is restarted by gunicorn's own ``timeout``)."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is None or not monkey.is_module_patched("socket"):
        yield
        return
    import gevent

    seconds = current_app.config["BODY_TIMEOUT"]
    timer = gevent.Timeout(seconds)
    timer.start()
    try:
        yield
    except gevent.Timeout as late:
        if late is not timer:
            raise
        raise ApiError(408, "body_timeout", "errors.body_timeout", seconds=seconds) from None
    finally:
        timer.close()


class JSONRequest(Request):
    """Flask's request, with the service's refusals: a chunked body (no ``Content-Length``)
    longer than ``MAX_CONTENT_LENGTH`` is a 413 (werkzeug stops reading at the limit and
    would pass the first part on), a malformed one is a 400 (the server's chunk decoder
    raises from inside ``read``), one that arrives too slowly a 408 (:func:`body_timeout`),
    and bad JSON a 400."""

    def get_data(self, *args, **kwargs):
        with body_timeout():
            try:
                data = super().get_data(*args, **kwargs)
                stream = self.stream
                if (
                    isinstance(stream, LimitedStream)
                    and stream.is_exhausted
                    and self.content_length is None
                    and self.environ["wsgi.input"].read(1)  # more than the limit was sent
                ):
                    raise RequestEntityTooLarge()
                return data
            except RequestEntityTooLarge:
                self._discard_body()
                raise
            except HTTPException:  # a client that sent less than it said
                raise
            except Exception:  # only the client's bytes can make the server's reader fail
                raise ApiError(400, "invalid_body", "errors.unreadable_body") from None

    def _discard_body(self) -> None:
        """Read and drop what is left of a refused body, up to 16 times the limit (at most
        :data:`DISCARD_MOST`): a client still sending it then receives the 413 instead of a
        reset connection. A client that announced the body with ``Expect: 100-continue``
        has sent none of it: it waits for ``100 Continue``, which gunicorn does not send
        when the length is over the limit (:func:`scoring_api.gunicorn_conf.pre_request`),
        so it gets the 413 at once."""
        if self.headers.get("Expect", "").lower() == "100-continue" and self.content_length is not None:
            return
        stream = self.environ["wsgi.input"]
        left = min(16 * (self.max_content_length or 0), DISCARD_MOST)
        try:
            while left > 0 and (piece := stream.read(min(left, 65536))):
                left -= len(piece)
        except Exception:  # a malformed rest: the 413 stands
            pass

    def on_json_loading_failed(self, e):
        if e is None:  # not application/json: Flask's 415
            return super().on_json_loading_failed(e)
        if not self.get_data(cache=True).strip():
            raise ApiError(400, "invalid_json", "errors.empty_body")
        raise ApiError(400, "invalid_json", "errors.invalid_json", reason=strict_json.unreadable(e)) from None


def read_json():
    """The request's JSON document (any JSON value; the schema checks its shape)."""
    try:
        return request.get_json()
    except RecursionError as error:  # deeper than Python's own parser goes
        raise ApiError(400, "invalid_json", "errors.invalid_json", reason=strict_json.unreadable(error)) from None


def read_chat_json():
    """The JSON document of a chat route (``/api/v1/chat``, ``/v1/chat/completions``),
    whose body may carry photos when the model reads them (``CHAT_VISION``): then at most
    ``CHAT_MAX_BODY_BYTES`` instead of ``MAX_CONTENT_LENGTH`` (a 413 that states this limit
    beyond it). Without photos, and on every other route, ``MAX_CONTENT_LENGTH``: the limit
    is this request's own (Flask 3.1), set before its body is touched."""
    limit = chat_body_limit(current_app.config)
    request.max_content_length = limit
    try:
        return read_json()
    except RequestEntityTooLarge:
        raise ApiError(413, "payload_too_large", "errors.payload_too_large", limit=limit) from None
