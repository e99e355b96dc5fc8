"""Service routes that are not scoring: health and the OpenAPI document."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify

from ..openapi import spec_yaml

bp = Blueprint("meta", __name__)


@bp.get("/healthz")
def healthz():
    """Up, and where this worker counts the rate limits: ``redis``, or ``memory`` (so
    configured, or while Redis does not answer; docs/deployment.md, "Redis"). Still a 200
    in memory: the service answers, its limits are only per worker meanwhile."""
    return jsonify(status="ok", limits=current_app.extensions["limits_storage"].current())


@bp.get("/openapi.yaml")
def openapi_yaml():
    return Response(spec_yaml(current_app.config.get("PUBLIC_URL")), mimetype="application/yaml")
