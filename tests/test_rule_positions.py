"""A game rule's refusal points at a field of the request that reached it.

Rules report positions in game terms (``scoring_api/games/rule_error.py``); each operation's
``terms`` name them in its request (docs/development.md, "Adding an operation"). Here:
every name an operation gives is a field of its request; refusals through every
operation, the shared rules (Pedro's options, Applejack's orchard, unique names) through
each operation that calls them, land on the field they should, a field of that request;
every refusal code in ``scoring_api/games`` is met below; and a term an operation does
not name is a programming error.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import Path

import pytest
from marshmallow import Schema, ValidationError, fields

from scoring_api.error_shape import ApiError, request_path
from scoring_api.games.rule_error import RuleError
from scoring_api.operations.registry import OPERATIONS

OPS = {op.operation_id: op for op in OPERATIONS}
GAMES = Path(__file__).parents[1] / "scoring_api" / "games"


# -- Walking a request's shape --------------------------------------------------------------


def _field(node, name: str):
    """The field ``name`` of a nested schema, or the values of a mapping."""
    if isinstance(node, fields.Nested):
        node = node.schema
    if isinstance(node, fields.Dict):
        return node.value_field
    assert isinstance(node, Schema), (node, name)
    found = [field for key, field in node.fields.items() if (field.data_key or key) == name]
    assert found, f"no field {name!r} in {type(node).__name__}"
    return found[0]


def _items(node):
    """One item of a list (what a key picks), else the node itself."""
    return node.inner if isinstance(node, fields.List) else node


def _walk(schema: Schema, path) -> None:
    """Walk a request path (names and keys) through the request schema: each name a field,
    each number an item of a list."""
    node = schema
    for segment in path:
        if isinstance(segment, int):
            assert isinstance(node, fields.List), (path, segment)
            node = node.inner
        else:
            node = _field(node, segment)


def _segments(json_path: str) -> list:
    """``hands[1].captured.NS[0]`` -> ``["hands", 1, "captured", "NS", 0]``."""
    return [int(index) if index else name for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", json_path)]


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: op.operation_id)
def test_every_term_an_operation_names_is_a_field_of_its_request(op):
    for spelled in op.terms:
        node = op.request_schema
        terms = spelled.split(".")
        for depth in range(1, len(terms) + 1):
            named = op.terms[".".join(terms[:depth])]  # the terms around it are named too
            if depth > 1:
                node = _items(node)
            for name in (named,) if isinstance(named, str) else named:
                node = _field(node, name)


# -- Refusals through every operation -------------------------------------------------------


def card(color: str, value: int) -> dict:
    return {"color": color, "value": value}


def fairy(name: str, mood: int = 2, eliminated: bool = False, treasures=()) -> dict:
    return {
        "name": name,
        "mood": mood,
        "eliminated": eliminated,
        "treasures": [{"name": t, "points": 1} for t in treasures],
    }


def tile(field: int, **shown) -> dict:
    return {"field": field, **shown}


def board(beehives=(), apples=()) -> dict:
    return {
        "tiles": [],
        "board": {
            "beehives": [{"field": f, "edge": e, "value": 3} for f, e in beehives],
            "apples": [{"variety": v, "fields": list(f)} for v, f in apples],
        },
    }


PICK = {
    "players": [{"name": "Aki", "cards": [card("purple", -1)]}, {"name": "Ben", "cards": [card("green", 2)]}],
    "me": "Aki",
    "table": [card("red", 1)],
    "sets": 1,
}
END = {"players": 3, "star_deck_runouts": 0, "treasure_deck_empty": False, "treasure_discard_empty": False}
CALLS = {"dealer": "N", "calls": [8, "pass", 9, "pass"]}
TRICK = {"trump": "H", "leader": "N", "cards": ["AH", "KH", "2H", "3H"]}
CROSSED = {"min_bid": 10, "max_bid": 9}
FORCED_LOW = {"dealer_forced_bid": 5}
BID = {"team": "NS", "amount": 7}
POINTS = {"bid": BID, "points": {"NS": 8, "EW": 6}}
HAND = {**POINTS, "scores_before": {"NS": 0, "EW": 0}}
CAPTURED_HAND = {"bid": BID, "trump": "H", "two_dealt_to": None}
CAPTURED = {**CAPTURED_HAND, "scores_before": {"NS": 0, "EW": 0}}
RED = {"red": 1}
SEVEN = {f"v{i}": 1 for i in range(7)}
TWO_TILES_ON_1 = {"tiles": [tile(1, apples=RED), tile(1, apples=RED)]}
NEW = tile(2, apples=RED, beehives=["e"], price=1)
PRINTED = {"apples": RED, "beehives": ["e"], "price": 1}


def harvest(orchard: dict, varieties=("red",)) -> dict:
    return {"orchard": orchard, "varieties": list(varieties), "die": 1}


def placement(orchard: dict, new: dict, pay: bool = True) -> dict:
    return {"orchard": orchard, "tile": new, "pay": pay}


def placements(orchard: dict, printed: dict) -> dict:
    return {"orchard": orchard, "tile": printed, "supply": 5}


#: (operation, request, refusal code, the one path of its details)
REFUSALS = [
    ("score_apero", {"players": [{"name": "Aki", "cards": [card("red", 1)]}] * 2}, "duplicate_name", "players[1].name"),
    (
        "score_apero",
        {"players": [{"name": "Aki", "cards": [card("red", 1), card("red", -1)]}]},
        "no_such_card",
        "players[0].cards[1]",
    ),
    (
        "score_apero",
        {"players": [{"name": "Aki", "cards": [card("red", 3)]}, {"name": "Ben", "cards": [card("red", 3)]}]},
        "too_many_copies",
        "players[1].cards[0]",
    ),
    ("apero_pick", {**PICK, "players": [PICK["players"][0]] * 2}, "duplicate_name", "players[1].name"),
    ("apero_pick", {**PICK, "me": "Cho"}, "unknown_me", "me"),
    ("apero_pick", {**PICK, "table": [card("red", 1), card("red", -1)]}, "no_such_card", "table[1]"),
    ("apero_pick", {**PICK, "table": [card("red", 3), card("red", 3)]}, "too_many_copies", "table[1]"),
    (
        "apero_pick",
        {**PICK, "players": [PICK["players"][0], {"name": "Ben", "cards": [card("red", 3), card("red", -2)]}]},
        "no_such_card",
        "players[1].cards[1]",
    ),
    ("score_fairy_black_box", {"players": [fairy("Aki"), fairy("Aki")]}, "duplicate_name", "players[1].name"),
    (
        "score_fairy_black_box",
        {"players": [fairy("Aki"), fairy("Ben", 0, True, ["x"])]},
        "eliminated_with_treasures",
        "players[1].treasures",
    ),
    ("score_fairy_black_box", {"players": [fairy("Aki", 0), fairy("Ben")]}, "mood_zero_in_game", "players[0].mood"),
    (
        "score_fairy_black_box",
        {"players": [fairy("Aki", treasures=["x"] * 8), fairy("Ben", treasures=["x"] * 8)]},
        "too_many_treasures",
        "players[1].treasures",
    ),
    (
        "score_fairy_black_box",
        {"players": [fairy("Aki", treasures=["きらきら", "キラキラ"]), fairy("Ben")]},
        "kirakira_held_twice",
        "players[0].treasures[1]",
    ),
    (
        "score_fairy_black_box",
        {"players": [fairy("Aki", treasures=["きらきら"]), fairy("Ben", treasures=["x", "kirakira"])]},
        "two_kirakira",
        "players[1].treasures[1]",
    ),
    ("fairy_black_box_end_check", {**END, "players_left": 4}, "players_left_above_count", "players_left"),
    (
        "fairy_black_box_end_check",
        {**END, "players": 2, "star_deck_runouts": 2, "players_left": 2},
        "star_deck_past_end",
        "star_deck_runouts",
    ),
    (
        "fairy_black_box_next_player",
        {"players": [{"name": "Aki", "treasure_count": 1}, {"name": "Aki", "treasure_count": 1}]},
        "duplicate_name",
        "players[1].name",
    ),
    (
        "fairy_black_box_next_player",
        {"players": [{"name": "Aki", "treasure_count": 10}, {"name": "Ben", "treasure_count": 6}]},
        "too_many_treasures",
        "players[1].treasure_count",
    ),
    ("fairy_black_box_next_player", {"players": [{"name": "Aki", "treasure_count": 1}]}, "game_over", "players"),
    ("pedro_auction", {**CALLS, "calls": [7, "pass", 9]}, "call_count", "calls"),
    (
        "pedro_auction",
        {**CALLS, "calls": [7, "pass", 9, "pass"], "rules": {"min_bid": 8, "dealer_forced_bid": 8}},
        "bid_out_of_range",
        "calls[0]",
    ),
    ("pedro_auction", {**CALLS, "calls": [8, "pass", 8, "pass"]}, "bid_too_low", "calls[2]"),
    ("pedro_auction", {**CALLS, "calls": ["pass"] * 4}, "dealer_forced", "calls[3]"),
    (
        "pedro_auction",
        {**CALLS, "calls": ["pass"] * 4, "rules": {"schedule": "california_16"}},
        "dealer_forced_at_least",
        "calls[3]",
    ),
    ("pedro_auction", {**CALLS, "calls": [7, "pass", 15, "pass"]}, "bid_above_schedule", "calls[2]"),
    ("pedro_auction", {**CALLS, "rules": {"max_bid": 16}}, "option_above_schedule", "rules.max_bid"),
    ("pedro_auction", {**CALLS, "rules": CROSSED}, "min_above_max", "rules.min_bid"),
    ("pedro_auction", {**CALLS, "rules": FORCED_LOW}, "forced_bid_outside", "rules.dealer_forced_bid"),
    ("pedro_trick", {**TRICK, "cards": ["AH", "1H", "2H", "3H"]}, "bad_card", "cards[1]"),
    ("pedro_trick", {**TRICK, "hands": {"E": ["KH", "ZZ"]}}, "bad_card", "hands.E[1]"),
    ("pedro_trick", {**TRICK, "cards": ["AH", "AH", "2H", "3H"]}, "duplicate_card", "cards[1]"),
    ("pedro_trick", {**TRICK, "hands": {"N": ["AH", "4C"], "E": ["KH", "4C"]}}, "card_in_two_hands", "hands.E[1]"),
    ("pedro_trick", {**TRICK, "hands": {"E": ["QH"]}}, "card_not_in_hand", "cards[1]"),
    (
        "pedro_trick",
        {**TRICK, "cards": ["AH", "KS", "2H", "3H"], "hands": {"E": ["KS", "QH"]}},
        "must_follow",
        "cards[1]",
    ),
    ("pedro_trick", {**TRICK, "rules": CROSSED}, "min_above_max", "rules.min_bid"),
    ("pedro_hand", {**HAND, "bid": {"team": "NS", "amount": 5}}, "bid_outside_rules", "bid.amount"),
    ("pedro_hand", {**HAND, "scores_before": {"NS": 100, "EW": 0}}, "game_already_over", "scores_before"),
    ("pedro_hand", {"bid": BID, "scores_before": {"NS": 0, "EW": 0}}, "points_or_captured", "points"),
    ("pedro_hand", {**HAND, "two_played_by": "NS"}, "two_field_for_rule", "two_played_by"),
    ("pedro_hand", {**HAND, "points": {"NS": 10, "EW": 10}}, "too_many_points", "points"),
    ("pedro_hand", {**HAND, "points": {"NS": 4, "EW": 9}}, "impossible_points", "points"),
    ("pedro_hand", {**HAND, "points": {"NS": 3, "EW": 3}}, "points_of_other_schedule", "points"),
    ("pedro_hand", {**HAND, "bid": {"team": "NS", "amount": 16}}, "bid_above_schedule", "bid.amount"),
    ("pedro_hand", {**CAPTURED, "captured": {"NS": ["AH"], "EW": ["KH", "QH", "1Z"]}}, "bad_card", "captured.EW[2]"),
    ("pedro_hand", {**CAPTURED, "captured": {"NS": ["AH"], "EW": ["AH"]}}, "captured_twice", "captured.EW[0]"),
    (
        "pedro_hand",
        {**CAPTURED, "captured": {"NS": [f"{rank}{suit}" for suit in "SC" for rank in "AKQJ98765432"], "EW": ["AD"]}},
        "too_many_captured",
        "captured",
    ),
    ("pedro_hand", {**CAPTURED, "captured": {"NS": ["2H"], "EW": []}}, "two_owner_missing", "two_dealt_to"),
    ("pedro_hand", {**HAND, "rules": FORCED_LOW}, "forced_bid_outside", "rules.dealer_forced_bid"),
    (
        "pedro_game",
        {"hands": [POINTS, {**POINTS, "bid": {"team": "NS", "amount": 5}}]},
        "bid_outside_rules",
        "hands[1].bid.amount",
    ),
    (
        "pedro_game",
        {"hands": [{"bid": {"team": "NS", "amount": 14}, "points": {"NS": 14, "EW": 0}}] * 8 + [POINTS]},
        "hand_after_game_over",
        "hands[8]",
    ),
    (
        "pedro_game",
        {"hands": [POINTS, {**CAPTURED_HAND, "captured": {"NS": ["AH", "AH"], "EW": []}}]},
        "captured_twice",
        "hands[1].captured.NS[1]",
    ),
    ("pedro_game", {"hands": [POINTS, {"bid": BID}]}, "points_or_captured", "hands[1].points"),
    ("pedro_game", {"hands": [{**POINTS, "two_played_by": "EW"}]}, "two_field_for_rule", "hands[0].two_played_by"),
    ("pedro_game", {"hands": [POINTS], "rules": CROSSED}, "min_above_max", "rules.min_bid"),
    ("applejack_harvest", harvest(TWO_TILES_ON_1), "field_used_twice", "orchard.tiles[1].field"),
    (
        "applejack_harvest",
        harvest({"tiles": [tile(1, pasture=True, blossoms=1)]}),
        "pasture_with_features",
        "orchard.tiles[0].blossoms",
    ),
    (
        "applejack_harvest",
        harvest({"tiles": [tile(1, apples=RED, beehives=["e", "w", "e"], price=1)]}),
        "beehive_edge_twice",
        "orchard.tiles[0].beehives[2]",
    ),
    (
        "applejack_harvest",
        harvest({"tiles": [tile(1, apples=RED), tile(2, apples=RED, beehives=["e"])]}),
        "beehives_without_price",
        "orchard.tiles[1].price",
    ),
    (
        "applejack_harvest",
        harvest(board(beehives=[(10, "e")])),
        "board_beehive_inner_edge",
        "orchard.board.beehives[0].edge",
    ),
    ("applejack_harvest", harvest(board(beehives=[(1, "nw")] * 2)), "board_beehive_twice", "orchard.board.beehives[1]"),
    (
        "applejack_harvest",
        harvest(board(apples=[("red", (1, 10))])),
        "board_apple_not_border",
        "orchard.board.apples[0].fields[1]",
    ),
    (
        "applejack_harvest",
        harvest(board(apples=[("red", (1, 19))])),
        "board_apple_fields_apart",
        "orchard.board.apples[0].fields",
    ),
    ("applejack_harvest", harvest({"tiles": [tile(1, apples={"": 1})]}), "bad_variety_name", "orchard.tiles[0].apples"),
    ("applejack_harvest", harvest({"tiles": [tile(1, apples=SEVEN)]}), "too_many_varieties", "varieties[0]"),
    (
        "applejack_harvest",
        harvest(
            {**board(apples=[("v6", (1,)), ("red", (2,))]), "tiles": [tile(1, apples={f"v{i}": 1 for i in range(6)})]}
        ),
        "too_many_varieties",
        "orchard.board.apples[1].variety",
    ),
    ("applejack_placement", placement(TWO_TILES_ON_1, NEW), "field_used_twice", "orchard.tiles[1].field"),
    (
        "applejack_placement",
        placement({"tiles": [tile(1, apples=RED)]}, {**NEW, "apples": SEVEN}),
        "too_many_varieties",
        "tile.apples",
    ),
    ("applejack_placement", placement({"tiles": []}, {**NEW, "apples": {"": 1}}), "bad_variety_name", "tile.apples"),
    (
        "applejack_placement",
        placement({"tiles": []}, {**NEW, "beehives": ["e", "e"]}),
        "beehive_edge_twice",
        "tile.beehives[1]",
    ),
    (
        "applejack_placement",
        placement({"tiles": []}, tile(2, apples=RED, beehives=["e"])),
        "beehives_without_price",
        "tile.price",
    ),
    (
        "applejack_placement",
        placement({"tiles": []}, tile(2, pasture=True, blossoms=2), pay=False),
        "pasture_with_features",
        "tile.blossoms",
    ),
    ("applejack_placement", placement({"tiles": [tile(2, apples=RED)]}, NEW), "field_occupied", "tile.field"),
    ("applejack_placement", placement({"tiles": []}, tile(2, pasture=True)), "pasture_not_bought", "pay"),
    ("applejack_placement", placement({"tiles": []}, tile(2, apples=RED)), "price_required", "tile.price"),
    (
        "applejack_placement",
        placement({"tiles": []}, tile(2, apples=RED, price=1)),
        "beehives_required",
        "tile.beehives",
    ),
    (
        "applejack_placement",
        placement({"tiles": [tile(3, apples=RED)]}, NEW),
        "neighbour_beehives_unknown",
        "orchard.tiles[0].beehives",
    ),
    (
        "applejack_blossoms",
        {"orchard": {"tiles": [tile(1, pasture=True, price=1)]}, "times": 1},
        "pasture_with_features",
        "orchard.tiles[0].price",
    ),
    (
        "applejack_blossoms",
        {"orchard": board(apples=[("red", (1, 10))]), "times": 1},
        "board_apple_not_border",
        "orchard.board.apples[0].fields[1]",
    ),
    (
        "applejack_final_score",
        {"orchard": {"tiles": [tile(1, apples=RED), tile(2, apples=RED, beehives=["e", "e"], price=2)]}, "supply": 0},
        "beehive_edge_twice",
        "orchard.tiles[1].beehives[1]",
    ),
    (
        "applejack_final_score",
        {"orchard": {"tiles": [tile(f, apples={f"v{f}": 1}) for f in range(1, 9)]}, "supply": 0},
        "too_many_varieties",
        "orchard.tiles[7].apples",
    ),
    ("applejack_placements", placements(TWO_TILES_ON_1, PRINTED), "field_used_twice", "orchard.tiles[1].field"),
    (
        "applejack_placements",
        placements({"tiles": []}, {**PRINTED, "beehives": ["e", "w", "e"]}),
        "printed_beehive_edge_twice",
        "tile.beehives[2]",
    ),
    (
        "applejack_placements",
        placements({"tiles": []}, {**PRINTED, "apples": {"": 1}}),
        "bad_variety_name",
        "tile.apples",
    ),
    (
        "applejack_placements",
        placements({"tiles": [tile(1, apples=SEVEN)]}, PRINTED),
        "too_many_varieties",
        "tile.apples",
    ),
    (
        "applejack_placements",
        placements({"tiles": [tile(1, apples=RED)]}, {**PRINTED, "beehives": ["e", "w", "ne", "nw", "se", "sw"]}),
        "neighbour_beehives_unknown",
        "orchard.tiles[0].beehives",
    ),
]

#: Codes the request schemas refuse first, so that no request reaches the rule: one such
#: request each, refused as invalid input at the same field.
SCHEMA_FIRST = {"player_count": ("fairy_black_box_setup", {"players": 6}, "players")}


def refused(operation_id: str, request: dict) -> ApiError:
    with pytest.raises(ApiError) as caught:
        OPS[operation_id].run(request, "en")
    return caught.value


@pytest.mark.parametrize(
    "operation_id, request_, code, path", REFUSALS, ids=[f"{o}-{c}-{p}" for o, _, c, p in REFUSALS]
)
def test_a_refusal_points_at_the_field_of_the_request_at_fault(operation_id, request_, code, path):
    error = refused(operation_id, request_)
    assert (error.code, list(error.details)) == (code, [path])
    _walk(OPS[operation_id].request_schema, _segments(path))


def test_every_refusal_code_of_the_games_is_met_through_an_operation():
    """Every ``*Error("code", ...)`` in scoring_api/games is refused above, or the schemas
    refuse its requests first."""
    raised = set()
    for source in GAMES.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
                called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                if called.endswith("Error") and isinstance(node.args[0].value, str) and " " not in node.args[0].value:
                    raised.add(node.args[0].value)
    assert len(raised) == 54
    assert raised == {code for _, _, code, _ in REFUSALS} | set(SCHEMA_FIRST)


@pytest.mark.parametrize("code", SCHEMA_FIRST)
def test_a_rule_the_schema_guards_is_refused_as_invalid_input_at_the_same_field(code):
    operation_id, request, path = SCHEMA_FIRST[code]
    with pytest.raises(ValidationError) as caught:
        OPS[operation_id].run(request, "en")
    assert list(caught.value.messages) == [path]
    assert request_path(("player",), OPS[operation_id].terms) == (path,)


def test_one_rule_under_three_requests_points_into_each():
    """The same refusal of the same rule (two players named alike) lands on each request's field."""
    at = (("player", 1), "name")
    assert request_path(at, OPS["score_apero"].terms) == ("players", 1, "name")
    assert request_path(at, OPS["fairy_black_box_next_player"].terms) == ("players", 1, "name")
    treasures = (("player", 2), "treasure")
    assert request_path(treasures, OPS["score_fairy_black_box"].terms) == ("players", 2, "treasures")
    assert request_path(treasures, OPS["fairy_black_box_next_player"].terms) == ("players", 2, "treasure_count")
    held = (("hand", 3), ("captured", "EW"), ("card", 1))
    assert request_path(held, OPS["pedro_game"].terms) == ("hands", 3, "captured", "EW", 1)
    assert request_path(held[1:], OPS["pedro_hand"].terms) == ("captured", "EW", 1)


def test_a_term_the_operation_does_not_name_is_a_programming_error():
    def nickname(request, lang):
        raise RuleError("duplicate_name", (("player", 1), "nickname"), name="Aki")

    broken = replace(OPS["score_apero"], handler=nickname)
    with pytest.raises(LookupError, match=r"'player\.nickname'"):
        broken.run({"players": [{"name": "Aki", "cards": [card("red", 1)]}]}, "en")
    with pytest.raises(LookupError, match="'me'"):
        request_path(("me",), OPS["score_apero"].terms)  # pick's term, not score's
