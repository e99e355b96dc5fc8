"""The rules documents over every surface: ``GET /api/v1/rules`` and the ``rules`` tool.

Answers a game's rules document (docs/rules/, :mod:`scoring_api.rules_documents`) in
Japanese or English, whole or one section, so an assistant quotes the decision that
applies instead of guessing. Not a game: listed apart in the registry.
"""

from __future__ import annotations

from .. import rules_documents
from ..i18n import join_list
from ..schemas.rules import RulesDocumentRequestSchema, RulesDocumentResponseSchema
from .operation import Operation, operation

OPERATIONS: list[Operation] = []

TAG = "rules"


def _display(facts: dict, lang: str) -> dict:
    return {"sections": join_list(facts["sections"], lang)}


@operation(
    OPERATIONS,
    operation_id="rules",
    method="GET",
    path="/rules",
    request=RulesDocumentRequestSchema,
    response=RulesDocumentResponseSchema,
    tag=TAG,
    terms={"section": "section"},
    display_facts=_display,
    summary="A game's rules, in Japanese or English: the whole document or one section.",
    description=(
        "Call for any rules question: returns the game's rules as Markdown (play, scoring, numbered "
        "Decisions, worked examples), whole or one section (prefer a section: a whole document runs to "
        "20,000 characters). Quote the decision that applies by its number."
    ),
)
def rules(request: dict, lang: str) -> dict:
    language = request["language"] or lang
    doc, section = rules_documents.read(request["game"], language, request["section"])
    return {
        "game": doc.game,
        "language": language,
        "title": doc.title,
        "section": section.heading if section else None,
        "sections": [s.heading for s in doc.sections[1:]],
        "text": section.text if section else doc.text,
    }
