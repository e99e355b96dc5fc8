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

Streaming: :func:`answer` is the loop itself, a generator. With ``stream=True`` each round
asks the model to stream, and the pieces of text it sends are yielded as they come (the
tool calls are gathered, never yielded); the chat's result is the generator's return
value. A round that already yielded text is not retried. :func:`chat` runs the same loop
without streaming and returns the result.

Time: one deadline (``deadline`` seconds) covers the whole chat, every round and retry.
Each model request may take ``min(timeout, time left)``, the retries are this module's
own loop (the client's are off) and never start past the deadline, and reading a
response stops there too; past it the chat is a 504 ``chat_deadline``. A request that
times out with time left is a 504 ``model_timeout`` (after its retries).

Tokens: each round is reserved from the client's budget before it is sent and settled
after, at the usage the model reported or an estimate when none came (:mod:`.budget`).
"""

from __future__ import annotations

import functools
import json
import logging
import time
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, cast

import openai
import orjson
from marshmallow import ValidationError

try:  # the HTTP library the openai client is built on (httpx2 from openai 3, else httpx)
    import httpx2 as _http
except ImportError:  # pragma: no cover
    import httpx as _http  # type: ignore[no-redef]

from ..error_shape import ApiError
from ..i18n import t
from ..tool_arguments import ArgumentsError, read_arguments
from ..tools import UnknownTool, call_tool, error_body, shared_tool_definitions, tool_names
from .budget import Budget, Round
from .prompts import Prompts

log = logging.getLogger(__name__)

#: Largest model response read (decoded bytes); a longer one is a 502. 32,768 tokens of
#: arguments with every character escaped stay well below it.
MAX_RESPONSE_BYTES = 2 * 1024 * 1024
#: Most tool calls one streamed reply may carry (their ``index``); more is a 502.
MAX_STREAMED_CALLS = 64
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
    temperature: float | None = None  # sent when set (the OpenAI-compatible endpoint passes it on)


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


@dataclass(frozen=True)
class Usage:
    """The tokens the model reported for one round, or summed over a chat."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.total_tokens + other.total_tokens,
        )


@dataclass
class ChatResult:
    reply: str
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    rounds: int = 0
    usage: Usage = field(default_factory=Usage)


@dataclass(frozen=True)
class ModelCall:
    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class ModelMessage:
    content: str | None
    tool_calls: list[ModelCall]
    usage: Usage = field(default_factory=Usage)  # as the model reported it (zeros when it did not)

    @property
    def tokens(self) -> int:
        return self.usage.total_tokens

    @property
    def text(self) -> str:
        """All the reply's text, its calls' too (what an estimate of its tokens reads)."""
        return (self.content or "") + "".join(call.name + call.arguments for call in self.tool_calls)


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
    return ModelMessage(content, calls, read_usage(document.get("usage")))


def read_usage(usage) -> Usage:
    """The reported usage; ``total_tokens`` is prompt plus completion when not given, and
    anything that is not a count is 0."""
    if not isinstance(usage, dict):
        return Usage()

    def count(name: str) -> int | None:
        value = usage.get(name)
        return min(max(value, 0), 10**9) if isinstance(value, int) and not isinstance(value, bool) else None

    prompt, completion, total = count("prompt_tokens") or 0, count("completion_tokens") or 0, count("total_tokens")
    return Usage(prompt, completion, prompt + completion if total is None else total)


class StreamedMessage:
    """A model reply read from the chunks of a streamed completion, every field checked
    (a 502 if not): the text pieces, the tool calls put together from their fragments by
    ``index``, and the usage of the last chunk that reports one."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.calls: dict[int, dict] = {}
        self.usage = Usage()

    def feed(self, chunk: dict) -> str | None:
        """Take one chunk; its piece of text, if it has one."""
        if chunk.get("usage") is not None:
            self.usage = read_usage(chunk["usage"])
        choices = chunk.get("choices")
        if choices is None or choices == []:
            return None
        if not isinstance(choices, list) or not isinstance(choices[0], dict):
            raise _bad_response()
        delta = choices[0].get("delta")
        if delta is None:
            return None
        if not isinstance(delta, dict):
            raise _bad_response()
        for position, fragment in enumerate(_list_or_none(delta.get("tool_calls"))):
            self._add_call_fragment(position, fragment)
        content = delta.get("content")
        if content is None or content == "":
            return None
        if not isinstance(content, str):
            raise _bad_response()
        self.pieces.append(content)
        return content

    def _add_call_fragment(self, position: int, fragment) -> None:
        if not isinstance(fragment, dict):
            raise _bad_response()
        index = fragment.get("index", position)
        if not (isinstance(index, int) and not isinstance(index, bool) and 0 <= index < MAX_STREAMED_CALLS):
            raise _bad_response()
        if fragment.get("type", "function") not in ("function", None):
            raise _bad_response()
        call = self.calls.setdefault(index, {"id": "", "name": [], "arguments": []})
        call_id, function = fragment.get("id"), fragment.get("function")
        if call_id is not None:
            if not isinstance(call_id, str):
                raise _bad_response()
            call["id"] = call_id
        if function is None:
            return
        if not isinstance(function, dict):
            raise _bad_response()
        for part in ("name", "arguments"):
            value = function.get(part)
            if value is not None and not isinstance(value, str):
                raise _bad_response()
            if value:
                call[part].append(value)

    def message(self) -> ModelMessage:
        calls = []
        for _, call in sorted(self.calls.items()):
            name = "".join(call["name"])
            if not (call["id"] and name):
                raise _bad_response()
            calls.append(ModelCall(call["id"], name, "".join(call["arguments"])))
        return ModelMessage("".join(self.pieces) if self.pieces else None, calls, self.usage)


def _list_or_none(value) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _bad_response()
    return value


def _parts(response, deadline: Deadline) -> Iterator[bytes]:
    """The response body as it arrives: at most MAX_RESPONSE_BYTES, stopping at the deadline."""
    size = 0
    for part in response.iter_bytes():
        size += len(part)
        if size > MAX_RESPONSE_BYTES:
            raise _bad_response()
        if deadline.remaining() <= 0:
            raise deadline.failure()
        yield part


def _read_body(response, deadline: Deadline) -> bytes:
    """The whole response body, within the same bounds."""
    return b"".join(_parts(response, deadline))


def _timed_out(deadline: Deadline, seconds: float) -> Exception:
    if deadline.remaining() <= 0.01:  # the request had only the time left
        return deadline.failure()
    return _Retryable(ChatFailure(504, "model_timeout", seconds=seconds))


def _events(response, deadline: Deadline) -> Iterator[dict]:
    """The JSON object of each server-sent ``data:`` line, until ``[DONE]`` or the end;
    at most MAX_RESPONSE_BYTES in all, stopping at the deadline. An ``error`` event is a
    502 ``model_stream_error``."""
    pending: list[bytes] = []
    for part in _parts(response, deadline):
        if b"\n" not in part:
            pending.append(part)
            continue
        *lines, rest = b"".join([*pending, part]).split(b"\n")
        pending = [rest]
        for line in lines:
            if not line.startswith(b"data:"):
                continue  # blank lines, comments, event names
            data = line[5:].strip()
            if data == b"[DONE]":
                return
            try:
                event = orjson.loads(data)
            except orjson.JSONDecodeError:
                raise _bad_response() from None
            if not isinstance(event, dict):
                raise _bad_response()
            if "error" in event:
                raise ChatFailure(502, "model_stream_error")
            yield event


def _request_options(settings: ChatSettings, conversation: list[dict], seconds: float) -> dict:
    """The request's fields. The tools go in ``extra_body``, sent as they are: as the
    ``tools`` argument the SDK would walk and rebuild every nested schema of them each
    round, the largest part of the service's own time per round."""
    options = {
        "model": settings.model,
        "messages": cast(Any, conversation),  # plain dicts of the chat-completions shape
        "extra_body": {"tools": shared_tool_definitions()},
        "max_tokens": settings.max_tokens,
        "timeout": seconds,
    }
    if settings.temperature is not None:
        options["temperature"] = settings.temperature
    return options


@contextmanager
def _model_failures(deadline: Deadline, seconds: float) -> Iterator[None]:
    """What a failed model request means: a ChatFailure, wrapped in _Retryable when another
    attempt may cure it."""
    try:
        yield
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


def _stream_request(
    client: openai.OpenAI, settings: ChatSettings, conversation: list[dict], deadline: Deadline
) -> Generator[str, None, ModelMessage]:
    """One streamed model request of at most ``min(timeout, time left)`` seconds: yields
    the pieces of text as they come, returns the whole message. A model that answers with
    a whole completion instead of a stream is read as one."""
    seconds = min(settings.timeout, deadline.remaining())
    options = _request_options(settings, conversation, seconds)
    with (
        _model_failures(deadline, seconds),
        client.chat.completions.with_streaming_response.create(
            **options, stream=True, stream_options={"include_usage": True}
        ) as response,
    ):
        if "text/event-stream" not in response.headers.get("content-type", ""):
            message = _parse_completion(_read_body(response, deadline))
            if message.content and not message.tool_calls:
                yield message.content
            return message
        streamed = StreamedMessage()
        for event in _events(response, deadline):
            piece = streamed.feed(event)
            if piece is not None:
                yield piece
        return streamed.message()


def _parse_completion(body: bytes) -> ModelMessage:
    try:
        document = orjson.loads(body)
    except orjson.JSONDecodeError:  # also nesting over 1,024 levels
        raise _bad_response() from None
    return read_message(document)


def _request(
    client: openai.OpenAI, settings: ChatSettings, conversation: list[dict], deadline: Deadline
) -> ModelMessage:
    """One model request of at most ``min(timeout, time left)`` seconds."""
    seconds = min(settings.timeout, deadline.remaining())
    with (
        _model_failures(deadline, seconds),
        client.chat.completions.with_streaming_response.create(
            **_request_options(settings, conversation, seconds)
        ) as response,
    ):
        body = _read_body(response, deadline)
    return _parse_completion(body)


def _round(
    client: openai.OpenAI, settings: ChatSettings, conversation: list[dict], deadline: Deadline, stream: bool
) -> Generator[str, None, ModelMessage]:
    """One round trip to the model with up to ``max_retries`` retries, all before the
    deadline; streamed, it yields the text as it comes, and an attempt that yielded some
    is not retried."""
    attempt = 0
    while True:
        if deadline.remaining() <= 0:
            raise deadline.failure()
        relayed = False
        try:
            if not stream:
                return _request(client, settings, conversation, deadline)
            pieces = _stream_request(client, settings, conversation, deadline)
            while True:
                try:
                    piece = next(pieces)
                except StopIteration as done:
                    return done.value
                relayed = True
                yield piece
        except _Retryable as retryable:
            if relayed or attempt >= settings.max_retries:
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
    budget: Budget | None = None,
) -> ChatResult:
    """Answer the conversation; tool calls are executed until the model replies. Each model
    round is paid for from ``budget`` (:mod:`.budget`)."""
    loop = answer(messages, lang, settings, prompts, budget, stream=False)
    while True:
        try:
            next(loop)
        except StopIteration as done:
            return done.value


def answer(
    messages: list[dict],
    lang: str,
    settings: ChatSettings,
    prompts: Prompts,
    budget: Budget | None = None,
    stream: bool = False,
) -> Generator[str, None, ChatResult]:
    """The chat loop. With ``stream``, yields the text of the reply as the model streams
    it (text a model writes before calling tools comes too, then a blank line); returns
    the :class:`ChatResult`. Closing the generator closes the model's response."""
    if not settings.api_key:
        raise ChatFailure(503, "chat_unconfigured")
    deadline = Deadline(settings.deadline)
    client = model_client(settings.api_key, settings.base_url, settings.timeout)
    return (yield from _chat(client, messages, lang, settings, prompts, deadline, budget, stream))


@functools.lru_cache(maxsize=8)
def model_client(api_key: str, base_url: str | None, timeout: float) -> openai.OpenAI:
    """One ``openai`` client per model endpoint in this process, kept: making one builds a
    TLS context (most of a round's own cost, benchmarks/chat_overhead.py), and a kept one
    reuses its connections to the model."""
    return openai.OpenAI(
        api_key=api_key,
        base_url=base_url,
        timeout=timeout,
        max_retries=0,  # retried in _round, within the deadline
    )


def _chat(
    client,
    messages,
    lang,
    settings: ChatSettings,
    prompts: Prompts,
    deadline: Deadline,
    budget: Budget | None,
    stream: bool,
) -> Generator[str, None, ChatResult]:
    conversation = [{"role": "system", "content": prompts.system_for(lang)}, *messages]
    result = ChatResult(reply="")
    relayed = False  # text already sent (a round's preamble): the next round's starts on a new paragraph
    for round_number in range(1, settings.max_rounds + 1):
        result.rounds = round_number
        with Round(budget, conversation, settings.max_tokens) as charge:  # reserved, then settled
            pieces = _round(client, settings, conversation, deadline, stream)
            first = True
            while True:
                try:
                    piece = next(pieces)
                except StopIteration as done:
                    message: ModelMessage = done.value
                    break
                charge.received.append(piece)
                if first and relayed:
                    yield "\n\n"
                first, relayed = False, True
                yield piece
            charge.answered(message.tokens, message.text)
        result.usage += message.usage
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
