"""Service routes that are not scoring: health and the OpenAPI document."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify

from ..openapi import spec_yaml

bp = Blueprint("meta", __name__)


@bp.get("/healthz")
def healthz():
    return jsonify(status="ok")


@bp.get("/openapi.yaml")
def openapi_yaml():
    return Response(spec_yaml(current_app.config.get("PUBLIC_URL")), mimetype="application/yaml")
