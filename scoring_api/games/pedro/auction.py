"""The auction (docs/rules/pedro.md, "Auction").

One round, starting left of the dealer: each player bids or passes; a bid lies between the
minimum and maximum bid and beats the current high bid. If the first three pass, the
dealer must bid the forced amount (7 by default): exactly it under the ``guide_14``
schedule, at least it under ``california_16`` (Decision 18). A bid above the points the
schedule's hand holds is refused first, naming the schedule (``bid_above_schedule``).
The high bidder names trump.
"""

from __future__ import annotations

from typing import NamedTuple, cast

from ..rule_error import Position, RuleError
from .cards import TEAM_OF, next_seat, seats_from
from .rules import Rules
from .schedules import schedule_allowing

PASS = "pass"


class Call(NamedTuple):
    seat: str
    call: int | str  # an amount or "pass"


class AuctionResult(NamedTuple):
    seat: str
    team: str
    amount: int
    forced: bool
    calls: tuple[Call, ...]


def run_auction(dealer: str, calls: list[int | str], rules: Rules) -> AuctionResult:
    """Check the four calls in order from the dealer's left and name the high bidder."""
    if len(calls) != 4:
        raise RuleError("call_count", ("call",), count=len(calls))
    seated = tuple(map(Call, seats_from(next_seat(dealer)), calls))  # the dealer calls last
    high: Call | None = None
    for index, (seat, call) in enumerate(seated):
        at = (("call", index),)
        if call != PASS:
            _check_schedule(cast(int, call), rules, at)  # any call but "pass" is an amount
        if index == 3 and high is None:
            return _forced(seat, call, rules, at, seated)
        if call == PASS:
            continue
        bid = cast(int, call)
        if not rules.min_bid <= bid <= rules.max_bid:
            raise RuleError(
                "bid_out_of_range",
                at,
                seat=seat,
                amount=call,
                min_bid=rules.min_bid,
                max_bid=rules.max_bid,
            )
        if high is not None and bid <= cast(int, high.call):
            raise RuleError("bid_too_low", at, seat=seat, amount=call, high_seat=high.seat, high=high.call)
        high = seated[index]
    assert high is not None  # the fourth call returned above if nobody had bid
    return AuctionResult(high.seat, TEAM_OF[high.seat], cast(int, high.call), False, seated)


def _forced(seat: str, call: int | str, rules: Rules, at: Position, seated: tuple[Call, ...]) -> AuctionResult:
    """The dealer's call after three passes: the forced bid, exactly (``guide_14``) or at
    least, up to the maximum bid (``california_16``; docs/rules/pedro.md, "Decisions", 18).
    Refused as ``dealer_forced`` or ``dealer_forced_at_least``."""
    forced = rules.dealer_forced_bid
    if rules.point_schedule.dealer_may_bid_more:
        if call == PASS or not forced <= cast(int, call) <= rules.max_bid:
            raise RuleError("dealer_forced_at_least", at, seat=seat, amount=forced, max_bid=rules.max_bid, call=call)
    elif call != forced:
        raise RuleError("dealer_forced", at, seat=seat, amount=forced, call=call)
    return AuctionResult(seat, TEAM_OF[seat], cast(int, call), True, seated)


def _check_schedule(amount: int, rules: Rules, at: Position) -> None:
    """A bid holds no more points than the schedule's hand (``bid_above_schedule``, naming
    the schedule and one that allows the bid; docs/rules/pedro.md, "Decisions", 17)."""
    schedule = rules.point_schedule
    if amount > schedule.largest_hand:
        raise RuleError(
            "bid_above_schedule",
            at,
            amount=amount,
            limit=schedule.largest_hand,
            schedule=schedule.name,
            other=schedule_allowing(amount, schedule),
        )


def check_bid(amount: int, rules: Rules) -> None:
    """A hand's winning bid lies between the minimum and the maximum bid
    (docs/rules/pedro.md, "Auction"); the rules are checked, so the dealer's forced bid lies
    between them too. Refused as ``bid_above_schedule`` (above the schedule's points) or
    ``bid_outside_rules`` at ``("bid",)``."""
    _check_schedule(amount, rules, ("bid",))
    if not rules.min_bid <= amount <= rules.max_bid:
        raise RuleError(
            "bid_outside_rules",
            ("bid",),
            amount=amount,
            min_bid=rules.min_bid,
            max_bid=rules.max_bid,
            forced=rules.dealer_forced_bid,
        )
