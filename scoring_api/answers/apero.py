"""Apero over HTTP: ``POST /api/v1/apero/score``.

Scores every hand with the rules of ``docs/rules/apero.md`` (:mod:`scoring_api.games.apero`)
and explains each colour, each total and the winners with the catalogue's sentences
(``messages/apero.yaml``).
"""

from __future__ import annotations

from ..games import apero
from ..i18n import join_list, t
from ..operation import Operation, operation
from ..schemas.apero import AperoScoreRequestSchema, AperoScoreResponseSchema

#: This game's operations, in the order they are listed (see scoring_api.operations).
OPERATIONS: list[Operation] = []


def _color_name(color: str, lang: str) -> str:
    return t(f"apero.colors.{color}", lang)


def _display_facts(facts: dict, lang: str) -> dict:
    """The colour's name in ``lang`` and the colour's values as text, for messages."""
    shown = {}
    if "color" in facts:
        shown["color_name"] = _color_name(facts["color"], lang)
    if "values" in facts:
        shown["values"] = " ".join(str(v) for v in facts["values"])
    return shown


def _color(scored: apero.ColorScore, lang: str) -> dict:
    """A colour's score, with its formula and the sentence that explains it."""
    label = _color_name(scored.color, lang)
    return {
        "color": scored.color,
        "label": label,
        "cards": list(scored.cards),
        "score": scored.score,
        "score_text": str(scored.score),
        "expression": scored.expression,
        "explanation": t(
            "apero.color_single",
            lang,
            color_name=label,
            cards=len(scored.cards),
            expression=scored.expression,
            score=scored.score,
        ),
    }


def _player(hand: apero.HandScore, lang: str) -> dict:
    """A player's colours and total; the total's sentence adds up the colours by name."""
    parts = " + ".join(f"{_color_name(scored.color, lang)} {scored.score}" for scored in hand.colors)
    return {
        "name": hand.name,
        "total": hand.total,
        "total_text": str(hand.total),
        "colors": [_color(scored, lang) for scored in hand.colors],
        "explanation": t("apero.total", lang, name=hand.name, parts=parts, total=hand.total),
    }


@operation(
    OPERATIONS,
    operation_id="score_apero",
    method="POST",
    path="/apero/score",
    request=AperoScoreRequestSchema,
    response=AperoScoreResponseSchema,
    tag="apero",
    display_facts=_display_facts,
    summary="Score Apero hands exactly, any hand size and number of sets.",
    description=(
        "Call to score Apero (アペロ) hands of any size: each colour scores the largest "
        "value of + and × over all its cards, the hand the sum. Returns each colour's score "
        "with a checkable formula, totals and the winners (ties share). Cards are checked "
        "against `sets` decks."
    ),
)
def score(request: dict, lang: str) -> dict:
    """Every player's colours, total and explanation, then the winners.

    Cards load as ``(colour id, value)`` pairs (schemas/apero.py), as the rules take them.
    """
    players = [(player["name"], player["cards"]) for player in request["players"]]
    game = apero.score_game(players, request["sets"])
    winners_key = "apero.winners_one" if len(game.winners) == 1 else "apero.winners_tied"
    return {
        "sets": game.sets,
        "players": [_player(hand, lang) for hand in game.players],
        "winners": list(game.winners),
        "explanation": t(winners_key, lang, names=join_list(game.winners, lang), total=game.top),
    }
