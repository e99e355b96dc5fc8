"""Tricks (rules/pedro.md, "A hand", step 3).

If trump is led, follow with trump if you can; if a plain suit is led, play that suit or a
trump; otherwise play anything. The highest trump wins, else the highest card of the led
suit. The Low Pedro is a trump, never a card of its printed suit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import RuleError
from .cards import TEAM_OF, Card, is_trump, next_seat, points_of, strength, suit_in_play


@dataclass(frozen=True)
class TrickResult:
    winner: str
    team: str
    led_suit: str
    trumped: bool
    plays: tuple[tuple[str, Card], ...]  # (seat, card) in play order

    def point_cards(self, trump: str) -> list[Card]:
        return [card for _, card in self.plays if points_of(card, trump)]


def may_play(card: Card, hand: list[Card], led: Card | None, trump: str) -> bool:
    """Whether ``card`` from ``hand`` follows the rule when ``led`` was led (None: leading)."""
    if led is None:
        return True
    led_suit = suit_in_play(led, trump)
    holds_led_suit = any(suit_in_play(c, trump) == led_suit for c in hand)
    if not holds_led_suit:
        return True
    return suit_in_play(card, trump) == led_suit or is_trump(card, trump)


def winning_play(plays: list[tuple[str, Card]], trump: str) -> tuple[str, Card]:
    """The highest trump, else the highest card of the led suit."""
    led_suit = suit_in_play(plays[0][1], trump)
    trumps = [p for p in plays if is_trump(p[1], trump)]
    candidates = trumps or [p for p in plays if suit_in_play(p[1], trump) == led_suit]
    return max(candidates, key=lambda p: strength(p[1], trump))


def play_trick(
    trump: str, leader: str, cards: list[Card], hands: dict[str, list[Card]] | None = None
) -> TrickResult:
    """Who wins four cards played from ``leader`` clockwise; with the players' hands (as
    they were before this trick), every card is checked against the hand and the rule."""
    for index, card in enumerate(cards):
        if card in cards[:index]:
            raise RuleError("duplicate_card", ("cards", index), card=str(card))
    plays = [(next_seat(leader, i), card) for i, card in enumerate(cards)]
    if hands is not None:
        _check_follow(plays, hands, trump)
    seat, _ = winning_play(plays, trump)
    led = plays[0][1]
    return TrickResult(
        seat, TEAM_OF[seat], suit_in_play(led, trump),
        any(is_trump(c, trump) for _, c in plays), tuple(plays),
    )


def _check_follow(plays, hands: dict[str, list[Card]], trump: str) -> None:
    seen: dict[Card, str] = {}
    for seat, hand in hands.items():
        for index, card in enumerate(hand):
            if card in seen:
                raise RuleError("card_in_two_hands", ("hands", seat, index), card=str(card), seat=seen[card])
            seen[card] = seat
    led = plays[0][1]
    for index, (seat, card) in enumerate(plays):
        hand = hands.get(seat)
        if hand is None:
            continue
        if card not in hand:
            raise RuleError("card_not_in_hand", ("cards", index), seat=seat, card=str(card))
        if not may_play(card, hand, None if index == 0 else led, trump):
            raise RuleError(
                "must_follow", ("cards", index), seat=seat, card=str(card),
                led=str(led), trump=trump,
            )
