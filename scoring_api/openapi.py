"""The OpenAPI 3.1 document, generated from the operation registry and its schemas.

``python -m scoring_api.openapi > openapi.yaml`` writes the committed file; a test checks
that the committed file equals this output, and ``GET /openapi.yaml`` serves it.
"""

from __future__ import annotations

from functools import lru_cache

import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from . import __version__
from .schemas.common import ErrorSchema, HealthSchema

API_PREFIX = "/api/v1"

DESCRIPTION = (
    "Exact scores for the board games Apero, Applejack, Pedro and Fairy & Black Box, with "
    "the working shown. Explanations follow `?lang=ja` (default) or `?lang=en`. Every error "
    'has the shape `{"error": {"code", "message", "details"}}`, where `details` maps the '
    "JSON path of each bad field to its reasons."
)

TAGS = {
    "apero": "Apero (アペロ): colour sets combined with + and ×.",
    "applejack": "Applejack: orchard harvests, beehive honey, blossoms and final scoring.",
    "pedro": "Pedro (ピードロ): auction, tricks, point cards, settlement, whole games.",
    "fairy_black_box": "Fairy & Black Box (フェアリー＆ブラックボックス): final scores and end checks.",
    "service": "Health and this document.",
}

LANG_PARAMETER = {
    "name": "lang",
    "in": "query",
    "required": False,
    "description": "Language of explanations and error messages (default ja).",
    "schema": {"type": "string", "enum": ["ja", "en"], "default": "ja"},
}


def _error(description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": ErrorSchema}}}


ERROR_RESPONSES = {
    "400": _error("Malformed JSON or invalid input; details name each bad field."),
    "405": _error("Method not allowed (see the Allow header)."),
    "413": _error("Request body too large."),
    "415": _error("Body is not application/json."),
}


def _operation(op) -> dict:
    """One operation object: POST reads a JSON body, GET the query string."""
    described = {
        "operationId": op.operation_id,
        "summary": op.summary,
        "description": op.description,
        "tags": [op.tag],
        "parameters": [LANG_PARAMETER],
        "responses": {
            "200": {
                "description": "The result, with explanations.",
                "content": {"application/json": {"schema": op.response}},
            },
            "400": ERROR_RESPONSES["400"],
            "405": ERROR_RESPONSES["405"],
        },
    }
    if op.method == "GET":
        described["parameters"] = [{"in": "query", "schema": op.request}, LANG_PARAMETER]
    else:
        described["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": op.request}},
        }
        described["responses"].update({"413": ERROR_RESPONSES["413"], "415": ERROR_RESPONSES["415"]})
    return described


def build_spec() -> dict:
    """The whole OpenAPI document as a dict."""
    from .api.operations import load_operations

    spec = APISpec(
        title="Board-game scoring API",
        version=__version__,
        openapi_version="3.1.0",
        plugins=[MarshmallowPlugin()],
        info={"description": DESCRIPTION},
        servers=[{"url": "http://127.0.0.1:8000", "description": "Local server (README)"}],
    )
    operations = load_operations()
    used = {op.tag for op in operations} | {"service"}
    for name, description in TAGS.items():
        if name in used:
            spec.tag({"name": name, "description": description})
    for op in operations:
        spec.path(path=API_PREFIX + op.path, operations={op.method.lower(): _operation(op)})
    spec.path(
        path="/healthz",
        operations={
            "get": {
                "operationId": "healthz",
                "summary": "Liveness check.",
                "description": "Answers {\"status\": \"ok\"} while the service runs.",
                "tags": ["service"],
                "responses": {
                    "200": {
                        "description": "The service is up.",
                        "content": {"application/json": {"schema": HealthSchema}},
                    },
                    "405": ERROR_RESPONSES["405"],
                },
            }
        },
    )
    spec.path(
        path="/openapi.yaml",
        operations={
            "get": {
                "operationId": "openapi_document",
                "summary": "This OpenAPI document.",
                "description": "The committed openapi.yaml, generated from the schemas.",
                "tags": ["service"],
                "responses": {
                    "200": {
                        "description": "OpenAPI 3.1 document in YAML.",
                        "content": {"application/yaml": {"schema": {"type": "string"}}},
                    },
                    "405": ERROR_RESPONSES["405"],
                },
            }
        },
    )
    return spec.to_dict()


@lru_cache(maxsize=1)
def spec_yaml() -> str:
    """The document as YAML text, exactly as committed in ``openapi.yaml``."""
    return yaml.safe_dump(build_spec(), sort_keys=False, allow_unicode=True, width=100)


if __name__ == "__main__":
    print(spec_yaml(), end="")
