"""Tricks (docs/rules/pedro.md, "Tricks").

If trump is led, follow with trump if you can; if a plain suit is led, play that suit or a
trump; only a player holding neither may play anything (a player void in the led suit who
holds a trump, even only the Low Pedro, must trump). The highest trump wins, else the
highest card of the led suit. The Low Pedro is a trump, never a card of its printed suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..rule_error import RuleError
from .cards import TEAM_OF, Card, is_trump, points_of, seats_from, strength, suit_in_play
from .schedules import GUIDE_14, Schedule

Play = tuple[str, Card]  # (seat, card)


class TrickResult(NamedTuple):
    winner: str
    team: str
    card: Card  # the winning card
    led_suit: str
    trumped: bool
    plays: tuple[Play, ...]  # in play order

    def point_cards(self, trump: str) -> list[Card]:
        """The trick's point cards, in play order (the same cards under every schedule)."""
        return [card for _, card in self.plays if points_of(card, trump)]

    def points(self, trump: str, schedule: Schedule = GUIDE_14) -> int:
        """The points of the trick's point cards under ``schedule`` (docs/rules/pedro.md,
        "Points": the jack of trump is worth 3 under ``california_16``)."""
        return sum(points_of(card, trump, schedule) for _, card in self.plays)


def may_play(card: Card, hand: list[Card], led: Card | None, trump: str) -> bool:
    """Whether ``card`` from ``hand`` follows the rule when ``led`` was led (None: leading).

    A card of the led suit or a trump may always be played; any other card only by a
    player holding neither a card of the led suit nor a trump (docs/rules/pedro.md,
    "Tricks"; seed: 「リードカードと同じスートもしくは切り札スートのカードを1枚出します。無い場合は、
    好きなカードで出します」). So a player void in a plain suit led but holding a trump,
    if only the Low Pedro, must trump. When trump is led, the led suit is trump: follow
    with trump if you can."""
    if led is None:
        return True
    led_suit = suit_in_play(led, trump)

    def answers_lead(held: Card) -> bool:  # a card of the led suit, or a trump
        return suit_in_play(held, trump) == led_suit or is_trump(held, trump)

    return answers_lead(card) or not any(answers_lead(held) for held in hand)


def winning_play(plays: Sequence[Play], trump: str) -> Play:
    """The highest trump, else the highest card of the led suit (a card of another plain
    suit cannot win)."""
    led_suit = suit_in_play(plays[0][1], trump)
    contenders = [play for play in plays if is_trump(play[1], trump) or suit_in_play(play[1], trump) == led_suit]
    return max(contenders, key=lambda play: (is_trump(play[1], trump), strength(play[1], trump)))


def play_trick(trump: str, leader: str, cards: list[Card], hands: dict[str, list[Card]] | None = None) -> TrickResult:
    """Who wins four cards played from ``leader`` clockwise; with the players' hands (as
    they were before this trick), every card is checked against the hand and the rule.

    A refusal names the card at fault as the trick's play ``(("play", i),)`` or as a card
    a seat holds ``(("seat", "N"), ("card", i))``."""
    _refuse_duplicate(cards)
    plays = tuple(zip(seats_from(leader), cards, strict=True))
    if hands is not None:
        _check_follow(plays, hands, trump)
    seat, card = winning_play(plays, trump)
    trumped = is_trump(card, trump)  # a trump was played exactly when a trump wins
    return TrickResult(seat, TEAM_OF[seat], card, suit_in_play(cards[0], trump), trumped, plays)


def _refuse_duplicate(cards: list[Card]) -> None:
    """Name the first card played a second time."""
    for index, card in enumerate(cards):
        if card in cards[:index]:
            raise RuleError("duplicate_card", (("play", index),), card=str(card))


def _check_follow(plays: tuple[Play, ...], hands: dict[str, list[Card]], trump: str) -> None:
    """No card in two hands; every card played is in its player's hand and follows the rule."""
    seen: dict[Card, str] = {}
    for seat, hand in hands.items():
        for index, card in enumerate(hand):
            if card in seen:
                raise RuleError("card_in_two_hands", (("seat", seat), ("card", index)), card=str(card), seat=seen[card])
            seen[card] = seat
    led = plays[0][1]
    for index, (seat, card) in enumerate(plays):
        stated = hands.get(seat)
        if stated is None:
            continue
        if card not in stated:
            raise RuleError("card_not_in_hand", (("play", index),), seat=seat, card=str(card))
        if not may_play(card, stated, None if index == 0 else led, trump):
            allowed = [str(held) for held in stated if may_play(held, stated, led, trump)]
            raise RuleError(
                "must_follow",
                (("play", index),),
                seat=seat,
                card=str(card),
                led=str(led),
                trump=trump,
                allowed=" ".join(allowed),
            )
