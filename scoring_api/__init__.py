"""Board-game scoring service: exact scorers behind a JSON API (flaskr-style factory)."""

from __future__ import annotations

import logging
import os
import posixpath
from pathlib import Path
from typing import TYPE_CHECKING

from .settings import DEFAULT_CONFIG, MODEL_SETTINGS, SettingsError, check

if TYPE_CHECKING:
    from flask import Flask

__version__ = "0.1.0"

#: Sent with every answer: the form loads only its own files and cannot be framed.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

#: Answers smaller than this go as they are: compressing them saves a few hundred bytes at
#: most, and a 1 KB answer still fits one TCP packet (docs/deployment.md, "Compression").
COMPRESS_MIN_BYTES = 1024
#: What is compressed: text only (the form's files, its page, JSON answers, the OpenAPI
#: document); the PNG icons are compressed already.
COMPRESSED_TYPES = (
    "text/html",
    "text/css",
    "text/javascript",
    "text/plain",
    "application/json",
    "application/manifest+json",
    "application/yaml",
    "image/svg+xml",
)
#: Blueprints whose answers are never compressed: the chat's (its server-sent events go out
#: as the model writes them, and a compressor would hold them back) and /mcp's (the SDK's
#: transport answers, streams among them, as the SDK wrote them).
UNCOMPRESSED_BLUEPRINTS = frozenset({"chat", "completions", "mcp"})
#: The endpoints that send a file of the form's static folder, unversioned and versioned.
STATIC_FILES = frozenset({"web.static", "web.asset"})


def create_app(config: dict | None = None) -> Flask:
    """Build the app: defaults, then environment variables (``SCORING_*``, and the model's
    ``OPENAI_*``), then ``config``; every setting is checked (:mod:`.settings`), and a bad
    one raises :class:`~scoring_api.settings.SettingsError` naming its variable."""
    from flask import Flask

    from .api import assistant, completions, error_handlers, meta, metrics
    from .api.body import JSONProvider, JSONRequest
    from .api.cors import allow_listed_origins
    from .api.limits import limit_requests
    from .api.mcp_http import bp as mcp_http
    from .api.routes import make_blueprint
    from .assistant.prompts import default_prompts_dir, load_prompts
    from .web import bp as web

    app = Flask(__name__)
    app.json = JSONProvider(app)
    app.request_class = JSONRequest
    app.config.from_mapping(DEFAULT_CONFIG)
    app.config.from_prefixed_env("SCORING")
    for name in MODEL_SETTINGS:
        app.config[name] = os.environ.get(name) or None  # empty: not set
    if config:
        app.config.update(config)
    check(app.config)
    _configure_logging(app)
    folder = app.config["PROMPTS_DIR"]
    app.extensions["prompts"] = load_prompts(Path(folder) if folder else default_prompts_dir())
    error_handlers.register(app)
    app.after_request(_security_headers)
    _compress_answers(app)  # runs before the security headers are added: fewer headers to scan
    scoring = make_blueprint()
    limit_requests(
        app,
        scoring=[scoring, assistant.tools_bp, completions.models_bp],
        chat=[assistant.chat_bp, completions.completions_bp],
        mcp=[mcp_http],
    )
    metrics.register(app)  # /metrics, and every request counted
    app.register_blueprint(meta.bp)
    app.register_blueprint(scoring)
    app.register_blueprint(assistant.tools_bp)
    app.register_blueprint(assistant.chat_bp)
    app.register_blueprint(completions.models_bp)
    app.register_blueprint(completions.completions_bp)
    app.register_blueprint(mcp_http)
    app.register_blueprint(web)
    allow_listed_origins(app)
    return app


def _security_headers(response):
    response.headers.update(SECURITY_HEADERS)
    return response


def _compress_answers(app: Flask) -> None:
    """gzip or brotli (flask-compress), as the client accepts, for answers of at least
    ``COMPRESS_MIN_BYTES`` of a ``COMPRESSED_TYPES`` type; never a stream, never the chat's
    or /mcp's answers, never a part of a file (a ``Range`` answer, 206).

    The form's files (``web.static``, and ``web.asset`` under a version) are compressed once
    per file version and encoding (kept in memory, keyed by the file's path in the static
    folder and its ETag, never by the URL, which a client may vary at will) with brotli
    first; an answer made per request prefers gzip, half brotli's time on a few KB for the
    same size. A compressed answer's strong ETag names its encoding (``"...:br"``, so a
    cache never mixes two encodings), it loses ``Accept-Ranges`` (ranges are offered on the
    file as it is), and a conditional request is answered 304 against that ETag.
    """
    from flask import g, request
    from flask_compress import Compress, DictCache

    app.config.update(
        COMPRESS_REGISTER=False,  # the hook below chooses what is compressed
        COMPRESS_MIMETYPES=list(COMPRESSED_TYPES),
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_BR_LEVEL=5,
        COMPRESS_LEVEL=6,
        COMPRESS_MIN_SIZE=COMPRESS_MIN_BYTES,
        COMPRESS_STREAMS=False,
    )
    answers = Compress(app)
    answers.enabled_algorithms = ("gzip", "br")
    files = Compress(app)
    files.cache = DictCache()
    files.cache_key = lambda _request: g.compressed_file

    @app.after_request
    def compress(response):
        # Only an answer that may go compressed varies by Accept-Encoding (and says so).
        if (
            request.blueprint in UNCOMPRESSED_BLUEPRINTS
            or response.status_code != 200  # 304, 404, a part of a file (206), a refusal
            or response.mimetype not in COMPRESSED_TYPES
            or (response.content_length or 0) < COMPRESS_MIN_BYTES
        ):
            return response
        if request.endpoint not in STATIC_FILES:
            return answers.after_request(response)  # never a stream: COMPRESS_STREAMS
        etag, _ = response.get_etag()
        if not etag:
            return response
        g.compressed_file = f"{posixpath.normpath((request.view_args or {})['filename'])}\0{etag}"
        response.direct_passthrough = False
        response.make_sequence()  # the file's bytes, so that its compressed copy is kept
        response = files.after_request(response)
        if "Content-Encoding" in response.headers:
            response.headers.pop("Accept-Ranges", None)
        return response


def _configure_logging(app: Flask) -> None:
    """The package's log lines (the chat's line per tool call) at INFO, written where
    gunicorn writes its error log when gunicorn serves the app, else to standard error."""
    logger = logging.getLogger("scoring_api")
    logger.setLevel(logging.INFO)
    gunicorn = logging.getLogger("gunicorn.error")
    if gunicorn.handlers:
        logger.handlers = list(gunicorn.handlers)
        logger.propagate = False


__all__ = ["DEFAULT_CONFIG", "SettingsError", "create_app"]
