"""The rules object: the seed's rules by default, other tables' rules as options
(docs/rules/pedro.md, "Rule options")."""

from __future__ import annotations

from dataclasses import dataclass

from ..rule_error import RuleError

TWO_SCORED_BY = ("dealt", "captured", "played")
TIE_RULES = ("extra_hand", "bidder_wins", "higher_score")
MAX_POINTS = 14  # points in one hand: A, J, 10, 2 (1 each) + Pedro and Low Pedro (5 each)


@dataclass(frozen=True)
class Rules:
    target: int = 100
    min_bid: int = 7
    max_bid: int = 14
    dealer_forced_bid: int = 7
    two_scored_by: str = "dealt"
    bidder_out_margin: int = 7
    tie_rule: str = "extra_hand"

    def check(self) -> Rules:
        """Refuse options that contradict each other (each alone is bounded by the schema),
        at the option at fault: ``(("option", "min_bid"),)``."""
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
        return {
            "target": self.target,
            "min_bid": self.min_bid,
            "max_bid": self.max_bid,
            "dealer_forced_bid": self.dealer_forced_bid,
            "two_scored_by": self.two_scored_by,
            "bidder_out_margin": self.bidder_out_margin,
            "tie_rule": self.tie_rule,
        }
