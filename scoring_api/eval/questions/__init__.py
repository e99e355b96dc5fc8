"""The question generator: seeded, a writer per game (:mod:`.apero`, :mod:`.applejack`,
:mod:`.fairy_black_box`, :mod:`.pedro`), each answer computed by the service's own
operation in process (the registry's ``run``, the road every surface takes).

Question ``i`` of a seed is the same whatever the count, so a longer set begins with the
shorter one: slot ``i`` takes the game ``games[i % len(games)]`` and the language
``langs[(i // len(games)) % len(langs)]``, and draws from its own generator seeded with
``"<seed>:<i>"``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ...operations.registry import find_operation
from ..answers import Answer
from ..question import GAMES, LANGS, MAX_QUESTIONS, Question
from . import apero, applejack, fairy_black_box, pedro
from .draft import Draft

#: Each game's question writer: ``draft(rng, lang) -> Draft``.
WRITERS: dict[str, Callable[[random.Random, str], Draft]] = {
    "apero": apero.draft,
    "applejack": applejack.draft,
    "fairy_black_box": fairy_black_box.draft,
    "pedro": pedro.draft,
}
#: The answer in an operation's result, for every operation a question may intend.
ANSWERS: dict[str, Callable[[dict], Answer]] = {
    **apero.ANSWERS,
    **applejack.ANSWERS,
    **fairy_black_box.ANSWERS,
    **pedro.ANSWERS,
}

assert set(WRITERS) == set(GAMES)


def answer_from(operation: str, result: dict) -> Answer:
    """The answer an operation's result gives (its question's kind)."""
    return ANSWERS[operation](result)


def run_intended(operation: str, arguments: dict, lang: str) -> dict:
    """The operation's result for the arguments, in process (raises its 400s)."""
    op = find_operation(operation)
    if op is None:
        raise LookupError(operation)
    return op.run(arguments, lang)


def answer_of(question: Question) -> Answer:
    """The exact answer to a question: its intended call, run through the registry."""
    return answer_from(question.operation, run_intended(question.operation, question.arguments, question.lang))


def generate(count: int, seed: int, games: tuple[str, ...] = GAMES, langs: tuple[str, ...] = LANGS) -> list[Question]:
    """``count`` questions (at most :data:`MAX_QUESTIONS`) of the games, in the languages."""
    if not 1 <= count <= MAX_QUESTIONS:
        raise ValueError(f"count must be 1-{MAX_QUESTIONS}")
    questions = []
    for i in range(count):
        game, lang = games[i % len(games)], langs[(i // len(games)) % len(langs)]
        drafted = WRITERS[game](random.Random(f"{seed}:{i}"), lang)
        answer = answer_from(drafted.operation, run_intended(drafted.operation, drafted.arguments, lang))
        questions.append(
            Question(
                id=f"{i + 1:04d}-{game}-{lang}",
                game=game,
                lang=lang,
                kind=drafted.kind,
                text=drafted.text,
                operation=drafted.operation,
                arguments=drafted.arguments,
                answer=answer,
            )
        )
    return questions
