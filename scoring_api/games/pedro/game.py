"""A whole game: hands settled one after another until a team wins, and how each hand
leaves the game (docs/rules/pedro.md, "Settlement" and "End of game")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..rule_error import RuleError
from .auction import check_bid
from .hand import HandInput, TeamPointCards, read_points
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
                (("hand", index),),
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


def score_game(hands: Sequence[HandInput], rules: Rules) -> tuple[GameLedger, list[TeamPointCards | None]]:
    """A whole game from its hands as given (docs/rules/pedro.md, "Settlement" and "End of
    game"): every hand is read and checked (its bid, its points: a refusal is located
    inside ``("hand", index)``) before any is settled, then :func:`play_game` settles them. Returns
    the ledger and each hand's point cards (None where the points were given)."""
    settled_input, point_cards = [], []
    for index, hand in enumerate(hands):
        try:
            check_bid(hand.bid, rules)
            points, cards = read_points(hand, rules)
        except RuleError as error:
            raise error.within(("hand", index)) from None
        settled_input.append((hand.bid_team, hand.bid, points))
        point_cards.append(cards)
    return play_game(settled_input, rules), point_cards


#: How a hand leaves the game (docs/rules/pedro.md, "End of game"): a team wins, by the
#: rule that decided, or nobody has won yet and the next hand is normal, bidder goes out
#: or the extra hand.
OUTCOMES = (
    "win_bidder_goes_out",
    "win_target",
    "win_tie_bidder",
    "win_tie_higher",
    "win_extra_hand_made",
    "win_extra_hand_set",
    "next_normal",
    "next_bidder_goes_out",
    "next_extra_hand",
)
#: The outcome by the next hand, when nobody has won.
NEXT_OUTCOMES = {"normal": "next_normal", "bidder_goes_out": "next_bidder_goes_out", "extra_hand": "next_extra_hand"}
#: The outcome by the rule that decided, for a win by the target or by going out.
WIN_OUTCOMES = {"target": "win_target", "bidder_goes_out": "win_bidder_goes_out"}
#: The outcome of a tie decided by the table's tie rule, by that rule.
TIE_OUTCOMES = {"bidder_wins": "win_tie_bidder", "higher_score": "win_tie_higher"}
#: The outcome of the extra hand, which decides the game, by whether the bid was made.
EXTRA_HAND_OUTCOMES = {True: "win_extra_hand_made", False: "win_extra_hand_set"}


def hand_outcome(hand: Settlement, rules: Rules) -> str:
    """How a settled hand leaves the game, one of :data:`OUTCOMES` (docs/rules/pedro.md,
    "End of game"): the next hand when nobody won; else the rule that decided, the tie
    rule told apart by the table's ``tie_rule`` and the extra hand by the bid made or set."""
    if hand.next_hand is not None:  # nobody has won
        return NEXT_OUTCOMES[hand.next_hand]
    decided_by = hand.decided_by
    if decided_by == "extra_hand":
        return EXTRA_HAND_OUTCOMES[hand.bid_made]
    if decided_by == "tie_rule":
        return TIE_OUTCOMES[rules.tie_rule]
    assert decided_by is not None  # a hand after which no hand follows was won by some rule
    return WIN_OUTCOMES[decided_by]


def game_outcome(ledger: GameLedger, rules: Rules) -> str:
    """How the game stands after its last hand (:func:`hand_outcome`); before any hand,
    it goes on normally."""
    return hand_outcome(ledger.hands[-1], rules) if ledger.hands else "next_normal"
