"""Board-game scoring service: exact scorers behind a JSON API (flaskr-style factory)."""

from __future__ import annotations

from flask import Flask

__version__ = "0.1.0"

DEFAULT_CONFIG = {
    "MAX_CONTENT_LENGTH": 64 * 1024,  # bytes; larger bodies get a 413
    "JSON_SORT_KEYS": False,
}


def create_app(config: dict | None = None) -> Flask:
    """Build the app: defaults, then ``SCORING_*`` environment variables, then ``config``."""
    from . import errors
    from .api import meta
    from .api.operations import make_blueprint

    app = Flask(__name__)
    app.config.from_mapping(DEFAULT_CONFIG)
    app.config.from_prefixed_env("SCORING")
    if config:
        app.config.update(config)
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    errors.register(app)
    app.register_blueprint(meta.bp)
    app.register_blueprint(make_blueprint())
    return app
