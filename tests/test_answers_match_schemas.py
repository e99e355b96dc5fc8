"""Answers are built once: ``Operation.run`` returns the handler's answer as it is, and
the response schemas stay the contract (docs/performance.md, "Answers built once").

``tests/conftest.py`` checks every answer the suite gets against its operation's response
schema (:func:`~tests.conftest.answer_mismatches`); these tests check that check, and
that each operation's answer is already what the schema's dump would make of it.
"""

from __future__ import annotations

import enum
import json
from dataclasses import replace

import pytest
from marshmallow import fields

from scoring_api.operations.operation import Operation
from scoring_api.operations.registry import OPERATIONS, find_operation
from scoring_api.schemas.common import StrictSchema, integer
from tests.conftest import ANSWER_MISMATCHES, UNCHECKED_RUN, answer_mismatches
from tests.documents import benchmark_request

STARTING_HONEY = find_operation("applejack_starting_honey")
#: Its answer for two players, in English, exactly.
TWO_PLAYERS = {"players": 2, "honey": [16, 20], "explanation": "2 players: seat 1: 16, seat 2: 20"}


def test_run_returns_the_handlers_answer_itself():
    built = dict(TWO_PLAYERS)
    op = replace(STARTING_HONEY, handler=lambda request, lang: built)
    assert UNCHECKED_RUN(op, {"players": 2}, "en") is built  # no dump, no copy
    assert UNCHECKED_RUN(STARTING_HONEY, {"players": 2}, "en") == TWO_PLAYERS


def test_the_tests_run_every_operation_through_the_check():
    assert Operation.run is not UNCHECKED_RUN
    assert Operation.run.__name__ == "_checked_run"


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: op.operation_id)
def test_each_answer_is_what_the_dump_would_make_of_it(op, lang):
    answer = op.run(benchmark_request(op), lang)
    assert answer_mismatches(op, answer) == []
    dumped = op.response_schema.dump(answer)
    assert json.dumps(answer, ensure_ascii=False) == json.dumps(dumped, ensure_ascii=False)  # byte for byte
    assert list(answer) == [f.data_key or name for name, f in op.response_schema.dump_fields.items()]


def test_an_areas_fields_are_a_list_as_the_dump_gave_them():
    """The rules keep an area's fields and board apples as tuples; the answer lists them."""
    op = find_operation("applejack_harvest")
    tiles = [{"field": 1, "apples": {"red": 2}}, {"field": 2, "apples": {"red": 3}}]
    request = {"orchard": {"tiles": tiles, "board": {"apples": [{"variety": "red", "fields": [1]}]}}}
    area = op.run({**request, "varieties": ["red"], "die": 1}, "en")["harvests"][0]["areas"][0]
    assert (area["fields"], area["board_apples"], area["honey"]) == ([1, 2], [0], 5)
    assert type(area["fields"]) is list
    assert type(area["board_apples"]) is list


class Colour(enum.Enum):
    RED = "red"


@pytest.mark.parametrize(
    ("change", "found"),
    [
        pytest.param(
            {"bonus": 1},
            [
                "$.bonus: ['Unknown field.']",
                "$: keys built ['players', 'honey', 'explanation', 'bonus'], "
                "the dump gives ['players', 'honey', 'explanation']",
            ],
            id="an extra key",
        ),
        pytest.param(
            {"players": "2"},
            ["$.players: ['Not a valid integer.']", "$.players: built '2', the dump gives 2"],
            id="text for a number",
        ),
        pytest.param(
            {"players": True},
            ["$.players: ['Not a valid integer.']", "$.players: built True, the dump gives 1"],
            id="a boolean for a number",
        ),
        pytest.param({"honey": (16, 20)}, ["$.honey: tuple is not a JSON type"], id="a tuple"),
        pytest.param({"honey": [16.0, 20]}, ["$.honey[0]: float is not a JSON type"], id="a float"),
        pytest.param({"explanation": Colour.RED}, ["$.explanation: Colour is not a JSON type"], id="an enum"),
        pytest.param({"honey": {1: 16}}, ["$.honey key 1: int is not a JSON type"], id="a number as a key"),
    ],
)
def test_the_check_finds_what_a_dump_would_have_changed(change, found):
    assert answer_mismatches(STARTING_HONEY, {**TWO_PLAYERS, **change}) == found


def test_the_check_finds_keys_out_of_order_and_missing():
    reordered = {"honey": [16, 20], "players": 2, "explanation": TWO_PLAYERS["explanation"]}
    assert answer_mismatches(STARTING_HONEY, reordered) == [
        "$: keys built ['honey', 'players', 'explanation'], the dump gives ['players', 'honey', 'explanation']"
    ]
    assert answer_mismatches(STARTING_HONEY, {"players": 2, "honey": [16, 20]}) == [
        "$.explanation: ['Missing data for required field.']"
    ]
    assert answer_mismatches(STARTING_HONEY, TWO_PLAYERS) == []


class ToySchema(StrictSchema):
    """What a dump adds that a built answer might not: a renamed field, a default."""

    fields_ = fields.List(integer(), data_key="fields", attribute="fields", required=True)
    total = integer(dump_default=0)


class ToyWithMethodSchema(StrictSchema):
    total = integer(required=True)
    shown = fields.Method("show")

    def show(self, answer):
        return str(answer["total"])


def toy(response) -> Operation:
    return Operation("toy", "POST", "/toy", ToySchema, response, lambda request, lang: {}, "A toy.", "A toy.", "toy")


def test_the_check_finds_a_data_key_and_a_dump_default():
    assert answer_mismatches(toy(ToySchema), {"fields": [1], "total": 0}) == []
    assert answer_mismatches(toy(ToySchema), {"fields": [1]}) == [
        "$: keys built ['fields'], the dump gives ['fields', 'total']"
    ]
    assert answer_mismatches(toy(ToySchema), {"fields_": [1], "total": 0}) == [
        "$.fields: ['Missing data for required field.']",
        "$.fields_: ['Unknown field.']",
        "$: keys built ['fields_', 'total'], the dump gives ['total']",
    ]


def test_a_method_field_has_no_place_in_an_answer_built_once():
    """Nothing calls a ``Method`` (or ``Function``) field once no dump runs: without it the
    answer lacks its value, and with it the strict read refuses it (dump-only)."""
    assert answer_mismatches(toy(ToyWithMethodSchema), {"total": 3}) == [
        "$: keys built ['total'], the dump gives ['total', 'shown']"
    ]
    assert answer_mismatches(toy(ToyWithMethodSchema), {"total": 3, "shown": "3"}) == ["$.shown: ['Unknown field.']"]


def test_nested_differences_are_named_by_their_path():
    op = find_operation("pedro_auction")
    answer = op.run(benchmark_request(op), "en")
    answer["calls"][1] = {"call": answer["calls"][1]["call"], "seat": answer["calls"][1]["seat"]}
    answer["rules"]["target"] = 100.0
    assert answer_mismatches(op, answer) == [
        "$.rules.target: float is not a JSON type",
    ]
    answer["rules"]["target"] = 100
    assert answer_mismatches(op, answer) == [
        "$.calls[1]: keys built ['call', 'seat'], the dump gives ['seat', 'call']",
    ]


def test_a_mismatch_fails_the_test_that_got_it():
    """The check records what it finds; the test's call (or tear-down) then fails with it."""
    op = replace(STARTING_HONEY, handler=lambda request, lang: {**TWO_PLAYERS, "players": "2"})
    assert op.run({"players": 2}, "en")["players"] == "2"  # the answer itself goes through
    found = ANSWER_MISMATCHES[:]
    ANSWER_MISMATCHES.clear()  # reported here, so that this test passes
    assert found == [
        "applejack_starting_honey (en), 2 difference(s):\n"
        "    $.players: ['Not a valid integer.']\n"
        "    $.players: built '2', the dump gives 2"
    ]
