"""The model's reply, read as untrusted input: a chat completion's first message (its text
and tool calls) and the usage it reports, checked field by field.

The body is parsed by orjson (which refuses nesting over 1,024 levels) and nothing in it
is trusted: a message that is not an object, ``tool_calls`` that is not a list, a call
without a ``function``, ``arguments`` that are not a string... is a 502
``model_bad_response``, never a 500. A streamed reply is read by :mod:`.chunks` into the
same :class:`ModelMessage`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import orjson

from .failures import bad_response

#: A JSON object as parsed (orjson's keys are always strings); its values are checked
#: where they are read.
JSONObject = dict[str, object]


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

    def as_turn(self) -> JSONObject:
        """The reply as the assistant's turn of the conversation sent back to the model
        with its calls' results."""
        return {
            "role": "assistant",
            "content": self.content,
            "tool_calls": [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in self.tool_calls
            ],
        }


def parse_completion(body: bytes) -> ModelMessage:
    """The message of a whole (not streamed) completion's body."""
    try:
        document: object = orjson.loads(body)  # Any at the JSON boundary: checked by read_message
    except orjson.JSONDecodeError:  # also nesting over 1,024 levels
        raise bad_response() from None
    return read_message(document)


def read_message(document: object) -> ModelMessage:
    """The first choice's message of a chat completion, every field checked (502 if not)."""
    choices: object = document.get("choices") if isinstance(document, dict) else None
    if not isinstance(document, dict) or not isinstance(choices, list) or not choices:
        raise bad_response()
    if not isinstance(choices[0], dict):
        raise bad_response()
    message: object = choices[0].get("message")
    if not isinstance(message, dict):
        raise bad_response()
    content: object = message.get("content")
    if content is not None and not isinstance(content, str):
        raise bad_response()
    raw_calls: object = message.get("tool_calls")
    if raw_calls is None:
        raw_calls = []
    if not isinstance(raw_calls, list):
        raise bad_response()
    calls = []
    raw: object
    for raw in raw_calls:
        function: object = raw.get("function") if isinstance(raw, dict) else None
        if not isinstance(raw, dict) or not isinstance(function, dict):
            raise bad_response()
        call_id: object = raw.get("id")
        name: object = function.get("name")
        arguments: object = function.get("arguments")
        if not (isinstance(call_id, str) and call_id and isinstance(name, str) and isinstance(arguments, str)):
            raise bad_response()
        if raw.get("type", "function") != "function":
            raise bad_response()
        calls.append(ModelCall(call_id, name, arguments))
    return ModelMessage(content, calls, read_usage(document.get("usage")))


def read_usage(usage: object) -> Usage:
    """The reported usage; ``total_tokens`` is prompt plus completion when not given, and
    anything that is not a count is 0."""
    if not isinstance(usage, dict):
        return Usage()

    def count(name: str) -> int | None:
        value: object = usage.get(name)
        return min(max(value, 0), 10**9) if isinstance(value, int) and not isinstance(value, bool) else None

    prompt, completion, total = count("prompt_tokens") or 0, count("completion_tokens") or 0, count("total_tokens")
    return Usage(prompt, completion, prompt + completion if total is None else total)
