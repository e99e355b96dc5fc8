"""The argument behind the fast Apero scorer, checked step by step.

The scorer's docstring (scoring_api/games/apero.py) argues in three steps:
1-2. a colour's maximum is the best product of group sums (even group count for minus
     colours), with groups summing to at most 7 -> checked against the plain sub-multiset
     DP for every colour multiset of up to four sets;
3.   two non-core groups can always be regrouped with at most one non-core group left,
     the same group-count parity and no smaller product -> checked over all pairs;
and, as a last net, the scorer equals the group DP on EVERY colour multiset allowed at the
sets cap (10 sets: up to 60 cards of one colour).
"""

import itertools
import math
from collections import Counter
from functools import lru_cache

import pytest

from scoring_api.games import apero
from scoring_api.schemas.apero import MAX_SETS
from tests.games.apero_reference import _group_table, best_worst, group_partition_best

GROUP_KINDS = tuple(
    (a, b, c) for a in range(8) for b in range(4) for c in range(3) if 0 < a + 2 * b + 3 * c <= 7
)


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

    @lru_cache(maxsize=None)
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
        union = tuple(x + y for x, y in zip(g1, g2))
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
        groups = apero.best_groups(Counter({1: ones, 2: twos, 3: threes}), negative)
        assert sorted(x for g in groups for x in g) == [1] * ones + [2] * twos + [3] * threes
        cell = table[ones][twos][threes]
        expected = cell[0] if negative else max(v for v in cell if v is not None)
        assert math.prod(sum(g) for g in groups) == expected, (ones, twos, threes)
        checked += 1
    assert checked == math.prod(n + 1 for n in top) - 4
