"""The rules object: the seed's rules by default, other tables' rules as options
(docs/rules/pedro.md, "Rule options")."""

from __future__ import annotations

from dataclasses import dataclass

from ..rule_error import RuleError
from .schedules import DEFAULT_SCHEDULE, SCHEDULES, Schedule, schedule_allowing

TWO_SCORED_BY = ("dealt", "captured", "played")
TIE_RULES = ("extra_hand", "bidder_wins", "higher_score")
#: The options that are bids, in the order they are checked against the schedule.
BID_OPTIONS = ("min_bid", "max_bid", "dealer_forced_bid")


@dataclass(frozen=True)
class Rules:
    """A table's rules. A bid option left at 0 takes the schedule's (7/14/7 under
    ``guide_14``, 6/16/6 under ``california_16``; docs/rules/pedro.md, "Rule options")."""

    target: int = 100
    min_bid: int = 0
    max_bid: int = 0
    dealer_forced_bid: int = 0
    two_scored_by: str = "dealt"
    bidder_out_margin: int = 7
    tie_rule: str = "extra_hand"
    schedule: str = DEFAULT_SCHEDULE

    def __post_init__(self) -> None:
        for option in BID_OPTIONS:
            if getattr(self, option) == 0:
                object.__setattr__(self, option, getattr(self.point_schedule, option))

    @property
    def point_schedule(self) -> Schedule:
        """The point schedule the table plays."""
        return SCHEDULES[self.schedule]

    def check(self) -> Rules:
        """Refuse options that contradict each other (each alone is bounded by the schema),
        at the option at fault: ``(("option", "min_bid"),)``. A bid above the points the
        schedule's hand holds comes first (``option_above_schedule``)."""
        largest = self.point_schedule.largest_hand
        for option in BID_OPTIONS:
            amount = getattr(self, option)
            if amount > largest:
                raise RuleError(
                    "option_above_schedule",
                    (("option", option),),
                    option=option,
                    amount=amount,
                    limit=largest,
                    schedule=self.schedule,
                    other=schedule_allowing(amount, self.point_schedule),
                )
        if self.min_bid > self.max_bid:
            raise RuleError("min_above_max", (("option", "min_bid"),), min_bid=self.min_bid, max_bid=self.max_bid)
        if not self.min_bid <= self.dealer_forced_bid <= self.max_bid:
            raise RuleError(
                "forced_bid_outside",
                (("option", "dealer_forced_bid"),),
                bid=self.dealer_forced_bid,
                min_bid=self.min_bid,
                max_bid=self.max_bid,
            )
        return self

    def as_dict(self) -> dict:
        """The rules as the answers echo them; ``schedule`` only when it is not the default
        (so a default table's answers read as before the option existed)."""
        rules = {
            "target": self.target,
            "min_bid": self.min_bid,
            "max_bid": self.max_bid,
            "dealer_forced_bid": self.dealer_forced_bid,
            "two_scored_by": self.two_scored_by,
            "bidder_out_margin": self.bidder_out_margin,
            "tie_rule": self.tie_rule,
        }
        if self.schedule != DEFAULT_SCHEDULE:
            rules["schedule"] = self.schedule
        return rules
