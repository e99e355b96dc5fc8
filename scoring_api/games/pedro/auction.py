"""The auction (docs/rules/pedro.md, "Auction").

One round, starting left of the dealer: each player bids or passes; a bid lies between the
minimum and maximum bid and beats the current high bid. If the first three pass, the
dealer must bid the forced amount (7 by default). The high bidder names trump.
"""

from __future__ import annotations

from typing import NamedTuple, cast

from ..rule_error import RuleError
from .cards import TEAM_OF, next_seat, seats_from
from .rules import Rules

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
        if index == 3 and high is None:
            if call != rules.dealer_forced_bid:
                raise RuleError("dealer_forced", at, seat=seat, amount=rules.dealer_forced_bid, call=call)
            return AuctionResult(seat, TEAM_OF[seat], call, True, seated)
        if call == PASS:
            continue
        bid = cast(int, call)  # any call but "pass" is an amount (the schema admits no other text)
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


def check_bid(amount: int, rules: Rules) -> None:
    """A hand's winning bid lies between the minimum and the maximum bid
    (docs/rules/pedro.md, "Auction"); the rules are checked, so the dealer's forced bid lies
    between them too. Refused as ``bid_outside_rules`` at ``("bid",)``."""
    if not rules.min_bid <= amount <= rules.max_bid:
        raise RuleError(
            "bid_outside_rules",
            ("bid",),
            amount=amount,
            min_bid=rules.min_bid,
            max_bid=rules.max_bid,
            forced=rules.dealer_forced_bid,
        )
