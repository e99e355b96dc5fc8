"""Apero request and response shapes (``POST /api/v1/apero/score``) and their limits."""

from __future__ import annotations

from marshmallow import fields, post_load, validate

from ..games import apero
from .common import PLAYER_NAME, ItemList, StrictSchema, integer, player_name

MAX_SETS = 10  # sets shuffled together; the scorer is exact beyond, the cap bounds work
MAX_PLAYERS = 20
MAX_CARDS_PER_PLAYER = 36 * MAX_SETS  # the deck's size at the cap
CARD_VALUES = sorted({v for values in apero.DECK.values() for v in values})


class CardSchema(StrictSchema):
    color = fields.String(
        required=True,
        validate=validate.OneOf(list(apero.COLOR_ALIASES)),
        metadata={"examples": ["purple"]},
    )
    value = integer(
        required=True,
        validate=validate.OneOf(CARD_VALUES),
        metadata={
            "description": "1 to 3; purple and black_green -3 to -1.",
            "examples": [-1],
        },
    )

    @post_load
    def to_color_id(self, card, **_):
        # the card as the rules take it: (colour id, value), the alias resolved
        return apero.COLOR_ALIASES[card["color"]], card["value"]


class PlayerSchema(StrictSchema):
    name = player_name(required=True, metadata={"description": PLAYER_NAME, "examples": ["Aki"]})
    cards = ItemList(
        fields.Nested(CardSchema),
        required=True,
        validate=validate.Length(1, MAX_CARDS_PER_PLAYER),
    )


def sets_field():
    return integer(
        load_default=1,
        validate=validate.Range(1, MAX_SETS),
        metadata={"description": "36-card sets shuffled together."},
    )


class AperoScoreRequestSchema(StrictSchema):
    sets = sets_field()
    players = ItemList(
        fields.Nested(PlayerSchema),
        required=True,
        validate=validate.Length(1, MAX_PLAYERS),
    )


class ColorScoreSchema(StrictSchema):
    color = fields.String(required=True, metadata={"description": "Colour id."})
    label = fields.String(required=True, metadata={"description": "Colour name in the requested language."})
    cards = fields.List(integer(), required=True, metadata={"description": "The colour's card values."})
    score = integer(required=True, metadata={"description": "The largest value any + / × expression reaches."})
    score_text = fields.String(
        required=True,
        metadata={"description": "score as decimal text: exact in every JSON parser (scores of many sets pass 2^53)."},
    )
    expression = fields.String(
        required=True,
        metadata={
            "description": "A formula over exactly these cards that evaluates to score.",
            "examples": ["(-1 + -2) × -3"],
        },
    )
    explanation = fields.String(required=True)


class PlayerScoreSchema(StrictSchema):
    name = fields.String(required=True)
    total = integer(required=True, metadata={"description": "Sum of the colour scores."})
    total_text = fields.String(required=True, metadata={"description": "total as decimal text (exact beyond 2^53)."})
    colors = fields.List(
        fields.Nested(ColorScoreSchema), required=True, metadata={"description": "Held colours in deck order."}
    )
    explanation = fields.String(required=True)


class AperoScoreResponseSchema(StrictSchema):
    sets = integer(required=True)
    players = fields.List(fields.Nested(PlayerScoreSchema), required=True)
    winners = fields.List(
        fields.String(), required=True, metadata={"description": "Highest total; ties share the win."}
    )
    explanation = fields.String(required=True)


# -- Which card to take -----------------------------------------------------------------

MAX_TABLE = 20  # face-up cards on the table


class CollectorSchema(StrictSchema):
    """A player during the game: no card is needed yet."""

    name = player_name(required=True, metadata={"description": PLAYER_NAME, "examples": ["Aki"]})
    cards = ItemList(
        fields.Nested(CardSchema),
        required=True,
        validate=validate.Length(0, MAX_CARDS_PER_PLAYER),
        metadata={"description": "Taken so far."},
    )


class AperoPickRequestSchema(StrictSchema):
    sets = sets_field()
    players = ItemList(
        fields.Nested(CollectorSchema),
        required=True,
        validate=validate.Length(1, MAX_PLAYERS),
        metadata={"description": "Every player, me included."},
    )
    me = player_name(
        required=True,
        metadata={
            "description": "The asking player, one of players.",
            "examples": ["Aki"],
        },
    )
    table = ItemList(
        fields.Nested(CardSchema),
        required=True,
        validate=validate.Length(1, MAX_TABLE),
        metadata={"description": "The face-up cards to choose from."},
    )


class CardOutSchema(StrictSchema):
    color = fields.String(required=True, metadata={"description": "Colour id."})
    value = integer(required=True)


class RivalGainSchema(StrictSchema):
    name = fields.String(required=True)
    gain = integer(required=True, metadata={"description": "What the card would add to this player's score."})


class PickOptionSchema(StrictSchema):
    card = fields.Nested(CardOutSchema, required=True)
    label = fields.String(required=True, metadata={"description": "Colour name in the requested language."})
    gain = integer(
        required=True, metadata={"description": "My score with the card minus my score now (may be negative)."}
    )
    score = integer(required=True, metadata={"description": "My score of the card's colour with the card."})
    expression = fields.String(required=True, metadata={"description": "A formula reaching that colour score."})
    gains = fields.List(
        fields.Nested(RivalGainSchema),
        required=True,
        metadata={"description": "The card's gain for every other player."},
    )
    explanation = fields.String(required=True)


class AperoPickResponseSchema(StrictSchema):
    sets = integer(required=True)
    me = fields.String(required=True)
    best = fields.Nested(CardOutSchema, required=True, metadata={"description": "The card of the first option."})
    options = fields.List(
        fields.Nested(PickOptionSchema),
        required=True,
        metadata={
            "description": "One per distinct table card: by gain, then the largest gain it denies, then deck order."
        },
    )
    explanation = fields.String(required=True)
