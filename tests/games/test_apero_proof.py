"""The argument behind the Apero scorer, checked step by step.

The scorer's docstring (scoring_api/games/apero.py) argues in three steps:
1-2. a colour's maximum is the best product of group sums (even group count for minus
     colours), with groups summing to at most 7 -> checked against the plain sub-multiset
     DP for every colour multiset of up to four sets;
3.   two non-core groups can always be regrouped with at most one non-core group left,
     the same group-count parity and no smaller product -> checked over all pairs;
and, as a last net, the scorer equals the group DP on EVERY colour multiset allowed at the
sets cap (10 sets: up to 60 cards of one colour).  The search's shortcuts (the unique best
split of the 1s, the search over joined 1s only, the bound that skips non-core groups) are
checked to make the same choices as a search without them, so formulas stay put.
"""

import itertools
import math
from collections import Counter
from functools import cache

import pytest

from scoring_api.games import apero
from scoring_api.schemas.apero import MAX_SETS
from tests.games.apero_reference import (
    _group_table,
    best_worst,
    core_by_full_search,
    group_partition_best,
)

GROUP_KINDS = tuple((a, b, c) for a in range(8) for b in range(4) for c in range(3) if 0 < a + 2 * b + 3 * c <= 7)


def as_counts(group):
    counts = Counter(group)
    return counts[1], counts[2], counts[3]


@pytest.mark.parametrize("negative", [False, True])
def test_steps_1_2_group_products_equal_the_plain_dp(negative):
    sign = -1 if negative else 1
    for ones, twos, threes in itertools.product(range(6), range(9), range(5)):
        values = [sign] * ones + [2 * sign] * twos + [3 * sign] * threes
        if values:
            assert group_partition_best(ones, twos, threes, negative) == best_worst(values)[0], values


def test_step_3_two_non_core_groups_regroup_into_at_most_one():
    core = {as_counts(g) for g in apero._CORE}
    non_core = [as_counts(g) for g in apero.NON_CORE_GROUPS]
    assert len(non_core) == 23 and not core & set(non_core)

    @cache
    def best(a, b, c, parity, non_core_left):
        if a == b == c == 0:
            return 1 if parity == 0 else None
        found = None
        for kind in GROUP_KINDS:
            if kind[0] > a or kind[1] > b or kind[2] > c:
                continue
            uses = kind not in core
            if uses and not non_core_left:
                continue
            rest = best(a - kind[0], b - kind[1], c - kind[2], 1 - parity, non_core_left - uses)
            if rest is not None:
                value = rest * (kind[0] + 2 * kind[1] + 3 * kind[2])
                found = value if found is None or value > found else found
        return found

    for g1, g2 in itertools.combinations_with_replacement(non_core, 2):
        union = tuple(x + y for x, y in zip(g1, g2, strict=True))
        product = (g1[0] + 2 * g1[1] + 3 * g1[2]) * (g2[0] + 2 * g2[1] + 3 * g2[2])
        regrouped = best(*union, 0, 1)
        assert regrouped is not None and regrouped >= product, (g1, g2)


@pytest.mark.parametrize("color", ["red", "purple"])
def test_scorer_equals_group_dp_on_every_multiset_at_the_sets_cap(color):
    per_set = {abs(v): n for v, n in apero.DECK[color].items()}
    negative = color == "purple"
    top = tuple(per_set[m] * MAX_SETS for m in (1, 2, 3))
    table = _group_table(*top, GROUP_KINDS)
    checked = 0
    for ones, twos, threes in itertools.product(*(range(n + 1) for n in top)):
        if ones + twos + threes < 2:
            continue
        value, groups = apero.best_groups(ones, twos, threes, negative)
        assert sorted(x for g in groups for x in g) == [1] * ones + [2] * twos + [3] * threes
        assert groups == sorted(groups)
        cell = table[ones][twos][threes]
        expected = cell[0] if negative else max(v for v in cell if v is not None)
        assert value == math.prod(sum(g) for g in groups) == expected, (ones, twos, threes)
        checked += 1
    assert checked == math.prod(n + 1 for n in top) - 4


# -- The search's shortcuts (same choices as a search without them) -------------------


@pytest.mark.parametrize("parity", [None, 0, 1])
def test_the_split_of_the_ones_is_the_unique_best_one(parity):
    for ones in range(61):
        splits = [
            (singles, pairs, triples)
            for triples in range(ones // 3 + 1)
            for pairs in range((ones - 3 * triples) // 2 + 1)
            for singles in [ones - 3 * triples - 2 * pairs]
            if parity is None or (singles + pairs + triples) % 2 == parity
        ]
        found = apero._ones_split(ones, parity)
        if not splits:  # no 1s make no group, one 1 one group
            assert (ones, parity) in {(0, 1), (1, 0)} and found is None
            continue
        best = max(2**pairs * 3**triples for _, pairs, triples in splits)
        assert [s for s in splits if 2 ** s[1] * 3 ** s[2] == best] == [found], (ones, parity)


def test_the_split_of_the_ones_by_example():
    assert apero._ones_split(0, None) == (0, 0, 0)
    assert apero._ones_split(1, 0) is None
    assert apero._ones_split(4, None) == (0, 2, 0)  # 2 × 2 beats 3 × 1
    assert apero._ones_split(7, None) == (0, 2, 1)  # 2 × 2 × 3
    assert apero._ones_split(7, 0) == (1, 3, 0)  # 1 × 2 × 2 × 2: an even count of groups
    assert apero._ones_split(20, 1) == (0, 1, 6)


@pytest.mark.parametrize("parity", [None, 0, 1])
def test_core_search_over_joined_ones_picks_what_the_full_search_picks(parity):
    for ones, twos, threes in itertools.product(range(13), range(13), range(9)):
        assert apero._core(ones, twos, threes, parity) == core_by_full_search(ones, twos, threes, parity), (
            ones,
            twos,
            threes,
        )


def test_the_bound_behind_skipping_non_core_groups():
    # a product of group sums with total S is at most 3**(S/3) (a <= 3**(a/3) for a >= 1)
    for a in range(1, 40):
        assert a**3 <= 3**a
    for ones, twos, threes in itertools.product(range(12), range(12), range(8)):
        total = ones + 2 * twos + 3 * threes
        for parity in (None, 0, 1):
            found = apero._core(ones, twos, threes, parity)
            assert found is None or found[0] ** 3 <= 3**total


@pytest.mark.parametrize("negative", [False, True])
def test_skipping_non_core_groups_changes_no_choice_at_the_sets_cap(negative):
    per_set = {abs(v): n for v, n in apero.DECK["purple" if negative else "red"].items()}
    top = (per_set[m] * MAX_SETS for m in (1, 2, 3))
    for ones, twos, threes in itertools.product(*(range(n + 1) for n in top)):
        assert apero.best_groups(ones, twos, threes, negative) == best_groups_trying_all(
            ones, twos, threes, negative
        ), (ones, twos, threes)


def best_groups_trying_all(ones, twos, threes, negative):
    """:func:`apero.best_groups` with every fitting non-core group tried (no bound)."""
    if ones + twos + threes == 0:
        return 0, []
    if not negative:
        return apero._core(ones, twos, threes, None)
    if ones + twos + threes == 1:
        group = (1,) * ones + (2,) * twos + (3,) * threes
        return group[0], [group]
    best_value, best = apero._core(ones, twos, threes, 0) or (0, [])
    for extra in apero.NON_CORE_GROUPS:
        need = as_counts(extra)
        if need[0] > ones or need[1] > twos or need[2] > threes:
            continue
        rest = apero._core(ones - need[0], twos - need[1], threes - need[2], 1)
        if rest is not None and rest[0] * sum(extra) > best_value:
            best_value, best = rest[0] * sum(extra), sorted(rest[1] + [extra])
    return best_value, best
