"""The chat's token budget as the loop spends it: every model round is paid for before it
is sent and settled once it is over, so that neither a client who leaves, nor a model that
reports no usage, nor chats started together can spend more than the budget allows.

* Before a round: :meth:`Budget.reserve` sets aside the prompt's estimated tokens plus
  ``max_tokens`` (all the reply may take), or refuses when that is more than is left. A
  round is reserved whole before it is sent, so concurrent chats of one client see each
  other's reservations and cannot all start on the same remainder.
* After it: :meth:`Budget.settle` replaces the reservation with what the round cost: the
  usage the model reported (``stream_options.include_usage`` asks for it in streams), or,
  when none came (the client left mid-stream, the model sends no ``usage``), the estimate
  of the prompt plus the text received. A round the model refused or never answered (an
  error status, no connection, a timeout before any text) costs nothing.

The estimate (:func:`estimate_tokens`) errs high: a character outside ASCII (Japanese) is
one token, ASCII characters three to a token (English and JSON run about four in OpenAI's
tokenizers); the prompt is the conversation as JSON plus the tools list. A photo is not
counted by the characters of its data URL (a 500 KB photo would be taken for 220,000
tokens) but at :data:`PICTURE_TOKENS` each, the most OpenAI's tile formula gives one
picture. The rule and the figures are in docs/deployment.md, "Keys and limits".
"""

from __future__ import annotations

import functools
import json
import math
from typing import Protocol

from ..tools import shared_tool_definitions


class Budget(Protocol):
    """One client's chat tokens (:class:`scoring_api.api.limits.TokenBudget` in the service)."""

    def reserve(self, tokens: int) -> None:
        """Set ``tokens`` aside for a round, or raise the refusal when they are not left."""

    def settle(self, reserved: int, tokens: int) -> None:
        """The round that reserved ``reserved`` cost ``tokens``: charge or give back the difference."""


#: Tokens one picture is taken to cost: OpenAI's tile formula for ``detail: high`` (85, and
#: 170 a tile of 512 px once the picture fits 2048 px and its shorter side 768 px) gives at
#: most 8 tiles, 85 + 8 × 170. A picture the form sends (1568 px at most) is 4 tiles, 765.
PICTURE_TOKENS = 85 + 8 * 170


def estimate_tokens(text: str) -> int:
    """Tokens ``text`` is taken to cost when no usage says: ASCII characters three to a
    token (rounded up), every other character one."""
    ascii_characters = len(text.encode("ascii", "ignore"))
    return math.ceil(ascii_characters / 3) + len(text) - ascii_characters


@functools.cache
def _tools_tokens() -> int:
    return estimate_tokens(json.dumps(shared_tool_definitions(), ensure_ascii=False))


def prompt_tokens(conversation: list[dict]) -> int:
    """The estimated tokens of one request's prompt: the conversation as JSON (its
    pictures at :data:`PICTURE_TOKENS` each), and the tools list sent with it."""
    pictures = 0
    told = conversation
    if any(isinstance(message.get("content"), list) for message in conversation):
        told = []
        for message in conversation:
            content = message.get("content")
            if isinstance(content, list):
                kept = [part for part in content if part.get("type") != "image_url"]
                pictures += len(content) - len(kept)
                message = {**message, "content": kept}
            told.append(message)
    return estimate_tokens(json.dumps(told, ensure_ascii=False)) + _tools_tokens() + pictures * PICTURE_TOKENS


class Round:
    """One model round's charge, as a ``with`` block: reserved on entry (the prompt's
    estimate plus ``max_tokens``), settled on exit."""

    def __init__(self, budget: Budget | None, conversation: list[dict], max_tokens: int) -> None:
        self.budget = budget
        self.prompt = prompt_tokens(conversation) if budget is not None else 0
        self.reserved = self.prompt + max_tokens
        self.received: list[str] = []  # the text that came, while the round is under way
        self.cost: int | None = None  # what the round cost, once its reply is whole

    def __enter__(self) -> Round:
        if self.budget is not None:
            self.budget.reserve(self.reserved)
        return self

    def answered(self, reported_tokens: int, reply: str) -> None:
        """The reply is whole: the tokens the model reported, else the estimate."""
        self.cost = reported_tokens if reported_tokens > 0 else self.prompt + estimate_tokens(reply)

    def __exit__(self, kind, error, trace) -> None:
        if self.budget is None:
            return
        cost = self.cost
        if cost is None:  # cut short: the client left, or the model failed
            started = kind is GeneratorExit or bool(self.received)
            cost = self.prompt + estimate_tokens("".join(self.received)) if started else 0
        self.budget.settle(self.reserved, cost)
