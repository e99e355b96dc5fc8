"""What a game's question writer gives: the question before its answer is computed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Draft:
    kind: str  # the answer's kind (scoring_api.eval.answers.KINDS)
    text: str  # the question, ending with the form of its answer line
    operation: str  # the operation (and tool) that answers it
    arguments: dict  # the intended call's arguments, as the REST endpoint takes them
