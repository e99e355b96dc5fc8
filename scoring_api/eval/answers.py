"""The answer line: how a question asks for its answer and how the grader reads it.

A reply ends with one line the grader reads without guessing (the prompt,
:mod:`.prompts`, defines it; each question repeats its own form):

* ``number``: ``答え: 34`` / ``Answer: 34``;
* ``scores``: a number per player or team, ``答え: ハル 16、ミオ 9`` /
  ``Answer: Aki 16, Ben 9``;
* ``names``: the winners, ``答え: ハル`` / ``Answer: Aki, Ben`` when the win is shared.

Reading is strict. The reply's last non-empty line, in Unicode's compatibility form (NFKC:
``：`` is ``:``, ``１６`` is ``16``) with Markdown emphasis (``*``, ``_``, backticks) around
it removed, must be ``答え:`` or ``Answer:`` (any case) and the value in the question's
form: integers without units, items separated by ``,`` or ``、``, a name (no ``:``) and
its number separated by spaces, each name once. Names are compared as the service reads
players' names (NFKC, trimmed); the items' order does not matter. Anything else is no answer (``formatted`` false), and so never right.
"""

from __future__ import annotations

import re
import unicodedata

#: The kinds of answers and the JSON value of each: an integer, ``{name: integer}``, ``[name]``.
KINDS = ("number", "scores", "names")
#: Longest answer line read (characters); a longer last line is no answer.
MAX_LINE = 500

Answer = int | dict[str, int] | list[str]

_LABEL = re.compile(r"(?:答え|answer)\s*:\s*(.*)", re.IGNORECASE | re.DOTALL)
_INTEGER = re.compile(r"[+-]?[0-9]+")
_ITEM = re.compile(r"([^:]+?)\s+([+-]?[0-9]+)")
_SEPARATORS = re.compile(r"\s*[,、]\s*")
_EMPHASIS = "*_` \t"


def answer_line(kind: str, answer: Answer, lang: str) -> str:
    """The line a right reply ends with (the question's own form, filled in)."""
    label = "答え" if lang == "ja" else "Answer"
    separator = "、" if lang == "ja" else ", "
    if kind == "number":
        value = str(answer)
    elif kind == "scores":
        assert isinstance(answer, dict)
        value = separator.join(f"{name} {score}" for name, score in answer.items())
    else:
        assert isinstance(answer, list)
        value = separator.join(answer)
    return f"{label}: {value}"


def last_line(reply: str) -> str | None:
    """The reply's last non-empty line, read as the grader reads it (None if there is none
    or it is longer than :data:`MAX_LINE`)."""
    lines = [line for line in reply.splitlines() if line.strip(_EMPHASIS)]
    if not lines or len(lines[-1]) > MAX_LINE:
        return None
    return unicodedata.normalize("NFKC", lines[-1]).strip(_EMPHASIS).replace("\u2212", "-")


def parse(kind: str, reply: str) -> Answer | None:
    """The answer the reply gives, or None when its last line is not an answer in the form."""
    line = last_line(reply)
    found = _LABEL.fullmatch(line) if line is not None else None
    if found is None:
        return None
    value = found.group(1).strip()
    if kind == "number":
        return int(value) if _INTEGER.fullmatch(value) else None
    items = _SEPARATORS.split(value) if value else []
    if not items or any(not item for item in items):
        return None
    if kind == "names":
        names = [_name(item) for item in items]
        return names if len(set(names)) == len(names) else None
    scores: dict[str, int] = {}
    for item in items:
        pair = _ITEM.fullmatch(item)
        if pair is None or _name(pair.group(1)) in scores:
            return None
        scores[_name(pair.group(1))] = int(pair.group(2))
    return scores


def same(kind: str, given: Answer | None, expected: Answer) -> bool:
    """Is the given answer the expected one (names as players read them, in any order)?"""
    if given is None:
        return False
    if kind == "number":
        return given == expected
    if kind == "names":
        assert isinstance(given, list) and isinstance(expected, list)
        return sorted(given) == sorted(_name(name) for name in expected)
    assert isinstance(given, dict) and isinstance(expected, dict)
    return given == {_name(name): score for name, score in expected.items()}


def _name(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()
