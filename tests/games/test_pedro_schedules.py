"""Pedro's point schedules (docs/rules/pedro.md, "Points", "Rule options", Decisions 17 and
18): the 14-point rule of the guide and BGA's California Pedro, each card value, every
split, the bids and the dealer's forced bid."""

import itertools

import pytest

from scoring_api.games.pedro.auction import check_bid, run_auction
from scoring_api.games.pedro.cards import DECK, Card, parse_card, points_of
from scoring_api.games.pedro.hand import HandInput, read_points, settle_hand
from scoring_api.games.pedro.rules import Rules
from scoring_api.games.pedro.schedules import (
    CALIFORNIA_16,
    DEFAULT_SCHEDULE,
    GUIDE_14,
    LARGEST_HAND,
    SCHEDULES,
    schedule_allowing,
)
from scoring_api.games.pedro.scoring import POSSIBLE_SPLITS, check_points, hand_points, point_cards, settle
from scoring_api.games.pedro.tricks import play_trick
from scoring_api.games.rule_error import RuleError

CALIFORNIA = Rules(schedule="california_16")
GUIDE = Rules()


def cards(*texts):
    return [parse_card(text) for text in texts]


# -- The schedules --------------------------------------------------------------------------


def test_the_two_schedules_and_their_hands():
    assert list(SCHEDULES) == ["guide_14", "california_16"] and DEFAULT_SCHEDULE == "guide_14"
    assert (GUIDE_14.largest_hand, CALIFORNIA_16.largest_hand, LARGEST_HAND) == (14, 16, 16)
    assert (GUIDE_14.min_bid, GUIDE_14.max_bid, GUIDE_14.dealer_forced_bid) == (7, 14, 7)
    assert (CALIFORNIA_16.min_bid, CALIFORNIA_16.max_bid, CALIFORNIA_16.dealer_forced_bid) == (6, 16, 6)
    assert (GUIDE_14.dealer_may_bid_more, CALIFORNIA_16.dealer_may_bid_more) == (False, True)


@pytest.mark.parametrize(
    "schedule, jack, total",
    [("guide_14", 1, 14), ("california_16", 3, 16)],
)
def test_every_card_of_the_deck_under_each_schedule(schedule, jack, total):
    rules = Rules(schedule=schedule)
    worth = {str(card): points_of(card, "H", rules.point_schedule) for card in DECK}
    assert {text: points for text, points in worth.items() if points} == {
        "AH": 1,
        "JH": jack,
        "10H": 1,
        "5H": 5,
        "2H": 1,
        "5D": 5,
    }
    assert sum(worth.values()) == total


def test_california_lists_the_jack_after_the_fives():
    assert [(str(p.card), p.points, p.name) for p in point_cards("S", CALIFORNIA_16)] == [
        ("5C", 5, "low_pedro"),
        ("5S", 5, "pedro"),
        ("JS", 3, "jack"),
        ("AS", 1, "ace"),
        ("10S", 1, "ten"),
        ("2S", 1, "two"),
    ]


# -- Every split of the point cards --------------------------------------------------------


@pytest.mark.parametrize("name, count", [("guide_14", 90), ("california_16", 138)])
@pytest.mark.parametrize("rule", ["dealt", "captured", "played"])
def test_every_deal_of_the_point_cards_scores_a_possible_split(name, count, rule):
    """Each of the six point cards to NS, to EW or unplayed (3^6 = 729 deals, the 2 of
    trump scored as the rule says): the points always add up to the cards in play, and the
    pairs they make are exactly the schedule's possible splits."""
    rules = Rules(schedule=name, two_scored_by=rule)
    point = point_cards("D", rules.point_schedule)
    seen = set()
    for owners in itertools.product(("NS", "EW", None), repeat=len(point)):
        captured = {"NS": [], "EW": []}
        two_team = None
        for scored, owner in zip(point, owners, strict=True):
            if owner is None:
                continue
            if scored.name == "two" and rule != "captured":
                two_team = owner
            else:
                captured[owner].append(scored.card)
        result = hand_points("D", captured, rules, two_team)
        in_play = sum(scored.points for scored, owner in zip(point, owners, strict=True) if owner)
        assert sum(result.points.values()) == in_play
        pair = (result.points["NS"], result.points["EW"])
        check_points(result.points, rules.point_schedule)  # every real split is accepted
        seen.add(pair)
    assert seen == POSSIBLE_SPLITS[name] and len(seen) == count


def test_the_splits_only_one_schedule_allows():
    guide, california = POSSIBLE_SPLITS["guide_14"], POSSIBLE_SPLITS["california_16"]
    assert sorted(guide - california) == [(2, 2), (2, 7), (2, 12), (7, 2), (7, 7), (12, 2)]
    assert {(3, 3), (3, 8), (8, 8), (0, 16), (16, 0), (9, 1)} <= california - guide
    assert len(california - guide) == 54 and (4, 9) not in guide | california


@pytest.mark.parametrize(
    "ns, ew, rules, schedule, other, values",
    [
        (3, 3, GUIDE, "guide_14", "california_16", (1, 1, 1, 1, 5, 5)),
        (0, 16, GUIDE, "guide_14", "california_16", (1, 1, 1, 1, 5, 5)),
        (2, 2, CALIFORNIA, "california_16", "guide_14", (1, 1, 1, 3, 5, 5)),
        (7, 7, CALIFORNIA, "california_16", "guide_14", (1, 1, 1, 3, 5, 5)),
    ],
)
def test_a_split_of_the_other_schedule_is_refused_naming_both(ns, ew, rules, schedule, other, values):
    with pytest.raises(RuleError) as caught:
        read_points(HandInput("NS", 7, points={"NS": ns, "EW": ew}), rules)
    assert (caught.value.code, caught.value.at) == ("points_of_other_schedule", ("points",))
    assert caught.value.facts == {"NS": ns, "EW": ew, "schedule": schedule, "other": other, "values": values}


def test_under_california_the_limits_are_sixteen():
    with pytest.raises(RuleError) as caught:
        check_points({"NS": 10, "EW": 7}, CALIFORNIA_16)
    assert (caught.value.code, caught.value.facts) == ("too_many_points", {"total": 17, "limit": 16})
    with pytest.raises(RuleError) as caught:
        check_points({"NS": 4, "EW": 9}, CALIFORNIA_16)
    assert caught.value.code == "impossible_points"
    assert caught.value.facts == {
        "NS": 4,
        "EW": 9,
        "possible": (0, 1, 2, 5, 6, 7, 10, 11, 12),
        "values": (1, 1, 1, 3, 5, 5),
    }


def test_all_sixteen_points_from_captured_cards():
    everything = cards("AD", "JD", "10D", "5D", "5H", "2D")
    assert hand_points("D", {"NS": everything, "EW": []}, CALIFORNIA, "NS").points == {"NS": 16, "EW": 0}
    jack_and_ten = hand_points("H", {"NS": cards("JH"), "EW": cards("10H", "KH")}, CALIFORNIA, None)
    assert jack_and_ten.points == {"NS": 3, "EW": 1}
    assert [(str(p.card), p.points) for p in jack_and_ten.cards["NS"]] == [("JH", 3)]


def test_a_tricks_jack_is_worth_three_under_california():
    trick = play_trick("H", "N", cards("JH", "5D", "AH", "2H"))
    assert trick.point_cards("H") == cards("JH", "5D", "AH", "2H")
    assert (trick.points("H"), trick.points("H", CALIFORNIA_16)) == (8, 10)


# -- Bids -------------------------------------------------------------------------------------


def test_the_bids_default_to_the_schedules_and_explicit_ones_stay():
    assert (CALIFORNIA.min_bid, CALIFORNIA.max_bid, CALIFORNIA.dealer_forced_bid) == (6, 16, 6)
    assert (GUIDE.min_bid, GUIDE.max_bid, GUIDE.dealer_forced_bid) == (7, 14, 7)
    mixed = Rules(schedule="california_16", min_bid=7, dealer_forced_bid=7)
    assert (mixed.min_bid, mixed.max_bid, mixed.dealer_forced_bid) == (7, 16, 7)
    assert mixed.check() is mixed and Rules(max_bid=14, min_bid=14, dealer_forced_bid=14).check()


@pytest.mark.parametrize("option", ["min_bid", "max_bid", "dealer_forced_bid"])
@pytest.mark.parametrize("amount", [15, 16])
def test_a_bid_option_above_the_schedules_hand_is_refused_naming_it(option, amount):
    given = {"min_bid": 7, "max_bid": 14, "dealer_forced_bid": 7, option: amount}
    with pytest.raises(RuleError) as caught:
        Rules(**given).check()
    assert (caught.value.code, caught.value.at) == ("option_above_schedule", (("option", option),))
    assert caught.value.facts == {
        "option": option,
        "amount": amount,
        "limit": 14,
        "schedule": "guide_14",
        "other": "california_16",
    }
    Rules(schedule="california_16", min_bid=amount, max_bid=amount, dealer_forced_bid=amount).check()


def test_the_schedule_a_bid_points_to():
    assert schedule_allowing(15, GUIDE_14) == "california_16"
    assert schedule_allowing(16, GUIDE_14) == "california_16"
    assert schedule_allowing(17, GUIDE_14) == "california_16"  # the largest, when none holds it
    assert schedule_allowing(16, CALIFORNIA_16) == "california_16"
    assert schedule_allowing(12, CALIFORNIA_16) == "guide_14"


@pytest.mark.parametrize("amount", range(6, 17))
def test_california_bids_six_to_sixteen(amount):
    result = run_auction("N", [amount, "pass", "pass", "pass"], CALIFORNIA)
    assert (result.seat, result.amount, result.forced) == ("E", amount, False)
    check_bid(amount, CALIFORNIA)


@pytest.mark.parametrize("amount", range(6, 17))
def test_californias_dealer_bids_at_least_six_after_three_passes(amount):
    result = run_auction("W", ["pass", "pass", "pass", amount], CALIFORNIA)
    assert (result.seat, result.team, result.amount, result.forced) == ("W", "EW", amount, True)


@pytest.mark.parametrize(
    "calls, rules, code, facts",
    [
        (
            ["pass", "pass", "pass", "pass"],
            CALIFORNIA,
            "dealer_forced_at_least",
            {"seat": "W", "amount": 6, "max_bid": 16, "call": "pass"},
        ),
        (
            ["pass", "pass", "pass", 5],
            CALIFORNIA,
            "dealer_forced_at_least",
            {"seat": "W", "amount": 6, "max_bid": 16, "call": 5},
        ),
        (
            ["pass", "pass", "pass", 12],
            Rules(schedule="california_16", max_bid=10),
            "dealer_forced_at_least",
            {"seat": "W", "amount": 6, "max_bid": 10, "call": 12},
        ),
        (["pass", "pass", "pass", 8], GUIDE, "dealer_forced", {"seat": "W", "amount": 7, "call": 8}),
        ([5, "pass", "pass", "pass"], CALIFORNIA, "bid_out_of_range", None),
        (
            [16, "pass", "pass", "pass"],
            GUIDE,
            "bid_above_schedule",
            {"amount": 16, "limit": 14, "schedule": "guide_14", "other": "california_16"},
        ),
        (
            ["pass", "pass", "pass", 15],
            GUIDE,
            "bid_above_schedule",
            {"amount": 15, "limit": 14, "schedule": "guide_14", "other": "california_16"},
        ),
    ],
)
def test_the_dealers_forced_bid_by_schedule(calls, rules, code, facts):
    with pytest.raises(RuleError) as caught:
        run_auction("W", calls, rules)
    assert caught.value.code == code and caught.value.at[-1][0] == "call"
    if facts is not None:
        assert caught.value.facts == facts


@pytest.mark.parametrize("amount", [15, 16])
def test_a_hands_bid_above_the_guides_fourteen_names_the_schedule(amount):
    with pytest.raises(RuleError) as caught:
        check_bid(amount, GUIDE)
    assert (caught.value.code, caught.value.at) == ("bid_above_schedule", ("bid",))
    assert caught.value.facts["other"] == "california_16"


# -- Settlement ------------------------------------------------------------------------------


def test_a_bid_of_sixteen_made_and_set():
    made, _ = settle_hand(HandInput("NS", 16, points={"NS": 16, "EW": 0}), {"NS": 40, "EW": 52}, CALIFORNIA)
    assert (made.bid_made, made.deltas, made.scores_after) == (True, {"NS": 16, "EW": 0}, {"NS": 56, "EW": 52})
    set_, _ = settle_hand(HandInput("EW", 16, points={"NS": 1, "EW": 15}), {"NS": 40, "EW": 52}, CALIFORNIA)
    assert (set_.bid_made, set_.deltas, set_.scores_after) == (False, {"NS": 1, "EW": -16}, {"NS": 41, "EW": 36})


def test_sixteen_points_reach_the_target_from_eighty_four():
    result = settle("EW", 16, {"NS": 70, "EW": 84}, {"NS": 0, "EW": 16}, CALIFORNIA)
    assert (result.scores_after, result.winner, result.decided_by) == ({"NS": 70, "EW": 100}, "EW", "target")


def test_a_jack_worth_three_settles_a_hand_from_captured_cards():
    hand = HandInput(
        "NS",
        8,
        trump="S",
        captured={"NS": ["JS", "5S", "AS"], "EW": ["5C", "10S", "KD"]},
        two_dealt_to="NS",
    )
    result, point_cards_by_team = settle_hand(hand, {"NS": 0, "EW": 0}, CALIFORNIA)
    assert result.points == {"NS": 10, "EW": 6} and result.bid_made
    assert [(str(p.card), p.points, p.reason) for p in point_cards_by_team["NS"]] == [
        ("5S", 5, "captured"),
        ("JS", 3, "captured"),
        ("AS", 1, "captured"),
        ("2S", 1, "dealt"),
    ]
    assert [p.card for p in point_cards_by_team["EW"]] == [Card("5", "C"), Card("10", "S")]
