"""Apero scoring rules (docs/rules/apero.md): worked examples, the deck, winners, big hands."""

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring_api.games import apero
from scoring_api.games.rule_error import RuleError
from tests.expression import evaluate
from tests.games.apero_reference import all_values, best_worst, group_partition_best


def score(color, values):
    return apero.score_color(color, values)


# -- The rules' facts (docs/rules/apero.md, Worked examples) --------------------------


def test_official_example_scores_16():
    hand = apero.score_hand(
        "Aki",
        [("red", 1), ("green", 2), ("green", 3), ("purple", -1), ("purple", -2), ("purple", -3)],
    )
    assert [(c.color, c.score, c.expression) for c in hand.colors] == [
        ("red", 1, "1"),
        ("green", 6, "2 × 3"),
        ("purple", 9, "(-1 + -2) × -3"),
    ]
    assert hand.total == 16


@pytest.mark.parametrize(
    "color, values, expected",
    [
        ("purple", [-3], -3),
        ("black_green", [-1, -1], 1),
        ("red", [1, 1, 2, 2, 2, 3], 54),
        ("blue", [1, 2, 3, 1, 2, 3], 81),
        ("purple", [-3, -3, -2, -2, -2, -1], 108),
        ("orange", [1], 1),
        ("orange", [1, 1], 2),
        ("orange", [1, 3], 4),
        ("black_green", [-3, -1], 3),
        ("purple", [-1, -1, -1], 2),
        ("purple", [-3, -3, -3], 18),
        ("purple", [-3, -3, -1], 12),
    ],
)
def test_known_colour_scores(color, values, expected):
    result = score(color, values)
    assert result.score == expected
    value, used = evaluate(result.expression)
    assert value == expected
    assert Counter(used) == Counter(values)


@pytest.mark.parametrize(
    "color, values, expression",
    [
        ("purple", [-3], "-3"),
        ("purple", [-1, -1], "-1 × -1"),
        ("red", [1, 1, 2, 2, 2, 3], "(1 + 2) × (1 + 2) × 2 × 3"),
        ("red", [1, 2, 3, 1, 2, 3], "(1 + 2) × (1 + 2) × 3 × 3"),
        ("purple", [-3, -3, -2, -2, -2, -1], "(-1 + -2) × (-2 + -2) × -3 × -3"),
        ("purple", [-2, -2, -2], "-2 × (-2 + -2)"),
        ("purple", [-1, -2, -2, -3], "(-1 + -3) × (-2 + -2)"),
        ("red", [1, 2, 3], "(1 + 2) × 3"),
    ],
)
def test_the_formulas_the_rules_show(color, values, expression):
    assert score(color, values).expression == expression


def test_colour_spellings_players_use():
    assert list(apero.COLOR_ALIASES.items()) == [
        ("red", "red"),
        ("orange", "orange"),
        ("green", "green"),
        ("blue", "blue"),
        ("purple", "purple"),
        ("black_green", "black_green"),
        ("赤", "red"),
        ("橙", "orange"),
        ("緑", "green"),
        ("青", "blue"),
        ("紫", "purple"),
        ("黒緑", "black_green"),
        ("オレンジ", "orange"),
    ]


def test_colours_never_mix_and_empty_colours_are_left_out():
    hand = apero.score_hand("A", [("red", 3), ("orange", 3)])
    assert [(c.color, c.score) for c in hand.colors] == [("red", 3), ("orange", 3)]
    assert hand.total == 6  # 3 + 3, not 3 × 3


# -- Any hand size, any number of sets -----------------------------------------------


def full_deck(sets):
    return [(color, value) for color in apero.COLORS for value, n in apero.DECK[color].items() for _ in range(n * sets)]


@pytest.mark.parametrize("size", [6, 8, 9, 10, 12, 18, 24])
def test_hand_sizes_recommended_by_the_designer_are_exact(size):
    cards = full_deck(2)[::2][:size] if size <= 36 else full_deck(2)[:size]
    hand = apero.score_hand("A", cards)
    for colour in hand.colors:
        best, _ = best_worst(list(colour.cards))
        assert colour.score == best
    assert hand.total == sum(best_worst([v for c, v in cards if c == col])[0] for col in {c for c, _ in cards})


def test_a_whole_two_set_deck_in_one_hand():
    game = apero.score_game([("All", full_deck(2))], sets=2)
    scores = {c.color: c.score for c in game.players[0].colors}
    # 2 sets of a plus colour: 1,1,1,1,2×6,3,3 -> (1+2)^4 × 3^2 × 2^2 = 2916
    assert scores["red"] == best_worst([1] * 4 + [2] * 6 + [3] * 2)[0] == 2916
    assert scores["purple"] == best_worst([-1] * 2 + [-2] * 6 + [-3] * 4)[0] == 11664
    assert game.players[0].total == 4 * scores["red"] + 2 * scores["purple"] == 34992


@pytest.mark.parametrize("color, negative", [("blue", False), ("black_green", True)])
def test_ten_sets_of_one_colour_is_exact_and_checkable(color, negative):
    values = [v for v, n in apero.DECK[color].items() for _ in range(n * 10)]
    counts = Counter(abs(v) for v in values)
    result = score(color, values)
    assert len(values) == 60
    assert result.score == group_partition_best(counts[1], counts[2], counts[3], negative)
    value, used = evaluate(result.expression)
    assert value == result.score
    assert Counter(used) == Counter(values)


# -- A hand: its colours, each on its own ---------------------------------------------


@st.composite
def deck_hands(draw):
    """A hand drawn from 1-4 sets (so colours beyond one set too)."""
    sets = draw(st.integers(1, 4))
    pool = [card for card, copies in apero._COPIES_PER_SET.items() for _ in range(copies * sets)]
    picked = draw(st.lists(st.integers(0, len(pool) - 1), min_size=1, max_size=40, unique=True))
    return [pool[i] for i in picked]


@settings(max_examples=300, deadline=None)
@given(deck_hands())
def test_a_hand_scores_each_held_colour_on_its_own_in_deck_order(cards):
    hand = apero.score_hand("A", cards)
    assert [scored.color for scored in hand.colors] == [c for c in apero.COLORS if c in {c for c, _ in cards}]
    for scored in hand.colors:
        values = [v for c, v in cards if c == scored.color]
        assert list(scored.cards) == sorted(values, key=abs)
        counts = Counter(abs(v) for v in values)
        negative = apero.SIGNS[scored.color] < 0
        assert scored.score == group_partition_best(counts[1], counts[2], counts[3], negative)
        value, used = evaluate(scored.expression)
        assert value == scored.score and Counter(used) == Counter(values)
    assert hand.total == sum(scored.score for scored in hand.colors)


def test_every_colour_of_one_set_scores_as_the_group_dp_says():
    for color in apero.COLORS:
        one_set = sorted((v for v, n in apero.DECK[color].items() for _ in range(n)), key=abs)
        hands = {cards for size in range(7) for cards in itertools.combinations(one_set, size)}
        assert len(hands) == 4 * 3 * 2
        for cards in hands:
            scored = apero.score_color(color, list(cards))
            if len(cards) < 2:  # no card scores 0, one card its own value
                assert scored.score == sum(cards)
                continue
            counts = Counter(abs(v) for v in cards)
            negative = apero.SIGNS[color] < 0
            assert scored.score == group_partition_best(counts[1], counts[2], counts[3], negative)
    assert apero.score_color("red", [1, 1, 2, 2, 2, 3]) == ("red", (1, 1, 2, 2, 2, 3), 54, "(1 + 2) × (1 + 2) × 2 × 3")
    assert apero.score_color("purple", []) == ("purple", (), 0, "0")


# -- Deck legality --------------------------------------------------------------------


def test_too_many_copies_across_players_names_card_and_counts():
    players = [("A", [("red", 3)]), ("B", [("red", 3)])]
    with pytest.raises(apero.AperoError) as caught:
        apero.score_game(players, sets=1)
    assert caught.value.code == "too_many_copies"
    assert caught.value.at == (("player", 1), ("card", 0))
    assert caught.value.facts == {"color": "red", "value": 3, "count": 2, "limit": 1, "sets": 1}
    assert apero.score_game(players, sets=2).winners == ("A", "B")


def test_copies_up_to_the_deck_count_are_legal_and_the_next_one_is_named():
    # one set holds three red 2s: more than `sets` copies, still legal
    players = [("A", [("red", 2), ("red", 2)]), ("B", [("blue", 1), ("red", 2)])]
    assert apero.score_game(players, sets=1).winners == ("A",)
    players[1][1].extend([("purple", -1), ("red", 2), ("red", 2)])
    with pytest.raises(apero.AperoError) as caught:
        apero.score_game(players, sets=1)
    assert caught.value.at == (("player", 1), ("card", 3))
    assert caught.value.facts == {"color": "red", "value": 2, "count": 5, "limit": 3, "sets": 1}


@st.composite
def requests(draw):
    """Players holding cards drawn from a few sets, now and then a card the deck lacks."""
    sets = draw(st.integers(1, 4))
    cards = st.sampled_from([*sorted(apero._COPIES_PER_SET), ("red", -1), ("purple", 2)])
    hands = draw(st.lists(st.lists(cards, min_size=1, max_size=14), min_size=1, max_size=4))
    return [(f"P{i}", hand) for i, hand in enumerate(hands)], sets


@settings(max_examples=300, deadline=None)
@given(requests())
def test_a_request_is_legal_exactly_when_every_card_count_is_within_the_deck(request):
    players, sets = request
    held = Counter(card for _, hand in players for card in hand)
    legal = all(n <= apero.copies_in_deck(color, value, sets) for (color, value), n in held.items())
    try:
        apero.check_cards(players, sets)
    except apero.AperoError:
        assert not legal
    else:
        assert legal


def test_the_first_illegal_card_in_request_order_is_named():
    players = [("A", [("purple", -1), ("red", 3), ("purple", -1)]), ("B", [("red", -1)])]
    with pytest.raises(apero.AperoError) as caught:
        apero.score_game(players, sets=1)
    assert caught.value.code == "too_many_copies"
    assert caught.value.at == (("player", 0), ("card", 2))
    players[0][1].pop()
    with pytest.raises(apero.AperoError) as caught:
        apero.score_game(players, sets=1)
    assert caught.value.code == "no_such_card"
    assert caught.value.at == (("player", 1), ("card", 0))


def test_the_first_repeated_name_is_named():
    players = [(name, [("red", 1)]) for name in ("A", "B", "C", "B", "A")]
    with pytest.raises(RuleError) as caught:
        apero.score_game(players, sets=5)
    assert caught.value.code == "duplicate_name"
    assert caught.value.at == (("player", 3), "name")


def test_value_the_colour_does_not_have():
    with pytest.raises(apero.AperoError) as caught:
        apero.score_game([("A", [("purple", 2)])])
    assert caught.value.code == "no_such_card"
    assert caught.value.facts["values"] == [-3, -2, -1]


def test_winner_and_shared_win():
    game = apero.score_game([("A", [("red", 3)]), ("B", [("blue", 1), ("blue", 2)]), ("C", [("green", 2)])])
    assert [h.total for h in game.players] == [3, 3, 2]
    assert game.winners == ("A", "B")


# -- Against the references (property tests) -----------------------------------------

SIGNS = {"red": 1, "purple": -1}


@st.composite
def legal_colour(draw, max_cards):
    """A random legal multiset of one colour for 1-4 sets."""
    color = draw(st.sampled_from(["red", "purple"]))
    sets = draw(st.integers(1, 4))
    pool = [v for v, n in apero.DECK[color].items() for _ in range(n * sets)]
    size = draw(st.integers(1, min(max_cards, len(pool))))
    picked = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    return color, [pool[i] for i in picked]


@settings(max_examples=150, deadline=None)
@given(legal_colour(max_cards=8))
def test_matches_enumeration_of_every_expression(hand):
    color, values = hand
    result = score(color, values)
    assert result.score == max(all_values(values))
    value, used = evaluate(result.expression)
    assert value == result.score and Counter(used) == Counter(values)


@settings(max_examples=150, deadline=None)
@given(legal_colour(max_cards=24))
def test_matches_the_subset_dynamic_program(hand):
    color, values = hand
    result = score(color, values)
    assert result.score == best_worst(values)[0]
    value, used = evaluate(result.expression)
    assert value == result.score and Counter(used) == Counter(values)


@pytest.mark.parametrize("color", ["green", "black_green"])
def test_every_colour_of_up_to_three_sets_matches_the_dynamic_program(color):
    """Exhaustive: every multiset one colour can form with 3 sets (7 × 10 × 4 of them)."""
    per_set = apero.DECK[color]
    ranges = [range(n * 3 + 1) for n in per_set.values()]
    checked = 0
    for counts in __import__("itertools").product(*ranges):
        values = [v for v, n in zip(per_set, counts, strict=True) for _ in range(n)]
        if values:
            assert score(color, values).score == best_worst(values)[0], values
            checked += 1
    assert checked == 7 * 10 * 4 - 1
