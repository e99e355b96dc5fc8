"""Cross-origin calls from browser apps (flask-cors): the scoring API and the tools answer
the origins listed in ``SCORING_CORS_ORIGINS`` (none by default); the chat never does, since
it spends the operator's model credits.

An answer on those paths depends on the request's ``Origin`` (a listed one is named in
``Access-Control-Allow-Origin``, any other is not), so each carries ``Vary: Origin``: a
cache between the browser and the service must not give one origin's answer to another.
flask-cors' own ``vary_header`` adds it only when the origin matched one of several listed
origins, so the service adds it itself, to every answer on the paths, whatever the origin.
A request without ``Origin`` (no browser's cross-origin call) gets no CORS header at all.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from flask import Flask, Response, request
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
        vary_header=False,  # _vary_by_origin
        always_send=False,  # without an Origin it would list every allowed origin
    )
    app.after_request(_vary_by_origin)


def _vary_by_origin(response: Response) -> Response:
    # the path as flask-cors matches it against its resources
    if re.match(CROSS_ORIGIN_PATHS, unquote(request.path)):
        response.vary.add("Origin")
    return response
