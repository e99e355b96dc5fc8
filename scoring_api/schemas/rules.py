"""The ``rules`` operation's shapes: which game's rules document, in which language, and
optionally one section of it (``GET /api/v1/rules``)."""

from __future__ import annotations

from marshmallow import fields, validate

from ..i18n import LANGS
from ..rules_documents import GAMES
from .common import StrictSchema

MAX_SECTION = 80  # characters: the longest heading is about 40


class RulesDocumentRequestSchema(StrictSchema):
    game = fields.String(
        required=True,
        validate=validate.OneOf(GAMES),
        metadata={"examples": ["pedro"]},
    )
    language = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.OneOf(LANGS),
        metadata={"description": "null: the answer's language."},
    )
    section = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(1, MAX_SECTION),
        metadata={
            "description": "A heading, ja or en (Decisions, 判断, Worked examples); null: the whole document.",
            "examples": ["Decisions"],
        },
    )


class RulesDocumentResponseSchema(StrictSchema):
    game = fields.String(required=True)
    language = fields.String(required=True)
    title = fields.String(required=True, metadata={"description": "The document's title."})
    section = fields.String(
        required=True, allow_none=True, metadata={"description": "The section answered; null: the whole document."}
    )
    sections = fields.List(
        fields.String(), required=True, metadata={"description": "Every heading of the document, in order."}
    )
    text = fields.String(required=True, metadata={"description": "Markdown: the document, or the section."})
