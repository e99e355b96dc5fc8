"""Pedro's cards, seats and trumps (rules/pedro.md, "Cards and teams").

* 52 cards; rank inside a suit A K Q J 10 9 8 7 6 5 4 3 2.
* Seats N E S W clockwise; partners sit opposite: teams NS and EW.
* Trump is the high bidder's suit; the other 5 of the same colour (Low Pedro) is also a
  trump and no longer a card of its printed suit: hearts <-> 5 of diamonds, diamonds <->
  5 of hearts, spades <-> 5 of clubs, clubs <-> 5 of spades.
* Trump order A K Q J 10 9 8 7 6 5 (Pedro), Low Pedro, 4 3 2: 15 trumps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import RuleError

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
RANK_VALUE = {rank: 14 - i for i, rank in enumerate(RANKS)}  # A=14 ... 2=2
SUITS = ("H", "D", "C", "S")
SUIT_SYMBOLS = {"♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C", "♠": "S", "♤": "S"}
SAME_COLOUR = {"H": "D", "D": "H", "S": "C", "C": "S"}

SEATS = ("N", "E", "S", "W")  # clockwise
TEAMS = ("NS", "EW")
TEAM_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}

#: A card as text: rank then suit, any case, suit as letter or symbol ("10H", "5♦", "as").
CARD_PATTERN = r"^(10|[2-9AKQJakqj])([HDCShdcs♥♡♦♢♣♧♠♤])$"
_CARD = re.compile(CARD_PATTERN)


@dataclass(frozen=True, order=True)
class Card:
    rank: str  # one of RANKS
    suit: str  # one of SUITS

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"


def parse_suit(text: str) -> str:
    """``"H"``, ``"h"`` or ``"♥"`` -> ``"H"``."""
    return SUIT_SYMBOLS.get(text, text.upper())


def parse_card(text: str, where: tuple = ()) -> Card:
    """``"10H"``, ``"5♦"``, ``"as"`` -> Card; anything else is a RuleError naming it."""
    match = _CARD.match(text.strip()) if isinstance(text, str) else None
    if not match:
        raise RuleError("bad_card", where, card=text)
    return Card(match.group(1).upper(), parse_suit(match.group(2)))


def parse_cards(texts: list[str], where: tuple = ()) -> list[Card]:
    return [parse_card(text, where + (i,)) for i, text in enumerate(texts)]


def next_seat(seat: str, steps: int = 1) -> str:
    """The seat ``steps`` places clockwise (to the left) of ``seat``."""
    return SEATS[(SEATS.index(seat) + steps) % 4]


def low_pedro(trump: str) -> Card:
    """The 5 of the suit of the same colour as trump."""
    return Card("5", SAME_COLOUR[trump])


def is_trump(card: Card, trump: str) -> bool:
    """A card of the trump suit, or the Low Pedro."""
    return card.suit == trump or card == low_pedro(trump)


def suit_in_play(card: Card, trump: str) -> str:
    """The suit a card counts as in this hand: the Low Pedro counts as trump."""
    return trump if is_trump(card, trump) else card.suit


def strength(card: Card, trump: str) -> int:
    """Order inside the card's suit in play: trump order puts the Low Pedro between the
    Pedro (5 of trump) and the 4; other cards follow their rank."""
    if card == low_pedro(trump):
        return 2 * RANK_VALUE["5"] - 1
    return 2 * RANK_VALUE[card.rank]


#: Point cards of a trump suit: rank -> points (rules/pedro.md, step 4).
TRUMP_POINTS = {"A": 1, "J": 1, "10": 1, "5": 5, "2": 1}
LOW_PEDRO_POINTS = 5


def points_of(card: Card, trump: str) -> int:
    """Points a card carries in a hand with this trump (0 for non-point cards)."""
    if card == low_pedro(trump):
        return LOW_PEDRO_POINTS
    if card.suit == trump:
        return TRUMP_POINTS.get(card.rank, 0)
    return 0


def point_name(card: Card, trump: str) -> str:
    """The point card's role: ace, jack, ten, pedro, low_pedro or two."""
    if card == low_pedro(trump):
        return "low_pedro"
    return {"A": "ace", "J": "jack", "10": "ten", "5": "pedro", "2": "two"}[card.rank]


def full_deck() -> list[Card]:
    return [Card(rank, suit) for suit in SUITS for rank in RANKS]
