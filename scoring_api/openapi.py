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
    "rules": "The rules documents of every game, in Japanese and English, whole or by section.",
    "assistant": "Tools for LLMs and the chat with アイちゃん.",
    "service": "Health and this document.",
}

#: The API's terms: the project's licence (LICENSE, and ``license`` in pyproject.toml). No
#: ``contact``: the project publishes no address, and a placeholder would mislead.
LICENSE = {"name": "MIT", "identifier": "MIT"}

#: ``GET /openapi.yaml`` answers a YAML document: a mapping (the schema applies to the
#: parsed document, as for JSON), not a YAML string scalar.
OPENAPI_DOCUMENT = {
    "type": "object",
    "required": ["openapi", "info", "paths"],
    "properties": {
        "openapi": {"type": "string", "pattern": "^3\\.1\\.\\d+$"},
        "info": {"type": "object"},
        "paths": {"type": "object"},
    },
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
    "429": {
        **_error("Too many requests from this client (SCORING_RATE_LIMIT, SCORING_CHAT_RATE_LIMIT)."),
        "headers": {"Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}},
    },
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
            "429": ERROR_RESPONSES["429"],
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


def _assistant_paths(spec: APISpec, operations) -> None:
    """The tools list, one tool-execution path per tool (its strict schema as the body),
    and the chat."""
    from .schemas.assistant import ChatRequestSchema, ChatResponseSchema
    from .tools import documented_parameters, tool_definitions

    spec.path(
        path=API_PREFIX + "/tools",
        operations={
            "get": {
                "operationId": "list_tools",
                "summary": "The scorers as OpenAI function-calling tools.",
                "description": "The `tools` array to pass to an OpenAI-compatible model: one strict "
                "function per scoring operation, its parameters generated from the endpoint's schema.",
                "tags": ["assistant"],
                "responses": {
                    "200": {
                        "description": "The tools array.",
                        "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object"}}}},
                    },
                    "405": ERROR_RESPONSES["405"],
                },
            }
        },
    )
    by_name = {op.operation_id: op for op in operations}
    for tool in tool_definitions():
        function = tool["function"]
        op = by_name[function["name"]]
        spec.path(
            path=f"{API_PREFIX}/tools/{function['name']}",
            operations={
                "post": {
                    "operationId": f"call_tool_{function['name']}",
                    "summary": f"Run the {function['name']} tool with the model's arguments.",
                    "description": "Same validation, rules and answer as the REST endpoint; optional "
                    "fields may be null, maps come as lists of {key, value} pairs.",
                    "tags": ["assistant"],
                    "parameters": [LANG_PARAMETER],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": documented_parameters(function["name"]),
                            }
                        },
                    },
                    "responses": {
                        "200": {
                            "description": "The tool's result.",
                            "content": {"application/json": {"schema": op.response}},
                        },
                        **ERROR_RESPONSES,
                    },
                }
            },
        )
    spec.path(
        path=API_PREFIX + "/chat",
        operations={
            "post": {
                "operationId": "chat",
                "summary": "Ask アイちゃん; she calls the scorers instead of doing arithmetic.",
                "description": "Sends the conversation to the configured OpenAI-compatible model with "
                "the tools, executes its tool calls, and returns the reply with every call made.",
                "tags": ["assistant"],
                "security": [{"chatKey": []}, {}],
                "parameters": [LANG_PARAMETER],
                "requestBody": {"required": True, "content": {"application/json": {"schema": ChatRequestSchema}}},
                "responses": {
                    "200": {
                        "description": "The reply and the tool calls.",
                        "content": {"application/json": {"schema": ChatResponseSchema}},
                    },
                    **ERROR_RESPONSES,
                    "401": _error(
                        "A model is configured and the request has no key, or a key the service does not know."
                    ),
                    "502": _error("The model endpoint failed, answered garbage, or kept calling tools."),
                    "503": _error("No model is configured (OPENAI_API_KEY), or the prompts are missing."),
                    "504": _error("The model did not answer in time."),
                },
            }
        },
    )


def build_spec() -> dict:
    """The whole OpenAPI document as a dict."""
    from .operations.registry import OPERATIONS

    spec = APISpec(
        title="Board-game scoring API",
        version=__version__,
        openapi_version="3.1.0",
        plugins=[MarshmallowPlugin()],
        info={"description": DESCRIPTION, "license": LICENSE},
        servers=[{"url": "http://127.0.0.1:8000", "description": "Local server (README)"}],
        security=[],  # only the chat may need a key (its own security below)
    )
    spec.components.security_scheme(
        "chatKey",
        {
            "type": "http",
            "scheme": "bearer",
            "description": "A key from SCORING_API_KEYS; required by the chat when a model is configured, "
            "unless the operator opened it (SCORING_CHAT_OPEN).",
        },
    )
    operations = OPERATIONS
    used = {op.tag for op in operations} | {"service", "assistant"}
    for name, description in TAGS.items():
        if name in used:
            spec.tag({"name": name, "description": description})
    for op in operations:
        spec.path(path=API_PREFIX + op.path, operations={op.method.lower(): _operation(op)})
    _assistant_paths(spec, operations)
    spec.path(
        path="/healthz",
        operations={
            "get": {
                "operationId": "healthz",
                "summary": "Liveness check.",
                "description": 'Answers {"status": "ok", "limits": "redis"} while the service runs; "memory" '
                "while the rate limits are counted in this worker's memory (configured so, or Redis not answering).",
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
                        "content": {"application/yaml": {"schema": OPENAPI_DOCUMENT}},
                    },
                    "405": ERROR_RESPONSES["405"],
                },
            }
        },
    )
    return spec.to_dict()


@lru_cache(maxsize=4)
def spec_yaml(public_url: str | None = None) -> str:
    """The document as YAML text, exactly as committed in ``openapi.yaml``.

    A deployer sets ``SCORING_PUBLIC_URL`` (e.g. ``https://scoring.example.com``) so that
    hosted assistants importing ``GET /openapi.yaml`` as an action schema call the
    deployment: that URL becomes the first ``servers`` entry."""
    spec = build_spec()
    if public_url:
        spec["servers"] = [{"url": public_url.rstrip("/"), "description": "This deployment"}, *spec["servers"]]
    return yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=100)


if __name__ == "__main__":
    print(spec_yaml(), end="")
