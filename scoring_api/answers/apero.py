"""Apero over HTTP: ``POST /api/v1/apero/score``."""

from __future__ import annotations

from operator import itemgetter

from ..games import apero
from ..i18n import LANGS, LIST_SEPARATORS, positional
from ..operation import Operation, operation
from ..schemas.apero import AperoScoreRequestSchema, AperoScoreResponseSchema

#: This game's operations, in the order they are listed (see scoring_api.operations).
OPERATIONS: list[Operation] = []

#: The colours' names by language: ``LABELS["en"]["black_green"] == "black-green"``.
LABELS: dict[str, dict[str, str]] = {
    lang: {color: names[lang] for color, names in apero.COLOR_NAMES.items()} for lang in LANGS
}


#: The sentences of a result with positional placeholders, by language.
COLOR_SENTENCES = positional("apero.color_single", "color_name", "cards", "expression", "score")
TOTAL_SENTENCES = positional("apero.total", "name", "parts", "total")
WINNER_SENTENCES = positional("apero.winners_one", "names", "total")
TIE_SENTENCES = positional("apero.winners_tied", "names", "total")


def _shown_color(scored: apero.ColorScore, lang: str) -> tuple[dict, str]:
    """A colour's answer in ``lang`` with ``cards`` left to fill (``None``), and its part of
    the total's sentence: the explanation is ``apero.color_single`` (:data:`COLOR_SENTENCES`)."""
    color, cards, score, expression = scored
    label = LABELS[lang][color]
    shown = {
        "color": color,
        "label": label,
        "cards": None,
        "score": score,
        "score_text": str(score),
        "expression": expression,
        "explanation": COLOR_SENTENCES[lang].format(label, len(cards), expression, score),
    }
    return shown, f"{label} {score}"


#: :func:`_shown_color` of every colour score of the rules' one-set table, by language,
#: built at import; other scores (hands beyond one set) are shown per request.
SHOWN_COLORS: dict[str, dict[apero.ColorScore, tuple[dict, str]]] = {
    lang: {scored: _shown_color(scored, lang) for scored in apero.tabulated_color_scores()} for lang in LANGS
}

#: A loaded player as the rules take it: ``(name, cards)``.
_NAME_AND_CARDS = itemgetter("name", "cards")


def _display_facts(facts: dict, lang: str) -> dict:
    """The colour's name in ``lang`` and the colour's values as text, for messages."""
    shown = {}
    if "color" in facts:
        shown["color_name"] = LABELS[lang][facts["color"]]
    if "values" in facts:
        shown["values"] = " ".join(str(v) for v in facts["values"])
    return shown


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
    Each colour is a fresh copy of its shown form (:data:`SHOWN_COLORS`) with its own list
    of cards; the player's explanation is ``apero.total`` (:data:`TOTAL_SENTENCES`).
    """
    players = list(map(_NAME_AND_CARDS, request["players"]))
    hands, winners, sets, top = apero.score_game(players, request["sets"])
    shown_colors = SHOWN_COLORS[lang]
    total_sentence = TOTAL_SENTENCES[lang]
    answers = []
    for name, scores, total in hands:
        colors = []
        parts = []
        for scored in scores:
            shown, part = shown_colors.get(scored) or _shown_color(scored, lang)
            colors.append(shown := shown.copy())
            shown["cards"] = [*scored.cards]
            parts.append(part)
        answers.append(
            {
                "name": name,
                "total": total,
                "total_text": str(total),
                "colors": colors,
                "explanation": total_sentence.format(name, " + ".join(parts), total),
            }
        )
    sentences = WINNER_SENTENCES if len(winners) == 1 else TIE_SENTENCES
    return {
        "sets": sets,
        "players": answers,
        "winners": list(winners),
        "explanation": sentences[lang].format(LIST_SEPARATORS[lang].join(winners), top),
    }
