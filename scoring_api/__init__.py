"""Board-game scoring service: exact scorers behind a JSON API (flaskr-style factory)."""

from __future__ import annotations

import logging
import os
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
