"""The chat loop: アイちゃん answers through any OpenAI-compatible model and calls the
scoring tools instead of doing arithmetic.

Each round sends the conversation and the tools; every tool call the model makes (several
per round too) is executed with the endpoint's own validation, and its result, or its
error, goes back to the model as a tool message so it can correct its arguments. After
``max_rounds`` rounds without a final answer the loop stops with an error. The API key is
only handed to the ``openai`` client: it never appears in a result, an error or a log.

The model is untrusted input:

* Its reply is read from the raw response body (at most :data:`MAX_RESPONSE_BYTES`, by
  orjson, which refuses nesting over 1,024 levels) and checked here, field by field: a
  message that is not an object, ``tool_calls`` that is not a list, a call without a
  ``function``, ``arguments`` that are not a string... is a 502 ``model_bad_response``,
  never a 500.
* A call's ``arguments`` string is read by :mod:`.arguments` (bounded before parsing:
  size and depth; repeated keys refused); a refusal is an error tool result.
* At most ``max_tool_calls`` calls run per round; each further one still gets its tool
  message (the API wants one per call id), an error ``too_many_tool_calls``.
* A tool result longer than ``tool_result_limit`` bytes (as JSON) goes back to the model
  as a short ``tool_result_too_long`` error; the chat's answer keeps the full result.

Time: one deadline (``deadline`` seconds) covers the whole chat, every round and retry.
Each model request may take ``min(timeout, time left)``, the retries are this module's
own loop (the client's are off) and never start past the deadline, and reading a
response stops there too; past it the chat is a 504 ``chat_deadline``. A request that
times out with time left is a 504 ``model_timeout`` (after its retries).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import openai
import orjson
from marshmallow import ValidationError

try:  # the HTTP library the openai client is built on (httpx2 from openai 3, else httpx)
    import httpx2 as _http
except ImportError:  # pragma: no cover
    import httpx as _http  # type: ignore[no-redef]

from ..errors import ApiError
from ..i18n import t
from .arguments import ArgumentsError, read_arguments
from .prompts import Prompts
from .tools import UnknownTool, call_tool, error_body, tool_definitions, tool_names

log = logging.getLogger(__name__)

#: Largest model response read (decoded bytes); a longer one is a 502. 32,768 tokens of
#: arguments with every character escaped stay well below it.
MAX_RESPONSE_BYTES = 2 * 1024 * 1024
#: Status codes worth a retry (as the openai client's own policy).
RETRY_STATUSES = frozenset({408, 409, 429})
#: First pause before a retry, doubled each time, at most RETRY_PAUSE_MAX.
RETRY_PAUSE = 0.5
RETRY_PAUSE_MAX = 4.0


@dataclass(frozen=True)
class ChatSettings:
    base_url: str | None
    api_key: str | None
    model: str
    timeout: float  # one model request, seconds
    max_retries: int  # retries of a failed model request
    max_rounds: int  # model round trips
    deadline: float = 25.0  # the whole chat, seconds
    max_tokens: int = 1024  # sent as max_tokens with every request
    max_tool_calls: int = 8  # tool calls run per round
    tool_result_limit: int = 8192  # bytes of one tool result sent back to the model
    max_argument_bytes: int = 65536  # bytes of one call's arguments (the REST body limit)


class ChatFailure(Exception):
    """The model could not give an answer; ``status`` is 502, 503 or 504."""

    def __init__(self, status: int, code: str, **params):
        super().__init__(code)
        self.status = status
        self.code = code
        self.params = params


class _Retryable(Exception):
    """A failure another attempt may cure; ``failure`` is what to answer if none does."""

    def __init__(self, failure: ChatFailure):
        super().__init__(failure.code)
        self.failure = failure


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


@dataclass(frozen=True)
class ModelCall:
    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class ModelMessage:
    content: str | None
    tool_calls: list[ModelCall]
    tokens: int = 0  # the usage the model reported (total_tokens; 0 when it reported none)


class Deadline:
    """The time left for the whole chat."""

    def __init__(self, seconds: float, clock=time.monotonic):
        self.seconds = seconds
        self._clock = clock
        self._end = clock() + seconds

    def remaining(self) -> float:
        return self._end - self._clock()

    def failure(self) -> ChatFailure:
        return ChatFailure(504, "chat_deadline", seconds=self.seconds)


def run_tool_call(name: str, raw_arguments: str, lang: str, max_argument_bytes: int = 65536) -> ToolCallRecord:
    """Execute one call from the model; a failure becomes an error result, not an exception.

    The record's ``arguments`` are the parsed object, or the raw string when it could not be
    read (``None`` when it was over the size bound, so the answer does not echo it)."""
    try:
        arguments = read_arguments(raw_arguments, max_argument_bytes)
    except ArgumentsError as error:
        shown = raw_arguments if len(raw_arguments) <= max_argument_bytes else None
        return ToolCallRecord(name, shown, error_body(error, lang))
    try:
        return ToolCallRecord(name, arguments, call_tool(name, arguments, lang))
    except (ValidationError, ApiError, UnknownTool) as error:
        return ToolCallRecord(name, arguments, error_body(error, lang))


def _bad_response() -> ChatFailure:
    return ChatFailure(502, "model_bad_response")


def read_message(document) -> ModelMessage:
    """The first choice's message of a chat completion, every field checked (502 if not)."""
    choices = document.get("choices") if isinstance(document, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise _bad_response()
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise _bad_response()
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        raise _bad_response()
    raw_calls = message.get("tool_calls")
    if raw_calls is None:
        raw_calls = []
    if not isinstance(raw_calls, list):
        raise _bad_response()
    calls = []
    for raw in raw_calls:
        function = raw.get("function") if isinstance(raw, dict) else None
        if not isinstance(function, dict):
            raise _bad_response()
        call_id, name, arguments = raw.get("id"), function.get("name"), function.get("arguments")
        if not (isinstance(call_id, str) and call_id and isinstance(name, str) and isinstance(arguments, str)):
            raise _bad_response()
        if raw.get("type", "function") != "function":
            raise _bad_response()
        calls.append(ModelCall(call_id, name, arguments))
    return ModelMessage(content, calls, _tokens(document.get("usage")))


def _tokens(usage) -> int:
    """``usage.total_tokens``, or prompt plus completion tokens; 0 when not reported."""
    if not isinstance(usage, dict):
        return 0
    total = usage.get("total_tokens")
    if not (isinstance(total, int) and not isinstance(total, bool)):
        parts = [usage.get("prompt_tokens"), usage.get("completion_tokens")]
        total = sum(p for p in parts if isinstance(p, int) and not isinstance(p, bool))
    return min(max(total, 0), 10**9)


def _read_body(response, deadline: Deadline) -> bytes:
    """The response body, at most MAX_RESPONSE_BYTES, stopping at the deadline."""
    parts, size = [], 0
    for part in response.iter_bytes():
        size += len(part)
        if size > MAX_RESPONSE_BYTES:
            raise _bad_response()
        if deadline.remaining() <= 0:
            raise deadline.failure()
        parts.append(part)
    return b"".join(parts)


def _timed_out(deadline: Deadline, seconds: float) -> Exception:
    if deadline.remaining() <= 0.01:  # the request had only the time left
        return deadline.failure()
    return _Retryable(ChatFailure(504, "model_timeout", seconds=seconds))


def _request(
    client: openai.OpenAI, settings: ChatSettings, conversation: list[dict], deadline: Deadline
) -> ModelMessage:
    """One model request of at most ``min(timeout, time left)`` seconds."""
    seconds = min(settings.timeout, deadline.remaining())
    try:
        with client.chat.completions.with_streaming_response.create(
            model=settings.model,
            messages=cast(Any, conversation),  # plain dicts of the chat-completions shape
            tools=cast(Any, tool_definitions()),
            max_tokens=settings.max_tokens,
            timeout=seconds,
        ) as response:
            body = _read_body(response, deadline)
    except openai.APITimeoutError:
        raise _timed_out(deadline, seconds) from None
    except openai.APIConnectionError:
        raise _Retryable(ChatFailure(502, "model_unreachable")) from None
    except openai.APIStatusError as error:
        failure = ChatFailure(502, "model_error", http_status=error.status_code)
        if error.status_code in RETRY_STATUSES or error.status_code >= 500:
            raise _Retryable(failure) from None
        raise failure from None
    except _http.TimeoutException:  # while reading the body
        raise _timed_out(deadline, seconds) from None
    except _http.HTTPError:
        raise _Retryable(ChatFailure(502, "model_unreachable")) from None
    except (openai.APIError, ValueError, TypeError):
        raise _bad_response() from None
    try:
        document = orjson.loads(body)
    except orjson.JSONDecodeError:  # also nesting over 1,024 levels
        raise _bad_response() from None
    return read_message(document)


def _complete(
    client: openai.OpenAI, settings: ChatSettings, conversation: list[dict], deadline: Deadline
) -> ModelMessage:
    """One round trip to the model with up to ``max_retries`` retries, all before the deadline."""
    attempt = 0
    while True:
        if deadline.remaining() <= 0:
            raise deadline.failure()
        try:
            return _request(client, settings, conversation, deadline)
        except _Retryable as retryable:
            if attempt >= settings.max_retries:
                raise retryable.failure from None
            pause = min(RETRY_PAUSE * 2**attempt, RETRY_PAUSE_MAX)
            if deadline.remaining() <= pause:  # no time for another attempt: say what failed
                raise retryable.failure from None
            attempt += 1
            time.sleep(pause)


def tool_content(result: dict, limit: int, lang: str) -> str:
    """The tool message for the model: the result as JSON, or a short error if longer than
    ``limit`` bytes."""
    text = json.dumps(result, ensure_ascii=False)
    size = len(text.encode("utf-8"))
    if size <= limit:
        return text
    message = t("assistant.tool_result_too_long", lang, size=size, limit=limit)
    error = {"error": {"code": "tool_result_too_long", "message": message, "details": {}}}
    return json.dumps(error, ensure_ascii=False)


def _skipped(call: ModelCall, settings: ChatSettings, lang: str) -> ToolCallRecord:
    """A call over the per-round limit: not run, not even parsed."""
    message = t("assistant.too_many_tool_calls", lang, limit=settings.max_tool_calls)
    shown = call.arguments if len(call.arguments) <= settings.max_argument_bytes else None
    return ToolCallRecord(
        call.name, shown, {"error": {"code": "too_many_tool_calls", "message": message, "details": {}}}
    )


def _log_name(name: str) -> str:
    """The tool's name for a log line: only names the service offers (a made-up one could
    carry any text the model likes)."""
    return name if name in tool_names() else "(unknown tool)"


def chat(
    messages: list[dict],
    lang: str,
    settings: ChatSettings,
    prompts: Prompts,
    spend: Callable[[int], None] | None = None,
) -> ChatResult:
    """Answer the conversation; tool calls are executed until the model replies. ``spend``
    is told the tokens of each model reply as it arrives (the chat's budget)."""
    if not settings.api_key:
        raise ChatFailure(503, "chat_unconfigured")
    deadline = Deadline(settings.deadline)
    client = openai.OpenAI(
        api_key=settings.api_key,
        base_url=settings.base_url,
        timeout=settings.timeout,
        max_retries=0,  # retried in _complete, within the deadline
    )
    try:
        return _chat(client, messages, lang, settings, prompts, deadline, spend or (lambda tokens: None))
    finally:
        client.close()


def _chat(
    client, messages, lang, settings: ChatSettings, prompts: Prompts, deadline: Deadline, spend: Callable[[int], None]
) -> ChatResult:
    conversation = [{"role": "system", "content": prompts.system_for(lang)}, *messages]
    result = ChatResult(reply="")
    for round_number in range(1, settings.max_rounds + 1):
        result.rounds = round_number
        message = _complete(client, settings, conversation, deadline)
        spend(message.tokens)
        if not message.tool_calls:
            if not isinstance(message.content, str) or not message.content.strip():
                raise _bad_response()
            result.reply = message.content
            return result
        conversation.append(
            {
                "role": "assistant",
                "content": message.content,
                "tool_calls": [
                    {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                    for c in message.tool_calls
                ],
            }
        )
        for index, call in enumerate(message.tool_calls):
            if index < settings.max_tool_calls:
                record = run_tool_call(call.name, call.arguments, lang, settings.max_argument_bytes)
            else:
                record = _skipped(call, settings, lang)
            result.tool_calls.append(record)
            log.info(
                "chat tool call: round %d, tool %s, %s",
                round_number,
                _log_name(call.name),
                "error" if "error" in record.result else "ok",
            )
            conversation.append(
                {
                    "role": "tool",
                    "tool_call_id": call.id,
                    "content": tool_content(record.result, settings.tool_result_limit, lang),
                }
            )
    raise ChatFailure(502, "too_many_rounds", rounds=settings.max_rounds)
