"""Remote MCP at ``/mcp``: the official SDK's Streamable HTTP transport (stateless, JSON
responses) serving the same tools as ``GET /api/v1/tools`` and the stdio server
(:func:`scoring_api.mcp.create_server`), in the same process and on the same port as the
REST API.

The SDK's transport is an ASGI application; a2wsgi runs it on an event loop in a thread of
this worker, and a Flask view hands each request to it, so ``/mcp`` goes through the same
rate limits, security headers and error shapes as every other route. ``?lang=en`` gives
English texts (Japanese by default).
"""

from __future__ import annotations

import asyncio
import io
import threading
from typing import Any, cast

from a2wsgi import ASGIMiddleware
from flask import Blueprint, current_app, request
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

from ..i18n import LANGS
from ..mcp import create_server
from .body import request_lang

bp = Blueprint("mcp", __name__)


class RemoteMCP:
    """One stateless session manager per language, run on one event loop thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.managers = {
            lang: StreamableHTTPSessionManager(app=create_server(lang), json_response=True, stateless=True)
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
                found = current_app.extensions["remote_mcp"] = RemoteMCP()
    return found


@bp.route("/mcp", methods=["GET", "POST", "DELETE"])
def mcp_endpoint():
    """The MCP Streamable HTTP endpoint (a WSGI app answers: Flask calls it with this request).

    The body is read here first, with the limits and timeout of every other body, and
    handed on whole."""
    lang = request_lang()
    body = request.get_data(cache=True)
    request.environ["wsgi.input"] = io.BytesIO(body)
    request.environ["CONTENT_LENGTH"] = str(len(body))
    return remote_mcp().apps[lang]
