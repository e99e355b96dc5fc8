"""Pedro's cards, seats and trumps (docs/rules/pedro.md, "Cards and teams").

* 52 cards; rank inside a suit A K Q J 10 9 8 7 6 5 4 3 2.
* Seats N E S W clockwise; partners sit opposite: teams NS and EW.
* Trump is the high bidder's suit; the other 5 of the same colour (Low Pedro) is also a
  trump and no longer a card of its printed suit: hearts <-> 5 of diamonds, diamonds <->
  5 of hearts, spades <-> 5 of clubs, clubs <-> 5 of spades.
* Trump order A K Q J 10 9 8 7 6 5 (Pedro), Low Pedro, 4 3 2: 14 trumps.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..rule_error import Position, RuleError
from .schedules import GUIDE_14, Schedule

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
RANK_VALUE = {rank: 14 - i for i, rank in enumerate(RANKS)}  # A=14 ... 2=2
SUITS = ("H", "D", "C", "S")
SUIT_SYMBOLS = {"♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C", "♠": "S", "♤": "S"}
SAME_COLOUR = {"H": "D", "D": "H", "S": "C", "C": "S"}

SEATS = ("N", "E", "S", "W")  # clockwise
TEAMS = ("NS", "EW")
TEAM_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
OTHER_TEAM = {"NS": "EW", "EW": "NS"}

#: A card as text: rank then suit, any case, suit as letter or symbol ("10H", "5♦", "as"),
#: nothing else (no spaces). The WHOLE text must match (``re.fullmatch``; in Python ``$``
#: alone would also let a final newline through; JSON Schema's ``$`` does not).
CARD_PATTERN = r"^(10|[2-9AKQJakqj])([HDCShdcs♥♡♦♢♣♧♠♤])$"
_CARD = re.compile(CARD_PATTERN)
#: A suit as text: a letter in any case or a symbol; the whole text (``re.fullmatch``).
SUIT_PATTERN = r"^[HDCShdcs♥♡♦♢♣♧♠♤]$"
#: Exactly the texts :data:`SUIT_PATTERN` fully matches.
SUIT_SPELLINGS = (*SUITS, *(suit.lower() for suit in SUITS), *SUIT_SYMBOLS)


class Card(NamedTuple):
    """A card; a named tuple, so that comparing and hashing cards are tuple operations."""

    rank: str  # one of RANKS
    suit: str  # one of SUITS

    def __str__(self) -> str:
        return self.rank + self.suit


#: The 52 cards, suit by suit, each from the ace down.
DECK = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)


def full_deck() -> list[Card]:
    return list(DECK)


def parse_suit(text: str) -> str:
    """``"H"``, ``"h"`` or ``"♥"`` -> ``"H"``."""
    return SUIT_SYMBOLS.get(text, text.upper())


def parse_card(text: str, at: Position = ()) -> Card:
    """``"10H"``, ``"5♦"``, ``"as"`` -> Card: a text :data:`CARD_PATTERN` fully matches.
    Anything else (``" AH"``, ``"AH\\n"`` too: the text is not stripped) is a RuleError
    naming it, ``bad_card`` at ``at``."""
    match = _CARD.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise RuleError("bad_card", at, card=text)
    rank, suit = match.groups()
    return Card(rank.upper(), parse_suit(suit))


def parse_cards(texts: list[str], within: Position = (), term: str = "card") -> list[Card]:
    """Every text as a card; the first one that is not a card is refused at
    ``(*within, (term, index))``: ``(("seat", "N"), ("card", 2))`` for a card held,
    ``(("play", 1),)`` (``term="play"``) for a card of a trick."""
    return [parse_card(text, (*within, (term, i))) for i, text in enumerate(texts)]


def next_seat(seat: str, steps: int = 1) -> str:
    """The seat ``steps`` places clockwise (to the left) of ``seat``."""
    return SEATS[(SEATS.index(seat) + steps) % 4]


def seats_from(seat: str) -> tuple[str, ...]:
    """The four seats in play order (clockwise), starting with ``seat``."""
    return tuple(next_seat(seat, steps) for steps in range(4))


def low_pedro(trump: str) -> Card:
    """The 5 of the suit of the same colour as trump."""
    return Card("5", SAME_COLOUR[trump])


def two_of_trump(trump: str) -> Card:
    """The 2 of trump, the point card the rules options score apart (docs/rules/pedro.md,
    "Points" and "Rule options")."""
    return Card("2", trump)


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


def points_of(card: Card, trump: str, schedule: Schedule = GUIDE_14) -> int:
    """Points a card carries in a hand with this trump under ``schedule`` (0 for
    non-point cards); docs/rules/pedro.md, "Points"."""
    if card == low_pedro(trump):
        return schedule.low_pedro_points
    if card.suit == trump:
        return schedule.trump_points.get(card.rank, 0)
    return 0


def point_name(card: Card, trump: str) -> str:
    """The point card's role: ace, jack, ten, pedro, low_pedro or two."""
    if card == low_pedro(trump):
        return "low_pedro"
    return {"A": "ace", "J": "jack", "10": "ten", "5": "pedro", "2": "two"}[card.rank]
