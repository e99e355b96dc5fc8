"""The chat's one deadline: the time left for the whole chat, every round and retry, and
the 504 ``chat_deadline`` once it has passed."""

from __future__ import annotations

import time
from collections.abc import Callable

from .failures import ChatFailure


class Deadline:
    """The time left for the whole chat."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._end = clock() + seconds

    def remaining(self) -> float:
        return self._end - self._clock()

    def failure(self) -> ChatFailure:
        return ChatFailure(504, "chat_deadline", seconds=self.seconds)
