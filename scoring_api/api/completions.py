"""アイちゃん as a model of OpenAI's Chat Completions API, for any chat frontend (Open WebUI,
LibreChat, the OpenAI SDKs...): ``GET /v1/models``, ``GET /v1/models/<model>`` and
``POST /v1/chat/completions``.

The same loop as ``POST /api/v1/chat`` (:func:`scoring_api.assistant.chat.answer`) with
the same key, limits, budget and deadline. The model ``ai-chan`` answers in Japanese,
``ai-chan-en`` in English. ``stream: true`` answers server-sent events in OpenAI's chunk
format, relaying the text as the upstream model streams it; nothing is sent before the
first piece of text, so a failure until then (a tool round's too) is an ordinary JSON
error, and one after it ends the stream with an ``error`` event. Errors have OpenAI's shape
(``{"error": {"message", "type", "code", "param"}}``), an unknown ``/v1`` path's and a wrong
method's too. See docs/chat-frontends.md.

The conversation may hold another model's tool use (a frontend's history): it reaches the
model as plain text (:mod:`scoring_api.assistant.history`). ``response_format`` other than
``{"type": "text"}`` is refused with a 400 naming it: アイちゃん answers in prose, and a
client that asked for JSON would fail on her answer instead.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Generator, Iterator, Mapping
from contextlib import ExitStack
from dataclasses import replace
from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify, request, stream_with_context
from flask_limiter import RateLimitExceeded
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound

from ..assistant.chat import ChatResult, answer
from ..assistant.failures import ChatFailure
from ..assistant.history import model_messages
from ..assistant.pictures import check_pictures
from ..error_shape import ApiError, api_error_body, validation_error_body
from ..i18n import DEFAULT_LANG, join_list, t
from ..schemas.completions import (
    ChunkSchema,
    CompletionRequestSchema,
    CompletionSchema,
    ModelListSchema,
    ModelSchema,
)
from ..schemas.localized import localized
from .assistant import chat_error, chat_settings, check_chat_key
from .body import read_chat_json
from .error_handlers import _http_error, response_lang
from .limits import ChatAllowance, _too_many, client_id
from .metrics import count_chat

log = logging.getLogger(__name__)

models_bp = Blueprint("models", __name__, url_prefix="/v1")
completions_bp = Blueprint("completions", __name__, url_prefix="/v1")

#: The models this endpoint offers, and the language each answers in.
MODELS = {"ai-chan": "ja", "ai-chan-en": "en"}
#: When the models were first offered (``created`` of the model list).
MODELS_CREATED = 1_796_169_600  # 2026-12-01

#: The answers' schemas, one instance each per worker (dumping keeps no state): making one
#: copies its fields and its nested schemas', about 0.1 ms, once per streamed chunk before.
_COMPLETION = CompletionSchema()
_CHUNK = ChunkSchema()

#: OpenAI's error types by status.
ERROR_TYPES = {401: "authentication_error", 403: "permission_error", 429: "rate_limit_error"}

#: A JSON document this endpoint answers (its values are the schemas' and the loop's).
Document = dict[str, object]
#: The service's JSON error document ({"error": {"code", "message", "details"}}), as
#: error_shape makes it: Any, as it is typed there.
ErrorDocument = Mapping[str, Any]
#: An error handler's answer: OpenAI's error document, the status and the headers.
ErrorAnswer = tuple[Document, int, dict[str, str]]


#: The answers' schemas for the models, one instance each per worker.
_MODEL = ModelSchema()
_MODEL_LIST = ModelListSchema()


def _model(name: str) -> Document:
    return {"id": name, "object": "model", "created": MODELS_CREATED, "owned_by": "scoring-api"}


@models_bp.get("/models")
def models() -> Response:
    """The models: アイちゃん in Japanese and in English."""
    check_chat_key(current_app.config)
    return jsonify(_MODEL_LIST.dump({"object": "list", "data": [_model(name) for name in MODELS]}))


@models_bp.get("/models/<path:model>")
def model(model: str) -> Response:
    """One model, as OpenAI's ``GET /v1/models/{model}`` answers it (a 404
    ``model_not_found`` for a model this endpoint does not offer)."""
    check_chat_key(current_app.config)
    if model not in MODELS:
        raise _model_not_found(model, response_lang())
    return jsonify(_MODEL.dump(_model(model)))


def _model_not_found(name: str, lang: str) -> ApiError:
    return ApiError(
        404, "model_not_found", "assistant.model_not_found", model=name, models=join_list(list(MODELS), lang)
    )


@completions_bp.post("/chat/completions")
def chat_completions() -> Response:
    """アイちゃん answers the conversation, calling the scorers; streamed on request."""
    check_chat_key(current_app.config)
    document = read_chat_json()  # type: ignore[no-untyped-call]  # any JSON value (body.py is untyped)
    model = document.get("model") if isinstance(document, dict) else None
    g.chat_lang = lang = MODELS.get(model, DEFAULT_LANG) if isinstance(model, str) else DEFAULT_LANG
    asked = localized(CompletionRequestSchema, lang).load(document)
    if asked["model"] not in MODELS:
        raise _model_not_found(asked["model"], lang)
    _refuse_response_format(asked["response_format"], lang)
    check_pictures(asked["messages"], current_app.config["CHAT_VISION"], lang)
    messages = model_messages(asked["messages"], lang)
    if not messages:
        raise ApiError(
            400, "invalid_input", "errors.invalid_input", details={"messages": [t("assistant.no_message_text", lang)]}
        )
    prompts = current_app.extensions.get("prompts")
    if prompts is None:
        raise ApiError(503, "prompts_missing", "assistant.prompts_missing")
    allowance = current_app.extensions["chat_allowance"]
    budget = allowance.budget_for(client_id())  # each round reserved, then settled (a 429 when spent)
    settings = chat_settings(current_app.config)
    wanted = [n for n in (asked["max_tokens"], asked["max_completion_tokens"]) if n is not None]
    settings = replace(settings, max_tokens=min([settings.max_tokens, *wanted]), temperature=asked["temperature"])
    reply = _Reply(asked["model"])
    if not asked["stream"]:
        try:
            with allowance.slot():
                loop = answer(messages, lang, settings, prompts, budget)
                result = _run_to_end(loop)
                count_chat(result)
        except ChatFailure as failure:
            raise chat_error(failure) from None
        return jsonify(_COMPLETION.dump(reply.completion(result)))
    include_usage = bool((asked["stream_options"] or {}).get("include_usage"))
    return _stream(reply, answer(messages, lang, settings, prompts, budget, stream=True), allowance, include_usage)


def _refuse_response_format(response_format: Mapping[str, object] | None, lang: str) -> None:
    """``response_format`` other than text is refused: the answer is アイちゃん's prose, which
    a client expecting JSON (``chat.completions.parse``, LangChain's
    ``with_structured_output``) could not read."""
    if response_format is None or response_format["type"] == "text":
        return
    kind = response_format["type"]
    reason = t("assistant.response_format_unsupported", lang, kind=kind)
    raise ApiError(
        400,
        "unsupported_parameter",
        "assistant.response_format_unsupported",
        details={"response_format": [reason]},
        kind=kind,
    )


def _run_to_end(loop: Generator[str, None, ChatResult]) -> ChatResult:
    while True:
        try:
            next(loop)
        except StopIteration as done:
            result: ChatResult = done.value
            return result


class _Reply:
    """One answer's identity and its shapes: the completion, and the chunks of a stream."""

    def __init__(self, model: str) -> None:
        self.id = "chatcmpl-" + uuid.uuid4().hex
        self.created = int(time.time())
        self.model = model

    def _head(self, kind: str) -> Document:
        return {"id": self.id, "object": kind, "created": self.created, "model": self.model}

    def completion(self, result: ChatResult) -> Document:
        return {
            **self._head("chat.completion"),
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": result.reply}, "finish_reason": "stop"}
            ],
            "usage": vars(result.usage),
            "ai_chan": _trace(result),
        }

    def chunk(self, delta: Document, finish: str | None = None, **extra: object) -> str:
        document = {
            **self._head("chat.completion.chunk"),
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            **extra,
        }
        return _event(_CHUNK.dump(document))

    def usage(self, result: ChatResult) -> str:
        document = {**self._head("chat.completion.chunk"), "choices": [], "usage": vars(result.usage)}
        return _event(_CHUNK.dump(document))


def _trace(result: ChatResult) -> Document:
    return {"tool_calls": [vars(call) for call in result.tool_calls], "rounds": result.rounds}


def _event(document: Mapping[str, object]) -> str:
    return "data: " + json.dumps(document, ensure_ascii=False) + "\n\n"


def _stream(
    reply: _Reply, loop: Generator[str, None, ChatResult], allowance: ChatAllowance, include_usage: bool
) -> Response:
    """The answer as server-sent events, once the loop has its first piece of text."""
    held = ExitStack()
    held.callback(loop.close)
    try:
        held.enter_context(allowance.slot())
        first = _next(loop)
    except ChatFailure as failure:
        held.close()
        raise chat_error(failure) from None
    except BaseException:
        held.close()
        raise
    response = Response(
        stream_with_context(_events(reply, first, loop, include_usage)),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
    response.call_on_close(held.close)
    return response


def _next(loop: Generator[str, None, ChatResult]) -> str | ChatResult:
    """The loop's next piece of text, or its result when it has finished."""
    try:
        return next(loop)
    except StopIteration as done:
        result: ChatResult = done.value
        return result


def _events(
    reply: _Reply, first: str | ChatResult, loop: Generator[str, None, ChatResult], include_usage: bool
) -> Iterator[str]:
    yield reply.chunk({"role": "assistant", "content": ""})
    step = first
    try:
        while isinstance(step, str):
            yield reply.chunk({"content": step})
            step = _next(loop)
    except (ChatFailure, ApiError) as failure:  # ApiError: a later round the budget does not cover
        error = chat_error(failure) if isinstance(failure, ChatFailure) else failure
        body, _status, _ = _openai_shape(api_error_body(error, g.get("chat_lang", DEFAULT_LANG)), error.status)
        yield _event(body)
        return
    except Exception:
        log.exception("the chat stream failed")
        body, _, _ = _openai_shape(
            {
                "error": {
                    "code": "internal_error",
                    "message": t("errors.internal_error", g.get("chat_lang", DEFAULT_LANG)),
                    "details": {},
                }
            },
            500,
        )
        yield _event(body)
        return
    count_chat(step)
    yield reply.chunk({}, "stop", ai_chan=_trace(step))
    if include_usage:
        yield reply.usage(step)
    yield "data: [DONE]\n\n"


# --- errors in OpenAI's shape ------------------------------------------------------------


def _openai_shape(document: ErrorDocument, status: int, headers: Mapping[str, str] | None = None) -> ErrorAnswer:
    """The service's error document as OpenAI's: ``message`` names the first bad fields,
    ``param`` the first; the service's ``details`` stay as an extension."""
    error = document["error"]
    details = error.get("details") or {}
    message = error["message"]
    if details:
        message = "; ".join(f"{path}: {' '.join(reasons)}" for path, reasons in list(details.items())[:3])
    kind = ERROR_TYPES.get(status, "api_error" if status >= 500 else "invalid_request_error")
    param = next(iter(details), None)
    shaped = {"message": message, "type": kind, "code": error["code"], "param": param if param != "$" else None}
    if details:
        shaped["details"] = details
    return {"error": shaped}, status, dict(headers or {})


def _lang() -> str:
    return g.get("chat_lang") or response_lang()


def _on_api_error(error: ApiError) -> ErrorAnswer:
    return _openai_shape(api_error_body(error, _lang()), error.status, error.headers)


def _on_validation_error(error: ValidationError) -> ErrorAnswer:
    return _openai_shape(validation_error_body(error, _lang()), 400)


def _on_http_error(error: HTTPException) -> ErrorAnswer:
    if isinstance(error, RateLimitExceeded):
        body, status, headers = _too_many(error)
        return _openai_shape(body, status, headers)
    response = _http_error(error)
    return _openai_shape(
        json.loads(response.get_data()), response.status_code, {k: v for k, v in response.headers if k == "Allow"}
    )


def _on_unexpected(error: Exception) -> ErrorAnswer:
    current_app.logger.exception("unhandled error on the OpenAI-compatible endpoint")
    return _openai_shape(
        {"error": {"code": "internal_error", "message": t("errors.internal_error", _lang()), "details": {}}}, 500
    )


def _is_v1(path: str) -> bool:
    return path == models_bp.url_prefix or path.startswith(f"{models_bp.url_prefix}/")


@models_bp.app_errorhandler(NotFound)
@models_bp.app_errorhandler(MethodNotAllowed)
def _on_routing_error(error: HTTPException) -> ErrorAnswer | Response:
    """An unknown path under ``/v1``, or a wrong method there, in OpenAI's error shape (the
    router refuses those before any blueprint is chosen, so the handler is the app's);
    every other path keeps the service's shape."""
    if _is_v1(request.path):
        return _on_http_error(error)
    response: Response = _http_error(error)
    return response


for _blueprint in (models_bp, completions_bp):
    _blueprint.register_error_handler(ApiError, _on_api_error)
    _blueprint.register_error_handler(ValidationError, _on_validation_error)
    _blueprint.register_error_handler(HTTPException, _on_http_error)
    _blueprint.register_error_handler(RateLimitExceeded, _on_http_error)  # before the app's own 429 handler
    _blueprint.register_error_handler(Exception, _on_unexpected)
