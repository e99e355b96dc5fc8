"""Apero over HTTP: ``POST /api/v1/apero/score``.

Scores every hand with the rules of ``docs/rules/apero.md`` (:mod:`scoring_api.games.apero`)
and explains each colour, each total and the winners with the catalogue's sentences
(``messages/apero.yaml``).
"""

from __future__ import annotations

from ..games import apero, apero_pick
from ..i18n import join_list, sentences, t
from ..schemas.apero import (
    AperoPickRequestSchema,
    AperoPickResponseSchema,
    AperoScoreRequestSchema,
    AperoScoreResponseSchema,
)
from .operation import Operation, operation

#: This game's operations, in the order they are listed (see scoring_api.operations).
OPERATIONS: list[Operation] = []

#: How the requests name the players, their names and cards (the rules' terms).
PLAYER_TERMS = {"player": "players", "player.name": "name", "player.card": "cards"}


def _color_name(color: str, lang: str) -> str:
    return t(f"apero.colors.{color}", lang)


def _display_facts(facts: dict, lang: str) -> dict:
    """The colour's name in ``lang`` and the colour's values as text, for messages."""
    shown = {}
    if "color" in facts:
        shown["color_name"] = _color_name(facts["color"], lang)
    if "values" in facts:
        shown["values"] = " ".join(str(v) for v in facts["values"])
    if "names" in facts:
        shown["names_text"] = join_list(facts["names"], lang)
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
    terms=PLAYER_TERMS,
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
        "explanation": t(winners_key, lang, names=game.winners, total=game.top),
    }


def _option(option: apero_pick.PickOption, lang: str) -> dict:
    """One table card: what it gives me, what it would give each opponent, in a sentence or two."""
    color, value = option.card
    label = _color_name(color, lang)
    parts = [
        t(
            "apero.pick_option",
            lang,
            color_name=label,
            value=value,
            gain=option.gain,
            expression=option.color.expression,
            score=option.color.score,
        )
    ]
    if option.denied > 0:
        rival = next(name for name, gain in option.gains if gain == option.denied)  # the first, in request order
        parts.append(t("apero.pick_denied", lang, rival=rival, denied=option.denied))
    return {
        "card": {"color": color, "value": value},
        "label": label,
        "gain": option.gain,
        "score": option.color.score,
        "expression": option.color.expression,
        "gains": [{"name": name, "gain": gain} for name, gain in option.gains],
        "explanation": sentences(parts, lang),
    }


@operation(
    OPERATIONS,
    operation_id="apero_pick",
    method="POST",
    path="/apero/pick",
    request=AperoPickRequestSchema,
    response=AperoPickResponseSchema,
    tag="apero",
    display_facts=_display_facts,
    terms={**PLAYER_TERMS, "me": "me", "table_card": "table"},
    summary="Apero advice: what each table card would add to my score and to each opponent's.",
    description=(
        "Call when a player asks which Apero (アペロ) card to take: give every player's cards so far, "
        "`me` and the face-up `table`. Returns one option per distinct table card with my exact gain, "
        "each opponent's gain, my new formula, ranked best first."
    ),
)
def pick(request: dict, lang: str) -> dict:
    players = [(player["name"], player["cards"]) for player in request["players"]]
    options = apero_pick.pick(players, request["me"], request["table"], request["sets"])
    best = options[0]
    color, value = best.card
    return {
        "sets": request["sets"],
        "me": request["me"],
        "best": {"color": color, "value": value},
        "options": [_option(option, lang) for option in options],
        "explanation": t(
            "apero.pick_best", lang, me=request["me"], color_name=_color_name(color, lang), value=value, gain=best.gain
        ),
    }
