"""Where to place a tile: every option against place() and final_score() themselves."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring_api.games import applejack
from scoring_api.games import applejack_orchard as board
from scoring_api.games.applejack import Orchard, Tile
from scoring_api.games.applejack_advice import layouts, placements, rotated
from tests.games.test_applejack_properties import EDGES, VARIETIES, orchards


def test_rotation_turns_each_beehive_one_edge_clockwise():
    assert rotated(("e",), 1) == ("se",)
    assert rotated(("ne", "e"), 1) == ("e", "se")
    assert rotated(("e", "w"), 3) == ("e", "w")
    assert layouts(("e", "w")) == {("e", "w"): 0, ("se", "nw"): 1, ("sw", "ne"): 2}
    assert len(layouts(("e",))) == 6 and len(layouts(tuple(EDGES))) == 1


def test_a_hand_checked_orchard():
    orchard = Orchard((Tile(1, {"red": 3}, 1, ("e",), 2), Tile(2, {"red": 2}, 0, ("w", "e"), 1)))
    options = placements(orchard, Tile(0, {"red": 2}, 0, ("w",), 3), supply=5)
    assert len(options) == 17 * 6 + 17  # every empty field: 6 turns of one beehive, and the pasture
    best = options[0]
    assert (best.field, best.pay, best.honey_now, best.final_if_now) == (3, False, 2, 12)
    on_three = {(o.rotation, o.pay): (o.honey_now, o.final_if_now) for o in options if o.field == 3}
    # tree side on field 3, beehive turned to face field 2's east beehive: pay 3, connect min(3, 1) = 1
    assert on_three[(0, True)] == (-2, 12)  # red 3+2+2 = 7 apples -> 4 honey, doubled 8; blossoms 1; supply 3
    assert on_three[(1, True)] == (-3, 11)  # the beehive faces nothing


def test_without_the_price_in_supply_only_pastures_are_offered():
    options = placements(Orchard(), Tile(0, {"red": 2}, 0, ("w",), 3), supply=2)
    assert {o.pay for o in options} == {False} and len(options) == 19


@st.composite
def printed_tiles(draw):
    shown = draw(st.lists(st.sampled_from(VARIETIES), max_size=2, unique=True))
    beehives = tuple(draw(st.lists(st.sampled_from(EDGES), min_size=1, max_size=6, unique=True)))
    return Tile(
        0, {v: draw(st.integers(0, 4)) for v in shown}, draw(st.integers(0, 3)), beehives, draw(st.integers(0, 6))
    )


@settings(max_examples=60, deadline=None)
@given(orchards(max_tiles=18), printed_tiles(), st.integers(0, 8))
def test_every_option_is_what_the_scorers_say_and_none_is_missing(orchard, tile, supply):
    options = placements(orchard, tile, supply)
    expected = set()
    for field in board.FIELDS:
        if orchard.tile_at(field) is not None:
            continue
        expected.add((field, (), False))
        if supply >= tile.price:
            expected |= {(field, rotated(tile.beehives, steps), True) for steps in range(6)}
    assert {(o.field, o.edges, o.pay) for o in options} == expected
    assert len(options) == len(expected)
    for option in options:
        placed = (
            replace(tile, field=option.field, beehives=option.edges) if option.pay else Tile(option.field, pasture=True)
        )
        assert option.placement == applejack.place(orchard, placed, option.pay)
        after = replace(orchard, tiles=(*orchard.tiles, placed))
        assert option.final == applejack.final_score(after, supply + option.placement.honey)
        if option.pay:
            assert option.edges == rotated(tile.beehives, option.rotation)
    keys = [(-o.final_if_now, -o.honey_now) for o in options]
    assert keys == sorted(keys)
