"""Argument exactness: a call is the intended one when its arguments load to the same
state, whatever the order of what the rules do not order and the spellings the service
reads alike; any change to the state is caught."""

from __future__ import annotations

import copy

from scoring_api.eval.arguments import exact, loaded, variety
from scoring_api.eval.questions import generate
from scoring_api.tools import call_tool, rest_arguments
from tests.eval.scripted import strict_arguments, wrong_arguments

QUESTIONS = generate(40, 2)


def first(operation: str):
    return next(q for q in QUESTIONS if q.operation == operation)


def test_every_intended_call_is_exact_as_sent_and_in_the_tools_strict_shape():
    for question in QUESTIONS:
        strict = strict_arguments(question.operation, question.arguments)
        assert exact(question.operation, question.arguments, question.operation, question.arguments)
        assert exact(question.operation, question.arguments, question.operation, strict), question.id


def test_the_strict_shape_is_read_back_as_the_tool_reads_it():
    for question in QUESTIONS:
        strict = strict_arguments(question.operation, question.arguments)
        rest = rest_arguments(question.operation, strict, "en")
        assert call_tool(question.operation, strict, "en") == call_tool(question.operation, rest, "en")
    harvest = first("applejack_harvest")
    strict = strict_arguments(harvest.operation, harvest.arguments)
    assert strict["orchard"]["board"] is None
    assert strict["orchard"]["tiles"][0]["apples"] == [
        {"key": v, "value": n} for v, n in harvest.arguments["orchard"]["tiles"][0]["apples"].items()
    ]
    assert rest_arguments(harvest.operation, strict_arguments(harvest.operation, harvest.arguments), "en") == (
        harvest.arguments
    )


def test_a_changed_state_another_tool_or_unreadable_arguments_are_not_exact():
    for question in QUESTIONS:
        changed = wrong_arguments(question)
        assert not exact(question.operation, question.arguments, question.operation, changed), question.id
        assert not exact(question.operation, question.arguments, "apero_pick", question.arguments)
        assert not exact(question.operation, question.arguments, question.operation, '{"players": ')
        assert not exact(question.operation, question.arguments, question.operation, None)
        assert not exact(question.operation, question.arguments, question.operation, {"nonsense": 1})


JAPANESE_COLOURS = {"red": "赤", "orange": "橙", "green": "緑", "blue": "青", "purple": "紫", "black_green": "黒緑"}


def test_apero_players_and_cards_in_any_order_and_colours_by_their_japanese_names():
    question = next(q for q in QUESTIONS if q.game == "apero" and len(q.arguments["players"]) > 1)
    shuffled = copy.deepcopy(question.arguments)
    shuffled["players"].reverse()
    for player in shuffled["players"]:
        player["cards"].reverse()
        for card in player["cards"]:
            card["color"] = JAPANESE_COLOURS[card["color"]]
    del shuffled["sets"]  # the default
    for player in shuffled["players"]:
        player["name"] = f" {player['name']}\u3000"  # read without surrounding spaces
    assert exact(question.operation, question.arguments, question.operation, shuffled)
    shuffled["players"][0]["cards"].pop()
    assert not exact(question.operation, question.arguments, question.operation, shuffled)


def test_applejack_tiles_in_any_order_and_varieties_by_any_of_the_forms_words():
    assert [variety(name) for name in ("red", "赤", "Light Green", "light_green", "黄緑", "ｐｉｎｋ", "seventh")] == [
        "red",
        "red",
        "light_green",
        "light_green",
        "light_green",
        "pink",
        "seventh",
    ]
    question = first("applejack_final_score")
    words = {
        "red": "赤",
        "light_green": "light green",
        "yellow": "Yellow",
        "orange": "オレンジ",
        "pink": "PINK",
        "brown": "茶",
    }
    renamed = copy.deepcopy(question.arguments)
    renamed["orchard"]["tiles"].reverse()
    for tile in (tile for tile in renamed["orchard"]["tiles"] if "apples" in tile):
        tile["apples"] = {words[v]: n for v, n in tile["apples"].items()} | {"seventh": 0}
    assert exact(question.operation, question.arguments, question.operation, renamed)
    renamed["orchard"]["tiles"][0]["blossoms"] = 7
    assert not exact(question.operation, question.arguments, question.operation, renamed)
    harvest = next(q for q in QUESTIONS if q.operation == "applejack_harvest" and len(q.arguments["varieties"]) == 2)
    swapped = {**harvest.arguments, "varieties": harvest.arguments["varieties"][::-1]}
    assert exact(harvest.operation, harvest.arguments, harvest.operation, swapped)
    other_die = {**harvest.arguments, "die": harvest.arguments["die"] % 3 + 1}
    assert not exact(harvest.operation, harvest.arguments, harvest.operation, other_die)


def test_fairy_black_box_players_in_any_order_treasures_by_points_and_kirakira():
    question = first("score_fairy_black_box")
    players = copy.deepcopy(question.arguments["players"])[::-1]
    for player in players:
        player["treasures"] = [
            {"name": "キラキラ" if t["name"] == "〈きらきら〉" else "any name", "points": t["points"]}
            for t in player["treasures"][::-1]
        ]
        if player["eliminated"]:
            player["mood"] = 9  # not read
    assert exact(question.operation, question.arguments, question.operation, {"players": players})
    holder = next(p for p in players if any(t["name"] == "キラキラ" for t in p["treasures"]))
    holder["treasures"] = [{**t, "name": "plain"} for t in holder["treasures"]]
    assert not exact(question.operation, question.arguments, question.operation, {"players": players})


def test_pedro_rules_stated_as_their_defaults_are_the_same_call():
    question = first("pedro_hand")
    stated = {**question.arguments, "rules": {"target": 100, "min_bid": 7, "tie_rule": "extra_hand"}}
    assert exact(question.operation, question.arguments, question.operation, stated)
    assert not exact(question.operation, question.arguments, question.operation, {**stated, "rules": {"target": 62}})
    assert loaded("pedro_hand", {"bid": "eight"}) is None
    assert loaded("no_such_tool", question.arguments) is None
