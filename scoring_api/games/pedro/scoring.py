"""Points of a hand and their settlement (rules/pedro.md, step 4 and "Settlement").

Point cards: A, J, 10 of trump (1 each), Pedro and Low Pedro (5 each) go to the team that
captures them; the 2 of trump (1) goes by the rules option: to the team DEALT it (default),
the team that captures it, or the team of the player who plays it. A point card that never
reaches play is scored by nobody.

Settlement: the bidding team adds all its points if it took at least its bid, otherwise it
subtracts the bid (scores may go negative); the other team always adds what it took.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import RuleError
from .cards import TEAMS, Card, point_name, points_of
from .rules import MAX_POINTS, Rules

MAX_CAPTURED = 24  # six tricks of four cards


@dataclass(frozen=True)
class PointCard:
    card: Card
    points: int
    name: str  # ace, jack, ten, pedro, low_pedro, two
    reason: str  # captured, dealt, played


@dataclass(frozen=True)
class HandPoints:
    points: dict[str, int]
    cards: dict[str, list[PointCard]] = field(default_factory=dict)


def other_team(team: str) -> str:
    return TEAMS[1 - TEAMS.index(team)]


def hand_points(
    trump: str, captured: dict[str, list[Card]], rules: Rules, two_team: str | None = None
) -> HandPoints:
    """Each team's points from the cards it captured.

    ``two_team`` is the team dealt the 2 of trump (rule ``dealt``) or the team of the player
    who played it (rule ``played``); None when the 2 never came into play. Under
    ``captured`` it is not used: the 2 goes with the trick like the other point cards.
    """
    owner: dict[Card, str] = {}
    total = 0
    for team in TEAMS:
        for index, card in enumerate(captured.get(team, [])):
            if card in owner:
                raise RuleError(
                    "captured_twice", ("captured", team, index), card=str(card), team=owner[card]
                )
            owner[card] = team
            total += 1
    if total > MAX_CAPTURED:
        raise RuleError("too_many_captured", ("captured",), count=total, limit=MAX_CAPTURED)
    two = Card("2", trump)
    separate_two = rules.two_scored_by in ("dealt", "played")
    if separate_two and two in owner and two_team is None:
        key = "two_dealt_to" if rules.two_scored_by == "dealt" else "two_played_by"
        raise RuleError("two_owner_missing", (key,), card=str(two), rule=rules.two_scored_by)
    cards: dict[str, list[PointCard]] = {team: [] for team in TEAMS}
    for card, team in owner.items():
        points = points_of(card, trump)
        if not points or (separate_two and card == two):
            continue
        cards[team].append(PointCard(card, points, point_name(card, trump), "captured"))
    if separate_two and two_team is not None:
        cards[two_team].append(PointCard(two, 1, "two", rules.two_scored_by))
    for team in TEAMS:
        cards[team].sort(key=lambda p: (-p.points, p.name))
    return HandPoints({team: sum(p.points for p in cards[team]) for team in TEAMS}, cards)


def check_points(points: dict[str, int]) -> None:
    """Given points must fit in one hand: at most 14 between both teams."""
    if sum(points.values()) > MAX_POINTS:
        raise RuleError("too_many_points", ("points",), total=sum(points.values()), limit=MAX_POINTS)


@dataclass(frozen=True)
class Settlement:
    bid_team: str
    bid: int
    points: dict[str, int]
    bid_made: bool
    deltas: dict[str, int]
    scores_before: dict[str, int]
    scores_after: dict[str, int]
    bidder_goes_out: bool
    game_over: bool
    winner: str | None
    decided_by: str | None  # target, bidder_goes_out, tie_rule
    next_hand: str | None  # normal, bidder_goes_out, extra_hand; None when over


def bidder_goes_out(scores: dict[str, int], rules: Rules) -> bool:
    """A hand that STARTS with both teams within the margin of the target (>= 93 for
    100) is a bidder-goes-out hand (rules/pedro.md, "End of game")."""
    return all(scores[team] >= rules.target - rules.bidder_out_margin for team in TEAMS)


def check_game_running(scores: dict[str, int], rules: Rules, where: tuple) -> None:
    """A hand can only be played while the game is undecided: nobody at the target, or
    both there waiting for the tie rule's extra hand."""
    reached = [team for team in TEAMS if scores[team] >= rules.target]
    if len(reached) == 1 or (len(reached) == 2 and not _tie_continues(scores, rules)):
        raise RuleError("game_already_over", where, target=rules.target, NS=scores["NS"], EW=scores["EW"])


def _tie_continues(scores: dict[str, int], rules: Rules) -> bool:
    return rules.tie_rule == "extra_hand" or (
        rules.tie_rule == "higher_score" and scores["NS"] == scores["EW"]
    )


def settle(
    bid_team: str, bid: int, scores_before: dict[str, int], points: dict[str, int], rules: Rules
) -> Settlement:
    """Apply one hand's points to the scores and decide whether the game is over."""
    other = other_team(bid_team)
    made = points[bid_team] >= bid
    deltas = {bid_team: points[bid_team] if made else -bid, other: points[other]}
    after = {team: scores_before[team] + deltas[team] for team in TEAMS}
    going_out = bidder_goes_out(scores_before, rules)
    winner, decided_by = None, None
    if going_out and made:
        winner, decided_by = bid_team, "bidder_goes_out"
    else:
        reached = [team for team in TEAMS if after[team] >= rules.target]
        if len(reached) == 1:
            winner, decided_by = reached[0], "target"
        elif len(reached) == 2:
            if rules.tie_rule == "bidder_wins":
                winner, decided_by = bid_team, "tie_rule"
            elif rules.tie_rule == "higher_score" and after["NS"] != after["EW"]:
                winner, decided_by = max(TEAMS, key=after.get), "tie_rule"
    if winner:
        next_hand = None
    elif all(after[team] >= rules.target for team in TEAMS):
        next_hand = "extra_hand"
    elif bidder_goes_out(after, rules):
        next_hand = "bidder_goes_out"
    else:
        next_hand = "normal"
    return Settlement(
        bid_team, bid, dict(points), made, deltas, dict(scores_before), after,
        going_out, winner is not None, winner, decided_by, next_hand,
    )
