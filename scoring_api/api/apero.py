"""Apero over HTTP: ``POST /api/v1/apero/score``."""

from __future__ import annotations

from ..games import apero
from ..i18n import LANGS, join_list, t
from ..schemas.apero import AperoScoreRequestSchema, AperoScoreResponseSchema
from .operations import operation

#: The colours' names by language: ``LABELS["en"]["black_green"] == "black-green"``.
LABELS: dict[str, dict[str, str]] = {
    lang: {color: names[lang] for color, names in apero.COLOR_NAMES.items()} for lang in LANGS
}


def _positional(key: str, *names: str) -> dict[str, str]:
    """The sentence ``key`` in every language, its placeholders ``names`` turned into
    ``{0}``, ``{1}``...: read from the catalogue once, then filled for each colour or
    player with a positional ``str.format`` (the sentences hold no literal braces)."""
    placeholders = {name: f"{{{index}}}" for index, name in enumerate(names)}
    return {lang: t(key, lang, **placeholders) for lang in LANGS}


#: The sentences of a result with positional placeholders, by language.
COLOR_SENTENCES = _positional("apero.color_single", "color_name", "cards", "expression", "score")
TOTAL_SENTENCES = _positional("apero.total", "name", "parts", "total")
WINNER_SENTENCES = _positional("apero.winners_one", "names", "total")
TIE_SENTENCES = _positional("apero.winners_tied", "names", "total")


def _color(score: apero.ColorScore, label: str, sentence: str) -> dict:
    """One colour's scores; ``sentence`` is ``apero.color_single`` (:data:`COLOR_SENTENCES`)."""
    return {
        "color": score.color,
        "label": label,
        "cards": list(score.cards),
        "score": score.score,
        "score_text": str(score.score),
        "expression": score.expression,
        "explanation": sentence.format(label, len(score.cards), score.expression, score.score),
    }


def _player(hand: apero.HandScore, lang: str) -> dict:
    labels = LABELS[lang]
    sentence = COLOR_SENTENCES[lang]
    parts = " + ".join([f"{labels[c.color]} {c.score}" for c in hand.colors])
    return {
        "name": hand.name,
        "total": hand.total,
        "total_text": str(hand.total),
        "colors": [_color(c, labels[c.color], sentence) for c in hand.colors],
        "explanation": TOTAL_SENTENCES[lang].format(hand.name, parts, hand.total),
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
    players = [
        (p["name"], [(c["color"], c["value"]) for c in p["cards"]]) for p in request["players"]
    ]
    game = apero.score_game(players, request["sets"])
    sentences = WINNER_SENTENCES if len(game.winners) == 1 else TIE_SENTENCES
    return {
        "sets": game.sets,
        "players": [_player(h, lang) for h in game.players],
        "winners": list(game.winners),
        "explanation": sentences[lang].format(join_list(game.winners, lang), game.top),
    }
