"""The chat loop: アイちゃん answers through any OpenAI-compatible model and calls the
scoring tools instead of doing arithmetic.

Each round sends the conversation and the tools; every tool call the model makes (several
per round too) is executed with the endpoint's own validation, and its result, or its
error, goes back to the model as a tool message so it can correct its arguments. After
``max_rounds`` rounds without a final answer the loop stops with an error. The API key is
only handed to the ``openai`` client: it never appears in a result, an error or a log.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

import openai
from marshmallow import ValidationError

from ..api.body import check_text
from ..errors import ApiError
from .prompts import Prompts
from .tools import UnknownTool, call_tool, error_body, tool_definitions

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ChatSettings:
    base_url: str | None
    api_key: str | None
    model: str
    timeout: float
    max_retries: int
    max_rounds: int


class ChatFailure(Exception):
    """The model could not give an answer; ``status`` is 502, 503 or 504."""

    def __init__(self, status: int, code: str, **params):
        super().__init__(code)
        self.status = status
        self.code = code
        self.params = params


@dataclass
class ToolCallRecord:
    name: str
    arguments: object
    result: dict


@dataclass
class ChatResult:
    reply: str
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    rounds: int = 0


def run_tool_call(name: str, raw_arguments: str, lang: str) -> ToolCallRecord:
    """Execute one call from the model; a failure becomes an error result, not an exception."""
    try:
        arguments = json.loads(raw_arguments or "{}")
        check_text(arguments)
    except ValueError as error:
        return ToolCallRecord(name, raw_arguments, error_body(error, lang))
    try:
        return ToolCallRecord(name, arguments, call_tool(name, arguments, lang))
    except (ValidationError, ApiError, UnknownTool) as error:
        return ToolCallRecord(name, arguments, error_body(error, lang))


def _complete(client: openai.OpenAI, settings: ChatSettings, conversation: list[dict]):
    """One round trip to the model, with its failures turned into ChatFailure."""
    try:
        completion = client.chat.completions.create(
            model=settings.model, messages=conversation, tools=tool_definitions()
        )
    except openai.APITimeoutError:
        raise ChatFailure(504, "model_timeout", seconds=settings.timeout) from None
    except openai.APIConnectionError:
        raise ChatFailure(502, "model_unreachable") from None
    except openai.APIStatusError as error:
        raise ChatFailure(502, "model_error", http_status=error.status_code) from None
    except (openai.APIError, ValueError, TypeError):
        raise ChatFailure(502, "model_bad_response") from None
    choices = getattr(completion, "choices", None)
    if not choices or getattr(choices[0], "message", None) is None:
        raise ChatFailure(502, "model_bad_response")
    return choices[0].message


def chat(messages: list[dict], lang: str, settings: ChatSettings, prompts: Prompts) -> ChatResult:
    """Answer the conversation; tool calls are executed until the model replies."""
    if not settings.api_key:
        raise ChatFailure(503, "chat_unconfigured")
    client = openai.OpenAI(
        api_key=settings.api_key,
        base_url=settings.base_url,
        timeout=settings.timeout,
        max_retries=settings.max_retries,
    )
    conversation = [{"role": "system", "content": prompts.system_for(lang)}, *messages]
    result = ChatResult(reply="")
    for round_number in range(1, settings.max_rounds + 1):
        result.rounds = round_number
        message = _complete(client, settings, conversation)
        calls = message.tool_calls or []
        if not calls:
            if not isinstance(message.content, str) or not message.content.strip():
                raise ChatFailure(502, "model_bad_response")
            result.reply = message.content
            return result
        conversation.append({
            "role": "assistant",
            "content": message.content,
            "tool_calls": [
                {"id": c.id, "type": "function", "function": {"name": c.function.name, "arguments": c.function.arguments}}
                for c in calls
            ],
        })
        for call in calls:
            record = run_tool_call(call.function.name, call.function.arguments, lang)
            result.tool_calls.append(record)
            log.info("tool call %s in round %d: %s", record.name, round_number,
                     "error" if "error" in record.result else "ok")
            conversation.append({
                "role": "tool",
                "tool_call_id": call.id,
                "content": json.dumps(record.result, ensure_ascii=False),
            })
    raise ChatFailure(502, "too_many_rounds", rounds=settings.max_rounds)
