"""The chat loop: アイちゃん answers through any OpenAI-compatible model and calls the
scoring tools instead of doing arithmetic.

Each round sends the conversation and the tools (:mod:`.model`); every tool call the
model makes (several per round too) is executed with the endpoint's own validation
(:mod:`.tool_calls`), and its result, or its error, goes back to the model as a tool
message so it can correct its arguments. After ``max_rounds`` rounds without a final
answer the loop stops with an error (:mod:`.failures`).

The model is untrusted input: its replies are read and checked field by field
(:mod:`.replies`, streamed ones by :mod:`.chunks`), at most ``max_tool_calls`` calls run
per round, and the arguments and results of each are bounded (:mod:`.tool_calls`).

Streaming: :func:`answer` is the loop itself, a generator. With ``stream=True`` the pieces
of text the model streams are yielded as they come; the chat's result is the generator's
return value. :func:`chat` runs the same loop without streaming and returns the result.

Time: one deadline (``deadline`` seconds, :mod:`.deadline`) covers the whole chat, every
round and retry; past it the chat is a 504 ``chat_deadline``.

Tokens: each round is reserved from the client's budget before it is sent and settled
after, at the usage the model reported or an estimate when none came (:mod:`.budget`).
"""

from __future__ import annotations

import logging
from collections.abc import Generator
from dataclasses import dataclass, field

import openai

from .budget import Budget, Round
from .deadline import Deadline
from .failures import ChatFailure, bad_response
from .model import Conversation, model_client, model_round
from .prompts import Prompts
from .replies import JSONObject, ModelMessage, Usage
from .settings import ChatSettings
from .tool_calls import ToolCallRecord, log_name, run_tool_call, skipped_call, tool_content

log = logging.getLogger(__name__)


@dataclass
class ChatResult:
    reply: str
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    rounds: int = 0
    usage: Usage = field(default_factory=Usage)


def chat(
    messages: list[JSONObject],
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
            result: ChatResult = done.value
            return result


def answer(
    messages: list[JSONObject],
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


def _chat(
    client: openai.OpenAI,
    messages: list[JSONObject],
    lang: str,
    settings: ChatSettings,
    prompts: Prompts,
    deadline: Deadline,
    budget: Budget | None,
    stream: bool,
) -> Generator[str, None, ChatResult]:
    conversation: Conversation = [{"role": "system", "content": prompts.system_for(lang, settings.vision)}, *messages]
    result = ChatResult(reply="")
    relayed = False  # text already sent (a round's preamble): the next round's starts on a new paragraph
    for round_number in range(1, settings.max_rounds + 1):
        result.rounds = round_number
        with Round(budget, conversation, settings.max_tokens) as charge:  # reserved, then settled
            pieces = model_round(client, settings, conversation, deadline, stream)
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
                raise bad_response()
            result.reply = message.content
            return result
        conversation.append(message.as_turn())
        for index, call in enumerate(message.tool_calls):
            if index < settings.max_tool_calls:
                record = run_tool_call(call.name, call.arguments, lang, settings.max_argument_bytes)
            else:
                record = skipped_call(call, settings.max_tool_calls, settings.max_argument_bytes, lang)
            result.tool_calls.append(record)
            log.info(
                "chat tool call: round %d, tool %s, %s",
                round_number,
                log_name(call.name),
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
