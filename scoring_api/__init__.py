"""Board-game scoring service: exact scorers behind a JSON API (flaskr-style factory)."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask

__version__ = "0.1.0"

DEFAULT_CONFIG = {
    "MAX_CONTENT_LENGTH": 64 * 1024,  # bytes; larger bodies get a 413
    "CHAT_TIMEOUT": 30,  # seconds per model request
    "CHAT_MAX_RETRIES": 1,  # retries of a failed model request (the openai client's)
    "CHAT_MAX_ROUNDS": 5,  # model round trips per chat request
    "CHAT_DEADLINE": 25,  # seconds for a whole chat (all rounds and retries); < gunicorn's 30 s
    "CHAT_MAX_TOKENS": 1024,  # max_tokens sent with every model request
    "CHAT_MAX_TOOL_CALLS": 8,  # tool calls executed per round; more get an error result
    "CHAT_TOOL_RESULT_LIMIT": 8192,  # bytes of one tool result sent back to the model
    "PROMPTS_DIR": None,  # default: prompts/ of the checkout, or of the working directory
    "PUBLIC_URL": None,  # https URL of this deployment, first in the served spec's servers
}

#: The model behind the chat: any OpenAI-compatible endpoint, from the environment only.
MODEL_SETTINGS = ("OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_MODEL")


def create_app(config: dict | None = None) -> Flask:
    """Build the app: defaults, then environment variables (``SCORING_*``, and the model's
    ``OPENAI_*``), then ``config``."""
    from . import errors
    from .api import assistant, meta
    from .api.operations import make_blueprint
    from .json_provider import OrjsonProvider
    from .assistant.prompts import default_prompts_dir, load_prompts
    from .web import bp as web

    app = Flask(__name__)
    app.json = OrjsonProvider(app)
    app.config.from_mapping(DEFAULT_CONFIG)
    app.config.from_prefixed_env("SCORING")
    for name in MODEL_SETTINGS:
        app.config[name] = os.environ.get(name)
    if config:
        app.config.update(config)
    folder = app.config["PROMPTS_DIR"] or default_prompts_dir()
    if folder and (Path(folder) / "system.md").is_file():
        app.extensions["prompts"] = load_prompts(Path(folder))
    else:
        app.logger.warning("prompts not found; the chat answers 503 until PROMPTS_DIR is set")
    errors.register(app)
    app.register_blueprint(meta.bp)
    app.register_blueprint(make_blueprint())
    app.register_blueprint(assistant.bp)
    app.register_blueprint(web)
    return app
