"""One eval question, its JSONL line, and the file of a question set.

A question holds its text (what the model is asked), the kind of its answer
(:mod:`.answers`), the exact answer, and the intended tool call: the operation and its
arguments, the state as the scoring tool (and the REST endpoint) takes it. A set written
with ``--write-questions`` is read back with ``--questions`` so that runs are compared on
the same questions; reading checks every line with :class:`QuestionSchema` and runs each
intended call again, so a file whose answer the service would not give is refused.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from marshmallow import ValidationError, fields, validate, validates_schema

from ..operations.registry import OPERATIONS
from ..schemas.common import StrictSchema
from ..strict_json import loads
from .answers import KINDS, Answer, answer_line

#: The games questions are written for (the registry's spelling of each module).
GAMES = ("apero", "applejack", "fairy_black_box", "pedro")
LANGS = ("ja", "en")
#: Most questions in a set (generated or read).
MAX_QUESTIONS = 1000
#: Longest line of a question file (bytes): a question, its arguments and its answer.
MAX_LINE_BYTES = 65536
#: Longest question text (characters).
MAX_TEXT = 4000


@dataclass(frozen=True)
class Question:
    id: str
    game: str
    lang: str
    kind: str
    text: str
    operation: str
    arguments: dict
    answer: Answer

    @property
    def answer_line(self) -> str:
        """The last line of a right reply."""
        return answer_line(self.kind, self.answer, self.lang)


class QuestionSchema(StrictSchema):
    """A question as one JSON line of a question file."""

    id = fields.String(required=True, validate=validate.Length(1, 100))
    game = fields.String(required=True, validate=validate.OneOf(GAMES))
    lang = fields.String(required=True, validate=validate.OneOf(LANGS))
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    text = fields.String(required=True, validate=validate.Length(1, MAX_TEXT))
    operation = fields.String(required=True, validate=validate.OneOf([op.operation_id for op in OPERATIONS]))
    arguments = fields.Dict(required=True, keys=fields.String())
    answer = fields.Raw(required=True)

    @validates_schema
    def answer_of_its_kind(self, data: dict, **_: object) -> None:
        answer, kind = data.get("answer"), data.get("kind")
        if kind == "number" and not _is_int(answer):
            raise ValidationError("An integer.", "answer")
        if kind == "scores" and not (isinstance(answer, dict) and answer and all(_is_int(v) for v in answer.values())):
            raise ValidationError("An object of names and integers.", "answer")
        if kind == "names" and not (isinstance(answer, list) and all(isinstance(v, str) for v in answer)):
            raise ValidationError("A list of names.", "answer")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def to_line(question: Question) -> str:
    """The question as one JSON line (no newline)."""
    return json.dumps(asdict(question), ensure_ascii=False)


def write_questions(questions: list[Question], path: Path) -> None:
    path.write_text("".join(to_line(q) + "\n" for q in questions), encoding="utf-8")


class QuestionFileError(ValueError):
    """A question file that cannot be used; the message names the line and the reason."""


def read_questions(path: Path, answer_of: Callable[[Question], Answer]) -> list[Question]:
    """The questions of a JSONL file, each checked (shape, unique id, and the answer that
    ``answer_of(question)`` computes from its intended call). Raises
    :class:`QuestionFileError`; at most :data:`MAX_QUESTIONS` lines of
    :data:`MAX_LINE_BYTES` are read."""
    schema = QuestionSchema()
    questions: list[Question] = []
    seen: set[str] = set()
    with path.open("rb") as file:
        for number, raw in enumerate(iter(lambda: file.readline(MAX_LINE_BYTES + 1), b""), start=1):
            if len(raw) > MAX_LINE_BYTES:
                raise QuestionFileError(f"{path}:{number}: the line is longer than {MAX_LINE_BYTES} bytes")
            if not raw.strip():
                continue
            if len(questions) == MAX_QUESTIONS:
                raise QuestionFileError(f"{path}: more than {MAX_QUESTIONS} questions")
            try:
                question = Question(**schema.load(loads(raw.decode("utf-8"))))
            except (ValueError, RecursionError, ValidationError) as error:
                reason = error.messages if isinstance(error, ValidationError) else f"not a JSON line ({error})"
                raise QuestionFileError(f"{path}:{number}: {reason}") from None
            if question.id in seen:
                raise QuestionFileError(f"{path}:{number}: the id {question.id!r} is used twice")
            seen.add(question.id)
            try:
                computed = answer_of(question)
            except Exception as error:  # the service refuses the intended call
                raise QuestionFileError(
                    f"{path}:{number}: {question.operation} refuses the arguments: {error}"
                ) from None
            if computed != question.answer:
                raise QuestionFileError(
                    f"{path}:{number}: the answer {question.answer!r} is not {question.operation}'s ({computed!r})"
                )
            questions.append(question)
    return questions
