"""One hand as a table gives it: the winning bid, and either each team's points or trump
with the cards each team captured (docs/rules/pedro.md, "Points" and "Settlement").

:func:`read_points` checks which of the two was given and turns it into points;
:func:`settle_hand` checks a whole hand and settles it.
"""

from __future__ import annotations

from typing import NamedTuple

from ..rule_error import RuleError
from .auction import check_bid
from .cards import TEAMS, parse_cards, parse_suit
from .rules import Rules
from .scoring import PointCard, Settlement, check_game_running, check_points, hand_points, settle

#: Each team's point cards: ``{"NS": [...], "EW": [...]}``.
TeamPointCards = dict[str, list[PointCard]]

#: The fields naming the team that scores the 2 of trump, each with the rule it goes with.
TWO_FIELDS = (("two_dealt_to", "dealt"), ("two_played_by", "played"))


class HandInput(NamedTuple):
    """One hand as given: the bid, and ``points`` or ``trump`` with ``captured`` (cards as
    text, read by :func:`read_points`); ``two_dealt_to`` / ``two_played_by`` name the team
    that scores the 2 of trump under the rule ``dealt`` / ``played``."""

    bid_team: str
    bid: int
    points: dict[str, int] | None = None
    trump: str | None = None
    captured: dict[str, list[str]] | None = None
    two_dealt_to: str | None = None
    two_played_by: str | None = None


def check_two_fields(hand: HandInput, rules: Rules) -> None:
    """A team named for the 2 of trump goes with captured cards and with the rule that
    scores it: ``two_dealt_to`` with ``dealt``, ``two_played_by`` with ``played``
    (docs/rules/pedro.md, "Points" and "Rule options"). Refused as ``two_field_for_rule``
    at the team so named."""
    for field, rule in TWO_FIELDS:
        if getattr(hand, field) is not None and (hand.points is not None or rules.two_scored_by != rule):
            raise RuleError("two_field_for_rule", (field,), field=field, rule=rules.two_scored_by)


def read_points(hand: HandInput, rules: Rules) -> tuple[dict[str, int], TeamPointCards | None]:
    """Each team's points, given directly or from trump and the captured cards, with the
    point cards behind them (None when the points were given). docs/rules/pedro.md,
    "Points": points OR trump with captured (else ``points_or_captured``); the team named
    for the 2 of trump (:func:`check_two_fields`); given points must be a possible split
    (:func:`~.scoring.check_points`); captured cards are read NS first, then EW."""
    points, trump, captured = hand.points, hand.trump, hand.captured
    if points is not None and trump is None and captured is None:
        check_two_fields(hand, rules)
        check_points(points, rules.point_schedule)
        return points, None
    if points is None and trump is not None and captured is not None:
        check_two_fields(hand, rules)
        cards = {team: parse_cards(captured.get(team, []), (("captured", team),)) for team in TEAMS}
        two_team = hand.two_dealt_to if rules.two_scored_by == "dealt" else hand.two_played_by
        result = hand_points(parse_suit(trump), cards, rules, two_team)
        return result.points, result.cards
    raise RuleError("points_or_captured", ("points",))


def settle_hand(
    hand: HandInput, scores_before: dict[str, int], rules: Rules
) -> tuple[Settlement, TeamPointCards | None]:
    """One hand settled from ``scores_before`` (docs/rules/pedro.md, "Settlement"), with
    its point cards (None when the points were given). Checked in this order: the bid
    (:func:`~.auction.check_bid`), a game still running at ``scores_before``
    (:func:`~.scoring.check_game_running`), the points (:func:`read_points`)."""
    check_bid(hand.bid, rules)
    check_game_running(scores_before, rules)
    points, cards = read_points(hand, rules)
    return settle(hand.bid_team, hand.bid, scores_before, points, rules), cards
