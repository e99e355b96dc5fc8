"""The auction (rules/pedro.md, "A hand", step 1).

One round, starting left of the dealer: each player bids or passes; a bid lies between the
minimum and maximum bid and beats the current high bid. If the first three pass, the
dealer must bid the forced amount (7 by default). The high bidder names trump.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import RuleError
from .cards import TEAM_OF, next_seat
from .rules import Rules

PASS = "pass"


@dataclass(frozen=True)
class Call:
    seat: str
    call: int | str  # an amount or "pass"


@dataclass(frozen=True)
class AuctionResult:
    seat: str
    team: str
    amount: int
    forced: bool
    calls: tuple[Call, ...]


def run_auction(dealer: str, calls: list[int | str], rules: Rules) -> AuctionResult:
    """Check the four calls in order from the dealer's left and name the high bidder."""
    if len(calls) != 4:
        raise RuleError("call_count", ("calls",), count=len(calls))
    high: tuple[str, int] | None = None
    seated: list[Call] = []
    for index, call in enumerate(calls):
        seat = next_seat(dealer, index + 1)
        where = ("calls", index)
        is_dealer = index == 3
        seated.append(Call(seat, call))
        if is_dealer and high is None:
            if call != rules.dealer_forced_bid:
                raise RuleError("dealer_forced", where, seat=seat, amount=rules.dealer_forced_bid, call=call)
            return AuctionResult(seat, TEAM_OF[seat], call, True, tuple(seated))
        if call == PASS:
            continue
        if not rules.min_bid <= call <= rules.max_bid:
            raise RuleError(
                "bid_out_of_range", where, seat=seat, amount=call,
                min_bid=rules.min_bid, max_bid=rules.max_bid,
            )
        if high is not None and call <= high[1]:
            raise RuleError("bid_too_low", where, seat=seat, amount=call, high_seat=high[0], high=high[1])
        high = (seat, call)
    seat, amount = high
    return AuctionResult(seat, TEAM_OF[seat], amount, False, tuple(seated))
