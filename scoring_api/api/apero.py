"""Apero over HTTP: ``POST /api/v1/apero/score``."""

from __future__ import annotations

from operator import itemgetter

from ..games import apero
from ..i18n import LANGS, LIST_SEPARATORS, positional
from ..schemas.apero import AperoScoreRequestSchema, AperoScoreResponseSchema
from .operations import operation

#: The colours' names by language: ``LABELS["en"]["black_green"] == "black-green"``.
LABELS: dict[str, dict[str, str]] = {
    lang: {color: names[lang] for color, names in apero.COLOR_NAMES.items()} for lang in LANGS
}


#: The sentences of a result with positional placeholders, by language.
COLOR_SENTENCES = positional("apero.color_single", "color_name", "cards", "expression", "score")
TOTAL_SENTENCES = positional("apero.total", "name", "parts", "total")
WINNER_SENTENCES = positional("apero.winners_one", "names", "total")
TIE_SENTENCES = positional("apero.winners_tied", "names", "total")

#: A loaded card as the rules take it: ``(colour id, value)``.
_CARD = itemgetter("color", "value")


def _player(hand: apero.HandScore, lang: str) -> dict:
    """One player's colours and total.  Each colour's scores are built inline (this runs
    for every colour of every hand); its explanation is ``apero.color_single``
    (:data:`COLOR_SENTENCES`)."""
    labels = LABELS[lang]
    sentence = COLOR_SENTENCES[lang]
    colors = []
    parts = []
    for color, cards, score, expression in hand.colors:
        label = labels[color]
        colors.append({
            "color": color,
            "label": label,
            "cards": list(cards),
            "score": score,
            "score_text": str(score),
            "expression": expression,
            "explanation": sentence.format(label, len(cards), expression, score),
        })
        parts.append(f"{label} {score}")
    name, _, total = hand
    return {
        "name": name,
        "total": total,
        "total_text": str(total),
        "colors": colors,
        "explanation": TOTAL_SENTENCES[lang].format(name, " + ".join(parts), total),
    }


def _display_facts(facts: dict, lang: str) -> dict:
    """The colour's name in ``lang`` and the colour's values as text, for messages."""
    shown = {}
    if "color" in facts:
        shown["color_name"] = LABELS[lang][facts["color"]]
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
    players = [(p["name"], list(map(_CARD, p["cards"]))) for p in request["players"]]
    hands, winners, sets, top = apero.score_game(players, request["sets"])
    sentences = WINNER_SENTENCES if len(winners) == 1 else TIE_SENTENCES
    return {
        "sets": sets,
        "players": [_player(hand, lang) for hand in hands],
        "winners": list(winners),
        "explanation": sentences[lang].format(LIST_SEPARATORS[lang].join(winners), top),
    }
