"""Points of a hand and their settlement (rules/pedro.md, step 4 and "Settlement").

Point cards: A, J, 10 of trump (1 each), Pedro and Low Pedro (5 each) go to the team that
captures them; the 2 of trump (1) goes by the rules option: to the team DEALT it (default),
the team that captures it, or the team of the player who plays it. A point card that never
reaches play is scored by nobody.

Settlement: the bidding team adds all its points if it took at least its bid, otherwise it
subtracts the bid (scores may go negative); the other team always adds what it took.

End of game ("End of game"): the first team at the target wins; a bidder-goes-out hand is
won by the bidding team if it makes its bid; both teams at the target in one hand: the tie
rule, by default one extra bidder-goes-out hand, which decides (bid made: the bidding team
wins; set: the other team wins).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, cast

from ..errors import RuleError
from .cards import IN_PLAY, OTHER_TEAM, SUITS, TEAMS, Card
from .rules import MAX_POINTS, Rules

MAX_CAPTURED = 24  # six tricks of four cards


class PointCard(NamedTuple):
    card: Card
    points: int
    name: str  # ace, jack, ten, pedro, low_pedro, two
    reason: str  # captured, dealt, played


class HandPoints(NamedTuple):
    points: dict[str, int]
    cards: dict[str, list[PointCard]]  # each team's point cards, in the order of its list


def _point_cards(trump: str) -> list[PointCard]:
    """The six point cards of a trump, as captured, in the order a team's list shows them:
    most points first, then by name."""
    captured = [  # a card with points has a point name (cards.point_name)
        PointCard(card, role.points, cast(str, role.name), "captured")
        for card, role in IN_PLAY[trump].items()
        if role.points
    ]
    return sorted(captured, key=lambda p: (-p.points, p.name))


#: ``POINT_CARDS[trump]``: see :func:`_point_cards` (the 2 of trump is last).
POINT_CARDS = {trump: _point_cards(trump) for trump in SUITS}
#: ``POINT_CARDS_BUT_TWO[trump]``: the same without the 2 of trump (scored apart).
POINT_CARDS_BUT_TWO = {trump: cards[:-1] for trump, cards in POINT_CARDS.items()}
#: ``TWOS[trump]``: the 2 of trump.
TWOS = {trump: Card("2", trump) for trump in SUITS}
#: ``TWO_POINT_CARDS[trump][rule]``: the 2 of trump scored apart, by rule dealt or played.
TWO_POINT_CARDS = {
    trump: {rule: PointCard(TWOS[trump], 1, "two", rule) for rule in ("dealt", "played")} for trump in SUITS
}


def hand_points(trump: str, captured: dict[str, list[Card]], rules: Rules, two_team: str | None = None) -> HandPoints:
    """Each team's points from the cards it captured.

    ``two_team`` is the team dealt the 2 of trump (rule ``dealt``) or the team of the player
    who played it (rule ``played``); None when the 2 never came into play. Under
    ``captured`` it is not used: the 2 goes with the trick like the other point cards.
    """
    owner = _owners(captured)
    separate_two = rules.two_scored_by in ("dealt", "played")
    if separate_two and two_team is None and TWOS[trump] in owner:
        key = "two_dealt_to" if rules.two_scored_by == "dealt" else "two_played_by"
        raise RuleError("two_owner_missing", (key,), card=str(TWOS[trump]), rule=rules.two_scored_by)
    by_capture = POINT_CARDS_BUT_TWO[trump] if separate_two else POINT_CARDS[trump]
    cards: dict[str, list[PointCard]] = {"NS": [], "EW": []}
    points = {"NS": 0, "EW": 0}
    for point_card in by_capture:  # already in the order of the lists
        team = owner.get(point_card.card)
        if team is not None:
            cards[team].append(point_card)
            points[team] += point_card.points
    if separate_two and two_team is not None:
        cards[two_team].append(TWO_POINT_CARDS[trump][rules.two_scored_by])  # last in order too
        points[two_team] += 1
    return HandPoints(points, cards)


def _owners(captured: dict[str, list[Card]]) -> dict[Card, str]:
    """Which team captured each card; refused: a card captured twice, more cards than six
    tricks hold."""
    ns, ew = captured.get("NS", []), captured.get("EW", [])
    owner = dict.fromkeys(ns, "NS")
    owner.update(dict.fromkeys(ew, "EW"))
    total = len(ns) + len(ew)
    if len(owner) < total:
        _refuse_captured_twice(captured)
    if total > MAX_CAPTURED:
        raise RuleError("too_many_captured", ("captured",), count=total, limit=MAX_CAPTURED)
    return owner


def _refuse_captured_twice(captured: dict[str, list[Card]]) -> None:
    """Name the first card captured a second time (in NS's list, then EW's)."""
    owner: dict[Card, str] = {}
    for team in TEAMS:
        for index, card in enumerate(captured.get(team, [])):
            if card in owner:
                raise RuleError("captured_twice", ("captured", team, index), card=str(card), team=owner[card])
            owner[card] = team


#: The points of the six point cards (rules/pedro.md, step 4): 1 1 1 1 5 5, read from the
#: cards' roles under one trump (every trump has the same point cards).
POINT_VALUES = tuple(sorted(point_card.points for point_card in POINT_CARDS["H"]))


def possible_splits(values: tuple[int, ...] = POINT_VALUES) -> frozenset[tuple[int, int]]:
    """Every ``(NS, EW)`` pair two disjoint parts of the multiset ``values`` can sum to:
    each point card goes to NS, to EW or to nobody (never played). Built card by card."""
    pairs = {(0, 0)}
    for value in values:
        pairs |= {(ns + value, ew) for ns, ew in pairs} | {(ns, ew + value) for ns, ew in pairs}
    return frozenset(pairs)


#: ``POSSIBLE_SPLITS``: :func:`possible_splits` of the six point cards, computed once.
POSSIBLE_SPLITS = possible_splits()
#: ``POSSIBLE_EW[ns]``: the EW totals possible beside an NS total, in order.
POSSIBLE_EW = {ns: tuple(sorted(ew for other, ew in POSSIBLE_SPLITS if other == ns)) for ns in range(MAX_POINTS + 1)}


def check_points(points: dict[str, int]) -> None:
    """Given points must be a possible split of one hand's point cards: at most 14 between
    both teams, and two disjoint parts of the values 1 1 1 1 5 5 (NS 4 / EW 9 is
    impossible: the 4 takes every 1, and 9 needs four 1s and a 5)."""
    total = points["NS"] + points["EW"]
    if total > MAX_POINTS:
        raise RuleError("too_many_points", ("points",), total=total, limit=MAX_POINTS)
    if (points["NS"], points["EW"]) not in POSSIBLE_SPLITS:
        raise RuleError(
            "impossible_points",
            ("points",),
            NS=points["NS"],
            EW=points["EW"],
            possible=POSSIBLE_EW[points["NS"]],
            values=POINT_VALUES,
        )


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
    100) is a bidder-goes-out hand (rules/pedro.md, "End of game")."""
    threshold = rules.target - rules.bidder_out_margin
    return scores["NS"] >= threshold and scores["EW"] >= threshold


def extra_hand(scores: dict[str, int], rules: Rules) -> bool:
    """A hand that STARTS with both teams at or above the target is the extra hand the tie
    rule plays (:func:`check_game_running` allows it only while the tie continues)."""
    return scores["NS"] >= rules.target and scores["EW"] >= rules.target


def check_game_running(scores: dict[str, int], rules: Rules, where: tuple) -> None:
    """A hand can only be played while the game is undecided: nobody at the target, or
    both there waiting for the tie rule's extra hand."""
    ns_reached, ew_reached = scores["NS"] >= rules.target, scores["EW"] >= rules.target
    if ns_reached != ew_reached or (
        ns_reached and not _tie_continues(scores, rules)
    ):  # one there, or both and no extra hand
        raise RuleError("game_already_over", where, target=rules.target, NS=scores["NS"], EW=scores["EW"])


def _tie_continues(scores: dict[str, int], rules: Rules) -> bool:
    return rules.tie_rule == "extra_hand" or (rules.tie_rule == "higher_score" and scores["NS"] == scores["EW"])


def settle(bid_team: str, bid: int, scores_before: dict[str, int], points: dict[str, int], rules: Rules) -> Settlement:
    """Apply one hand's points to the scores and decide whether the game is over.

    The extra hand played after both teams reached the target (its ``scores_before`` both
    at or above it) decides the game (rules/pedro.md, "End of game"; seed: 「追加で
    「ビッダー・ゴーズ・アウト」ハンドを行い勝者を決定します」): the bidding team wins if it
    makes its bid, otherwise the other team wins, whatever the scores (``decided_by``
    ``extra_hand``). Other hands: see :func:`_winner`.

    The result holds ``scores_before`` and ``points`` themselves, not copies."""
    other = OTHER_TEAM[bid_team]
    taken = points[bid_team]
    made = taken >= bid
    change = {bid_team: taken if made else -bid, other: points[other]}
    deltas = {"NS": change["NS"], "EW": change["EW"]}  # in team order, as every score
    after = {"NS": scores_before["NS"] + deltas["NS"], "EW": scores_before["EW"] + deltas["EW"]}
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
            return max(TEAMS, key=cast("Callable[[str], int]", after.get)), "tie_rule"
        return None, None
    for team in TEAMS:
        if after[team] >= rules.target:
            return team, "target"
    return None, None
