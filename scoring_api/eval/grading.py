"""Grading one question: its transcript against its exact answer and intended call.

* ``formatted``: the reply ends with an answer line in the question's form;
* ``correct``: that answer is the exact one (:func:`scoring_api.eval.answers.same`);
* ``tool_called``: at least one tool was called (any tool, any arguments);
* ``arguments_exact``: one of the calls is the intended call (:mod:`.arguments`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..assistant.replies import Usage
from .answers import Answer, last_line, parse, same
from .arguments import exact
from .modes import Transcript
from .question import Question


@dataclass(frozen=True)
class Outcome:
    question: Question
    answer: Answer | None  # what the reply's answer line says (None: no answer line)
    last_line: str | None  # the reply's last line as read
    correct: bool
    tool_calls: int
    tool_called: bool
    arguments_exact: bool
    rounds: int
    usage: Usage
    latency: float  # seconds, the question's whole exchange
    error: str | None

    @property
    def formatted(self) -> bool:
        return self.answer is not None


def grade(question: Question, transcript: Transcript, latency: float) -> Outcome:
    given = parse(question.kind, transcript.reply)
    return Outcome(
        question=question,
        answer=given,
        last_line=last_line(transcript.reply),
        correct=same(question.kind, given, question.answer),
        tool_calls=len(transcript.calls),
        tool_called=bool(transcript.calls),
        arguments_exact=any(
            exact(question.operation, question.arguments, call.name, call.arguments) for call in transcript.calls
        ),
        rounds=transcript.rounds,
        usage=transcript.usage,
        latency=latency,
        error=transcript.error,
    )
