"""Fairy & Black Box rules (docs/rules/fairy-black-box.md): scoring, tie-breaks, setup, end, next turn."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring_api.games import fairy_black_box as fbb
from scoring_api.games.rule_error import RuleError


def player(name, mood, *treasures, eliminated=False):
    """``treasures`` as (name, points) pairs."""
    return fbb.Player(name, mood, eliminated, tuple(fbb.Treasure(n, p) for n, p in treasures))


def out(name, mood=0):
    return fbb.Player(name, mood, True, ())


def scores_of(game):
    return [(p.name, p.score) for p in game.players]


def refusal(call, *args):
    with pytest.raises(RuleError) as caught:
        call(*args)
    return caught.value


# -- 〈きらきら〉 by name ------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "きらきら",
        "キラキラ",
        "kirakira",
        "KiraKira",
        "KIRAKIRA",
        "〈きらきら〉",
        "〈キラキラ〉",
        "<kirakira>",
        "＜ｋｉｒａｋｉｒａ＞",
        "ｷﾗｷﾗ",
        " きらきら ",
        "「きらきら」",
        "《キラキラ》",
        "【kirakira】",
        "『 きらきら 』",
    ],
)
def test_kirakira_spellings_are_recognised(name):
    assert fbb.is_kirakira(name)


@pytest.mark.parametrize(
    "name",
    [
        "きらきら星",
        "kira",
        "ぎらぎら",
        "〈きらきら",
        "キラ キラ",
        "kirakira2",
        "",
        "〈きらきら」",
        "<<kirakira>>",
        "〉きらきら〈",
    ],
)
def test_other_names_are_not_kirakira(name):
    assert not fbb.is_kirakira(name)


# -- Final scoring ---------------------------------------------------------------------


def test_plain_win_by_score():
    game = fbb.score_game(
        [
            player("Aki", 1, ("ほしのかけら", 3), ("ふしぎな石", 4)),
            player("Ben", 4, ("きらきら", 2), ("はね", 1)),
            player("Cho", 2),
        ]
    )
    assert scores_of(game) == [("Aki", 7), ("Ben", 3), ("Cho", 0)]
    assert game.winners == ("Aki",) and game.decided_by == "score"
    assert [p.rank for p in game.players] == [1, 2, 3]
    assert [p.has_kirakira for p in game.players] == [False, True, False]


def test_tie_broken_by_kirakira_even_against_higher_mood():
    game = fbb.score_game(
        [
            player("Aki", 4, ("はね", 5)),
            player("Ben", 1, ("〈きらきら〉", 2), ("石", 3)),
            player("Cho", 3, ("石", 1)),
        ]
    )
    assert scores_of(game) == [("Aki", 5), ("Ben", 5), ("Cho", 1)]
    assert game.winners == ("Ben",) and game.decided_by == "kirakira"
    assert game.tied == ("Aki", "Ben")
    assert [p.rank for p in game.players] == [2, 1, 3]


def test_kirakira_outside_the_tie_does_not_matter():
    game = fbb.score_game(
        [
            player("Aki", 3, ("はね", 5)),
            player("Ben", 2, ("石", 5)),
            player("Cho", 4, ("kirakira", 4)),
        ]
    )
    assert game.winners == ("Aki",) and game.decided_by == "mood"
    assert game.top_mood == 3


def test_tie_without_kirakira_broken_by_mood():
    game = fbb.score_game(
        [
            player("Aki", 2, ("はね", 2), ("石", 2)),
            player("Ben", 3, ("石", 4)),
        ]
    )
    assert game.winners == ("Ben",) and game.decided_by == "mood"
    assert [p.rank for p in game.players] == [2, 1]


def test_tie_on_score_and_mood_is_shared():
    game = fbb.score_game(
        [
            player("Aki", 3, ("はね", 4)),
            player("Ben", 3, ("石", 1), ("石", 3)),
            player("Cho", 1, ("羽", 4)),
            player("Dan", 3, ("石", 2)),
        ]
    )
    assert scores_of(game) == [("Aki", 4), ("Ben", 4), ("Cho", 4), ("Dan", 2)]
    assert game.winners == ("Aki", "Ben") and game.decided_by == "shared"
    assert game.tied == ("Aki", "Ben", "Cho") and game.top_mood == 3
    assert [p.rank for p in game.players] == [1, 1, 3, 4]


def test_eliminated_player_scores_nothing_and_cannot_win_against_negative_scores():
    game = fbb.score_game(
        [
            out("Aki"),
            player("Ben", 2, ("のろい", -3)),
            player("Cho", 1, ("のろい", -2), ("石", 1)),
        ]
    )
    assert scores_of(game) == [("Aki", None), ("Ben", -3), ("Cho", -1)]
    assert game.winners == ("Cho",) and game.decided_by == "score"
    assert [p.rank for p in game.players] == [None, 2, 1]


def test_single_survivor_wins_even_with_nothing():
    game = fbb.score_game([out("Aki"), player("Ben", 1), out("Cho", mood=2)])
    assert scores_of(game) == [("Aki", None), ("Ben", 0), ("Cho", None)]
    assert game.winners == ("Ben",) and game.decided_by == "score" and game.top_score == 0


def test_everyone_eliminated_means_no_winner():
    game = fbb.score_game([out("Aki"), out("Ben")])
    assert scores_of(game) == [("Aki", None), ("Ben", None)]
    assert game.winners == () and game.decided_by is None
    assert game.top_score is None and game.tied == ()


def test_two_player_scores_of_zero_tie_on_mood():
    game = fbb.score_game([player("Aki", 1), player("Ben", 1)])
    assert game.winners == ("Aki", "Ben") and game.decided_by == "shared"


# -- Refusals --------------------------------------------------------------------------


def test_duplicate_names_are_refused():
    error = refusal(fbb.score_game, [player("Aki", 1), player("Aki", 2)])
    assert (error.code, error.at, error.facts) == ("duplicate_name", (("player", 1), "name"), {"name": "Aki"})
    error = refusal(fbb.score_game, [player("Aki", 1), player("Ben", 1), player("Cho", 1), player("Ben", 0)])
    assert (error.at, error.facts) == ((("player", 3), "name"), {"name": "Ben"})


def test_eliminated_player_holding_treasures_is_refused():
    bad = fbb.Player("Ben", 0, True, (fbb.Treasure("石", 3), fbb.Treasure("羽", 1)))
    error = refusal(fbb.score_game, [player("Aki", 1), bad])
    assert error.code == "eliminated_with_treasures"
    assert error.at == (("player", 1), "treasure")
    assert error.facts == {"name": "Ben", "count": 2}


def test_player_at_mood_zero_must_be_eliminated():
    error = refusal(fbb.score_game, [player("Aki", 1), player("Ben", 0, ("石", 2))])
    assert (error.code, error.at) == ("mood_zero_in_game", (("player", 1), "mood"))


def test_eliminated_player_mood_is_not_checked():
    assert fbb.score_game([player("Aki", 1), out("Ben", mood=3)]).winners == ("Aki",)


def test_more_than_fifteen_treasures_in_all_hands_is_refused():
    eight = [("石", 1)] * 8
    error = refusal(fbb.score_game, [player("Aki", 1, *eight), player("Ben", 1, *eight)])
    assert error.code == "too_many_treasures"
    assert error.at == (("player", 1), "treasure")
    assert error.facts == {"count": 16, "limit": 15}
    error = refusal(fbb.score_game, [player("Aki", 1, *eight), player("Ben", 1, *eight[:7]), player("Cho", 1, *eight)])
    assert (error.at, error.facts) == ((("player", 2), "treasure"), {"count": 23, "limit": 15})
    fifteen = fbb.score_game([player("Aki", 1, *eight), player("Ben", 1, *eight[:7])])
    assert [p.score for p in fifteen.players] == [8, 7]


def test_two_kirakira_holders_are_refused():
    error = refusal(
        fbb.score_game,
        [player("Aki", 1, ("石", 1), ("きらきら", 2)), player("Ben", 1), player("Cho", 2, ("キラキラ", 2))],
    )
    assert error.code == "two_kirakira"
    assert error.at == (("player", 2), ("treasure", 0))
    assert error.facts == {"first": "Aki", "second": "Cho"}


def test_one_player_with_two_kirakira_is_refused():
    error = refusal(fbb.score_game, [player("Aki", 1, ("きらきら", 2), ("〈kirakira〉", 2)), player("Ben", 1)])
    assert (error.code, error.at) == ("kirakira_held_twice", (("player", 0), ("treasure", 1)))


@pytest.mark.parametrize("count", [0, 1, 6])
def test_player_count_outside_two_to_five_is_refused(count):
    players = [player(f"P{i}", 1) for i in range(count)]
    assert refusal(fbb.score_game, players).code == "player_count"


# -- Properties ------------------------------------------------------------------------

hands = st.lists(st.tuples(st.sampled_from(["石", "羽", "きらきら"]), st.integers(-5, 5)), max_size=3)
players_strategy = st.lists(st.tuples(st.integers(1, 6), st.booleans(), hands), min_size=2, max_size=5)


def _legal(table):
    kirakira_seen = False
    built = []
    for i, (mood, eliminated, treasures) in enumerate(table):
        if eliminated:
            built.append(out(f"P{i}"))
            continue
        kept = []
        for name, points in treasures:
            if name == "きらきら":
                if kirakira_seen:
                    continue
                kirakira_seen = True
            kept.append((name, points))
        built.append(player(f"P{i}", mood, *kept))
    return built


@given(players_strategy)
@settings(max_examples=300, deadline=None)
def test_winners_follow_the_rule_order(table):
    players = _legal(table)
    game = fbb.score_game(players)
    scoring = [p for p in game.players if p.score is not None]
    assert {p.name for p in game.players if p.rank == 1} == set(game.winners)
    if not scoring:
        assert game.winners == () and game.decided_by is None
        return
    top = max(p.score for p in scoring)
    tied = [p for p in scoring if p.score == top]
    winners = [p for p in game.players if p.name in game.winners]
    assert all(p.score == top and not p.eliminated for p in winners)
    if any(p.has_kirakira for p in tied) and len(tied) > 1:
        assert [p.has_kirakira for p in winners] == [True] and game.decided_by == "kirakira"
    elif len(tied) > 1:
        assert {p.mood for p in winners} == {max(p.mood for p in tied)}
        assert game.decided_by == ("mood" if len(winners) == 1 else "shared")
    else:
        assert game.decided_by == "score"


# -- Setup -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, mood, runouts, names_opponent",
    [(2, 4, 1, True), (3, 4, 2, False), (4, 3, 2, False), (5, 3, 2, False)],
)
def test_setup_by_player_count(players, mood, runouts, names_opponent):
    assert fbb.setup(players) == fbb.Setup(players, mood, runouts, names_opponent)


@pytest.mark.parametrize("players", [1, 6])
def test_setup_refuses_other_counts(players):
    error = refusal(fbb.setup, players)
    assert error.code == "player_count" and error.at == ("player",)
    assert error.facts == {"players": players, "low": 2, "high": 5}


# -- End of the game -------------------------------------------------------------------


def end(players, runouts, deck_empty=False, discard_empty=False, left=None):
    return fbb.end_check(players, runouts, deck_empty, discard_empty, players if left is None else left)


def test_two_players_end_on_the_first_star_runout():
    assert end(2, 0).reasons == ()
    check = end(2, 1)
    assert check.last_turn and check.reasons == ("star_deck",)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_three_to_five_players_end_on_the_second_star_runout(players):
    assert not end(players, 1).last_turn
    assert end(players, 2).reasons == ("star_deck",)


def test_star_deck_cannot_run_out_after_the_end():
    error = refusal(end, 2, 2)
    assert error.code == "star_deck_past_end" and error.at == ("star_deck",)
    assert error.facts == {"runouts": 2, "limit": 1, "players": 2}


def test_treasures_end_only_when_deck_and_discard_are_empty():
    assert end(3, 0, deck_empty=True, discard_empty=True).reasons == ("treasure_deck",)
    assert end(3, 0, deck_empty=True, discard_empty=False).reasons == ()
    assert end(3, 0, deck_empty=False, discard_empty=True).reasons == ()


def test_one_player_left_ends_the_game_and_so_does_none():
    assert end(4, 0, left=1).reasons == ("players_left",)
    assert end(4, 0, left=0).reasons == ("players_left",)
    assert end(4, 0, left=2).reasons == ()


def test_every_reason_is_listed_in_rulebook_order():
    check = end(3, 2, deck_empty=True, discard_empty=True, left=1)
    assert check.reasons == ("star_deck", "treasure_deck", "players_left")


def test_more_players_left_than_started_is_refused():
    error = refusal(end, 3, 0, False, False, 4)
    assert error.code == "players_left_above_count" and error.facts == {"left": 4, "players": 3}


# -- Next player after an elimination --------------------------------------------------


def test_fewest_treasures_takes_the_next_turn():
    found = fbb.next_player([("Aki", 3), ("Ben", 1), ("Cho", 2)])
    assert found.candidates == ("Ben",) and found.fewest_treasures == 1
    assert not found.rock_paper_scissors


def test_tied_fewest_play_rock_paper_scissors():
    found = fbb.next_player([("Aki", 0), ("Ben", 2), ("Cho", 0), ("Dan", 1)])
    assert found.candidates == ("Aki", "Cho") and found.fewest_treasures == 0
    assert found.rock_paper_scissors


def test_next_player_refusals():
    assert refusal(fbb.next_player, [("Aki", 1)]).code == "game_over"
    assert refusal(fbb.next_player, [("Aki", 1), ("Aki", 2)]).at == (("player", 1), "name")
    error = refusal(fbb.next_player, [("Aki", 8), ("Ben", 7), ("Cho", 1)])
    assert error.code == "too_many_treasures" and error.at == (("player", 2), "treasure")
    assert error.facts == {"count": 16, "limit": 15}
