"""Slow, plainly exact references for the Apero scorer (tests only).

* :func:`all_values` enumerates the value of EVERY expression tree over the cards: a tree
  is a card, or a ``+``/``×`` of two trees over a split of the cards into two parts.
* :func:`best_worst` is the plain dynamic program: the largest and smallest value of every
  sub-multiset, combining the extremes of both parts (``+`` and ``×`` take their extremes
  at the corners of the parts' ranges).
"""

from __future__ import annotations

import itertools
from functools import cache


def _splits(state: tuple[int, ...]):
    """Unordered splits of a count vector into two non-empty parts."""
    for part in itertools.product(*(range(n + 1) for n in state)):
        rest = tuple(n - p for n, p in zip(state, part, strict=True))
        if any(part) and any(rest) and part <= rest:
            yield part, rest


def _counts(values) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Counts over the whole value range of the colour's sign, so caches are shared."""
    distinct = (-3, -2, -1) if min(values) < 0 else (1, 2, 3)
    return distinct, tuple(list(values).count(v) for v in distinct)


def all_values(values: list[int]) -> set[int]:
    """Every value any +/× expression over all the cards reaches."""
    distinct, counts = _counts(values)

    @cache
    def reach(state):
        if sum(state) == 1:
            return frozenset({distinct[state.index(1)]})
        found = set()
        for part, rest in _splits(state):
            for a in reach(part):
                for b in reach(rest):
                    found.add(a + b)
                    found.add(a * b)
        return frozenset(found)

    return set(reach(counts))


@cache
def _best_worst(distinct: tuple[int, ...], state: tuple[int, ...]) -> tuple[int, int]:
    if sum(state) == 1:
        value = distinct[state.index(1)]
        return value, value
    best = worst = None
    for part, rest in _splits(state):
        b1, w1 = _best_worst(distinct, part)
        b2, w2 = _best_worst(distinct, rest)
        candidates = (b1 + b2, w1 + w2, b1 * b2, b1 * w2, w1 * b2, w1 * w2)
        hi, lo = max(candidates), min(candidates)
        best = hi if best is None or hi > best else best
        worst = lo if worst is None or lo < worst else worst
    return best, worst


def best_worst(values: list[int]) -> tuple[int, int]:
    """(largest, smallest) value over all expressions, by the sub-multiset DP."""
    return _best_worst(*_counts(values))


def group_partition_best(ones: int, twos: int, threes: int, negative: bool) -> int:
    """The largest product of group sums (magnitudes), each group summing to at most 7,
    with an even number of groups for a minus colour: steps 1-2 of the scorer's docstring,
    without its core/non-core shortcut.  A DP over count vectors, one group at a time."""
    kinds = [(a, b, c) for a in range(8) for b in range(4) for c in range(3) if 0 < a + 2 * b + 3 * c <= 7]
    table = _group_table(ones, twos, threes, tuple(kinds))
    if negative and ones + twos + threes == 1:
        return -(1 * ones + 2 * twos + 3 * threes)
    return table[ones][twos][threes][0] if negative else max(v for v in table[ones][twos][threes] if v is not None)


@cache
def _group_table(ones, twos, threes, kinds):
    """table[a][b][c][p] = best product for the counts with group-count parity p."""
    table = [[[[None, None] for _ in range(threes + 1)] for _ in range(twos + 1)] for _ in range(ones + 1)]
    table[0][0][0][0] = 1
    for a in range(ones + 1):
        for b in range(twos + 1):
            for c in range(threes + 1):
                cell = table[a][b][c]
                for ka, kb, kc in kinds:
                    if ka > a or kb > b or kc > c:
                        continue
                    before = table[a - ka][b - kb][c - kc]
                    size = ka + 2 * kb + 3 * kc
                    for parity in (0, 1):
                        if before[1 - parity] is not None:
                            value = before[1 - parity] * size
                            if cell[parity] is None or value > cell[parity]:
                                cell[parity] = value
    return table


def core_by_full_search(ones: int, twos: int, threes: int, parity: int | None):
    """The best core partition by trying every number of ``{1,2}`` and of ``{1,3}`` groups
    and every split of the other 1s, the first best (fewest ``{1,2}``, then fewest
    ``{1,3}``) winning: the scorer's earlier, slower search, whose choices (and so its
    formulas) the scorer keeps.  Returns (product, groups in ascending order) or None."""
    best_value, best = 0, None
    ones_parity = None if parity is None else (parity - twos - threes) % 2
    for with_two in range(min(ones, twos) + 1):
        for with_three in range(min(ones - with_two, threes) + 1):
            split = _ones_split_by_search(ones - with_two - with_three, ones_parity)
            if split is None:
                continue
            singles, pairs, triples = split
            value = 2 ** (twos - with_two + pairs) * 3 ** (threes - with_three + with_two + triples) * 4**with_three
            if value > best_value:
                best_value = value
                best = (
                    [(1, 2)] * with_two
                    + [(1, 3)] * with_three
                    + [(2,)] * (twos - with_two)
                    + [(3,)] * (threes - with_three)
                    + [(1,)] * singles
                    + [(1, 1)] * pairs
                    + [(1, 1, 1)] * triples
                )
    return None if best is None else (best_value, sorted(best))


@cache
def _ones_split_by_search(ones: int, parity: int | None):
    """(singles, pairs, triples) of 1s with the largest ``2**pairs * 3**triples``, at most
    two singles, the group count of the given parity (None = any)."""
    best, best_value = None, 0
    for triples in range(ones // 3 + 1):
        for singles in range(3):
            rest = ones - 3 * triples - singles
            if rest < 0 or rest % 2 or (parity is not None and (singles + rest // 2 + triples) % 2 != parity):
                continue
            if 2 ** (rest // 2) * 3**triples > best_value:
                best, best_value = (singles, rest // 2, triples), 2 ** (rest // 2) * 3**triples
    return best
