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
"""

from __future__ import annotations

import functools
import time
from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING, NotRequired, Protocol, TypedDict, cast

import openai

from ..tools import shared_tool_definitions
from .chunks import StreamedMessage, events
from .deadline import Deadline
from .failures import Retryable, bad_response, model_failures
from .replies import JSONObject, ModelMessage, parse_completion
from .settings import ChatSettings

if TYPE_CHECKING:
    from collections.abc import Iterable

    from openai.types.chat import ChatCompletionMessageParam

#: Largest model response read (decoded bytes); a longer one is a 502. 32,768 tokens of
#: arguments with every character escaped stay well below it.
MAX_RESPONSE_BYTES = 2 * 1024 * 1024
#: First pause before a retry, doubled each time, at most RETRY_PAUSE_MAX.
RETRY_PAUSE = 0.5
RETRY_PAUSE_MAX = 4.0

#: The conversation sent to the model: plain dicts of the chat-completions shape.
Conversation = list[JSONObject]


class _RequestOptions(TypedDict):
    """The fields of one model request."""

    model: str
    messages: Iterable[ChatCompletionMessageParam]
    extra_body: JSONObject
    max_tokens: int
    timeout: float
    temperature: NotRequired[float]


class _Body(Protocol):
    """A model response's body (the ``openai`` client's APIResponse)."""

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


def _request_options(settings: ChatSettings, conversation: Conversation, seconds: float) -> _RequestOptions:
    """The request's fields. The tools go in ``extra_body``, sent as they are: as the
    ``tools`` argument the SDK would walk and rebuild every nested schema of them each
    round, the largest part of the service's own time per round."""
    options: _RequestOptions = {
        "model": settings.model,
        "messages": cast("Iterable[ChatCompletionMessageParam]", conversation),  # plain dicts of that shape
        "extra_body": {"tools": shared_tool_definitions()},
        "max_tokens": settings.max_tokens,
        "timeout": seconds,
    }
    if settings.temperature is not None:
        options["temperature"] = settings.temperature
    return options


def _stream_request(
    client: openai.OpenAI, settings: ChatSettings, conversation: Conversation, deadline: Deadline
) -> Generator[str, None, ModelMessage]:
    """One streamed model request of at most ``min(timeout, time left)`` seconds: yields
    the pieces of text as they come, returns the whole message. A model that answers with
    a whole completion instead of a stream is read as one."""
    seconds = min(settings.timeout, deadline.remaining())
    options = _request_options(settings, conversation, seconds)
    with (
        model_failures(deadline, seconds),
        client.chat.completions.with_streaming_response.create(
            **options, stream=True, stream_options={"include_usage": True}
        ) as response,
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
        client.chat.completions.with_streaming_response.create(
            **_request_options(settings, conversation, seconds)
        ) as response,
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
