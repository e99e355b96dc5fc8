"""The assistant's routes: the tools list, tool execution over HTTP, and the chat."""

from __future__ import annotations

import logging
import math

from flask import Blueprint, current_app, jsonify

from ..assistant.chat import chat
from ..assistant.failures import ChatFailure
from ..assistant.pictures import check_pictures
from ..assistant.settings import ChatSettings
from ..error_shape import ApiError
from ..i18n import join_list
from ..schemas.assistant import ChatRequestSchema, ChatResponseSchema
from ..schemas.localized import localized
from ..tools import UnknownTool, call_tool, tool_definitions, tool_names
from .body import read_chat_json, read_json, request_lang
from .limits import KeyCheck, caller, client_id, too_many_wrong_keys
from .metrics import count_chat

log = logging.getLogger(__name__)

tools_bp = Blueprint("tools", __name__, url_prefix="/api/v1")
chat_bp = Blueprint("chat", __name__, url_prefix="/api/v1")


@tools_bp.get("/tools")
def tools():
    """The OpenAI ``tools`` array, one strict function per scoring operation."""
    return jsonify(tool_definitions())


@tools_bp.post("/tools/<name>")
def run_tool(name: str):
    """Execute one tool call: the function's arguments as the body."""
    lang = request_lang()
    arguments = read_json()
    try:
        return jsonify(call_tool(name, arguments, lang))
    except UnknownTool:
        raise ApiError(
            404, "unknown_tool", "assistant.unknown_tool", name=name, tools=join_list(tool_names(), lang)
        ) from None


def chat_settings(config) -> ChatSettings:
    """The model behind the chat, from OPENAI_* and SCORING_CHAT_* settings; a tool call's
    arguments are bounded like a REST body (MAX_CONTENT_LENGTH)."""
    return ChatSettings(
        base_url=config.get("OPENAI_BASE_URL") or None,
        api_key=config.get("OPENAI_API_KEY") or None,
        model=config.get("OPENAI_MODEL") or "gpt-4o-mini",
        timeout=float(config["CHAT_TIMEOUT"]),
        max_retries=int(config["CHAT_MAX_RETRIES"]),
        max_rounds=int(config["CHAT_MAX_ROUNDS"]),
        deadline=float(config["CHAT_DEADLINE"]),
        max_tokens=int(config["CHAT_MAX_TOKENS"]),
        max_tool_calls=int(config["CHAT_MAX_TOOL_CALLS"]),
        tool_result_limit=int(config["CHAT_TOOL_RESULT_LIMIT"]),
        max_argument_bytes=int(config["MAX_CONTENT_LENGTH"] or 64 * 1024),
        vision=bool(config["CHAT_VISION"]),
    )


def check_chat_key(config) -> None:
    """When a model key is configured, the chat spends its credits: a client must send
    ``Authorization: Bearer <key>`` with one of ``SCORING_API_KEYS``, unless the operator
    opened the chat (``SCORING_CHAT_OPEN``). Refused with a 401 before anything is read, or
    a 429 ``too_many_wrong_keys`` when the address has sent too many wrong keys (the key
    is then not even compared; :func:`scoring_api.api.limits.caller` checks it, in
    constant time, and never logs it)."""
    if not config.get("OPENAI_API_KEY") or config["CHAT_OPEN"]:
        return
    found = caller()
    if found.key is KeyCheck.LOCKED:
        raise too_many_wrong_keys(found)
    if found.key is KeyCheck.MISSING:
        raise ApiError(401, "chat_key_missing", "assistant.chat_key_missing", headers=CHALLENGE)
    if found.key is not KeyCheck.RIGHT:
        raise ApiError(401, "chat_key_wrong", "assistant.chat_key_wrong", headers=CHALLENGE)


#: The chat's answer schema, one instance per worker (dumping keeps no state).
_CHAT_RESPONSE = ChatResponseSchema()

#: How a client is told to authenticate (RFC 6750).
CHALLENGE = {"WWW-Authenticate": 'Bearer realm="chat"'}


@chat_bp.post("/chat")
def chat_view():
    """アイちゃん answers the conversation, calling the scoring tools as she needs; the
    body may carry photos (``CHAT_MAX_BODY_BYTES``, :mod:`scoring_api.assistant.pictures`)."""
    lang = request_lang()
    check_chat_key(current_app.config)
    asked = localized(ChatRequestSchema, lang).load(read_chat_json())
    check_pictures(asked["messages"], current_app.config["CHAT_VISION"], lang)
    prompts = current_app.extensions.get("prompts")
    if prompts is None:
        raise ApiError(503, "prompts_missing", "assistant.prompts_missing")
    allowance = current_app.extensions["chat_allowance"]
    budget = allowance.budget_for(client_id())  # each round reserved, then settled (a 429 when spent)
    try:
        with allowance.slot():
            result = chat(asked["messages"], lang, chat_settings(current_app.config), prompts, budget)
    except ChatFailure as failure:
        raise chat_error(failure) from None
    count_chat(result)
    return jsonify(_CHAT_RESPONSE.dump(result))


def chat_error(failure: ChatFailure) -> ApiError:
    """A chat that could not answer, as the service's error (logged without text or key)."""
    log.warning("chat failed: %s (%d)", failure.code, failure.status)
    params = {k: (math.ceil(v) if isinstance(v, float) else v) for k, v in failure.params.items()}
    return ApiError(failure.status, failure.code, f"assistant.{failure.code}", **params)
