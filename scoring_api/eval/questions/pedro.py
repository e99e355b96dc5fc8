"""Pedro questions: one hand's settlement (docs/rules/pedro.md, Settlement) from the scores
before it, the winning bid and the points each team took, under the standard rules.

The points are a possible split of the hand's point cards (Decisions, 4): each of the six
(1, 1, 1, 1, 5, 5) goes to NS, to EW or, now and then, to nobody. The scores before the
hand stay below the target (-20 to 90), so the hand is one the rules allow.
"""

from __future__ import annotations

import random

from ...games.pedro.cards import TEAMS
from ..terms import word
from .draft import Draft

OPERATION = "pedro_hand"
POINT_CARDS = (1, 1, 1, 1, 5, 5)


def draft(rng: random.Random, lang: str) -> Draft:
    taken = {"NS": 0, "EW": 0}
    for points in POINT_CARDS:
        owner = rng.choices(["NS", "EW", None], weights=[45, 45, 10])[0]
        if owner is not None:
            taken[owner] += points
    team = rng.choice(TEAMS)
    amount = rng.randint(7, 11)
    before = {"NS": rng.randint(-20, 90), "EW": rng.randint(-20, 90)}
    arguments = {"bid": {"team": team, "amount": amount}, "points": taken, "scores_before": before}
    return Draft("scores", _text(team, amount, taken, before, lang), OPERATION, arguments)


def _text(team: str, amount: int, taken: dict[str, int], before: dict[str, int], lang: str) -> str:
    game, bid = word("pedro", lang), word("bid", lang)
    if lang == "ja":
        return (
            f"{game}の得点を計算してください（標準ルール、目標100点）。このハンドの前の得点はNSが{before['NS']}点、"
            f"EWが{before['EW']}点でした。{team}が{amount}で{bid}し、このハンドで取った点はNSが{taken['NS']}点、"
            f"EWが{taken['EW']}点です。ハンドのあとの得点はそれぞれ何点ですか？\n"
            "最後の行に「答え: NS <得点>、EW <得点>」の形で書いてください。"
        )
    return (
        f"Please settle a hand of {game} (standard rules, target 100). Before this hand the scores were "
        f"NS {before['NS']} and EW {before['EW']}. {team} won the {bid} with {amount}; in the hand NS took "
        f"{taken['NS']} points and EW {taken['EW']}. What is each team's score after the hand?\n"
        'On the last line write "Answer: NS <score>, EW <score>".'
    )


def _answer(result: dict) -> dict[str, int]:
    """The teams' scores after the hand."""
    return {team: result["scores_after"][team] for team in TEAMS}


ANSWERS = {OPERATION: _answer}
