"""Cross-origin calls from browser apps (flask-cors): the scoring API and the tools answer
the origins listed in ``SCORING_CORS_ORIGINS`` (none by default); the chat never does, since
it spends the operator's model credits."""

from __future__ import annotations

from flask import Flask
from flask_cors import CORS

#: Every path below /api/v1 but the chat's.
CROSS_ORIGIN_PATHS = r"^/api/v1/(?!chat(?:/|$)).*"


def allow_listed_origins(app: Flask) -> None:
    origins = app.config["CORS_ORIGINS"]
    if not origins:
        return
    CORS(
        app,
        resources={CROSS_ORIGIN_PATHS: {"origins": origins.split(",")}},
        methods=["GET", "POST", "OPTIONS"],
        allow_headers=["Content-Type"],
        max_age=600,
    )
