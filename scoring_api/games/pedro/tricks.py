"""Tricks (rules/pedro.md, "A hand", step 3).

If trump is led, follow with trump if you can; if a plain suit is led, play that suit or a
trump; only a player holding neither may play anything (a player void in the led suit who
holds a trump, even only the Low Pedro, must trump). The highest trump wins, else the
highest card of the led suit. The Low Pedro is a trump, never a card of its printed suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, cast

from ..errors import RuleError
from .cards import IN_PLAY, SEATS_FROM, TEAM_OF, Card


class TrickResult(NamedTuple):
    winner: str
    team: str
    card: Card  # the winning card
    led_suit: str
    trumped: bool
    plays: tuple[tuple[str, Card], ...]  # (seat, card) in play order

    def point_cards(self, trump: str) -> list[Card]:
        roles = IN_PLAY[trump]
        return [card for _, card in self.plays if roles[card].points]


def may_play(card: Card, hand: list[Card], led: Card | None, trump: str) -> bool:
    """Whether ``card`` from ``hand`` follows the rule when ``led`` was led (None: leading).

    A card of the led suit or a trump may always be played; any other card only by a
    player holding neither a card of the led suit nor a trump (rules/pedro.md, "A hand",
    step 3; seed: 「リードカードと同じスートもしくは切り札スートのカードを1枚出します。無い場合は、
    好きなカードで出します」). So a player void in a plain suit led but holding a trump,
    if only the Low Pedro, must trump. When trump is led, the led suit is trump: follow
    with trump if you can."""
    if led is None:
        return True
    roles = IN_PLAY[trump]
    led_suit = roles[led].suit
    role = roles[card]
    if role.suit == led_suit or role.trump:
        return True
    return not any(roles[held].suit == led_suit or roles[held].trump for held in hand)


def winning_play(plays: Sequence[tuple[str, Card]], trump: str) -> tuple[str, Card]:
    """The highest trump, else the highest card of the led suit."""
    roles = IN_PLAY[trump]
    led_suit = roles[plays[0][1]].suit
    best: tuple[str, Card] | None = None
    best_rank: tuple[bool, int] | None = None
    for play in plays:
        role = roles[play[1]]
        if role.trump or role.suit == led_suit:  # a card of another suit cannot win
            rank = (role.trump, role.strength)  # any trump above the led suit
            if best is None or rank > cast("tuple[bool, int]", best_rank):  # set together with best
                best, best_rank = play, rank
    assert best is not None  # the led card itself is of the led suit (or a trump)
    return best


def play_trick(trump: str, leader: str, cards: list[Card], hands: dict[str, list[Card]] | None = None) -> TrickResult:
    """Who wins four cards played from ``leader`` clockwise; with the players' hands (as
    they were before this trick), every card is checked against the hand and the rule."""
    if len(set(cards)) < len(cards):
        _refuse_duplicate(cards)
    plays = tuple(zip(SEATS_FROM[leader], cards))
    if hands is not None:
        _check_follow(plays, hands, trump)
    seat, card = winning_play(plays, trump)
    roles = IN_PLAY[trump]
    trumped = roles[card].trump  # a trump was played exactly when a trump wins
    return TrickResult(seat, TEAM_OF[seat], card, roles[cards[0]].suit, trumped, plays)


def _refuse_duplicate(cards: list[Card]) -> None:
    for index, card in enumerate(cards):
        if card in cards[:index]:
            raise RuleError("duplicate_card", ("cards", index), card=str(card))


def _check_follow(plays, hands: dict[str, list[Card]], trump: str) -> None:
    seen: dict[Card, str] = {}
    for seat, hand in hands.items():
        for index, card in enumerate(hand):
            if card in seen:
                raise RuleError("card_in_two_hands", ("hands", seat, index), card=str(card), seat=seen[card])
            seen[card] = seat
    led = plays[0][1]
    for index, (seat, card) in enumerate(plays):
        stated = hands.get(seat)
        if stated is None:
            continue
        if card not in stated:
            raise RuleError("card_not_in_hand", ("cards", index), seat=seat, card=str(card))
        if not may_play(card, stated, None if index == 0 else led, trump):
            allowed = [str(held) for held in stated if may_play(held, stated, led, trump)]
            raise RuleError(
                "must_follow",
                ("cards", index),
                seat=seat,
                card=str(card),
                led=str(led),
                trump=trump,
                allowed=" ".join(allowed),
            )
