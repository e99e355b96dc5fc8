"""A streamed reply, read as untrusted input: the server-sent events of a streamed chat
completion (:func:`events`), and their chunks put together into one :class:`ModelMessage`
(:class:`StreamedMessage`), every field checked (a 502 ``model_bad_response`` if not).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import orjson

from .failures import ChatFailure, bad_response
from .replies import JSONObject, ModelCall, ModelMessage, Usage, read_usage

#: Most tool calls one streamed reply may carry (their ``index``); more is a 502.
MAX_STREAMED_CALLS = 64


def events(parts: Iterable[bytes]) -> Iterator[JSONObject]:
    """The JSON object of each server-sent ``data:`` line in ``parts`` (the body as it
    arrives, already bounded), until ``[DONE]`` or the end. An ``error`` event is a 502
    ``model_stream_error``."""
    pending: list[bytes] = []
    for part in parts:
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
                event: object = orjson.loads(data)  # Any at the JSON boundary: an object, checked by feed
            except orjson.JSONDecodeError:
                raise bad_response() from None
            if not isinstance(event, dict):
                raise bad_response()
            if "error" in event:
                raise ChatFailure(502, "model_stream_error")
            yield event


@dataclass
class _StreamedCall:
    """One tool call as its fragments come: its id, and the pieces of its name and arguments."""

    id: str = ""
    name: list[str] = field(default_factory=list)
    arguments: list[str] = field(default_factory=list)


class StreamedMessage:
    """A model reply read from the chunks of a streamed completion, every field checked
    (a 502 if not): the text pieces, the tool calls put together from their fragments by
    ``index``, and the usage of the last chunk that reports one."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.calls: dict[int, _StreamedCall] = {}
        self.usage = Usage()

    def feed(self, chunk: JSONObject) -> str | None:
        """Take one chunk; its piece of text, if it has one."""
        if chunk.get("usage") is not None:
            self.usage = read_usage(chunk["usage"])
        choices = chunk.get("choices")
        if choices is None or choices == []:
            return None
        if not isinstance(choices, list) or not isinstance(choices[0], dict):
            raise bad_response()
        delta: object = choices[0].get("delta")
        if delta is None:
            return None
        if not isinstance(delta, dict):
            raise bad_response()
        for position, fragment in enumerate(_list_or_none(delta.get("tool_calls"))):
            self._add_call_fragment(position, fragment)
        content: object = delta.get("content")
        if content is None or content == "":
            return None
        if not isinstance(content, str):
            raise bad_response()
        self.pieces.append(content)
        return content

    def _add_call_fragment(self, position: int, fragment: object) -> None:
        if not isinstance(fragment, dict):
            raise bad_response()
        index: object = fragment.get("index", position)
        if not (isinstance(index, int) and not isinstance(index, bool) and 0 <= index < MAX_STREAMED_CALLS):
            raise bad_response()
        if fragment.get("type", "function") not in ("function", None):
            raise bad_response()
        call = self.calls.setdefault(index, _StreamedCall())
        call_id: object = fragment.get("id")
        function: object = fragment.get("function")
        if call_id is not None:
            if not isinstance(call_id, str):
                raise bad_response()
            call.id = call_id
        if function is None:
            return
        if not isinstance(function, dict):
            raise bad_response()
        for part, pieces in (("name", call.name), ("arguments", call.arguments)):
            value: object = function.get(part)
            if value is not None and not isinstance(value, str):
                raise bad_response()
            if value:
                pieces.append(value)

    def message(self) -> ModelMessage:
        calls = []
        for _, call in sorted(self.calls.items()):
            name = "".join(call.name)
            if not (call.id and name):
                raise bad_response()
            calls.append(ModelCall(call.id, name, "".join(call.arguments)))
        return ModelMessage("".join(self.pieces) if self.pieces else None, calls, self.usage)


def _list_or_none(value: object) -> list[object]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise bad_response()
    return value
