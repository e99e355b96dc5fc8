"""Pedro rules (docs/rules/pedro.md): cards, auction, tricks, points, settlement, whole games."""

import dataclasses
import itertools
import re

import pytest

from scoring_api.games.pedro.auction import check_bid, run_auction
from scoring_api.games.pedro.cards import (
    CARD_PATTERN,
    DECK,
    SUIT_PATTERN,
    SUIT_SPELLINGS,
    Card,
    is_trump,
    low_pedro,
    parse_card,
    parse_cards,
    points_of,
    seats_from,
    strength,
    suit_in_play,
    two_of_trump,
)
from scoring_api.games.pedro.game import OUTCOMES, game_outcome, hand_outcome, play_game, score_game
from scoring_api.games.pedro.hand import HandInput, check_two_fields, read_points, settle_hand
from scoring_api.games.pedro.rules import Rules
from scoring_api.games.pedro.schedules import CALIFORNIA_16, GUIDE_14, LARGEST_HAND, SCHEDULES
from scoring_api.games.pedro.scoring import (
    POINT_VALUES,
    POSSIBLE_SPLITS,
    check_game_running,
    check_points,
    hand_points,
    point_cards,
    possible_splits,
    settle,
)
from scoring_api.games.pedro.tricks import may_play, play_trick
from scoring_api.games.rule_error import RuleError

DEFAULT = Rules()


def cards(*texts):
    return [parse_card(text) for text in texts]


# -- Cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, card",
    [
        ("10H", Card("10", "H")),
        ("5♦", Card("5", "D")),
        ("AS", Card("A", "S")),
        ("as", Card("A", "S")),
        ("qc", Card("Q", "C")),
        ("2♠", Card("2", "S")),
        ("10h", Card("10", "H")),
        ("j♧", Card("J", "C")),
    ],
)
def test_cards_are_read_in_every_spelling(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize(
    "text",
    [
        "1H",
        "11S",
        "10",
        "H",
        "XS",
        "AH1",
        "",
        "5★",
        " AH",
        "AH ",
        "AH\n",
        "\nAH",
        " 10h ",
        "A H",
        "10 H",
        "AH\r",
        "\tAH",
        "ＡH",
        "A♥\ufe0f",
        "１０H",
        "1O",
        "T♠",
        "01H",
        "AHH",
        "HA",
        "♥A",
        "AH\x00",
    ],
)
def test_anything_else_is_refused_naming_the_card(text):
    with pytest.raises(RuleError) as caught:
        parse_card(text, (("play", 2),))
    assert caught.value.code == "bad_card"
    assert caught.value.facts == {"card": text} and caught.value.at == (("play", 2),)


def test_a_card_is_read_from_exactly_what_the_pattern_matches():
    pattern = re.compile(CARD_PATTERN)
    alphabet = [
        "1",
        "0",
        "10",
        "2",
        "5",
        "9",
        "A",
        "k",
        "q",
        "J",
        "X",
        "H",
        "d",
        "c",
        "S",
        "♥",
        "♢",
        "♣",
        "♤",
        "★",
        " ",
        "\n",
    ]
    for size in (1, 2, 3):
        for parts in itertools.product(alphabet, repeat=size):
            text = "".join(parts)
            match = pattern.fullmatch(text)
            try:
                card = parse_card(text)
            except RuleError:
                card = None
            expected = (
                Card(
                    match.group(1).upper(),
                    {"♥": "H", "♢": "D", "♣": "C", "♤": "S"}.get(match.group(2), match.group(2).upper()),
                )
                if match
                else None
            )
            assert card == expected, text


def test_exactly_the_documented_spellings_are_cards():
    """README: ranks A K Q J (either case) 10 9 8 7 6 5 4 3 2, then a suit letter H D C S
    (either case) or a symbol ♥♡ ♦♢ ♣♧ ♠♤; nothing else, no spaces."""
    ranks = {"A": "Aa", "K": "Kk", "Q": "Qq", "J": "Jj", **{str(n): [str(n)] for n in range(2, 11)}}
    suits = {"H": "Hh♥♡", "D": "Dd♦♢", "C": "Cc♣♧", "S": "Ss♠♤"}
    spellings = {
        rank_text + suit_text: Card(rank, suit)
        for rank, rank_texts in ranks.items()
        for rank_text in rank_texts
        for suit, suit_texts in suits.items()
        for suit_text in suit_texts
    }
    assert len(spellings) == 4 * 2 * 4 * 4 + 9 * 1 * 4 * 4 == 272
    assert {text: parse_card(text) for text in spellings} == spellings
    assert all(re.fullmatch(CARD_PATTERN, text) for text in spellings)
    near_misses = {
        wrap.format(text)
        for text in spellings
        for wrap in (" {}", "{} ", "{}\n", "\n{}", "{}\r\n", "\t{}", "{}\u200b", "{}\ufe0f", "{0}{0}")
    }
    for text in near_misses:
        assert re.fullmatch(CARD_PATTERN, text) is None, text
        with pytest.raises(RuleError):
            parse_card(text)
        with pytest.raises(RuleError):
            parse_cards(["AS", text])
    assert re.match(CARD_PATTERN, "AH\n") is not None  # why the whole text must match: $ passes a final newline


def test_suits_are_spelled_as_the_pattern_says():
    assert SUIT_SPELLINGS == ("H", "D", "C", "S", "h", "d", "c", "s", "♥", "♡", "♦", "♢", "♣", "♧", "♠", "♤")
    candidates = [chr(code) for code in range(0x10000)] + [a + b for a in "HdS♥ \n" for b in "HdS♥ \n\ufe0f"]
    assert [text for text in candidates if re.fullmatch(SUIT_PATTERN, text)] == sorted(SUIT_SPELLINGS)


def test_a_list_of_cards_is_refused_at_its_first_bad_card():
    assert parse_cards(["10h", "5♦", "AS"]) == [Card("10", "H"), Card("5", "D"), Card("A", "S")]
    for texts, index in (
        (["AS", "1H", "ZZ"], 1),
        (["AS", "KS", 5], 2),
        (["AS", " 5♦ ", "AH"], 1),
        (["AS", "KS", "AH\n"], 2),
    ):
        with pytest.raises(RuleError) as caught:
            parse_cards(texts, (("captured", "NS"),))
        assert (caught.value.code, caught.value.at) == ("bad_card", (("captured", "NS"), ("card", index)))
        assert caught.value.facts == {"card": texts[index]}


def test_every_card_in_play_under_hearts():
    trumps = [card for card in DECK if is_trump(card, "H")]
    assert len(trumps) == 14 and Card("5", "D") in trumps  # 13 hearts and the Low Pedro
    assert suit_in_play(Card("5", "D"), "H") == "H" and suit_in_play(Card("5", "C"), "H") == "C"
    assert {str(card): points_of(card, "H") for card in DECK if points_of(card, "H")} == {
        "AH": 1,
        "JH": 1,
        "10H": 1,
        "5H": 5,
        "2H": 1,
        "5D": 5,
    }
    assert two_of_trump("C") == Card("2", "C")
    assert seats_from("E") == ("E", "S", "W", "N")


def test_the_point_cards_of_a_trump_in_list_order():
    assert [(str(p.card), p.points, p.name, p.reason) for p in point_cards("S")] == [
        ("5C", 5, "low_pedro", "captured"),
        ("5S", 5, "pedro", "captured"),
        ("AS", 1, "ace", "captured"),
        ("JS", 1, "jack", "captured"),
        ("10S", 1, "ten", "captured"),
        ("2S", 1, "two", "captured"),
    ]


@pytest.mark.parametrize("trump, low", [("H", "5D"), ("D", "5H"), ("S", "5C"), ("C", "5S")])
def test_low_pedro_is_the_other_five_of_the_same_colour(trump, low):
    assert low_pedro(trump) == parse_card(low)
    assert is_trump(parse_card(low), trump)


def test_trump_order_puts_low_pedro_between_pedro_and_four():
    order = cards("AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "5D", "4H", "3H", "2H")
    strengths = [strength(card, "H") for card in order]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == 14
    assert not is_trump(parse_card("5C"), "H")  # the 5 of the other colour is a plain card


# -- Auction -------------------------------------------------------------------------------


def test_auction_high_bidder_from_the_dealers_left():
    result = run_auction("W", [7, "pass", 9, "pass"], DEFAULT)
    assert [c.seat for c in result.calls] == ["N", "E", "S", "W"]
    assert (result.seat, result.team, result.amount, result.forced) == ("S", "NS", 9, False)


def test_dealer_is_forced_after_three_passes():
    result = run_auction("N", ["pass", "pass", "pass", 7], DEFAULT)
    assert (result.seat, result.team, result.amount, result.forced) == ("N", "NS", 7, True)
    six = Rules(min_bid=6, dealer_forced_bid=6)
    assert run_auction("E", ["pass", "pass", "pass", 6], six).amount == 6


@pytest.mark.parametrize(
    "calls, code, index",
    [
        (["pass", "pass", "pass", "pass"], "dealer_forced", 3),
        (["pass", "pass", "pass", 8], "dealer_forced", 3),
        ([8, 8, "pass", "pass"], "bid_too_low", 1),
        ([9, "pass", 7, "pass"], "bid_too_low", 2),
        ([6, "pass", "pass", "pass"], "bid_out_of_range", 0),
        ([7, 15, "pass", "pass"], "bid_above_schedule", 1),
        ([14, "pass", "pass", 14], "bid_too_low", 3),
    ],
)
def test_illegal_calls_say_why(calls, code, index):
    with pytest.raises(RuleError) as caught:
        run_auction("S", calls, DEFAULT)
    assert caught.value.code == code and caught.value.at == (("call", index),)


@pytest.mark.parametrize("calls", [[7, "pass", "pass"], [7, "pass", "pass", "pass", "pass"]])
def test_too_few_or_too_many_calls(calls):
    with pytest.raises(RuleError) as caught:
        run_auction("S", calls, DEFAULT)
    assert caught.value.code == "call_count"


def test_a_hands_bid_lies_between_the_minimum_and_the_maximum():
    for amount in (7, 10, 14):
        check_bid(amount, DEFAULT)
    check_bid(6, Rules(min_bid=6, dealer_forced_bid=6))
    with pytest.raises(RuleError) as caught:
        check_bid(6, DEFAULT)
    assert (caught.value.code, caught.value.at) == ("bid_outside_rules", ("bid",))
    assert caught.value.facts == {"amount": 6, "min_bid": 7, "max_bid": 14, "forced": 7}
    with pytest.raises(RuleError) as caught:
        check_bid(13, Rules(max_bid=12))
    assert caught.value.facts == {"amount": 13, "min_bid": 7, "max_bid": 12, "forced": 7}


# -- Tricks --------------------------------------------------------------------------------


def test_highest_trump_wins_and_low_pedro_is_a_trump():
    result = play_trick("H", "N", cards("AS", "5D", "KS", "3S"))
    assert (result.winner, result.team, result.led_suit, result.trumped) == ("E", "EW", "S", True)
    assert result.point_cards("H") == [Card("5", "D")] and result.points("H") == 5


def test_a_tricks_points_are_its_point_cards_points():
    """docs/rules/pedro.md, "Worked examples": N 5H, E 5D, S AH, W 2H holds 5 + 5 + 1 + 1."""
    result = play_trick("H", "N", cards("5H", "5D", "AH", "2H"))
    assert (result.winner, result.points("H"), len(result.point_cards("H"))) == ("S", 12, 4)
    assert play_trick("H", "S", cards("9C", "AD", "KC", "QC")).points("H") == 0


def test_the_trick_names_the_winning_card_and_whether_trump_was_played():
    trumped = play_trick("S", "E", cards("5C", "4S", "AC", "3S"))
    assert (trumped.card, trumped.trumped) == (Card("5", "C"), True)
    plain = play_trick("H", "S", cards("9C", "AD", "KC", "QC"))
    assert (plain.card, plain.trumped) == (Card("K", "C"), False)


def test_low_pedro_beats_the_four_but_not_the_pedro():
    assert play_trick("H", "N", cards("4H", "5D", "2H", "3H")).winner == "E"
    assert play_trick("H", "N", cards("4H", "5D", "5H", "3H")).winner == "S"


def test_without_trump_the_highest_of_the_led_suit_wins():
    result = play_trick("H", "S", cards("9C", "AD", "KC", "QC"))
    assert (result.winner, result.trumped) == ("N", False)  # S, W, N, E: KC is N's


def test_low_pedro_led_means_trump_was_led():
    result = play_trick("S", "E", cards("5C", "4S", "AC", "3S"))
    assert (result.led_suit, result.winner) == ("S", "E")


def test_follow_rule_with_hands():
    hands = {"N": cards("9C", "AH"), "E": cards("2C", "KD"), "S": cards("5D", "QS"), "W": cards("7S", "8D")}
    # hearts trump, clubs led: E holds a club and must follow or trump; KD is neither
    with pytest.raises(RuleError) as caught:
        play_trick("H", "N", cards("9C", "KD", "QS", "7S"), hands)
    assert (caught.value.code, caught.value.at) == ("must_follow", (("play", 1),))
    # S holds no club: anything goes; 5D is the Low Pedro (a trump) and wins
    result = play_trick("H", "N", cards("9C", "2C", "5D", "7S"), hands)
    assert result.winner == "S"


def test_trump_led_must_be_followed_with_trump_and_low_pedro_counts():
    hands = {"N": cards("AH"), "E": cards("5D", "KC")}
    with pytest.raises(RuleError) as caught:
        play_trick("H", "N", cards("AH", "KC", "2S", "3S"), hands)
    assert caught.value.code == "must_follow"
    # diamonds led, hearts trump: E's only diamond is the Low Pedro, a trump, so E holds
    # no diamond; but it holds a trump, so it must play it: the club is refused
    hands = {"N": cards("KD"), "E": cards("5D", "KC")}
    with pytest.raises(RuleError) as caught:
        play_trick("H", "N", cards("KD", "KC", "2S", "3S"), hands)
    assert (caught.value.code, caught.value.at) == ("must_follow", (("play", 1),))
    assert caught.value.facts["allowed"] == "5D"
    result = play_trick("H", "N", cards("KD", "5D", "2S", "3S"), hands)
    assert (result.winner, result.trumped) == ("E", True)


def test_void_in_the_led_suit_with_a_trump_must_trump():
    """docs/rules/pedro.md, "Tricks": a plain suit led, play that suit or a trump; only a player
    holding neither plays anything."""
    # trump H, N leads KD; E holds no diamond but AH: the 3C discard is refused
    hands = {"N": cards("KD"), "E": cards("AH", "3C"), "S": cards("2D"), "W": cards("4D")}
    with pytest.raises(RuleError) as caught:
        play_trick("H", "N", cards("KD", "3C", "2D", "4D"), hands)
    assert (caught.value.code, caught.value.at) == ("must_follow", (("play", 1),))
    assert caught.value.facts == {"seat": "E", "card": "3C", "led": "KD", "trump": "H", "allowed": "AH"}
    assert play_trick("H", "N", cards("KD", "AH", "2D", "4D"), hands).winner == "E"
    # E's only trump is the Low Pedro (5D under hearts), spades led: the club is refused
    hands = {"N": cards("KS"), "E": cards("5D", "3C", "QC")}
    with pytest.raises(RuleError) as caught:
        play_trick("H", "N", cards("KS", "3C", "2S", "4S"), hands)
    assert (caught.value.code, caught.value.facts["allowed"]) == ("must_follow", "5D")
    # holding neither a spade nor a trump: anything goes
    hands = {"N": cards("KS"), "E": cards("3C", "KD")}
    assert play_trick("H", "N", cards("KS", "KD", "2S", "4S"), hands).winner == "N"
    # holding a spade: a trump is allowed instead of following, a club is not
    hands = {"N": cards("KS"), "E": cards("9S", "AH", "3C")}
    assert [may_play(card, hands["E"], Card("K", "S"), "H") for card in hands["E"]] == [True, True, False]
    # trump led: follow with trump if you can (the Low Pedro counts); else anything
    assert [may_play(card, cards("5D", "KC"), Card("A", "H"), "H") for card in cards("5D", "KC")] == [True, False]
    assert may_play(Card("K", "C"), cards("KC", "9S"), Card("A", "H"), "H")


def test_cards_not_in_hand_and_duplicates():
    with pytest.raises(RuleError) as caught:
        play_trick("H", "N", cards("9C", "2C", "9C", "7S"))
    assert (caught.value.code, caught.value.at) == ("duplicate_card", (("play", 2),))
    with pytest.raises(RuleError) as caught:
        play_trick("H", "N", cards("9C", "2C", "5D", "7S"), {"E": cards("3C")})
    assert (caught.value.code, caught.value.at, caught.value.facts["seat"]) == ("card_not_in_hand", (("play", 1),), "E")
    with pytest.raises(RuleError) as caught:
        play_trick("H", "N", cards("9C", "2C", "5D", "7S"), {"N": cards("9C", "3C"), "E": cards("2C", "3C")})
    assert (caught.value.code, caught.value.at, caught.value.facts) == (
        "card_in_two_hands",
        (("seat", "E"), ("card", 1)),
        {"card": "3C", "seat": "N"},
    )


# -- Hand points ---------------------------------------------------------------------------


def test_points_by_capture_and_the_two_by_deal():
    captured = {"NS": cards("AS", "JS", "3C", "2S"), "EW": cards("5S", "5C", "10S")}
    result = hand_points("S", captured, DEFAULT, two_team="EW")
    assert result.points == {"NS": 2, "EW": 12}
    assert [(str(p.card), p.name, p.reason) for p in result.cards["EW"]] == [
        ("5C", "low_pedro", "captured"),
        ("5S", "pedro", "captured"),
        ("10S", "ten", "captured"),
        ("2S", "two", "dealt"),
    ]


@pytest.mark.parametrize(
    "rule, two_team, expected",
    [("dealt", "EW", {"NS": 1, "EW": 1}), ("captured", None, {"NS": 2, "EW": 0}), ("played", "EW", {"NS": 1, "EW": 1})],
)
def test_the_two_goes_where_the_option_says(rule, two_team, expected):
    captured = {"NS": cards("2H", "AH"), "EW": []}
    assert hand_points("H", captured, Rules(two_scored_by=rule), two_team).points == expected


def test_all_fourteen_points_and_cards_not_in_play():
    everything = cards("AD", "JD", "10D", "5D", "5H", "2D")
    assert hand_points("D", {"NS": everything, "EW": []}, DEFAULT, "NS").points == {"NS": 14, "EW": 0}
    assert hand_points("D", {"NS": cards("AD"), "EW": cards("JD")}, DEFAULT, None).points == {"NS": 1, "EW": 1}


def test_a_card_captured_twice_or_by_both_teams_is_refused():
    with pytest.raises(RuleError) as caught:
        hand_points("H", {"NS": cards("AH"), "EW": cards("AH")}, DEFAULT, None)
    assert (caught.value.code, caught.value.at) == ("captured_twice", (("captured", "EW"), ("card", 0)))
    with pytest.raises(RuleError) as caught:
        hand_points("H", {"NS": cards("AH", "KH", "AH"), "EW": []}, DEFAULT, None)
    assert (caught.value.at, caught.value.facts) == ((("captured", "NS"), ("card", 2)), {"card": "AH", "team": "NS"})


def test_more_cards_than_six_tricks_hold_are_refused_after_duplicates():
    deck = [Card(rank, suit) for suit in "HDCS" for rank in ("A", "K", "Q", "J", "10", "9", "8")]
    with pytest.raises(RuleError) as caught:
        hand_points("H", {"NS": deck[:13], "EW": deck[13:25]}, DEFAULT, "NS")
    assert (caught.value.code, caught.value.facts) == ("too_many_captured", {"count": 25, "limit": 24})
    with pytest.raises(RuleError) as caught:
        hand_points("H", {"NS": deck[:13], "EW": deck[12:25]}, DEFAULT, "NS")
    assert (caught.value.code, caught.value.at) == ("captured_twice", (("captured", "EW"), ("card", 0)))


def test_point_cards_are_listed_most_points_first_then_by_name():
    captured = {"NS": cards("2C", "JC", "10C", "AC", "5S", "5C", "KC"), "EW": []}
    result = hand_points("C", captured, Rules(two_scored_by="captured"))
    assert [p.name for p in result.cards["NS"]] == ["low_pedro", "pedro", "ace", "jack", "ten", "two"]
    assert result.points == {"NS": 14, "EW": 0}
    played = hand_points("C", captured, Rules(two_scored_by="played"), "EW")
    assert [(p.name, p.reason) for p in played.cards["EW"]] == [("two", "played")]
    assert played.points == {"NS": 13, "EW": 1}


def test_two_in_play_needs_its_owner_under_dealt():
    with pytest.raises(RuleError) as caught:
        hand_points("H", {"NS": cards("2H"), "EW": []}, DEFAULT, None)
    assert caught.value.code == "two_owner_missing"


# -- Points given directly ------------------------------------------------------------------


def _splits_by_brute_force(values):
    """Each of the six point cards (A, J, 10, 2: 1 point, the jack 3 under california_16;
    Pedro, Low Pedro: 5) goes to NS, to EW or to nobody: every (NS, EW) pair some deal of
    them gives."""
    pairs = set()
    for owners in itertools.product(("NS", "EW", None), repeat=len(values)):
        pairs.add(
            (
                sum(v for v, owner in zip(values, owners, strict=True) if owner == "NS"),
                sum(v for v, owner in zip(values, owners, strict=True) if owner == "EW"),
            )
        )
    return pairs


@pytest.mark.parametrize(
    "schedule, values, count",
    [(GUIDE_14, [1, 1, 1, 1, 5, 5], 90), (CALIFORNIA_16, [1, 1, 1, 3, 5, 5], 138)],
    ids=["guide_14", "california_16"],
)
def test_given_points_must_be_a_possible_split_of_the_point_cards(schedule, values, count):
    possible = _splits_by_brute_force(values)
    other = _splits_by_brute_force([1, 1, 1, 3, 5, 5] if schedule == GUIDE_14 else [1, 1, 1, 1, 5, 5])
    assert len(possible) == count and POINT_VALUES[schedule.name] == tuple(values)
    assert possible == POSSIBLE_SPLITS[schedule.name]
    for ns, ew in itertools.product(range(LARGEST_HAND + 1), repeat=2):  # every pair the schema lets through
        try:
            check_points({"NS": ns, "EW": ew}, schedule)
            code = None
        except RuleError as error:
            code = error.code
            assert error.at == ("points",)
        if (ns, ew) in possible:
            assert code is None, (ns, ew)
        elif (ns, ew) in other:
            assert code == "points_of_other_schedule", (ns, ew)
        elif ns + ew > schedule.largest_hand:
            assert code == "too_many_points", (ns, ew)
        else:
            assert code == "impossible_points", (ns, ew)


@pytest.mark.parametrize(
    "ns, ew, possible",
    [
        (4, 9, (0, 5, 10)),
        (0, 0, None),
        (10, 4, None),
        (4, 10, None),
        (7, 7, None),
        (13, 1, None),
        (2, 12, None),
        (8, 4, (0, 1, 5, 6)),
    ],
)
def test_impossible_splits_name_the_possible_totals(ns, ew, possible):
    if possible is None:
        check_points({"NS": ns, "EW": ew})
        return
    with pytest.raises(RuleError) as caught:
        check_points({"NS": ns, "EW": ew})
    assert caught.value.code == "impossible_points"
    assert caught.value.facts == {"NS": ns, "EW": ew, "possible": possible, "values": (1, 1, 1, 1, 5, 5)}


@pytest.mark.parametrize("ns, ew", [(3, 8), (9, 1), (3, 3), (0, 16), (9, 6)])
def test_splits_of_the_california_schedule_are_refused_naming_it(ns, ew):
    with pytest.raises(RuleError) as caught:
        check_points({"NS": ns, "EW": ew})
    assert caught.value.code == "points_of_other_schedule"
    assert caught.value.facts == {
        "NS": ns,
        "EW": ew,
        "schedule": "guide_14",
        "other": "california_16",
        "values": (1, 1, 1, 1, 5, 5),
    }


def test_possible_splits_of_other_multisets():
    assert possible_splits((1, 2)) == {(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (0, 2), (0, 3), (1, 2), (2, 1)}
    assert possible_splits(()) == {(0, 0)}


# -- A hand as given: points or captured cards ---------------------------------------------


def test_points_given_directly_are_checked_and_have_no_point_cards():
    assert read_points(HandInput("NS", 7, points={"NS": 9, "EW": 5}), DEFAULT) == ({"NS": 9, "EW": 5}, None)
    with pytest.raises(RuleError) as caught:
        read_points(HandInput("NS", 7, points={"NS": 4, "EW": 9}), DEFAULT)
    assert (caught.value.code, caught.value.at) == ("impossible_points", ("points",))


def test_points_from_trump_and_captured_cards_with_the_two_dealt():
    hand = HandInput(
        "NS", 12, trump="♠", captured={"NS": ["as", "JS", "3C"], "EW": ["5S", "5C", "2S"]}, two_dealt_to="NS"
    )
    points, point_cards_by_team = read_points(hand, DEFAULT)
    assert points == {"NS": 3, "EW": 10}
    assert [(str(p.card), p.reason) for p in point_cards_by_team["NS"]] == [
        ("AS", "captured"),
        ("JS", "captured"),
        ("2S", "dealt"),
    ]
    assert [str(p.card) for p in point_cards_by_team["EW"]] == ["5C", "5S"]
    played = HandInput("NS", 7, trump="H", captured={"NS": ["2H"], "EW": []}, two_played_by="EW")
    assert read_points(played, Rules(two_scored_by="played"))[0] == {"NS": 0, "EW": 1}
    assert read_points(HandInput("NS", 7, trump="H", captured={"NS": ["2H"]}), Rules(two_scored_by="captured"))[0] == {
        "NS": 1,
        "EW": 0,
    }


@pytest.mark.parametrize(
    "given",
    [
        {},
        {"trump": "H"},
        {"captured": {"NS": ["AH"]}},
        {"points": {"NS": 7, "EW": 7}, "trump": "H"},
        {"points": {"NS": 7, "EW": 7}, "captured": {"NS": []}},
        {"points": {"NS": 7, "EW": 7}, "trump": "H", "captured": {"NS": []}},
    ],
)
def test_points_or_trump_with_captured_not_both_nor_neither(given):
    with pytest.raises(RuleError) as caught:
        read_points(HandInput("NS", 7, **given), DEFAULT)
    assert (caught.value.code, caught.value.at, caught.value.facts) == ("points_or_captured", ("points",), {})


@pytest.mark.parametrize(
    "given, rule, field",
    [
        ({"trump": "H", "captured": {"NS": ["AH"]}, "two_played_by": "NS"}, "dealt", "two_played_by"),
        ({"trump": "H", "captured": {"NS": ["AH"]}, "two_dealt_to": "NS"}, "played", "two_dealt_to"),
        ({"trump": "H", "captured": {"NS": ["AH"]}, "two_dealt_to": "EW"}, "captured", "two_dealt_to"),
        ({"points": {"NS": 7, "EW": 7}, "two_dealt_to": "NS"}, "dealt", "two_dealt_to"),
        ({"points": {"NS": 7, "EW": 7}, "two_played_by": "EW"}, "played", "two_played_by"),
    ],
)
def test_a_team_named_for_the_two_goes_with_captured_cards_and_its_rule(given, rule, field):
    hand = HandInput("NS", 7, **given)
    for check in (check_two_fields, read_points):
        with pytest.raises(RuleError) as caught:
            check(hand, Rules(two_scored_by=rule))
        assert (caught.value.code, caught.value.at) == ("two_field_for_rule", (field,))
        assert caught.value.facts == {"field": field, "rule": rule}


def test_a_team_named_for_the_two_under_its_rule_or_nobody_named_is_fine():
    check_two_fields(HandInput("NS", 7, trump="H", captured={}, two_dealt_to="NS"), DEFAULT)
    check_two_fields(HandInput("NS", 7, trump="H", captured={}, two_played_by="EW"), Rules(two_scored_by="played"))
    check_two_fields(HandInput("NS", 7, points={"NS": 7, "EW": 7}), Rules(two_scored_by="played"))


def test_captured_cards_are_read_ns_first_and_refused_where_they_are():
    hand = HandInput("NS", 7, trump="H", captured={"NS": ["AH", "1H"], "EW": ["ZZ"]})
    with pytest.raises(RuleError) as caught:
        read_points(hand, DEFAULT)
    assert (caught.value.code, caught.value.at) == ("bad_card", (("captured", "NS"), ("card", 1)))


def test_a_hand_is_checked_bid_first_then_the_game_then_its_points():
    over = {"NS": 100, "EW": 0}
    with pytest.raises(RuleError) as caught:
        settle_hand(HandInput("NS", 5), over, DEFAULT)
    assert caught.value.code == "bid_outside_rules"
    with pytest.raises(RuleError) as caught:
        settle_hand(HandInput("NS", 7), over, DEFAULT)
    assert (caught.value.code, caught.value.at) == ("game_already_over", ("score",))
    with pytest.raises(RuleError) as caught:
        settle_hand(HandInput("NS", 7), {"NS": 0, "EW": 0}, DEFAULT)
    assert caught.value.code == "points_or_captured"
    result, cards_by_team = settle_hand(HandInput("EW", 10, points={"NS": 8, "EW": 6}), {"NS": 15, "EW": 20}, DEFAULT)
    assert (result.scores_after, result.bid_made, cards_by_team) == ({"NS": 23, "EW": 10}, False, None)
    result, cards_by_team = settle_hand(
        HandInput("NS", 7, trump="D", captured={"NS": ["AD", "5H", "5D"]}, two_dealt_to=None),
        {"NS": 0, "EW": 0},
        DEFAULT,
    )
    assert (result.points, [p.name for p in cards_by_team["NS"]]) == (
        {"NS": 11, "EW": 0},
        ["low_pedro", "pedro", "ace"],
    )


def test_a_game_reads_every_hand_before_settling_any():
    hands = [HandInput("NS", 7, points={"NS": 14, "EW": 0}) for _ in range(8)]  # won at the 8th hand
    last = HandInput("NS", 7, trump="H", captured={"NS": ["AH", "5H", "5D"]}, two_dealt_to=None)
    ledger, cards_by_hand = score_game([*hands[:7], last], DEFAULT)
    assert (ledger.scores, ledger.winner, ledger.next_hand) == ({"NS": 109, "EW": 0}, "NS", None)
    assert cards_by_hand[:7] == [None] * 7 and [str(p.card) for p in cards_by_hand[7]["NS"]] == ["5D", "5H", "AH"]
    # a bad hand after the end is refused for what is wrong with it, at its index
    with pytest.raises(RuleError) as caught:
        score_game([*hands, HandInput("NS", 5, points={"NS": 7, "EW": 7})], DEFAULT)
    assert (caught.value.code, caught.value.at) == ("bid_outside_rules", (("hand", 8), "bid"))
    with pytest.raises(RuleError) as caught:
        score_game([*hands, HandInput("NS", 7, trump="H", captured={"EW": ["AH", "AH"]})], DEFAULT)
    assert (caught.value.code, caught.value.at) == ("captured_twice", (("hand", 8), ("captured", "EW"), ("card", 1)))
    with pytest.raises(RuleError) as caught:
        score_game([*hands, HandInput("NS", 7, points={"NS": 7, "EW": 7})], DEFAULT)
    assert (caught.value.code, caught.value.at) == ("hand_after_game_over", (("hand", 8),))
    assert score_game([], DEFAULT) == (play_game([], DEFAULT), [])


# -- How a hand leaves the game ------------------------------------------------------------


@pytest.mark.parametrize(
    "bid_team, bid, before, points, rules, outcome",
    [
        ("NS", 7, {"NS": 0, "EW": 0}, {"NS": 9, "EW": 5}, DEFAULT, "next_normal"),
        ("NS", 7, {"NS": 86, "EW": 90}, {"NS": 7, "EW": 7}, DEFAULT, "next_bidder_goes_out"),
        ("EW", 7, {"NS": 95, "EW": 92}, {"NS": 6, "EW": 8}, DEFAULT, "next_extra_hand"),
        ("NS", 7, {"NS": 90, "EW": 50}, {"NS": 10, "EW": 4}, DEFAULT, "win_target"),
        ("EW", 7, {"NS": 98, "EW": 96}, {"NS": 7, "EW": 7}, DEFAULT, "win_bidder_goes_out"),
        ("EW", 7, {"NS": 95, "EW": 92}, {"NS": 6, "EW": 8}, Rules(tie_rule="bidder_wins"), "win_tie_bidder"),
        ("EW", 7, {"NS": 95, "EW": 92}, {"NS": 6, "EW": 8}, Rules(tie_rule="higher_score"), "win_tie_higher"),
        ("NS", 7, {"NS": 104, "EW": 100}, {"NS": 7, "EW": 7}, DEFAULT, "win_extra_hand_made"),
        ("EW", 8, {"NS": 100, "EW": 110}, {"NS": 7, "EW": 7}, DEFAULT, "win_extra_hand_set"),
    ],
)
def test_how_a_hand_leaves_the_game(bid_team, bid, before, points, rules, outcome):
    result = settle(bid_team, bid, before, points, rules)
    assert hand_outcome(result, rules) == outcome and outcome in OUTCOMES
    ledger = play_game([(bid_team, bid, points)], rules)._replace(hands=(result,))
    assert game_outcome(ledger, rules) == outcome


def test_a_game_with_no_hand_goes_on():
    assert game_outcome(play_game([], DEFAULT), DEFAULT) == "next_normal"


# -- Settlement (docs/rules/pedro.md, "Worked examples", verbatim) -------------------------


@pytest.mark.parametrize(
    "team, bid, points, before, after",
    [
        ("NS", 7, {"NS": 9, "EW": 5}, {"NS": 15, "EW": 20}, {"NS": 24, "EW": 25}),
        ("EW", 7, {"EW": 7, "NS": 7}, {"NS": 30, "EW": 40}, {"NS": 37, "EW": 47}),
        ("EW", 10, {"EW": 6, "NS": 8}, {"NS": 15, "EW": 20}, {"NS": 23, "EW": 10}),
        ("NS", 12, {"NS": 5, "EW": 9}, {"NS": 8, "EW": 30}, {"NS": -4, "EW": 39}),
    ],
)
def test_worked_settlement_checks(team, bid, points, before, after):
    result = settle(team, bid, before, points, DEFAULT)
    assert result.scores_after == after
    assert result.bid_made == (points[team] >= bid)
    assert not result.game_over and result.next_hand == "normal"


def test_reaching_the_target_wins():
    result = settle("NS", 7, {"NS": 90, "EW": 50}, {"NS": 10, "EW": 4}, DEFAULT)
    assert (result.game_over, result.winner, result.decided_by) == (True, "NS", "target")
    assert settle("NS", 7, {"NS": 45, "EW": 0}, {"NS": 5, "EW": 0}, Rules(target=50)).winner is None
    assert settle("NS", 7, {"NS": 45, "EW": 0}, {"NS": 7, "EW": 0}, Rules(target=50)).winner == "NS"


def test_bidder_goes_out_wins_at_once_even_when_both_pass_the_target():
    result = settle("EW", 7, {"NS": 98, "EW": 96}, {"NS": 7, "EW": 7}, DEFAULT)
    assert result.bidder_goes_out and result.scores_after == {"NS": 105, "EW": 103}
    assert (result.winner, result.decided_by) == ("EW", "bidder_goes_out")


def test_bidder_goes_out_with_a_wide_margin_wins_below_the_target():
    rules = Rules(bidder_out_margin=20)
    result = settle("NS", 7, {"NS": 81, "EW": 85}, {"NS": 8, "EW": 6}, rules)
    assert result.bidder_goes_out and result.scores_after == {"NS": 89, "EW": 91}
    assert (result.winner, result.decided_by) == ("NS", "bidder_goes_out")


def test_failed_bidder_goes_out_is_scored_normally():
    result = settle("NS", 9, {"NS": 95, "EW": 94}, {"NS": 6, "EW": 8}, DEFAULT)
    assert result.bidder_goes_out and not result.bid_made
    assert result.scores_after == {"NS": 86, "EW": 102}
    assert (result.winner, result.decided_by) == ("EW", "target")
    quiet = settle("NS", 9, {"NS": 95, "EW": 94}, {"NS": 8, "EW": 1}, DEFAULT)
    assert quiet.winner is None and quiet.scores_after == {"NS": 86, "EW": 95}
    assert quiet.next_hand == "normal"


@pytest.mark.parametrize(
    "tie_rule, winner, decided_by, next_hand",
    [
        ("extra_hand", None, None, "extra_hand"),
        ("bidder_wins", "EW", "tie_rule", None),
        ("higher_score", "NS", "tie_rule", None),
    ],
)
def test_both_teams_reach_the_target_in_one_hand(tie_rule, winner, decided_by, next_hand):
    result = settle("EW", 7, {"NS": 95, "EW": 92}, {"NS": 6, "EW": 8}, Rules(tie_rule=tie_rule))
    assert not result.bidder_goes_out  # EW started below 93
    assert result.scores_after == {"NS": 101, "EW": 100}
    assert (result.winner, result.decided_by, result.next_hand) == (winner, decided_by, next_hand)


def test_higher_score_rule_with_equal_scores_plays_an_extra_hand():
    result = settle("NS", 7, {"NS": 92, "EW": 94}, {"NS": 8, "EW": 6}, Rules(tie_rule="higher_score"))
    assert result.scores_after == {"NS": 100, "EW": 100}
    assert (result.winner, result.next_hand) == (None, "extra_hand")


def test_the_extra_hand_is_bidder_goes_out_and_decides():
    result = settle("NS", 7, {"NS": 101, "EW": 100}, {"NS": 7, "EW": 7}, DEFAULT)
    assert result.bidder_goes_out and (result.winner, result.decided_by, result.next_hand) == ("NS", "extra_hand", None)
    failed = settle("NS", 8, {"NS": 101, "EW": 100}, {"NS": 7, "EW": 7}, DEFAULT)
    assert failed.scores_after == {"NS": 93, "EW": 107}
    assert (failed.game_over, failed.winner, failed.decided_by, failed.next_hand) == (True, "EW", "extra_hand", None)


@pytest.mark.parametrize(
    "bidder, bid, points, before, after, winner",
    [
        # EW set, both still at the target: no second extra hand, the other team wins
        ("EW", 8, {"NS": 7, "EW": 7}, {"NS": 100, "EW": 110}, {"NS": 107, "EW": 102}, "NS"),
        # EW set and far behind after it: NS wins all the same
        ("EW", 14, {"NS": 7, "EW": 7}, {"NS": 100, "EW": 100}, {"NS": 107, "EW": 86}, "NS"),
        # the bidder makes its bid though the other team ends higher: the bidder wins
        ("NS", 7, {"NS": 7, "EW": 7}, {"NS": 100, "EW": 130}, {"NS": 107, "EW": 137}, "NS"),
        # the bidder is set with the other team behind: the other team still wins
        ("NS", 9, {"NS": 8, "EW": 6}, {"NS": 120, "EW": 100}, {"NS": 111, "EW": 106}, "EW"),
    ],
)
def test_the_extra_hand_decides_whatever_the_scores(bidder, bid, points, before, after, winner):
    result = settle(bidder, bid, before, points, DEFAULT)
    assert result.scores_after == after
    assert (result.game_over, result.winner, result.decided_by, result.next_hand) == (True, winner, "extra_hand", None)


def test_the_higher_score_rules_extra_hand_after_equal_scores_decides_too():
    rules = Rules(tie_rule="higher_score")
    check_game_running({"NS": 100, "EW": 100}, rules)
    result = settle("EW", 9, {"NS": 100, "EW": 100}, {"NS": 6, "EW": 8}, rules)
    assert (result.scores_after, result.winner, result.decided_by) == ({"NS": 106, "EW": 91}, "NS", "extra_hand")


def test_a_game_whose_extra_hand_is_set_is_won_by_the_other_team():
    hands = [("NS", 7, {"NS": 14, "EW": 0})] * 6 + [("EW", 7, {"NS": 0, "EW": 14})] * 6  # 84 / 84
    hands += [("NS", 7, {"NS": 11, "EW": 3}), ("NS", 7, {"NS": 0, "EW": 5})]  # 95 / 87, NS set: 88 / 92
    hands += [("NS", 7, {"NS": 7, "EW": 0}), ("EW", 7, {"NS": 6, "EW": 8})]  # 95 / 92, then 101 / 100
    ledger = play_game(hands, DEFAULT)
    assert [h.bidder_goes_out for h in ledger.hands] == [False] * 16
    assert ledger.hands[-1].scores_after == {"NS": 101, "EW": 100} and ledger.next_hand == "extra_hand"
    ledger = play_game([*hands, ("EW", 8, {"NS": 7, "EW": 7})], DEFAULT)
    last = ledger.hands[-1]
    assert (last.scores_after, last.bid_made, last.decided_by) == ({"NS": 108, "EW": 92}, False, "extra_hand")
    assert (ledger.winner, ledger.next_hand) == ("NS", None)
    with pytest.raises(RuleError) as caught:
        play_game([*hands, ("EW", 8, {"NS": 7, "EW": 7}), ("NS", 7, {"NS": 7, "EW": 7})], DEFAULT)
    assert caught.value.code == "hand_after_game_over"


def test_a_finished_game_takes_no_hand():
    with pytest.raises(RuleError) as caught:
        check_game_running({"NS": 100, "EW": 20}, DEFAULT)
    assert (caught.value.code, caught.value.at) == ("game_already_over", ("score",))
    check_game_running({"NS": 101, "EW": 100}, DEFAULT)  # extra hand pending
    with pytest.raises(RuleError):
        check_game_running({"NS": 101, "EW": 100}, Rules(tie_rule="bidder_wins"))


# -- Whole games ---------------------------------------------------------------------------


def test_a_game_to_100_crossing_into_bidder_goes_out():
    hands = [
        ("NS", 7, {"NS": 14, "EW": 0}),  # 14 0
        ("EW", 8, {"NS": 2, "EW": 12}),  # 16 12
        ("NS", 10, {"NS": 4, "EW": 10}),  # 6 22  (NS set, loses 10)
        ("EW", 9, {"NS": 3, "EW": 11}),  # 9 33
        ("NS", 7, {"NS": 13, "EW": 1}),  # 22 34
        ("NS", 7, {"NS": 12, "EW": 2}),  # 34 36
        ("EW", 7, {"NS": 5, "EW": 9}),  # 39 45
        ("NS", 8, {"NS": 13, "EW": 1}),  # 52 46
        ("EW", 8, {"NS": 2, "EW": 12}),  # 54 58
        ("NS", 7, {"NS": 11, "EW": 3}),  # 65 61
        ("EW", 7, {"NS": 4, "EW": 10}),  # 69 71
        ("NS", 9, {"NS": 12, "EW": 2}),  # 81 73
        ("EW", 7, {"NS": 3, "EW": 11}),  # 84 84
        ("NS", 7, {"NS": 9, "EW": 5}),  # 93 89
        ("EW", 7, {"NS": 4, "EW": 10}),  # 97 99 -> both within 7: bidder goes out next
        ("NS", 8, {"NS": 9, "EW": 5}),  # NS makes its bid: wins at once (106 104)
    ]
    ledger = play_game(hands, DEFAULT)
    assert [tuple(h.scores_after.values()) for h in ledger.hands][:4] == [(14, 0), (16, 12), (6, 22), (9, 33)]
    assert ledger.hands[-2].scores_after == {"NS": 97, "EW": 99}
    assert ledger.hands[-2].next_hand == "bidder_goes_out"
    last = ledger.hands[-1]
    assert last.bidder_goes_out and last.scores_after == {"NS": 106, "EW": 104}
    assert (ledger.winner, last.decided_by, ledger.next_hand) == ("NS", "bidder_goes_out", None)
    with pytest.raises(RuleError) as caught:
        play_game([*hands, ("EW", 7, {"NS": 7, "EW": 7})], DEFAULT)
    assert (caught.value.code, caught.value.at) == ("hand_after_game_over", (("hand", 16),))


def test_a_game_with_negative_scores():
    ledger = play_game([("NS", 12, {"NS": 5, "EW": 9}), ("NS", 10, {"NS": 4, "EW": 10})], DEFAULT)
    assert ledger.scores == {"NS": -22, "EW": 19}
    assert ledger.winner is None and ledger.next_hand == "normal"


def test_rules_as_data_name_every_option():
    """The default schedule is left out, so a default table's answers read as before."""
    rules = Rules(target=62, min_bid=6, dealer_forced_bid=6, two_scored_by="played", tie_rule="bidder_wins")
    assert rules.as_dict() == {key: value for key, value in dataclasses.asdict(rules).items() if key != "schedule"}
    california = dataclasses.replace(rules, schedule="california_16")
    assert california.as_dict() == dataclasses.asdict(california)
    assert list(california.as_dict())[-1] == "schedule" and set(SCHEDULES) == {"guide_14", "california_16"}


def test_rules_that_contradict_each_other():
    with pytest.raises(RuleError) as caught:
        Rules(min_bid=9, max_bid=8).check()
    assert (caught.value.code, caught.value.at) == ("min_above_max", (("option", "min_bid"),))
    with pytest.raises(RuleError) as caught:
        Rules(min_bid=7, dealer_forced_bid=6).check()
    assert (caught.value.code, caught.value.at) == ("forced_bid_outside", (("option", "dealer_forced_bid"),))
