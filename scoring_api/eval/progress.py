"""The run's progress on stderr: a bar redrawn in place on a terminal, one line per
question otherwise (a log keeps each line)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from .grading import Outcome

WIDTH = 30


class Progress:
    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.done = 0
        self.right = 0
        self.redraw = stream.isatty()

    def advance(self, outcome: Outcome) -> None:
        self.done += 1
        self.right += outcome.correct
        question = outcome.question
        verdict = "right" if outcome.correct else (outcome.error or "wrong")
        if self.redraw:
            filled = WIDTH * self.done // self.total
            bar = "#" * filled + "-" * (WIDTH - filled)
            line = f"\r[{bar}] {self.done}/{self.total} right {self.right} {question.game} {question.lang}"
            self.stream.write(f"{line:<{WIDTH + 60}}")
        else:
            self.stream.write(f"[{self.done}/{self.total}] {question.id}: {verdict}\n")
        self.stream.flush()

    def close(self) -> None:
        if self.redraw and self.done:
            self.stream.write("\n")
            self.stream.flush()
