"""Fairy & Black Box request and response shapes and their limits.

Operations: ``POST /api/v1/fairy-black-box/score``, ``GET .../setup``,
``POST .../end-check`` and ``POST .../next-player``.  Limits (the rules fix the first
three; the others are ours):

* players: 2-5 (the box); treasures per hand and in all hands together: at most 15 (the
  box's treasure cards; the total is a game rule, checked in ``games/``);
* mood: 0-20.  The rules give no maximum (star cards raise it; the player summary shows
  it); 20 is far above the start of 3-4 and keeps typos out;
* treasure points: -100..100 (the card list is not known; points may be negative);
* names (players, treasures): 1-40 characters; a player's name is read as
  :func:`.common.player_name` reads it (NFKC, trimmed, nothing invisible).
"""

from __future__ import annotations

from marshmallow import fields, validate

from ..games import fairy_black_box as fbb
from .common import PLAYER_NAME, ItemList, StrictSchema, boolean, integer, player_name, text

MIN_PLAYERS = fbb.MIN_PLAYERS
MAX_PLAYERS = fbb.MAX_PLAYERS
MAX_TREASURES = fbb.TREASURE_CARDS  # per hand; all hands together are checked by the rules
MIN_MOOD, MAX_MOOD = 0, 20
MIN_POINTS, MAX_POINTS = -100, 100
MAX_STAR_RUNOUTS = 2  # the 3-5 player game ends on the second; 2 players on the first
DECIDED_BY = ("score", "kirakira", "mood", "shared")


def _player_name(**kwargs) -> fields.String:
    return player_name(required=True, metadata={"description": PLAYER_NAME, "examples": ["Aki"]}, **kwargs)


# -- Final score ----------------------------------------------------------------------


class FairyBlackBoxTreasureSchema(StrictSchema):
    name = text(
        required=True,
        metadata={
            "description": "As printed; 〈きらきら〉 (or きらきら, キラキラ, kirakira) breaks score ties.",
            "examples": ["きらきら"],
        },
    )
    points = integer(
        required=True,
        validate=validate.Range(MIN_POINTS, MAX_POINTS),
        metadata={"examples": [3]},
    )


class FairyBlackBoxPlayerSchema(StrictSchema):
    name = _player_name()
    mood = integer(
        required=True,
        validate=validate.Range(MIN_MOOD, MAX_MOOD),
        metadata={
            "description": "ゴキゲン at the end: at least 1 while in the game, not used once eliminated.",
            "examples": [3],
        },
    )
    eliminated = boolean(
        required=True,
        metadata={"description": "Left the game (mood reached 0)."},
    )
    treasures = ItemList(
        fields.Nested(FairyBlackBoxTreasureSchema),
        required=True,
        validate=validate.Length(0, MAX_TREASURES),
        metadata={"description": "In hand; [] once eliminated. At most 15 in all hands together."},
    )


class FairyBlackBoxScoreRequestSchema(StrictSchema):
    players = ItemList(
        fields.Nested(FairyBlackBoxPlayerSchema),
        required=True,
        validate=validate.Length(MIN_PLAYERS, MAX_PLAYERS),
        metadata={"description": "Every player, eliminated ones included."},
    )


class FairyBlackBoxPlayerScoreSchema(StrictSchema):
    name = fields.String(required=True)
    eliminated = boolean(required=True)
    score = integer(
        required=True,
        allow_none=True,
        metadata={"description": "Sum of the treasures' points; null for an eliminated player."},
    )
    has_kirakira = fields.Boolean(required=True, metadata={"description": "Holds 〈きらきら〉."})
    rank = integer(
        required=True,
        allow_none=True,
        metadata={
            "description": "1 = winner. Order: score, then 〈きらきら〉, then mood; equal "
            "players share a rank. Null for an eliminated player."
        },
    )
    explanation = fields.String(required=True, metadata={"description": "How the score was reached."})


class FairyBlackBoxScoreResponseSchema(StrictSchema):
    players = fields.List(
        fields.Nested(FairyBlackBoxPlayerScoreSchema),
        required=True,
        metadata={"description": "In request order."},
    )
    winners = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "The winner, or the players sharing the win; [] if everyone was eliminated."},
    )
    decided_by = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(DECIDED_BY),
        metadata={
            "description": "The step that decided: score, kirakira (a tie broken by 〈きらきら〉), "
            "mood, shared (still tied); null when nobody is left to win."
        },
    )
    explanation = fields.String(required=True, metadata={"description": "Why these players won."})


# -- Setup ----------------------------------------------------------------------------


class FairyBlackBoxSetupRequestSchema(StrictSchema):
    players = integer(
        required=True,
        validate=validate.Range(MIN_PLAYERS, MAX_PLAYERS),
        metadata={"examples": [4]},
    )


class FairyBlackBoxSetupResponseSchema(StrictSchema):
    players = integer(required=True)
    starting_mood = integer(
        required=True,
        metadata={"description": "Every player's starting mood: 4, or 3 with 4-5 players."},
    )
    star_cards = integer(required=True)
    treasure_cards = integer(required=True)
    set_aside_star_cards = integer(required=True, metadata={"description": "Star cards set aside face down at setup."})
    star_deck_runouts_to_end = integer(
        required=True,
        metadata={"description": "The game ends after the turn the star deck runs out this many times."},
    )
    first_turn_names_opponent = fields.Boolean(
        required=True,
        metadata={"description": "2 players: the start player's first turn must name the opponent."},
    )
    explanation = fields.String(required=True)


# -- End check ------------------------------------------------------------------------


class FairyBlackBoxEndCheckRequestSchema(StrictSchema):
    players = integer(
        required=True,
        validate=validate.Range(MIN_PLAYERS, MAX_PLAYERS),
        metadata={"description": "At the start of the game, eliminated ones included."},
    )
    star_deck_runouts = integer(
        required=True,
        validate=validate.Range(0, MAX_STAR_RUNOUTS),
        metadata={"description": "So far, this turn included."},
    )
    treasure_deck_empty = boolean(required=True)
    treasure_discard_empty = boolean(required=True)
    players_left = integer(
        required=True,
        validate=validate.Range(0, MAX_PLAYERS),
        metadata={"description": "Players not eliminated."},
    )


class FairyBlackBoxEndConditionSchema(StrictSchema):
    condition = fields.String(
        required=True,
        validate=validate.OneOf(fbb.END_CONDITIONS),
        metadata={"description": "star_deck, treasure_deck or players_left."},
    )
    met = fields.Boolean(required=True)
    explanation = fields.String(required=True)


class FairyBlackBoxEndCheckResponseSchema(StrictSchema):
    last_turn = fields.Boolean(
        required=True, metadata={"description": "The game ends after this turn (or now, if one player is left)."}
    )
    reasons = fields.List(
        fields.String(validate=validate.OneOf(fbb.END_CONDITIONS)),
        required=True,
        metadata={"description": "Every end condition met, in the rulebook's order."},
    )
    checks = fields.List(
        fields.Nested(FairyBlackBoxEndConditionSchema),
        required=True,
        metadata={"description": "All three end conditions, met or not, with what to do."},
    )
    explanation = fields.String(required=True)


# -- Next player after an elimination -------------------------------------------------


class FairyBlackBoxRemainingPlayerSchema(StrictSchema):
    name = _player_name()
    treasure_count = integer(
        required=True,
        validate=validate.Range(0, MAX_TREASURES),
        metadata={"description": "Treasure cards in hand.", "examples": [2]},
    )


class FairyBlackBoxNextPlayerRequestSchema(StrictSchema):
    players = ItemList(
        fields.Nested(FairyBlackBoxRemainingPlayerSchema),
        required=True,
        validate=validate.Length(1, MAX_PLAYERS - 1),
        # At least 2: one player left means the game is over, which the rule refuses as
        # game_over (saying to score the game), so the length check lets 1 through to it.
        metadata={"description": "The players still in, not the active player just eliminated.", "minItems": 2},
    )


class FairyBlackBoxNextPlayerResponseSchema(StrictSchema):
    next_players = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Who plays next; several names = a tie, settled by rock-paper-scissors."},
    )
    fewest_treasures = integer(required=True)
    rock_paper_scissors = fields.Boolean(required=True)
    explanation = fields.String(required=True)
