"""Apero (アペロ): exact scoring of any hand, any hand size, any number of sets.

Rules: ``docs/rules/apero.md``; each point below names its section there.

* Scoring: each colour is scored on its own; its cards are combined with ``+`` and ``×``
  in any order and grouping, every card used once, and the colour scores the LARGEST
  value reachable (a single card scores its own value; no cards score 0).
* Scoring: the hand scores the sum of its colours.
* Winner: the highest total wins; tied players share the win (Decisions, 1: the sources
  give no tie-break).
* Hand sizes and sets: a request may not hold more copies of a card than the sets in play
  contain, counted over all its players (Decisions, 4).

How the maximum is found (in O(k²) steps per core search, k = number of cards of magnitude
1, which the deck bounds by 2 per set; at most 24 core searches for a minus colour):

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
   triples; :func:`_core` finds the best of them for a required parity of the group count
   (1s join 2s before 3s, and the other 1s take their unique best split, :func:`_ones_split`).
   Plus colours need nothing else (step 2).  For minus colours, any TWO non-core groups
   (sum <= 7) can be regrouped into an even number of groups with at most one non-core
   group and at least the same product (a finite fact over 23 × 23 pairs, checked by
   ``tests/games/test_apero_proof.py``); repeating this, some optimal partition has at most
   ONE non-core group, so trying each non-core group (or none) around :func:`_core` is
   exhaustive.  A non-core group is skipped when a bound shows it cannot beat the best
   partition found so far (:func:`_may_beat`).

The tests also compare this with a brute-force enumeration of every expression (up to 8
cards) and with a plain max/min dynamic program over every sub-multiset (up to 24 cards).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from .names import check_unique_names
from .rule_error import Position, RuleError

# -- The deck --------------------------------------------------------------------------

#: Colour ids in the order the scorer reports them, with the copies of each value in one
#: set (docs/rules/apero.md, Cards).
DECK: dict[str, dict[int, int]] = {
    "red": {1: 2, 2: 3, 3: 1},
    "orange": {1: 2, 2: 3, 3: 1},
    "green": {1: 2, 2: 3, 3: 1},
    "blue": {1: 2, 2: 3, 3: 1},
    "purple": {-3: 2, -2: 3, -1: 1},
    "black_green": {-3: 2, -2: 3, -1: 1},
}
COLORS: tuple[str, ...] = tuple(DECK)

#: Every spelling accepted for a colour: the ids, then the Japanese names players use
#: (docs/rules/apero.md, Decisions, 7: 赤, 橙 or オレンジ, 緑, 青, 紫, 黒緑).
COLOR_ALIASES: dict[str, str] = {
    "red": "red",
    "orange": "orange",
    "green": "green",
    "blue": "blue",
    "purple": "purple",
    "black_green": "black_green",
    "赤": "red",
    "橙": "orange",
    "緑": "green",
    "青": "blue",
    "紫": "purple",
    "黒緑": "black_green",
    "オレンジ": "orange",
}

#: +1 for the plus colours, -1 for the minus colours (purple, black-green).
SIGNS: dict[str, int] = {color: -1 if min(values) < 0 else 1 for color, values in DECK.items()}

#: Copies of each card (colour, value) in one set.
_COPIES_PER_SET: dict[tuple[str, int], int] = {
    (color, value): copies for color, values in DECK.items() for value, copies in values.items()
}


def copies_in_deck(color: str, value: int, sets: int) -> int:
    """How many cards of this colour and value ``sets`` shuffled sets hold (0 if none)."""
    return _COPIES_PER_SET.get((color, value), 0) * sets


# -- Errors ----------------------------------------------------------------------------


class AperoError(RuleError):
    """An Apero request the rules do not allow: ``no_such_card`` or ``too_many_copies``
    (docs/rules/apero.md, What is refused)."""


# -- The maximum of one colour ---------------------------------------------------------

Group = tuple[int, ...]  # magnitudes of the cards added together, ascending

#: The core groups (step 3 of the module docstring).
_CORE: frozenset[Group] = frozenset({(3,), (2,), (1,), (1, 1), (1, 2), (1, 3), (1, 1, 1)})


def _groups_up_to(total: int) -> list[Group]:
    """Every multiset of magnitudes 1-3 whose sum is between 1 and ``total``."""
    found = []
    for ones, twos, threes in itertools.product(range(total + 1), range(total // 2 + 1), range(total // 3 + 1)):
        if 0 < ones + 2 * twos + 3 * threes <= total:
            found.append((1,) * ones + (2,) * twos + (3,) * threes)
    return found


#: Non-core groups a minus colour may need once (step 3 of the module docstring), in the
#: order :func:`best_groups` tries them.
NON_CORE_GROUPS: tuple[Group, ...] = tuple(g for g in _groups_up_to(7) if g not in _CORE)


def _ones_split(ones: int, parity: int | None) -> tuple[int, int, int] | None:
    """Best split of ``ones`` 1-magnitude cards into (singles, pairs, triples).

    The product is ``2**pairs * 3**triples``; ``parity`` (None = any) is the required
    parity of the number of groups.  More than two singles never help: three singles are
    worse than one triple with the same parity.  The best split is unique: its product
    fixes ``pairs`` and ``triples``, and they fix ``singles``.  None if no split has the
    parity (no 1s and an odd count, one 1 and an even count).
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
    ``twos + threes`` plus the number of pure-1 groups.  For a given number ``joined`` of
    1s added to 2s and 3s, adding them to the 2s first is strictly best (moving a 1 from a
    3 to a 2 multiplies by ``3/2 · 3/4 = 9/8``), so the search runs over ``joined`` only,
    the other 1s split by :func:`_ones_split`.  Returns the product of the group sums and
    the groups of the first best partition (fewest 1s joined), or None if no partition
    has the parity.
    """
    if not ones:  # every 2 and 3 stands alone
        if parity is not None and (twos + threes) % 2 != parity:
            return None
        alone: list[Group] = [(2,)] * twos
        alone += [(3,)] * threes
        return 2**twos * 3**threes, alone
    ones_parity = None if parity is None else (parity - twos - threes) % 2
    best_value = 0
    best: tuple[tuple[int, int, int], int, int] | None = None
    for joined in range(min(ones, twos + threes) + 1):
        split = _ones_split(ones - joined, ones_parity)
        if split is None:
            continue
        with_two = min(joined, twos)
        with_three = joined - with_two
        # groups sum to 1 ({1}), 2 ({1,1}, {2}), 4 = 2 × 2 ({1,3}) or 3 ({1,1,1}, {1,2}, {3})
        value = 2 ** (twos - with_two + 2 * with_three + split[1]) * 3 ** (threes - with_three + with_two + split[2])
        if value > best_value:
            best_value, best = value, (split, with_two, with_three)
    if best is None:
        return None
    split, with_two, with_three = best
    return best_value, _core_groups(split, with_two, with_three, twos, threes)


def _core_groups(split: tuple[int, int, int], with_two: int, with_three: int, twos: int, threes: int) -> list[Group]:
    """The core groups, in ascending order: the pure-1 groups of ``split``, ``with_two``
    groups ``{1,2}``, ``with_three`` groups ``{1,3}``, and the other 2s and 3s alone."""
    singles, pairs, triples = split
    groups: list[Group] = [(1,)] * singles
    groups += [(1, 1)] * pairs
    groups += [(1, 1, 1)] * triples
    groups += [(1, 2)] * with_two
    groups += [(1, 3)] * with_three
    groups += [(2,)] * (twos - with_two)
    groups += [(3,)] * (threes - with_three)
    return groups


def _may_beat(best_value: int, extra_sum: int, total: int) -> bool:
    """Whether a non-core group summing to ``extra_sum``, times core groups of the other
    cards (summing to ``total - extra_sum``), might exceed ``best_value``.

    Every group sum ``a`` satisfies ``a <= 3**(a/3)``, so the other groups multiply to at
    most ``3**((total - extra_sum)/3)``; compared in cubes to stay in integers.
    """
    return extra_sum**3 * 3 ** (total - extra_sum) > best_value**3


def best_groups(ones: int, twos: int, threes: int, negative: bool) -> tuple[int, list[Group]]:
    """Groups whose sums multiply to the colour's maximum (module docstring, steps 1-3).

    ``ones``, ``twos`` and ``threes`` count the cards by |value|; ``negative`` is True for
    purple and black-green.  Returns the product of the group sums (0 for no cards) and
    the groups in ascending order.  A minus colour of one card is that card alone; of
    more, the best even partition of core groups, or the first non-core group (in
    :data:`NON_CORE_GROUPS` order) with an odd partition of core groups that beats it.
    """
    cards = ones + twos + threes
    if cards == 0:
        return 0, []
    if not negative:
        core = _core(ones, twos, threes, None)
        assert core is not None  # without a parity constraint some partition always exists
        return core
    if cards == 1:
        group = (1,) * ones + (2,) * twos + (3,) * threes
        return group[0], [group]
    best_value, groups = _core(ones, twos, threes, 0) or (0, [])
    total = ones + 2 * twos + 3 * threes
    for extra in NON_CORE_GROUPS:
        need_ones, need_twos, need_threes = extra.count(1), extra.count(2), extra.count(3)
        if need_ones > ones or need_twos > twos or need_threes > threes:
            continue  # these cards cannot form the group
        if not _may_beat(best_value, sum(extra), total):
            continue
        rest = _core(ones - need_ones, twos - need_twos, threes - need_threes, 1)
        if rest is not None and rest[0] * sum(extra) > best_value:
            best_value, groups = rest[0] * sum(extra), sorted([*rest[1], extra])
    return best_value, groups


# -- Formulas --------------------------------------------------------------------------


def formula(groups: list[Group], negative: bool) -> str:
    """The formula, e.g. ``(-1 + -2) × -3``: the groups' sums multiplied, a group of two
    or more cards bracketed unless it stands alone; ``0`` for no groups."""
    if not groups:
        return "0"
    sign = -1 if negative else 1
    sums = [" + ".join(str(sign * m) for m in group) for group in groups]
    if len(groups) == 1:
        return sums[0]
    return " × ".join(f"({text})" if len(group) > 1 else text for group, text in zip(groups, sums, strict=True))


# -- Results -------------------------------------------------------------------------


class ColorScore(NamedTuple):
    """One colour of one hand: its cards, score and a formula that reaches the score."""

    color: str
    cards: tuple[int, ...]
    score: int
    expression: str


class HandScore(NamedTuple):
    name: str
    colors: tuple[ColorScore, ...]
    total: int


class GameScore(NamedTuple):
    players: tuple[HandScore, ...]
    winners: tuple[str, ...]
    sets: int
    top: int  # the winners' total


def score_color(color: str, values: list[int]) -> ColorScore:
    """Score one colour's cards: the largest value of any ``+``/``×`` expression over them
    (docs/rules/apero.md, Scoring).

    The colour scores the product of the sums of its :func:`best_groups`, with the sign of
    the cards: negative only for a lone minus card (two or more minus cards take an even
    number of groups, step 1 of the module docstring).  The cards are listed by |value|.
    """
    sign = SIGNS[color]
    negative = sign < 0
    ones, twos, threes = values.count(sign), values.count(2 * sign), values.count(3 * sign)
    value, groups = best_groups(ones, twos, threes, negative)
    score = -value if negative and len(groups) % 2 else value
    cards = (sign,) * ones + (2 * sign,) * twos + (3 * sign,) * threes
    return ColorScore(color, cards, score, formula(groups, negative))


# -- A hand ---------------------------------------------------------------------------


def values_by_color(cards: list[tuple[str, int]]) -> dict[str, list[int]]:
    """Every colour of the deck, in deck order, with the values of the cards of that colour."""
    by_color: dict[str, list[int]] = {color: [] for color in COLORS}
    for color, value in cards:
        by_color[color].append(value)
    return by_color


def score_hand(name: str, cards: list[tuple[str, int]]) -> HandScore:
    """Score a hand: each colour it holds on its own, in the deck's colour order, and the
    sum of the colours (docs/rules/apero.md, Scoring)."""
    colors = tuple(score_color(color, values) for color, values in values_by_color(cards).items() if values)
    return HandScore(name, colors, sum(scored.score for scored in colors))


def check_cards(
    players: list[tuple[str, list[tuple[str, int]]]], sets: int, table: Sequence[tuple[str, int]] = ()
) -> None:
    """Refuse the first card, in request order, that the colour does not have or that goes
    past the copies ``sets`` hold, counted over all players together, then the table
    cards (the pick's, checked with the hands); a refused copy names its count in the
    whole request (docs/rules/apero.md, Hand sizes and sets, Picking a card and What is
    refused). Positions: ``(("player", p), ("card", c))`` and ``(("table_card", c),)``."""
    cards: list[tuple[Position, tuple[str, int]]] = [
        ((("player", p), ("card", c)), card) for p, (_, hand) in enumerate(players) for c, card in enumerate(hand)
    ]
    cards += [((("table_card", c),), card) for c, card in enumerate(table)]
    seen: Counter[tuple[str, int]] = Counter()
    for at, (color, value) in cards:
        if value not in DECK[color]:
            raise AperoError("no_such_card", at, color=color, value=value, values=sorted(DECK[color]))
        seen[color, value] += 1
        limit = copies_in_deck(color, value, sets)
        if seen[color, value] > limit:
            raise AperoError(
                "too_many_copies",
                at,
                color=color,
                value=value,
                count=sum(card == (color, value) for _, card in cards),
                limit=limit,
                sets=sets,
            )


def score_game(players: list[tuple[str, list[tuple[str, int]]]], sets: int = 1) -> GameScore:
    """Score every player's hand and name the winners: the highest total, ties sharing the
    win (docs/rules/apero.md, Winner)."""
    check_unique_names(name for name, _ in players)
    check_cards(players, sets)
    hands = tuple(score_hand(name, cards) for name, cards in players)
    top = max(hand.total for hand in hands)
    winners = tuple(hand.name for hand in hands if hand.total == top)
    return GameScore(hands, winners, sets, top)
