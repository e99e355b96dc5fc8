"""Apero over HTTP: ``POST /api/v1/apero/score``."""

from __future__ import annotations

from ..games import apero
from ..i18n import join_list, t
from ..schemas.apero import AperoScoreRequestSchema, AperoScoreResponseSchema
from .operations import operation


def _label(color: str, lang: str) -> str:
    return apero.COLOR_NAMES[color][lang]


def _color(score: apero.ColorScore, lang: str) -> dict:
    label = _label(score.color, lang)
    return {
        "color": score.color,
        "label": label,
        "cards": list(score.cards),
        "score": score.score,
        "score_text": str(score.score),
        "expression": score.expression,
        "explanation": t(
            "apero.color_single", lang, color_name=label, cards=len(score.cards),
            expression=score.expression, score=score.score,
        ),
    }


def _player(hand: apero.HandScore, lang: str) -> dict:
    parts = " + ".join(f"{_label(c.color, lang)} {c.score}" for c in hand.colors)
    return {
        "name": hand.name,
        "total": hand.total,
        "total_text": str(hand.total),
        "colors": [_color(c, lang) for c in hand.colors],
        "explanation": t("apero.total", lang, name=hand.name, parts=parts, total=hand.total),
    }


def _display_facts(facts: dict, lang: str) -> dict:
    """The colour's name in ``lang`` and the colour's values as text, for messages."""
    shown = {}
    if "color" in facts:
        shown["color_name"] = _label(facts["color"], lang)
    if "values" in facts:
        shown["values"] = " ".join(str(v) for v in facts["values"])
    return shown


@operation(
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
    players = [
        (p["name"], [(c["color"], c["value"]) for c in p["cards"]]) for p in request["players"]
    ]
    game = apero.score_game(players, request["sets"])
    top = max(h.total for h in game.players)
    names = join_list(game.winners, lang)
    key = "apero.winners_one" if len(game.winners) == 1 else "apero.winners_tied"
    return {
        "sets": game.sets,
        "players": [_player(h, lang) for h in game.players],
        "winners": list(game.winners),
        "explanation": t(key, lang, names=names, total=top),
    }
