"""Which card to take: every option's gains against the scorer itself, on random tables."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring_api.games import apero
from scoring_api.games.apero_pick import pick
from scoring_api.games.rule_error import RuleError

AKI = ("Aki", [("purple", -1), ("purple", -2), ("red", 1)])
BEN = ("Ben", [("green", 2), ("purple", -3)])


def test_a_hand_checked_table():
    table = [("purple", -3), ("green", 3), ("red", 2), ("green", 1), ("green", 1)]
    options = pick([AKI, BEN], "Aki", table, sets=1)
    assert [(o.card, o.gain, o.gains) for o in options] == [
        (("purple", -3), 7, (("Ben", 12),)),  # (-1 + -2) × -3 = 9 after 2; Ben's lone -3 becomes 9
        (("green", 3), 3, (("Ben", 4),)),
        (("red", 2), 2, (("Ben", 2),)),
        (("green", 1), 1, (("Ben", 1),)),  # two on the table, one option
    ]
    assert options[0].color == ("purple", (-1, -2, -3), 9, "(-1 + -2) × -3")


def test_a_lone_minus_card_is_a_loss_and_ties_go_to_what_it_denies():
    options = pick(
        [("Aki", []), ("Ben", [("purple", -2)]), ("Cho", [])], "Aki", [("purple", -3), ("red", 1), ("blue", 1)], 1
    )
    assert [(o.card, o.gain, o.denied) for o in options] == [
        (("red", 1), 1, 1),
        (("blue", 1), 1, 1),  # the same gain and the same denial: deck order
        (("purple", -3), -3, 8),  # Ben's lone -2 (-2) becomes -2 × -3 = 6
    ]


def test_asking_for_a_player_who_is_not_there_is_refused():
    with pytest.raises(RuleError) as refused:
        pick([AKI, BEN], "Cho", [("red", 1)], 1)
    assert (refused.value.code, refused.value.at, refused.value.facts) == (
        "unknown_me",
        ("me",),
        {"me": "Cho", "names": ["Aki", "Ben"]},
    )


@pytest.mark.parametrize(
    "table, code, at, count",
    [
        ([("red", 1), ("purple", -3), ("purple", -3)], "too_many_copies", (("table_card", 2),), 3),  # Ben holds one
        ([("red", -1)], "no_such_card", (("table_card", 0),), None),
    ],
)
def test_table_cards_are_checked_against_the_deck_with_the_hands(table, code, at, count):
    with pytest.raises(RuleError) as refused:
        pick([AKI, BEN], "Aki", table, 1)
    assert (refused.value.code, refused.value.at, refused.value.facts.get("count")) == (code, at, count)


def test_a_hand_card_past_the_deck_is_named_in_its_hand_before_the_table():
    with pytest.raises(RuleError) as refused:
        pick([AKI, ("Ben", [("purple", -1)])], "Aki", [("purple", -1)], 1)
    assert (refused.value.code, refused.value.at, refused.value.facts) == (
        "too_many_copies",
        (("player", 1), ("card", 0)),
        {"color": "purple", "value": -1, "count": 3, "limit": 1, "sets": 1},
    )


def test_names_are_unique_here_too():
    with pytest.raises(RuleError) as refused:
        pick([AKI, ("Aki", [])], "Aki", [("red", 1)], 1)
    assert refused.value.at == (("player", 1), "name")


DECK_OF_TWO = [(c, v) for c in apero.COLORS for v, n in apero.DECK[c].items() for _ in range(2 * n)]


@st.composite
def tables(draw):
    cards = draw(st.permutations(DECK_OF_TWO))
    sizes = draw(st.lists(st.integers(0, 7), min_size=1, max_size=4))
    players, start = [], 0
    for index, size in enumerate(sizes):
        players.append((f"P{index}", cards[start : start + size]))
        start += size
    table = cards[start : start + draw(st.integers(1, 8))]
    me = draw(st.sampled_from([name for name, _ in players]))
    return players, me, table


@settings(max_examples=150, deadline=None)
@given(tables())
def test_every_gain_is_the_scorer_difference_and_the_ranking_holds(state):
    players, me, table = state
    options = pick(players, me, table, sets=2)
    assert [o.card for o in options] == sorted(set(table), key=[o.card for o in options].index)
    assert {o.card for o in options} == set(table)
    hands = dict(players)
    for option in options:
        for name, cards in players:
            before = apero.score_hand(name, cards).total
            after = apero.score_hand(name, [*cards, option.card]).total
            gain = option.gain if name == me else dict(option.gains)[name]
            assert gain == after - before, (name, option.card)
        assert [name for name, _ in option.gains] == [name for name, _ in players if name != me]
        assert option.color == apero.score_color(
            option.card[0], [v for c, v in hands[me] if c == option.card[0]] + [option.card[1]]
        )
    keys = [(-o.gain, -o.denied) for o in options]
    assert keys == sorted(keys)
