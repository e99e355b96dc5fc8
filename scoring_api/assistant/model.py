"""Talking to the OpenAI-compatible model: the ``openai`` client (one per endpoint, kept),
one round trip with its retries, and the response body read within the bounds.

Each round sends the conversation and the tools. The API key is only handed to the
``openai`` client: it never appears in a result, an error or a log.

Streaming: with ``stream=True`` a round asks the model to stream, and the pieces of text
it sends are yielded as they come (the tool calls are gathered, never yielded); a round
that already yielded text is not retried. A model that answers a streamed request with a
whole completion is read as one.

Time: each model request may take ``min(timeout, time left)`` of the chat's
:class:`~.deadline.Deadline`, the retries are this module's own loop (the client's are
off) and never start past the deadline, and reading a response stops there too (a 504
``chat_deadline``). A request that times out with time left is a 504 ``model_timeout``
(after its retries). A body over :data:`MAX_RESPONSE_BYTES` is a 502.

The request: what is the same on every round is prepared once per worker
(:func:`_tools_part`) and each round's body is written here as the bytes the SDK's
``chat.completions.create`` would send (the same fields in the same order, its JSON
settings): the client's public ``post`` sends them as they are, with ``stream=True`` and
``cast_to`` the HTTP library's ``Response``, so that the client hands the response back
unread and it is read here within the bounds. Through ``create`` the SDK walked every
message through its type transforms and serialized the 46,067 characters of tools again
each round (tests/assistant/test_model_request.py checks that the bytes and headers are
the same, but for the header ``with_streaming_response`` added to ask for an unread
response, which ``stream=True`` makes needless).
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Generator, Iterator
from contextlib import closing
from typing import Protocol

import openai

from ..tools import shared_tool_definitions
from .chunks import StreamedMessage, events
from .deadline import Deadline
from .failures import Retryable, bad_response, model_failures
from .replies import JSONObject, ModelMessage, parse_completion
from .settings import ChatSettings

try:  # the HTTP library the openai client is built on (httpx2 from openai 3, else httpx)
    import httpx2 as _http
except ImportError:  # pragma: no cover
    import httpx as _http  # type: ignore[no-redef]

#: Largest model response read (decoded bytes); a longer one is a 502. 32,768 tokens of
#: arguments with every character escaped stay well below it.
MAX_RESPONSE_BYTES = 2 * 1024 * 1024
#: First pause before a retry, doubled each time, at most RETRY_PAUSE_MAX.
RETRY_PAUSE = 0.5
RETRY_PAUSE_MAX = 4.0

#: The conversation sent to the model: plain dicts of the chat-completions shape.
Conversation = list[JSONObject]


#: The path of a chat completion, under the client's base URL.
COMPLETIONS_PATH = "/chat/completions"


class _Body(Protocol):
    """A model response's body (the HTTP library's Response, as the ``openai`` client returns it unread)."""

    def iter_bytes(self) -> Iterator[bytes]: ...


@functools.lru_cache(maxsize=8)
def model_client(api_key: str, base_url: str | None, timeout: float) -> openai.OpenAI:
    """One ``openai`` client per model endpoint in this process, kept: making one builds a
    TLS context (most of a round's own cost, benchmarks/chat_overhead.py), and a kept one
    reuses its connections to the model."""
    return openai.OpenAI(
        api_key=api_key,
        base_url=base_url,
        timeout=timeout,
        max_retries=0,  # retried in model_round, within the deadline
    )


def model_round(
    client: openai.OpenAI, settings: ChatSettings, conversation: Conversation, deadline: Deadline, stream: bool
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
                    message: ModelMessage = done.value
                    return message
                relayed = True
                yield piece
        except Retryable as retryable:
            if relayed or attempt >= settings.max_retries:
                raise retryable.failure from None
            pause = min(RETRY_PAUSE * 2**attempt, RETRY_PAUSE_MAX)
            if deadline.remaining() <= pause:  # no time for another attempt: say what failed
                raise retryable.failure from None
            attempt += 1
            time.sleep(pause)


def _json(value: object) -> bytes:
    """``value`` as the SDK writes a request body (``openai._utils._json.openapi_dumps``:
    httpx's settings) for the plain values sent here."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


@functools.cache
def _tools_part() -> bytes:
    """The end of every request body, ``,"tools":[...]}``: the tool definitions as the SDK
    sends them (last, where it merges ``extra_body``), serialized once per worker."""
    return b',"tools":' + _json(shared_tool_definitions()) + b"}"


def request_body(settings: ChatSettings, conversation: Conversation, stream: bool) -> bytes:
    """One round's body: the fields ``chat.completions.create`` would send, in its order
    (``model``, ``stream``, ``messages``, ``max_tokens``, ``stream_options``,
    ``temperature``, then ``extra_body``'s ``tools``); only this round's fields are
    serialized, the tools part is the prepared one."""
    fields: JSONObject = {"model": settings.model}
    if stream:
        fields["stream"] = True
    fields["messages"] = conversation
    fields["max_tokens"] = settings.max_tokens
    if stream:
        fields["stream_options"] = {"include_usage": True}
    if settings.temperature is not None:
        fields["temperature"] = settings.temperature
    return _json(fields)[:-1] + _tools_part()  # "{...}" without its "}", then the tools and "}"


def _post(client: openai.OpenAI, body: bytes, seconds: float) -> closing[_http.Response]:
    """The request sent through the client (its URL, key, headers and errors), the response
    left unread and closed when the block ends: ``stream=True`` sends it without reading
    the body, and with ``cast_to`` the ``Response`` class the client returns the response
    as it is (neither parsed nor read; see ``tests/assistant/test_untrusted_model.py``)."""
    response: _http.Response = client.post(
        COMPLETIONS_PATH, cast_to=_http.Response, content=body, options={"timeout": seconds}, stream=True
    )
    return closing(response)


def _stream_request(
    client: openai.OpenAI, settings: ChatSettings, conversation: Conversation, deadline: Deadline
) -> Generator[str, None, ModelMessage]:
    """One streamed model request of at most ``min(timeout, time left)`` seconds: yields
    the pieces of text as they come, returns the whole message. A model that answers with
    a whole completion instead of a stream is read as one."""
    seconds = min(settings.timeout, deadline.remaining())
    with (
        model_failures(deadline, seconds),
        _post(client, request_body(settings, conversation, stream=True), seconds) as response,
    ):
        if "text/event-stream" not in response.headers.get("content-type", ""):
            message = parse_completion(_read_body(response, deadline))
            if message.content and not message.tool_calls:
                yield message.content
            return message
        streamed = StreamedMessage()
        for event in events(_parts(response, deadline)):
            piece = streamed.feed(event)
            if piece is not None:
                yield piece
        return streamed.message()


def _request(
    client: openai.OpenAI, settings: ChatSettings, conversation: Conversation, deadline: Deadline
) -> ModelMessage:
    """One model request of at most ``min(timeout, time left)`` seconds."""
    seconds = min(settings.timeout, deadline.remaining())
    with (
        model_failures(deadline, seconds),
        _post(client, request_body(settings, conversation, stream=False), seconds) as response,
    ):
        body = _read_body(response, deadline)
    return parse_completion(body)


def _parts(response: _Body, deadline: Deadline) -> Iterator[bytes]:
    """The response body as it arrives: at most MAX_RESPONSE_BYTES, stopping at the deadline."""
    size = 0
    for part in response.iter_bytes():
        size += len(part)
        if size > MAX_RESPONSE_BYTES:
            raise bad_response()
        if deadline.remaining() <= 0:
            raise deadline.failure()
        yield part


def _read_body(response: _Body, deadline: Deadline) -> bytes:
    """The whole response body, within the same bounds."""
    return b"".join(_parts(response, deadline))
