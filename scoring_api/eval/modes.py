"""Asking one question in each mode, and what came back (a :class:`Transcript`).

* ``model``: the model alone, one request, no tools.
* ``tools``: the model with the service's tools (``scoring_api.tools``' definitions);
  each tool call is run in process through the registry, as the chat runs it
  (:func:`scoring_api.assistant.tool_calls.run_tool_call`: arguments read strictly and
  bounded, errors as results the model can correct its call from), at most
  ``max_tool_calls`` a round, each result sent back within ``tool_result_limit`` bytes;
  at most ``max_rounds`` requests, then the question has no answer (``too_many_rounds``).
* ``ai-chan``: a running service's ``/v1/chat/completions`` (model ``ai-chan``, or
  ``ai-chan-en`` for English), whose answer carries her tool calls and rounds in its
  ``ai_chan`` field.

Every mode sends the eval's system prompt (:mod:`.prompts`) and the question. The model's
replies are read as untrusted (:func:`scoring_api.assistant.replies.read_message`); a
failed request ends the question with its error's code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..assistant.failures import ChatFailure
from ..assistant.replies import ModelMessage, Usage, read_message, read_usage
from ..assistant.tool_calls import run_tool_call, skipped_call, tool_content
from ..tools import shared_tool_definitions
from .endpoint import Endpoint, EndpointError
from .prompts import system_prompt
from .question import Question

MODES = ("model", "tools", "ai-chan")
#: The service's models by the question's language (scoring_api/api/completions.py).
AI_CHAN_MODELS = {"ja": "ai-chan", "en": "ai-chan-en"}
#: Characters of a reply kept (its end, where the answer line is).
MAX_REPLY = 4000
#: Bytes of one call's arguments read (the REST body limit's default).
MAX_ARGUMENT_BYTES = 65536
#: Tool calls recorded from one answer of the service.
MAX_TRACE_CALLS = 64
#: Rounds believed from one answer of the service (its own bound is 20).
MAX_TRACE_ROUNDS = 1000


@dataclass(frozen=True)
class Call:
    """One tool call: its name, its arguments (parsed; the raw text when unreadable; None
    when too long) and whether the tool answered without an error."""

    name: str
    arguments: object
    ok: bool


@dataclass
class Transcript:
    reply: str = ""
    calls: list[Call] = field(default_factory=list)
    rounds: int = 0
    usage: Usage = field(default_factory=Usage)
    error: str | None = None


@dataclass(frozen=True)
class Asking:
    """How questions are asked: the mode and every bound of a question."""

    mode: str
    model: str  # the model's name (model, tools); ai-chan picks hers by language
    max_rounds: int = 5
    max_tokens: int = 1024
    temperature: float | None = None
    max_tool_calls: int = 8
    tool_result_limit: int = 16384


def ask(endpoint: Endpoint, asking: Asking, question: Question) -> Transcript:
    """Ask one question; a failure is the transcript's ``error``, never an exception
    (but a fatal :class:`EndpointError`, which stops the run)."""
    transcript = Transcript()
    try:
        if asking.mode == "model":
            _alone(endpoint, asking, question, transcript)
        elif asking.mode == "tools":
            _with_tools(endpoint, asking, question, transcript)
        else:
            _ai_chan(endpoint, asking, question, transcript)
    except EndpointError as error:
        if error.fatal:
            raise
        transcript.error = error.code
    except ChatFailure as failure:  # a reply that is not a chat completion
        transcript.error = failure.code
    transcript.reply = transcript.reply[-MAX_REPLY:]
    return transcript


def _messages(question: Question) -> list[dict]:
    return [{"role": "system", "content": system_prompt(question.lang)}, {"role": "user", "content": question.text}]


def _body(asking: Asking, model: str, messages: list[dict], tools: bool) -> dict:
    body: dict = {"model": model, "messages": messages, "max_tokens": asking.max_tokens}
    if asking.temperature is not None:
        body["temperature"] = asking.temperature
    if tools:
        body["tools"] = shared_tool_definitions()
    return body


def _round(endpoint: Endpoint, body: dict, transcript: Transcript) -> ModelMessage:
    transcript.rounds += 1
    message = read_message(endpoint.complete(body))
    transcript.usage += message.usage
    return message


def _alone(endpoint: Endpoint, asking: Asking, question: Question, transcript: Transcript) -> None:
    message = _round(endpoint, _body(asking, asking.model, _messages(question), tools=False), transcript)
    transcript.reply = message.content or ""


def _with_tools(endpoint: Endpoint, asking: Asking, question: Question, transcript: Transcript) -> None:
    conversation = _messages(question)
    for _ in range(asking.max_rounds):
        message = _round(endpoint, _body(asking, asking.model, conversation, tools=True), transcript)
        if not message.tool_calls:
            transcript.reply = message.content or ""
            return
        conversation.append(message.as_turn())
        for index, call in enumerate(message.tool_calls):
            if index < asking.max_tool_calls:
                record = run_tool_call(call.name, call.arguments, question.lang, MAX_ARGUMENT_BYTES)
            else:
                record = skipped_call(call, asking.max_tool_calls, MAX_ARGUMENT_BYTES, question.lang)
            transcript.calls.append(Call(record.name, record.arguments, "error" not in record.result))
            content = tool_content(record.result, asking.tool_result_limit, question.lang)
            conversation.append({"role": "tool", "tool_call_id": call.id, "content": content})
    transcript.error = "too_many_rounds"


def _ai_chan(endpoint: Endpoint, asking: Asking, question: Question, transcript: Transcript) -> None:
    body = _body(asking, AI_CHAN_MODELS[question.lang], _messages(question), tools=False)
    document = endpoint.complete(body)
    message = read_message(document)
    transcript.reply = message.content or ""
    transcript.usage = read_usage(document.get("usage"))
    trace = document.get("ai_chan")
    rounds = trace.get("rounds") if isinstance(trace, dict) else None
    calls = trace.get("tool_calls") if isinstance(trace, dict) else None
    if isinstance(rounds, int) and not isinstance(rounds, bool) and rounds >= 0:
        transcript.rounds = min(rounds, MAX_TRACE_ROUNDS)
    else:
        transcript.rounds = 1
    for call in calls[:MAX_TRACE_CALLS] if isinstance(calls, list) else []:
        if isinstance(call, dict) and isinstance(call.get("name"), str):
            result = call.get("result")
            ok = isinstance(result, dict) and "error" not in result
            transcript.calls.append(Call(call["name"], call.get("arguments"), ok))
