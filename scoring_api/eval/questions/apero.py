"""Apero questions: the cards one to three players took, named by colour and value as the
form names them (赤1, purple -2), and each player's total (docs/rules/apero.md, Scoring).

The cards are dealt from one set, so every hand is legal together; each hand holds 4 to 8
cards, listed in the deck's colour order as a player reads them off the table.
"""

from __future__ import annotations

import random

from ...games.apero import COLORS, DECK
from ..terms import PLAYER_NAMES, apero_card, word
from .draft import Draft

OPERATION = "score_apero"


def _deck() -> list[tuple[str, int]]:
    return [(color, value) for color in COLORS for value, copies in DECK[color].items() for _ in range(copies)]


def draft(rng: random.Random, lang: str) -> Draft:
    deck = _deck()
    rng.shuffle(deck)
    names = PLAYER_NAMES[lang][: rng.randint(1, 3)]
    hands = {}
    for name in names:
        size = rng.randint(4, 8)
        hands[name], deck = sorted(deck[:size], key=_deck_order), deck[size:]
    arguments = {
        "sets": 1,
        "players": [
            {"name": name, "cards": [{"color": color, "value": value} for color, value in cards]}
            for name, cards in hands.items()
        ],
    }
    return Draft("scores", _text(hands, lang), OPERATION, arguments)


def _deck_order(card: tuple[str, int]) -> tuple[int, int]:
    color, value = card
    return COLORS.index(color), abs(value)


def _text(hands: dict[str, list[tuple[str, int]]], lang: str) -> str:
    game = word("apero", lang)
    if lang == "ja":
        taken = "".join(
            f"{name}が取ったカードは{'、'.join(apero_card(c, v, lang) for c, v in cards)}です。"
            for name, cards in hands.items()
        )
        form = "、".join(f"{name} <合計>" for name in hands)
        return (
            f"{game}の得点を計算してください。1セットで遊びました。{taken}"
            f"{'それぞれの' if len(hands) > 1 else ''}合計は何点ですか？\n"
            f"最後の行に「答え: {form}」の形で書いてください。"
        )
    taken = " ".join(
        f"{name} took {_listed([apero_card(c, v, lang) for c, v in cards])}." for name, cards in hands.items()
    )
    form = ", ".join(f"{name} <total>" for name in hands)
    whose = "each player's total" if len(hands) > 1 else f"{next(iter(hands))}'s total"
    return (
        f"Please score our game of {game}. We played with one set. {taken} What is {whose}?\n"
        f'On the last line write "Answer: {form}".'
    )


def _listed(items: list[str]) -> str:
    return ", ".join(items[:-1]) + " and " + items[-1]


def _answer(result: dict) -> dict[str, int]:
    """Each player's total, in the request's order."""
    return {player["name"]: player["total"] for player in result["players"]}


ANSWERS = {OPERATION: _answer}
