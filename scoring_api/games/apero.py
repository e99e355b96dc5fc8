"""Apero (アペロ): exact scoring of any hand, any hand size, any number of sets.

Rules: ``shared/rules/apero.md`` (designer's notes, seed 000).

* Each colour is scored on its own; its cards are combined with ``+`` and ``×`` in any
  order and grouping, every card used once, and the colour scores the LARGEST value
  reachable (a single card scores its own value; no cards score 0).
* The hand scores the sum of its colours.
* Highest total wins; tied players share the win (decision: the sources give no
  tie-break).
* A request may not hold more copies of a card than the sets in play contain.

How the maximum is found (complexity O(k²) per colour, k = number of cards of magnitude 1,
which the deck bounds by 2 per set; at most 24 such enumerations for a minus colour):

1. *Expressions are products of group sums.*  Partition the colour's cards into groups,
   add inside each group and multiply the group sums.

   - Plus colours (values 1, 2, 3): in an optimal tree a ``+`` never sits above a ``×``,
     because ``A×B + R <= (A + R)×B`` when ``B, R >= 1``; rewriting until no ``×`` is
     left under a ``+`` gives a product of sums.
   - Minus colours (values -1, -2, -3), with magnitudes m: write ``E(S)`` (``O(S)``) for
     the largest product of group magnitude sums over partitions of S into an even (odd)
     number of groups.  By induction on the root of the tree, for ``|S| >= 2`` the maximum
     is ``E(S)`` and the minimum is ``-O(S)``: a ``×`` root gives at best
     ``O(A)·O(B)`` or ``E(A)·E(B)``, both ``<= E(S)``, and at worst ``-E(A)·O(B) >= -O(S)``;
     a ``+`` root gives at most ``E(A)+E(B) <= E(S)`` (sum of two numbers >= 2 is at most
     their product; ``E(A) = 1`` means two lone -1 cards that raise a group of B by 2;
     a single negative card only lowers the sum) and at least ``-(O(A)+O(B)) >= -O(S)``
     (merge one group of each side: ``RA·RB·(ga+gb) >= RA·ga + RB·gb``).
     So a minus colour of two or more cards multiplies an EVEN number of negative sums.
2. *Groups are small.*  Plus colours: a group summing to 5 or more splits into two parts
   summing to at least 2 each (take cards largest first until the part reaches 2), and
   ``x·y > x + y`` there; of the groups summing to 4, only ``1+3`` cannot be split into
   ``2 × 2`` at no loss.  Minus colours: a group summing to 8 or more splits into THREE
   such parts (the group count keeps its parity) and ``4·(s-4) > s``; so every group sums
   to at most 7.
3. *Core groups.*  Call ``{3} {2} {1} {1,1} {1,2} {1,3} {1,1,1}`` (magnitudes) the core
   groups.  A partition using only core groups is fixed by ``x`` = number of ``{1,2}``,
   ``y`` = number of ``{1,3}`` and the split of the remaining 1s into singles, pairs and
   triples; :func:`_core` enumerates all of them for a required parity of the group count.
   Plus colours need nothing else (step 2).  For minus colours, any TWO non-core groups
   (sum <= 7) can be regrouped into an even number of groups with at most one non-core
   group and at least the same product (a finite fact over 23 × 23 pairs, checked by
   ``tests/games/test_apero_proof.py``); repeating this, some optimal partition has at most
   ONE non-core group, so trying each non-core group (or none) around :func:`_core` is
   exhaustive.

The tests also compare this with a brute-force enumeration of every expression (up to 8
cards) and with a plain max/min dynamic program over every sub-multiset (up to 24 cards).
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from .errors import RuleError

# -- The deck --------------------------------------------------------------------------

#: Colour ids in the order the scorer reports them, with the values of one set.
DECK: dict[str, dict[int, int]] = {
    "red": {1: 2, 2: 3, 3: 1},
    "orange": {1: 2, 2: 3, 3: 1},
    "green": {1: 2, 2: 3, 3: 1},
    "blue": {1: 2, 2: 3, 3: 1},
    "purple": {-3: 2, -2: 3, -1: 1},
    "black_green": {-3: 2, -2: 3, -1: 1},
}
COLORS: tuple[str, ...] = tuple(DECK)

#: The colours' names as players say them (rules/apero.md, deck table).
COLOR_NAMES: dict[str, dict[str, str]] = {
    "red": {"ja": "赤", "en": "red"},
    "orange": {"ja": "橙", "en": "orange"},
    "green": {"ja": "緑", "en": "green"},
    "blue": {"ja": "青", "en": "blue"},
    "purple": {"ja": "紫", "en": "purple"},
    "black_green": {"ja": "黒緑", "en": "black-green"},
}

#: Every spelling accepted for a colour: the ids and the Japanese names (橙 or オレンジ).
COLOR_ALIASES: dict[str, str] = {
    **{color: color for color in COLORS},
    **{names["ja"]: color for color, names in COLOR_NAMES.items()},
    "オレンジ": "orange",
}


def copies_in_deck(color: str, value: int, sets: int) -> int:
    """How many cards of this colour and value ``sets`` shuffled sets hold (0 if none)."""
    return DECK[color].get(value, 0) * sets


# -- Errors ----------------------------------------------------------------------------


class AperoError(RuleError):
    """An Apero request the rules do not allow (unknown card, too many copies, ...)."""


# -- The maximum of one colour ---------------------------------------------------------

Group = tuple[int, ...]  # magnitudes of the cards added together, ascending

_CORE: frozenset[Group] = frozenset({(3,), (2,), (1,), (1, 1), (1, 2), (1, 3), (1, 1, 1)})


def _groups_up_to(total: int) -> list[Group]:
    """Every multiset of magnitudes 1-3 whose sum is between 1 and ``total``."""
    found = []
    for ones, twos, threes in itertools.product(range(total + 1), range(4), range(3)):
        if 0 < ones + 2 * twos + 3 * threes <= total:
            found.append((1,) * ones + (2,) * twos + (3,) * threes)
    return found


#: Non-core groups a minus colour may need once (step 3 of the module docstring).
NON_CORE_GROUPS: tuple[Group, ...] = tuple(g for g in _groups_up_to(7) if g not in _CORE)


@lru_cache(maxsize=4096)
def _ones_split(ones: int, parity: int | None) -> tuple[int, int, int] | None:
    """Best split of ``ones`` 1-magnitude cards into (singles, pairs, triples).

    The product is ``2**pairs * 3**triples``; ``parity`` (None = any) is the required
    parity of the number of groups.  More than two singles never help: three singles are
    worse than one triple with the same parity.
    """
    best, best_value = None, 0
    for triples in range(ones // 3, -1, -1):
        for singles in range(3):
            rest = ones - 3 * triples - singles
            if rest < 0 or rest % 2:
                continue
            pairs = rest // 2
            if parity is not None and (singles + pairs + triples) % 2 != parity:
                continue
            value = 2**pairs * 3**triples
            if value > best_value:
                best, best_value = (singles, pairs, triples), value
    return best


def _core(ones: int, twos: int, threes: int, parity: int | None) -> tuple[int, list[Group]] | None:
    """Best partition into core groups only; ``parity`` constrains the group count.

    Every 2 and 3 card is in its own group, alone or with one 1, so the group count is
    ``twos + threes`` plus the number of pure-1 groups.
    """
    best_value, best_choice = 0, None
    ones_parity = None if parity is None else (parity - twos - threes) % 2
    for with_two in range(min(ones, twos) + 1):
        for with_three in range(min(ones - with_two, threes) + 1):
            split = _ones_split(ones - with_two - with_three, ones_parity)
            if split is None:
                continue
            _, pairs, triples = split
            value = (
                2 ** (twos - with_two + pairs)
                * 3 ** (threes - with_three + with_two + triples)
                * 4**with_three
            )
            if value > best_value:
                best_value, best_choice = value, (with_two, with_three, split)
    if best_choice is None:
        return None
    with_two, with_three, (singles, pairs, triples) = best_choice
    groups: list[Group] = (
        [(1, 2)] * with_two
        + [(1, 3)] * with_three
        + [(2,)] * (twos - with_two)
        + [(3,)] * (threes - with_three)
        + [(1,)] * singles
        + [(1, 1)] * pairs
        + [(1, 1, 1)] * triples
    )
    return best_value, groups


def best_groups(magnitudes: Counter | dict[int, int], negative: bool) -> list[Group]:
    """Groups whose sums multiply to the colour's maximum (module docstring, steps 1-3).

    ``magnitudes`` counts cards by |value| (1, 2, 3); ``negative`` is True for purple and
    black-green.  A minus colour of one card is that card alone.
    """
    ones, twos, threes = (magnitudes.get(m, 0) for m in (1, 2, 3))
    if ones + twos + threes == 0:
        return []
    if not negative:
        return _core(ones, twos, threes, None)[1]
    if ones + twos + threes == 1:
        return [(1,) * ones + (2,) * twos + (3,) * threes]
    found = _core(ones, twos, threes, 0)
    best_value, best = found if found else (0, [])
    for extra in NON_CORE_GROUPS:
        left = Counter(extra)
        if left[1] > ones or left[2] > twos or left[3] > threes:
            continue
        rest = _core(ones - left[1], twos - left[2], threes - left[3], 1)
        if rest is not None and rest[0] * sum(extra) > best_value:
            best_value, best = rest[0] * sum(extra), rest[1] + [extra]
    return best


# -- Results -------------------------------------------------------------------------


@dataclass(frozen=True)
class ColorScore:
    """One colour of one hand: its cards, score and a formula that reaches the score."""

    color: str
    cards: tuple[int, ...]
    score: int
    groups: tuple[tuple[int, ...], ...]  # signed card values, as added together

    @property
    def expression(self) -> str:
        """The formula, e.g. ``(-1 + -2) × -3``; groups of one card stand bare."""
        if not self.groups:
            return "0"
        parts = []
        for group in self.groups:
            text = " + ".join(str(v) for v in group)
            parts.append(f"({text})" if len(group) > 1 and len(self.groups) > 1 else text)
        return " × ".join(parts)


@dataclass(frozen=True)
class HandScore:
    name: str
    colors: tuple[ColorScore, ...]

    @property
    def total(self) -> int:
        return sum(c.score for c in self.colors)


@dataclass(frozen=True)
class GameScore:
    players: tuple[HandScore, ...]
    winners: tuple[str, ...]
    sets: int


def score_color(color: str, values: list[int]) -> ColorScore:
    """Score one colour's cards: the largest value of any ``+``/``×`` expression."""
    negative = min(DECK[color]) < 0
    sign = -1 if negative else 1
    groups = best_groups(Counter(abs(v) for v in values), negative)
    signed = sorted((tuple(sign * m for m in g) for g in groups), key=lambda g: sorted(map(abs, g)))
    score = 0
    if signed:
        score = 1
        for group in signed:
            score *= sum(group)
    return ColorScore(color, tuple(sorted(values, key=abs)), score, tuple(signed))


def score_hand(name: str, cards: list[tuple[str, int]]) -> HandScore:
    """Score a hand: each colour on its own, in the deck's colour order."""
    by_color: dict[str, list[int]] = {}
    for color, value in cards:
        by_color.setdefault(color, []).append(value)
    return HandScore(
        name, tuple(score_color(c, by_color[c]) for c in COLORS if c in by_color)
    )


def check_cards(players: list[tuple[str, list[tuple[str, int]]]], sets: int) -> None:
    """Every card exists in the deck, and no card appears more often than ``sets`` hold.

    Counts run over all players of the request together (rules/apero.md, Deck legality).
    The error points at the first card that goes past the limit.
    """
    seen: Counter = Counter()
    for p, (_, cards) in enumerate(players):
        for c, (color, value) in enumerate(cards):
            if value not in DECK[color]:
                raise AperoError(
                    "no_such_card", ("players", p, "cards", c), color=color, value=value,
                    values=sorted(DECK[color]),
                )
            seen[color, value] += 1
            limit = copies_in_deck(color, value, sets)
            if seen[color, value] > limit:
                total = sum(
                    1 for _, hand in players for card in hand if card == (color, value)
                )
                raise AperoError(
                    "too_many_copies", ("players", p, "cards", c), color=color, value=value,
                    count=total, limit=limit, sets=sets,
                )


def check_names(players: list[tuple[str, list[tuple[str, int]]]]) -> None:
    """Players are told apart by name, so a name may appear once."""
    names = [name for name, _ in players]
    for index, name in enumerate(names):
        if name in names[:index]:
            raise AperoError("duplicate_name", ("players", index, "name"), name=name)


def score_game(players: list[tuple[str, list[tuple[str, int]]]], sets: int = 1) -> GameScore:
    """Score every player's hand and name the winners (ties share the win)."""
    check_names(players)
    check_cards(players, sets)
    hands = tuple(score_hand(name, cards) for name, cards in players)
    top = max(h.total for h in hands)
    return GameScore(hands, tuple(h.name for h in hands if h.total == top), sets)
