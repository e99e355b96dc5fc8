"""Remote MCP at ``/mcp``: the official SDK's Streamable HTTP transport (stateless, JSON
responses) serving the same tools as ``GET /api/v1/tools`` and the stdio server
(:func:`scoring_api.mcp.create_server`), in the same process and on the same port as the
REST API.

The SDK's transport is an ASGI application; a2wsgi runs it on an event loop in a thread of
this worker, and a Flask view hands each request to it, so ``/mcp`` goes through the same
rate limits, security headers and error shapes as every other route. ``?lang=en`` gives
English texts (Japanese by default).

What the view answers itself, before the SDK sees a request (docs/deployment.md, "Remote
MCP"), and why:

* Only ``POST``. A stateless server has no session to stream to or to end, and the
  transport spec lets it answer ``GET`` and ``DELETE`` with a 405; the SDK would instead
  open a standalone event stream for every ``GET``, one that never ends and, through
  a2wsgi, outlives a client that goes away: each held a connection slot of the worker
  until there were none left for anyone (docs/deployment.md, "Remote MCP").
* HTTP refusals in the service's error shape, in the request's language: a 406 when
  ``Accept`` leaves out JSON (the SDK's own rule, :func:`check_accept_headers`), a 415 when
  the body is not ``application/json``, then the body's limits (413, 408) as everywhere.
* A body that is not one JSON-RPC message gets a JSON-RPC error without an ``id`` (the
  transport spec's form of a 400) and a sentence from the catalogue: -32700 when it is not
  JSON, -32600 for a batch or a malformed message, since the SDK's own answers to these
  carry pydantic's validation report. The MCP spec's request ids (a string or an
  integer, never null) are bounded too.
* The rate limit counts tool calls only (``tools/call`` requests, against
  ``SCORING_MCP_RATE_LIMIT``, a count of their own): a stateless client sends
  ``initialize`` and ``tools/list`` before each call, and ChatGPT's and Claude's servers
  call for all their users from one address. Past it, the service's JSON 429
  ``rate_limited`` with ``Retry-After``, as every rate limit answers.

``Host`` and ``Origin`` are checked by the SDK (its DNS rebinding protection,
:func:`transport_security`); its plain-text refusals are answered in the service's shape.
"""

from __future__ import annotations

import asyncio
import io
import json
import threading
from typing import Any, cast
from urllib.parse import urlsplit

from a2wsgi import ASGIMiddleware
from flask import Blueprint, current_app, request
from mcp.server.streamable_http import check_accept_headers
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import INVALID_REQUEST, PARSE_ERROR, jsonrpc_message_adapter
from pydantic import ValidationError
from werkzeug.exceptions import UnsupportedMediaType

from .. import strict_json
from ..error_shape import ApiError
from ..i18n import LANGS, t
from ..mcp import create_server
from .body import request_lang
from .limits import count

bp = Blueprint("mcp", __name__)

#: Loopback names, any port: a client on the same machine (an inspector, a test).
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")

#: The longest string id and the largest integer id (JSON's safe integers) a request may carry.
MAX_ID_LENGTH = 256
MAX_ID = 2**53 - 1

#: The one method the rate limit counts (docs/deployment.md, "Remote MCP").
TOOL_CALL = "tools/call"

#: The SDK's plain-text refusals (its transport security): status -> code and catalogue key.
_SDK_REFUSALS = {
    421: ("host_not_allowed", "errors.mcp_host_not_allowed"),
    403: ("origin_not_allowed", "errors.mcp_origin_not_allowed"),
}


def transport_security(config) -> TransportSecuritySettings:
    """The SDK's DNS rebinding protection: the ``Host`` names and browser origins ``/mcp``
    answers. Loopback always (any port), ``SCORING_PUBLIC_URL``'s host (with and without
    its port, 443 when it names none) and origin, and those of ``SCORING_MCP_ALLOWED_HOSTS`` and
    ``SCORING_MCP_ALLOWED_ORIGINS``. A request without ``Origin`` (not from a browser) is
    judged by its host alone."""
    hosts = [name for host in LOOPBACK for name in (host, f"{host}:*")]
    origins = [f"{scheme}://{name}" for scheme in ("http", "https") for name in hosts]
    public = config["PUBLIC_URL"]
    if public:
        parts = urlsplit(public.lower())
        host = f"[{parts.hostname}]" if ":" in (parts.hostname or "") else str(parts.hostname)
        port = parts.port or 443
        hosts += [host, f"{host}:{port}"]
        origins.append(f"https://{host}" if port == 443 else f"https://{host}:{port}")
    for setting, found in (("MCP_ALLOWED_HOSTS", hosts), ("MCP_ALLOWED_ORIGINS", origins)):
        found += [value.lower() for value in (config[setting] or "").split(",") if value]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins)


class RemoteMCP:
    """One stateless session manager per language, run on one event loop thread."""

    def __init__(self, security: TransportSecuritySettings) -> None:
        self.loop = asyncio.new_event_loop()
        self.managers = {
            lang: StreamableHTTPSessionManager(
                app=create_server(lang), json_response=True, stateless=True, security_settings=security
            )
            for lang in LANGS
        }
        self.ready = threading.Event()
        threading.Thread(target=self._serve, name="mcp-http", daemon=True).start()
        if not self.ready.wait(timeout=10):
            raise RuntimeError("the MCP transport's event loop did not start")
        self.apps = {
            lang: ASGIMiddleware(cast(Any, manager.handle_request), loop=self.loop)  # ASGI typings differ only
            for lang, manager in self.managers.items()
        }

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.create_task(self._run_managers())
        self.loop.run_forever()

    async def _run_managers(self) -> None:
        running = [manager.run() for manager in self.managers.values()]
        for context in running:
            await context.__aenter__()
        self.ready.set()
        await asyncio.Event().wait()  # until the worker exits


_starting = threading.Lock()


def remote_mcp() -> RemoteMCP:
    """This worker's MCP transport, made on the first request (after gunicorn forked)."""
    found = current_app.extensions.get("remote_mcp")
    if found is None:
        with _starting:
            found = current_app.extensions.get("remote_mcp")
            if found is None:
                found = RemoteMCP(transport_security(current_app.config))
                current_app.extensions["remote_mcp"] = found
    return found


def _jsonrpc_refusal(code: int, key: str, lang: str, **params):
    """A 400 whose body is a JSON-RPC error without an id (the request's could not be read)."""
    body = {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": t(key, lang, **params)}}
    return current_app.response_class(json.dumps(body, ensure_ascii=False), status=400, mimetype="application/json")


def _message_fault(document) -> tuple[int, str, dict] | None:
    """Why ``document`` is not one JSON-RPC message the transport serves: (JSON-RPC code,
    catalogue key, its values), or None. The field named is the first one at fault."""
    if isinstance(document, list):
        return INVALID_REQUEST, "errors.mcp_batch", {}
    if not isinstance(document, dict):
        return INVALID_REQUEST, "errors.mcp_not_message", {}
    if document.get("jsonrpc") != "2.0":
        return INVALID_REQUEST, "errors.mcp_jsonrpc", {}
    if "method" in document and not isinstance(document["method"], str):
        return INVALID_REQUEST, "errors.mcp_method", {}
    if "params" in document and not isinstance(document["params"], dict):
        return INVALID_REQUEST, "errors.mcp_params", {}
    if "id" in document and not _good_id(document["id"]):
        return INVALID_REQUEST, "errors.mcp_id", {"length": MAX_ID_LENGTH, "limit": MAX_ID}
    try:
        jsonrpc_message_adapter.validate_python(document, by_name=False)
    except ValidationError:
        return INVALID_REQUEST, "errors.mcp_invalid_message", {}
    return None


def _good_id(value) -> bool:
    """A string of at most MAX_ID_LENGTH characters or an integer within MAX_ID (the MCP
    spec: a string or an integer, never null; JSON numbers beyond 2**53 lose digits)."""
    if isinstance(value, str):
        return len(value) <= MAX_ID_LENGTH
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_ID


@bp.route("/mcp", methods=["POST"], provide_automatic_options=False)
def mcp_endpoint():
    """The MCP Streamable HTTP endpoint (a WSGI app answers: Flask calls it with this request).

    The body is read here first, with the limits and timeout of every other body, checked
    to be one JSON-RPC message, counted when it is a tool call, and handed on whole."""
    lang = request_lang()
    has_json, _ = check_accept_headers(cast(Any, request))  # it reads request.headers only
    if not has_json:
        raise ApiError(406, "not_acceptable", "errors.mcp_not_acceptable")
    if request.mimetype != "application/json":
        raise UnsupportedMediaType()
    body = request.get_data(cache=True)
    if not body.strip():
        return _jsonrpc_refusal(PARSE_ERROR, "errors.empty_body", lang)
    try:
        document = strict_json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError) as error:  # JSONDecodeError, JSONRefused, UnicodeDecodeError too
        return _jsonrpc_refusal(PARSE_ERROR, "errors.invalid_json", lang, reason=strict_json.unreadable(error))
    fault = _message_fault(document)
    if fault is not None:
        code, key, values = fault
        return _jsonrpc_refusal(code, key, lang, **values)
    if document.get("method") == TOOL_CALL and "id" in document:  # a request, not a notification
        count("mcp")
    environ = request.environ
    environ["wsgi.input"] = io.BytesIO(body)
    environ["CONTENT_LENGTH"] = str(len(body))
    environ["CONTENT_TYPE"] = "application/json"  # the SDK compares it case-sensitively
    environ["HTTP_HOST"] = environ.get("HTTP_HOST", "").lower()  # host names are case-insensitive
    answer = current_app.response_class.from_app(remote_mcp().apps[lang], environ)
    answer.get_data()  # the whole answer (JSON responses only): its status and type are final
    if answer.status_code >= 400 and answer.mimetype != "application/json":
        code, key = _SDK_REFUSALS.get(answer.status_code, ("mcp_refused", "errors.mcp_refused"))
        raise ApiError(answer.status_code, code, key, http_status=answer.status_code)
    return answer
