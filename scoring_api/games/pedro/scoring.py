"""Points of a hand and their settlement (docs/rules/pedro.md, "Points", "Settlement" and
"End of game").

Point cards: A, J, 10 of trump (1 each; the jack 3 under the ``california_16`` schedule),
Pedro and Low Pedro (5 each) go to the team that captures them; the 2 of trump (1) goes by
the rules option: to the team DEALT it (default), the team that captures it, or the team
of the player who plays it. A point card that never reaches play is scored by nobody.

Settlement: the bidding team adds all its points if it took at least its bid, otherwise it
subtracts the bid (scores may go negative); the other team always adds what it took.

End of game: the first team at the target wins; a bidder-goes-out hand is won by the
bidding team if it makes its bid; both teams at the target in one hand: the tie rule, by
default one extra bidder-goes-out hand, which decides (bid made: the bidding team wins;
set: the other team wins).
"""

from __future__ import annotations

from typing import NamedTuple

from ..rule_error import RuleError
from .cards import OTHER_TEAM, TEAMS, Card, low_pedro, point_name, points_of, two_of_trump
from .rules import Rules
from .schedules import GUIDE_14, SCHEDULES, Schedule, other_schedules

MAX_CAPTURED = 24  # six tricks of four cards


class PointCard(NamedTuple):
    card: Card
    points: int
    name: str  # ace, jack, ten, pedro, low_pedro, two
    reason: str  # captured, dealt, played


class HandPoints(NamedTuple):
    points: dict[str, int]
    cards: dict[str, list[PointCard]]  # each team's point cards, in the order of its list


def point_card(card: Card, trump: str, reason: str, schedule: Schedule = GUIDE_14) -> PointCard:
    """A point card of this trump, scored for ``reason`` (captured, dealt or played)."""
    return PointCard(card, points_of(card, trump, schedule), point_name(card, trump), reason)


def point_cards(trump: str, schedule: Schedule = GUIDE_14) -> list[PointCard]:
    """The six point cards of a trump (its A, J, 10, 5 and 2, and the Low Pedro), as
    captured, in the order a team's list shows them: most points first, then by name (so
    the 2 of trump is last)."""
    cards = [*(Card(rank, trump) for rank in schedule.trump_points), low_pedro(trump)]
    scored = (point_card(card, trump, "captured", schedule) for card in cards)
    return sorted(scored, key=lambda p: (-p.points, p.name))


def hand_points(trump: str, captured: dict[str, list[Card]], rules: Rules, two_team: str | None = None) -> HandPoints:
    """Each team's points from the cards it captured (docs/rules/pedro.md, "Points").

    ``two_team`` is the team dealt the 2 of trump (rule ``dealt``) or the team of the player
    who played it (rule ``played``); None when the 2 never came into play. Under
    ``captured`` it is not used: the 2 goes with the trick like the other point cards.
    """
    owner = _owners(captured)
    schedule = rules.point_schedule
    two = two_of_trump(trump)
    two_apart = rules.two_scored_by in ("dealt", "played")
    if two_apart and two_team is None and two in owner:
        key = "two_dealt_to" if rules.two_scored_by == "dealt" else "two_played_by"
        raise RuleError("two_owner_missing", (key,), card=str(two), rule=rules.two_scored_by)
    cards: dict[str, list[PointCard]] = {"NS": [], "EW": []}
    for scored in point_cards(trump, schedule):  # already in the order of the lists
        team = owner.get(scored.card)
        if team is not None and not (two_apart and scored.card == two):
            cards[team].append(scored)
    if two_apart and two_team is not None:
        cards[two_team].append(point_card(two, trump, rules.two_scored_by, schedule))  # last in order too
    points = {team: sum(scored.points for scored in cards[team]) for team in TEAMS}
    return HandPoints(points, cards)


def _owners(captured: dict[str, list[Card]]) -> dict[Card, str]:
    """Which team captured each card; refused: a card captured twice (the first repeat,
    in NS's list, then EW's), more cards than six tricks hold."""
    owner: dict[Card, str] = {}
    for team in TEAMS:
        for index, card in enumerate(captured.get(team, [])):
            if card in owner:
                raise RuleError(
                    "captured_twice", (("captured", team), ("card", index)), card=str(card), team=owner[card]
                )
            owner[card] = team
    if len(owner) > MAX_CAPTURED:
        raise RuleError("too_many_captured", ("captured",), count=len(owner), limit=MAX_CAPTURED)
    return owner


#: The points of the six point cards under each schedule (docs/rules/pedro.md, "Points"):
#: 1 1 1 1 5 5 (``guide_14``), 1 1 1 3 5 5 (``california_16``); every trump has the same.
POINT_VALUES = {
    name: tuple(sorted(scored.points for scored in point_cards("H", schedule))) for name, schedule in SCHEDULES.items()
}


def possible_splits(values: tuple[int, ...]) -> frozenset[tuple[int, int]]:
    """Every ``(NS, EW)`` pair two disjoint parts of the multiset ``values`` can sum to:
    each point card goes to NS, to EW or to nobody (never played). Built card by card."""
    pairs = {(0, 0)}
    for value in values:
        pairs |= {(ns + value, ew) for ns, ew in pairs} | {(ns, ew + value) for ns, ew in pairs}
    return frozenset(pairs)


#: The ``(NS, EW)`` points one hand's point cards allow, by schedule: :func:`possible_splits`
#: of its values (90 pairs under ``guide_14``, 138 under ``california_16``).
POSSIBLE_SPLITS = {name: possible_splits(values) for name, values in POINT_VALUES.items()}


def check_points(points: dict[str, int], schedule: Schedule = GUIDE_14) -> None:
    """Given points must be a possible split of one hand's point cards under the table's
    schedule (docs/rules/pedro.md, "Decisions", 4 and 17). Refused at ``("points",)``, in
    this order:

    * ``points_of_other_schedule``: impossible here but possible under another schedule,
      named (NS 3 / EW 3 needs the jack worth 3 of ``california_16``; NS 2 / EW 2 needs
      four 1-point cards, which only ``guide_14`` has);
    * ``too_many_points``: more than the schedule's hand holds (14 or 16) between both;
    * ``impossible_points``: no two disjoint parts of the values sum to them (NS 4 / EW 9
      under ``guide_14``: the 4 takes every 1, and 9 needs four 1s and a 5); the refusal
      names the EW totals possible beside NS's."""
    ns, ew = points["NS"], points["EW"]
    splits = POSSIBLE_SPLITS[schedule.name]
    if (ns, ew) in splits:
        return
    values = POINT_VALUES[schedule.name]
    other = next((o for o in other_schedules(schedule) if (ns, ew) in POSSIBLE_SPLITS[o.name]), None)
    if other is not None:
        raise RuleError(
            "points_of_other_schedule",
            ("points",),
            NS=ns,
            EW=ew,
            schedule=schedule.name,
            other=other.name,
            values=values,
        )
    total = ns + ew
    if total > schedule.largest_hand:
        raise RuleError("too_many_points", ("points",), total=total, limit=schedule.largest_hand)
    beside_ns = tuple(sorted(other_ew for other_ns, other_ew in splits if other_ns == ns))
    raise RuleError("impossible_points", ("points",), NS=ns, EW=ew, possible=beside_ns, values=values)


class Settlement(NamedTuple):
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
    decided_by: str | None  # target, bidder_goes_out, tie_rule, extra_hand
    next_hand: str | None  # normal, bidder_goes_out, extra_hand; None when over


def bidder_goes_out(scores: dict[str, int], rules: Rules) -> bool:
    """A hand that STARTS with both teams within the margin of the target (>= 93 for
    100) is a bidder-goes-out hand (docs/rules/pedro.md, "End of game")."""
    threshold = rules.target - rules.bidder_out_margin
    return scores["NS"] >= threshold and scores["EW"] >= threshold


def extra_hand(scores: dict[str, int], rules: Rules) -> bool:
    """A hand that STARTS with both teams at or above the target is the extra hand the tie
    rule plays (:func:`check_game_running` allows it only while the tie continues)."""
    return scores["NS"] >= rules.target and scores["EW"] >= rules.target


def check_game_running(scores: dict[str, int], rules: Rules) -> None:
    """A hand can only be played while the game is undecided: nobody at the target, or
    both there waiting for the tie rule's extra hand (``game_already_over`` at
    ``("score",)``, the scores the hand starts from)."""
    ns_reached, ew_reached = scores["NS"] >= rules.target, scores["EW"] >= rules.target
    one_there = ns_reached != ew_reached
    both_there_and_decided = ns_reached and ew_reached and not _tie_continues(scores, rules)
    if one_there or both_there_and_decided:
        raise RuleError("game_already_over", ("score",), target=rules.target, NS=scores["NS"], EW=scores["EW"])


def _tie_continues(scores: dict[str, int], rules: Rules) -> bool:
    return rules.tie_rule == "extra_hand" or (rules.tie_rule == "higher_score" and scores["NS"] == scores["EW"])


def settle(bid_team: str, bid: int, scores_before: dict[str, int], points: dict[str, int], rules: Rules) -> Settlement:
    """Apply one hand's points to the scores and decide whether the game is over.

    The extra hand played after both teams reached the target (its ``scores_before`` both
    at or above it) decides the game (docs/rules/pedro.md, "End of game"; seed: 「追加で
    「ビッダー・ゴーズ・アウト」ハンドを行い勝者を決定します」): the bidding team wins if it
    makes its bid, otherwise the other team wins, whatever the scores (``decided_by``
    ``extra_hand``). Other hands: see :func:`_winner`.

    The result holds ``scores_before`` and ``points`` themselves, not copies."""
    other = OTHER_TEAM[bid_team]
    taken = points[bid_team]
    made = taken >= bid
    change = {bid_team: taken if made else -bid, other: points[other]}
    deltas = {team: change[team] for team in TEAMS}  # in team order, as every score
    after = {team: scores_before[team] + deltas[team] for team in TEAMS}
    going_out = bidder_goes_out(scores_before, rules)
    both_at_target = after["NS"] >= rules.target and after["EW"] >= rules.target
    winner: str | None
    decided_by: str | None
    if extra_hand(scores_before, rules):  # the extra hand decides: no second one
        winner, decided_by = (bid_team if made else other), "extra_hand"
    else:
        winner, decided_by = _winner(bid_team, made, going_out, after, both_at_target, rules)
    if winner:
        next_hand = None
    elif both_at_target:
        next_hand = "extra_hand"
    elif bidder_goes_out(after, rules):
        next_hand = "bidder_goes_out"
    else:
        next_hand = "normal"
    return Settlement(
        bid_team,
        bid,
        points,
        made,
        deltas,
        scores_before,
        after,
        going_out,
        winner is not None,
        winner,
        decided_by,
        next_hand,
    )


def _winner(
    bid_team: str, made: bool, going_out: bool, after: dict[str, int], both_at_target: bool, rules: Rules
) -> tuple[str | None, str | None]:
    """The winner after this hand and the rule that decided (None, None: play on).

    A bidder-goes-out hand is won by the bidding team if it makes its bid; else the one
    team at the target wins; both there: the tie rule (by default nobody yet: an extra hand
    follows, and :func:`settle` lets it decide).
    """
    if going_out and made:
        return bid_team, "bidder_goes_out"
    if both_at_target:
        if rules.tie_rule == "bidder_wins":
            return bid_team, "tie_rule"
        if rules.tie_rule == "higher_score" and after["NS"] != after["EW"]:
            return max(TEAMS, key=lambda team: after[team]), "tie_rule"
        return None, None
    for team in TEAMS:
        if after[team] >= rules.target:
            return team, "target"
    return None, None
