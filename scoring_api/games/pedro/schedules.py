"""The point schedules (docs/rules/pedro.md, "Points", "Rule options" and "Decisions", 17
and 18): what each point card of trump is worth, so the points one hand holds, and the
bids a table plays with when it does not set its own.

* ``guide_14`` (the default): the Japanese guide to Board Game Arena's Pedro (seed 003).
  A, J, 10 and 2 of trump 1 each, Pedro and Low Pedro 5 each: 14 points. Bids 7-14; after
  three passes the dealer bids exactly 7 (「ディーラーは必ず7で入札しなければなりません」).
* ``california_16``: California Pedro, BGA's default ("In typical California Pedro, which
  is the default setting for this version, there are 16 total points possible per
  hand"). The jack is worth 3. Bids 6-16; after three passes the dealer "must place a bid
  of at least 6".
"""

from __future__ import annotations

from typing import NamedTuple


class Schedule(NamedTuple):
    name: str
    #: Points of the trump suit's point cards, by rank (the Low Pedro apart).
    trump_points: dict[str, int]
    low_pedro_points: int
    #: The bids a table plays with unless it sets its own (rules options).
    min_bid: int
    max_bid: int
    dealer_forced_bid: int
    #: After three passes the dealer bids at least the forced bid (True) or exactly it.
    dealer_may_bid_more: bool

    @property
    def largest_hand(self) -> int:
        """The points of every point card: what one hand holds when all are played."""
        return sum(self.trump_points.values()) + self.low_pedro_points


GUIDE_14 = Schedule(
    "guide_14",
    {"A": 1, "J": 1, "10": 1, "5": 5, "2": 1},
    low_pedro_points=5,
    min_bid=7,
    max_bid=14,
    dealer_forced_bid=7,
    dealer_may_bid_more=False,
)
CALIFORNIA_16 = Schedule(
    "california_16",
    {"A": 1, "J": 3, "10": 1, "5": 5, "2": 1},
    low_pedro_points=5,
    min_bid=6,
    max_bid=16,
    dealer_forced_bid=6,
    dealer_may_bid_more=True,
)

#: Every schedule by name, the default first.
SCHEDULES = {schedule.name: schedule for schedule in (GUIDE_14, CALIFORNIA_16)}
DEFAULT_SCHEDULE = GUIDE_14.name
#: The most points a hand holds under any schedule: what a request's points and bids may
#: reach before the table's schedule is applied (16).
LARGEST_HAND = max(schedule.largest_hand for schedule in SCHEDULES.values())


def other_schedules(schedule: Schedule) -> tuple[Schedule, ...]:
    """The schedules a table could have meant instead, in :data:`SCHEDULES` order."""
    return tuple(other for other in SCHEDULES.values() if other.name != schedule.name)


def schedule_allowing(amount: int, schedule: Schedule) -> str:
    """The first schedule other than ``schedule`` whose hand holds ``amount`` points: the
    one a refusal of a bid above ``schedule`` points to. The schema bounds every amount
    by the largest schedule, so there is one; failing that, the largest."""
    holding = (other.name for other in other_schedules(schedule) if amount <= other.largest_hand)
    return next(holding, max(SCHEDULES.values(), key=lambda other: other.largest_hand).name)
