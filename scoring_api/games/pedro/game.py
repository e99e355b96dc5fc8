"""A whole game: hands settled one after another until a team wins
(docs/rules/pedro.md, "Settlement" and "End of game")."""

from __future__ import annotations

from typing import NamedTuple

from ..errors import RuleError
from .rules import Rules
from .scoring import Settlement, settle


class GameLedger(NamedTuple):
    hands: tuple[Settlement, ...]
    scores: dict[str, int]
    winner: str | None
    next_hand: str | None


def play_game(hands: list[tuple[str, int, dict[str, int]]], rules: Rules) -> GameLedger:
    """Settle ``(bid team, bid, points)`` hands in order from 0-0; a hand after the game
    is won is refused. The extra hand after both teams reach the target decides the game
    (bid made: the bidding team wins, set: the other team), so no hand follows it."""
    scores = {"NS": 0, "EW": 0}
    ledger: list[Settlement] = []
    over = False
    for index, (team, bid, points) in enumerate(hands):
        if over:
            raise RuleError(
                "hand_after_game_over",
                ("hands", index),
                hand=index + 1,
                winner=ledger[-1].winner,
                after=index,
            )
        result = settle(team, bid, scores, points, rules)
        ledger.append(result)
        scores, over = result.scores_after, result.game_over
    if not ledger:
        return GameLedger((), scores, None, "normal")
    return GameLedger(tuple(ledger), scores, result.winner, result.next_hand)
