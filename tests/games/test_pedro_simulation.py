"""Thousands of simulated Pedro hands (seeded): the scorer's invariants hold on real play."""

import random
import statistics

import pytest

from scoring_api.games.pedro.cards import TEAMS, Card, next_seat, points_of
from scoring_api.games.pedro.rules import Rules
from scoring_api.games.pedro.schedules import CALIFORNIA_16
from scoring_api.games.pedro.scoring import hand_points, settle
from scoring_api.games.pedro.tricks import may_play, play_trick
from scoring_api.schemas.pedro import MAX_HANDS, MAX_TARGET
from tests.games.pedro_simulator import deal_and_play, reference_may_play, reference_winner, team

pytestmark = pytest.mark.slow  # thousands of simulated hands (docs/development.md)

HANDS = 1500


@pytest.mark.parametrize("rule", ["dealt", "captured", "played"])
def test_simulated_hands_keep_the_invariants(rule):
    rng = random.Random(f"pedro-{rule}")
    rules = Rules(two_scored_by=rule)
    played = complete = refused = 0
    for number in range(HANDS):
        hand = deal_and_play(rng, "NESW"[number % 4], rules)
        if hand is None:
            continue
        played += 1
        trump = hand.trump
        captured = {t: [] for t in TEAMS}
        two_played_by = None
        for leader, cards, hands_before in hand.tricks:
            result = play_trick(trump, leader, cards, hands_before)  # legal by the follow rule
            for i, (seat, _) in enumerate(result.plays):  # the scorer allows what the rulebook allows
                held, led = hands_before[seat], None if i == 0 else cards[0]
                allowed = [may_play(c, held, led, trump) for c in held]
                assert allowed == [reference_may_play(c, held, led, trump) for c in held]
                refused += allowed.count(False)
            assert result.winner == reference_winner(trump, leader, cards)
            captured[result.team] += cards
            for i, card in enumerate(cards):
                if card == Card("2", trump):
                    two_played_by = team(result.plays[i][0])
        in_play = [c for cards in hand.holdings.values() for c in cards if points_of(c, trump)]
        two_team = {
            "dealt": team(hand.two_holder) if hand.two_holder else None,
            "played": two_played_by,
            "captured": None,
        }[rule]
        points = hand_points(trump, captured, rules, two_team)
        assert sum(points.points.values()) == sum(points_of(c, trump) for c in in_play)
        complete += len(in_play) == 6
        if len(in_play) == 6:
            assert sum(points.points.values()) == 14
        two = Card("2", trump)
        if hand.two_holder:
            scorer = [t for t in TEAMS if any(p.card == two for p in points.cards[t])]
            expected = {
                "dealt": team(hand.two_holder),
                "played": two_played_by,
                "captured": next(t for t in TEAMS if two in captured[t]),
            }[rule]
            assert scorer == [expected]
    assert played > HANDS * 0.9  # the rest ran the stock dry before play and were redealt
    assert complete > played * 0.3  # many hands have all six point cards in play
    assert refused > played  # the follow rule is tested on many cards it refuses


def test_simulated_california_hands_hold_sixteen_points():
    """California Pedro (the jack 3): every hand's points add up to its point cards in play,
    16 when all six were played; the simulator's auction (forced dealer at 6) is legal."""
    rng = random.Random("pedro-california")
    rules = Rules(schedule="california_16")
    played = complete = 0
    for number in range(HANDS // 3):
        hand = deal_and_play(rng, "NESW"[number % 4], rules)
        if hand is None:
            continue
        played += 1
        captured = {t: [] for t in TEAMS}
        for leader, cards, _ in hand.tricks:
            captured[play_trick(hand.trump, leader, cards).team] += cards
        in_play = [c for cards in hand.holdings.values() for c in cards if points_of(c, hand.trump)]
        two_team = team(hand.two_holder) if hand.two_holder else None
        points = hand_points(hand.trump, captured, rules, two_team).points
        assert sum(points.values()) == sum(points_of(c, hand.trump, CALIFORNIA_16) for c in in_play)
        if len(in_play) == 6:
            complete += 1
            assert sum(points.values()) == 16
    assert played > HANDS // 3 * 0.9 and complete > played * 0.3


GAMES = 300


def game_lengths(rules: Rules) -> list[int]:
    """Hands per game in GAMES whole games under ``rules``, hands dealt and played as the
    simulator plays them (random trump, random legal cards), settled from 0-0 until the
    game is over."""
    rng = random.Random("pedro-games")
    lengths = []
    for number in range(GAMES):
        scores, dealer, played, over = {"NS": 0, "EW": 0}, "NESW"[number % 4], 0, False
        while not over:
            hand = deal_and_play(rng, dealer, rules)
            if hand is None:  # the stock ran dry: the same dealer deals again
                continue
            dealer = next_seat(dealer)
            captured = {t: [] for t in TEAMS}
            for leader, cards, _ in hand.tricks:
                captured[play_trick(hand.trump, leader, cards).team] += cards
            two_team = team(hand.two_holder) if hand.two_holder else None
            points = hand_points(hand.trump, captured, rules, two_team).points
            result = settle(team(hand.bidder), hand.bid, scores, points, rules)
            scores, over, played = result.scores_after, result.game_over, played + 1
        lengths.append(played)
    return lengths


def test_simulated_games_to_the_highest_target_fit_the_hands_limit():
    """Whole games to the highest target the schema allows: every one fits in MAX_HANDS
    hands (docs/rules/pedro.md, "Decisions", 16)."""
    lengths = game_lengths(Rules(target=MAX_TARGET))
    assert (statistics.median(lengths), max(lengths)) == (25, 51)  # random trumps: longer than a table's
    assert max(lengths) < MAX_HANDS


def test_simulated_california_games_end_sooner():
    """16 points a hand and bids from 6: games to 100 take fewer hands than the 14-point
    rule's, so the 80-hand limit holds (docs/rules/pedro.md, "Decisions", 16 and 17)."""
    lengths = game_lengths(Rules(target=MAX_TARGET, schedule="california_16"))
    assert (statistics.median(lengths), max(lengths)) == (16, 24)  # against 25 and 51 under guide_14
    assert max(lengths) < MAX_HANDS
