"""Applejack rules (docs/rules/applejack.md): the orchard, the rulebook's worked examples, and one
hand-built orchard per rule."""

import pytest

from scoring_api.games import applejack
from scoring_api.games import applejack_orchard as board
from scoring_api.games.applejack import BoardApple, BoardBeehive, Orchard, Tile


def tree(field, blossoms=0, beehives=None, price=None, **apples):
    return Tile(field, apples, blossoms, None if beehives is None else tuple(beehives), price)


def pasture(field):
    return Tile(field, pasture=True)


def orchard(*tiles, beehives=(), apples=()):
    return Orchard(tuple(tiles), tuple(beehives), tuple(apples))


def area_summary(found, die):
    assert found.die == die
    return [(a.fields, a.board_apples, a.apples, a.honey) for a in found.areas]


def rule_error(call):
    with pytest.raises(applejack.ApplejackError) as caught:
        call()
    return caught.value


# -- Orchard geometry ---------------------------------------------------------------------


def test_fields_are_numbered_in_reading_order():
    assert board.COORDS[1] == (0, -2) and board.COORDS[10] == (0, 0) and board.COORDS[19] == (0, 2)
    rows = {}
    for field, (q, r) in board.COORDS.items():
        rows.setdefault(r, []).append((q, field))
    assert [len(rows[r]) for r in range(-2, 3)] == [3, 4, 5, 4, 3]
    for row in rows.values():
        assert row == sorted(row)  # left to right within a row
    assert tuple(range(1, 20)) == board.FIELDS


def test_neighbours_are_symmetric_and_the_centre_has_six():
    assert board.neighbours(10) == {"e": 11, "se": 15, "sw": 14, "w": 9, "nw": 5, "ne": 6}
    for field in board.FIELDS:
        for edge, other in board.neighbours(field).items():
            assert board.neighbour(other, board.OPPOSITE[edge]) == field


def test_rim_corner_fields_have_three_outer_edges():
    assert board.outer_edges(1) == ("w", "nw", "ne")
    assert board.outer_edges(2) == ("nw", "ne")
    assert board.outer_edges(10) == ()
    corners = [f for f in board.FIELDS if len(board.outer_edges(f)) == 3]
    assert corners == [1, 3, 8, 12, 17, 19]
    assert sum(len(board.outer_edges(f)) for f in board.FIELDS) == 30
    assert [f for f in board.FIELDS if board.is_border(f)] == [1, 2, 3, 4, 7, 8, 12, 13, 16, 17, 18, 19]


def test_fields_meet_on_the_rim_only_along_the_ring():
    assert board.meet_on_rim(1, 2) and board.meet_on_rim(1, 4) and board.meet_on_rim(8, 13)
    assert not board.meet_on_rim(1, 5)  # adjacent, but their edge lies inside
    assert not board.meet_on_rim(1, 3)  # not adjacent
    ring = [1, 2, 3, 7, 12, 16, 19, 18, 17, 13, 8, 4]  # the border fields, clockwise
    along_ring = {frozenset(pair) for pair in zip(ring, ring[1:] + ring[:1], strict=True)}
    meeting = {frozenset((a, b)) for a in board.FIELDS for b in board.FIELDS if board.meet_on_rim(a, b)}
    assert meeting == along_ring


def test_touching_fields_share_an_edge():
    assert board.touching(10) == (11, 15, 14, 9, 5, 6)
    assert board.touching(1) == (2, 5, 4)
    assert board.edge_between(10, 15) == "se" and board.edge_between(10, 19) is None


# -- Harvest: the rulebook's worked checks ------------------------------------------------


def test_rulebook_two_light_green_areas_at_die_1_give_3():
    garden = orchard(tree(1, light_green=2), tree(3, light_green=3), tree(2, red=1))
    (found,) = applejack.harvests(garden, ["light_green"], 1)
    assert area_summary(found, 1) == [((1,), (), 2, 1), ((3,), (), 3, 2)]
    assert found.honey == 3


def test_rulebook_red_area_of_3_at_die_2_gives_1():
    garden = orchard(tree(10, red=1), tree(11, red=2))
    (found,) = applejack.harvests(garden, ["red"], 2)
    assert area_summary(found, 2) == [((10, 11), (), 3, 1)]
    assert found.honey == 1


def test_two_symbols_are_two_separate_harvests_in_path_order():
    garden = orchard(tree(10, red=3, yellow=4))
    found = applejack.harvests(garden, ["yellow", "red"], 1)
    assert [(h.variety, h.honey) for h in found] == [("yellow", 3), ("red", 2)]


# -- Harvest: one orchard per rule ----------------------------------------------------------


def test_a_pasture_breaks_an_area():
    broken = orchard(tree(8, red=2), pasture(9), tree(10, red=2))
    assert area_summary(applejack.harvest(broken, "red", 1), 1) == [((8,), (), 2, 1), ((10,), (), 2, 1)]
    joined = orchard(tree(8, red=2), tree(9, red=1), tree(10, red=2))
    assert area_summary(applejack.harvest(joined, "red", 1), 1) == [((8, 9, 10), (), 5, 4)]


def test_a_tile_without_the_variety_or_an_empty_field_breaks_an_area():
    other_variety = orchard(tree(8, red=2), tree(9, yellow=5), tree(10, red=2))
    assert [a.fields for a in applejack.harvest(other_variety, "red", 1).areas] == [(8,), (10,)]
    zero_count = orchard(tree(8, red=2), tree(9, red=0, yellow=1), tree(10, red=2))
    assert [a.fields for a in applejack.harvest(zero_count, "red", 1).areas] == [(8,), (10,)]
    gap = orchard(tree(8, red=2), tree(10, red=2))
    assert [a.fields for a in applejack.harvest(gap, "red", 1).areas] == [(8,), (10,)]


def test_a_tile_with_two_varieties_belongs_to_one_area_of_each():
    garden = orchard(tree(9, red=2), tree(10, red=2, yellow=3), tree(11, yellow=1))
    assert area_summary(applejack.harvest(garden, "red", 2), 2) == [((9, 10), (), 4, 2)]
    assert area_summary(applejack.harvest(garden, "yellow", 2), 2) == [((10, 11), (), 4, 2)]


def test_an_area_worth_exactly_the_die_yields_nothing_and_nothing_is_paid():
    garden = orchard(tree(1, red=2), tree(12, red=1))
    assert area_summary(applejack.harvest(garden, "red", 2), 2) == [((1,), (), 2, 0), ((12,), (), 1, 0)]
    assert applejack.harvest(garden, "red", 2).honey == 0


def test_a_variety_nobody_grows_yields_no_areas():
    assert applejack.harvest(orchard(tree(1, red=5)), "pink", 1).areas == ()


def test_an_area_can_wind_around_the_centre():
    ring = orchard(*(tree(f, red=1) for f in (5, 6, 11, 15, 14, 9)), tree(10, yellow=2))
    (area,) = applejack.harvest(ring, "red", 3).areas
    assert area.fields == (5, 6, 9, 11, 14, 15) and area.apples == 6 and area.honey == 3


# -- Side B board apples ---------------------------------------------------------------


def test_a_board_apple_links_the_tiles_it_touches_and_counts_once():
    garden = orchard(
        tree(1, red=2),
        tree(2, red=1),
        tree(3, red=1),
        apples=[BoardApple("red", (1, 2))],
    )
    assert area_summary(applejack.harvest(garden, "red", 1), 1) == [((1, 2, 3), (0,), 5, 4)]


def test_a_board_apple_joins_only_tiles_of_its_variety():
    garden = orchard(tree(1, yellow=2), tree(4, red=2), apples=[BoardApple("red", (1, 4))])
    assert area_summary(applejack.harvest(garden, "red", 1), 1) == [((4,), (0,), 3, 2)]
    assert area_summary(applejack.harvest(garden, "yellow", 1), 1) == [((1,), (), 2, 1)]


def test_a_lone_board_apple_is_an_area_of_one_apple():
    garden = orchard(tree(10, red=3), apples=[BoardApple("red", (19,))])
    assert area_summary(applejack.harvest(garden, "red", 1), 1) == [((10,), (), 3, 2), ((), (0,), 1, 0)]


# -- Placement: price, pasture, beehive connections ------------------------------------------


def test_buying_pays_the_price_and_a_pasture_gains_2():
    garden = orchard(tree(10, beehives=["e"], price=4))
    bought = applejack.place(garden, tree(1, beehives=["e"], price=3, red=1), pay=True)
    assert (bought.cost, bought.pasture_bonus, bought.connections, bought.honey) == (3, 0, (), -3)
    flipped = applejack.place(garden, tree(11, beehives=["w"], price=3, red=1), pay=False)
    assert (flipped.as_pasture, flipped.cost, flipped.pasture_bonus, flipped.connections) == (True, 0, 2, ())
    assert flipped.honey == 2  # a pasture has no beehives: the facing beehive does not connect
    assert applejack.place(garden, pasture(12), pay=False).honey == 2


def test_a_connection_pays_the_lower_number():
    garden = orchard(tree(10, beehives=["e", "sw"], price=5))
    placed = applejack.place(garden, tree(11, beehives=["w"], price=4), pay=True)
    assert [(c.edge, c.neighbour_field, c.own_value, c.other_value, c.honey) for c in placed.connections] == [
        ("w", 10, 4, 5, 4)
    ]
    assert (placed.beehive_honey, placed.cost, placed.honey) == (4, 4, 0)


def test_two_equal_beehives_pay_their_number():
    garden = orchard(tree(10, beehives=["e"], price=3))
    placed = applejack.place(garden, tree(11, beehives=["w"], price=3), pay=True)
    assert [c.honey for c in placed.connections] == [3]


def test_each_connection_pays_separately():
    garden = orchard(
        tree(9, beehives=["e"], price=2),
        tree(11, beehives=["w"], price=6),
        tree(5, beehives=["se"], price=1),
    )
    placed = applejack.place(garden, tree(10, beehives=["w", "e", "nw", "se"], price=3), pay=True)
    assert [(c.edge, c.neighbour_field, c.honey) for c in placed.connections] == [
        ("w", 9, 2),
        ("e", 11, 3),
        ("nw", 5, 1),
    ]
    assert (placed.beehive_honey, placed.honey) == (6, 3)


def test_a_beehive_facing_an_empty_field_a_pasture_or_a_bare_edge_gives_nothing():
    garden = orchard(pasture(9), tree(11, beehives=["e"], price=4), tree(5, beehives=[], price=2))
    placed = applejack.place(garden, tree(10, beehives=["w", "e", "nw", "sw"], price=3), pay=True)
    assert placed.connections == () and placed.honey == -3


def test_only_the_new_tiles_edges_count():
    garden = orchard(tree(10, beehives=["e"], price=3))
    placed = applejack.place(garden, tree(11, beehives=["e"], price=3), pay=True)
    assert placed.connections == ()


def test_a_board_corner_beehive_connects_at_its_outer_edge():
    garden = orchard(beehives=[BoardBeehive(1, "nw", 5), BoardBeehive(1, "ne", 2)])
    placed = applejack.place(garden, tree(1, beehives=["nw", "w"], price=3), pay=True)
    assert [(c.edge, c.neighbour_field, c.own_value, c.other_value, c.honey) for c in placed.connections] == [
        ("nw", None, 3, 5, 3)
    ]
    assert placed.honey == 0


# -- Blossoms, starting honey, final scoring ------------------------------------------------


def test_blossoms_once_then_twice_and_pastures_show_none():
    garden = orchard(tree(1, blossoms=2, red=1), tree(2, blossoms=3), pasture(3))
    assert applejack.blossoms(garden) == 5
    assert applejack.blossom_honey(garden, 1) == 5 and applejack.blossom_honey(garden, 2) == 10


@pytest.mark.parametrize(
    "players, honey",
    [(1, (14,)), (2, (16, 20)), (3, (16, 19, 22)), (4, (16, 18, 20, 22))],
)
def test_starting_honey_by_seat(players, honey):
    assert applejack.starting_honey(players) == honey


def rulebook_final_orchard():
    """Crop 18 over 5 profitable varieties (6+4+3+3+2), 12 blossoms, one unprofitable."""
    return orchard(
        tree(1, blossoms=3, brown=9),
        tree(3, blossoms=3, light_green=7),
        tree(8, blossoms=2, red=6),
        tree(12, blossoms=2, pink=6),
        tree(17, blossoms=2, orange=5),
        tree(19, yellow=3),
        pasture(10),
    )


def test_rulebook_final_example_18_doubled_36_plus_11_for_5_varieties():
    score = applejack.final_score(rulebook_final_orchard(), supply=20)
    assert [(h.variety, h.die, h.honey) for h in score.harvests] == [
        ("brown", 3, 6),
        ("light_green", 3, 4),
        ("red", 3, 3),
        ("pink", 3, 3),
        ("orange", 3, 2),
        ("yellow", 3, 0),
    ]
    assert (score.crop, score.crop_doubled) == (18, 36)
    assert score.profitable_varieties == ("brown", "light_green", "red", "pink", "orange")
    assert score.variety_bonus == 11
    assert (score.blossoms, score.supply, score.total) == (12, 20, 36 + 11 + 12 + 20)


@pytest.mark.parametrize("profitable, bonus", [(0, 0), (1, 0), (3, 0), (4, 4), (5, 11), (6, 21), (7, 35)])
def test_variety_bonus(profitable, bonus):
    assert applejack.variety_bonus(profitable) == bonus


def test_exactly_4_profitable_varieties_give_4_and_3_give_nothing():
    four = orchard(tree(1, a=4), tree(3, b=4), tree(8, c=5), tree(12, d=4), tree(19, e=3))
    score = applejack.final_score(four, supply=0)
    assert score.profitable_varieties == ("a", "b", "c", "d") and score.variety_bonus == 4
    assert score.total == 2 * (1 + 1 + 2 + 1) + 4
    three = orchard(tree(1, a=4), tree(3, b=4), tree(8, c=5), tree(12, d=3))
    score = applejack.final_score(three, supply=0)
    assert score.profitable_varieties == ("a", "b", "c") and score.variety_bonus == 0
    assert score.total == 2 * 4


def test_final_harvest_counts_board_apples():
    garden = orchard(tree(1, red=3), apples=[BoardApple("red", (1,))])
    score = applejack.final_score(garden, supply=0)
    assert score.crop == 1 and score.profitable_varieties == ("red",)


# -- Refusals ------------------------------------------------------------------------------


def test_a_field_used_twice_is_refused():
    error = rule_error(lambda: applejack.check_orchard(orchard(tree(5, red=1), tree(5, red=2))))
    assert (error.code, error.at, error.facts) == (
        "field_used_twice",
        (("tile", 1), "field"),
        {"field": 5},
    )


@pytest.mark.parametrize(
    "tile, feature, term",
    [
        (Tile(4, {"red": 1}, pasture=True), "apples", "apple"),
        (Tile(4, blossoms=1, pasture=True), "blossoms", "blossom"),
        (Tile(4, beehives=("e",), pasture=True), "beehives", "beehive"),
        (Tile(4, price=2, pasture=True), "price", "price"),
    ],
)
def test_a_pasture_carrying_anything_is_refused(tile, feature, term):
    error = rule_error(lambda: applejack.check_orchard(orchard(tile)))
    assert (error.code, error.at, error.facts) == (
        "pasture_with_features",
        (("tile", 0), term),
        {"field": 4, "feature": feature},
    )


def test_beehive_edges_are_distinct_and_carry_a_price():
    error = rule_error(lambda: applejack.check_orchard(orchard(tree(4, beehives=["e", "w", "e"], price=1))))
    assert error.code == "beehive_edge_twice" and error.at == (("tile", 0), ("beehive", 2))
    error = rule_error(lambda: applejack.check_orchard(orchard(tree(4, beehives=["e"]))))
    assert error.code == "beehives_without_price"


def test_the_check_returns_the_varieties_named_in_order_of_first_appearance():
    garden = orchard(tree(4, red=0, pink=2), tree(1, yellow=1, pink=3), apples=[BoardApple("brown", (1,))])
    assert applejack.check_orchard(garden) == ["pink", "yellow", "brown"] == garden.varieties()
    more = [("red", (("variety", 0),)), ("pink", (("variety", 1),))]
    assert applejack.check_orchard(garden, more_varieties=more) == ["pink", "yellow", "brown", "red"]


def test_a_tiles_refusal_is_located_at_that_tile():
    garden = orchard(tree(1, red=1), tree(2, beehives=["e", "e"], price=1))
    error = rule_error(lambda: applejack.check_orchard(garden))
    assert (error.code, error.at) == ("beehive_edge_twice", (("tile", 1), ("beehive", 1)))
    error = rule_error(lambda: applejack.place(orchard(), Tile(3, {"": 0}), pay=False))
    assert (error.code, error.at) == ("bad_variety_name", ("new_tile", "apple"))


def test_more_than_7_varieties_are_refused():
    eight = orchard(*(tree(f, **{f"v{f}": 1}) for f in range(1, 9)))
    error = rule_error(lambda: applejack.check_orchard(eight))
    assert error.code == "too_many_varieties" and error.facts["count"] == 8
    seven = orchard(*(tree(f, **{f"v{f}": 1}) for f in range(1, 8)))
    applejack.check_orchard(seven)
    error = rule_error(lambda: applejack.harvests(seven, ["v1", "other"], 1))
    assert error.code == "too_many_varieties" and error.at == (("variety", 1),)


@pytest.mark.parametrize("name", ["", "x" * 31, "\ud800"])
def test_variety_names_are_bounded(name):
    error = rule_error(lambda: applejack.check_orchard(orchard(tree(1, **{name: 1}))))
    assert error.code == "bad_variety_name"


def test_board_beehives_sit_on_outer_edges_once():
    error = rule_error(lambda: applejack.check_orchard(orchard(beehives=[BoardBeehive(1, "e", 3)])))
    assert error.code == "board_beehive_inner_edge" and error.facts["outer"] == ["w", "nw", "ne"]
    assert (
        rule_error(lambda: applejack.check_orchard(orchard(beehives=[BoardBeehive(10, "e", 3)]))).code
        == "board_beehive_inner_edge"
    )
    twice = orchard(beehives=[BoardBeehive(1, "w", 3), BoardBeehive(1, "w", 4)])
    assert rule_error(lambda: applejack.check_orchard(twice)).code == "board_beehive_twice"


def test_board_apples_touch_the_rim_next_to_one_or_two_neighbouring_fields():
    inner = orchard(apples=[BoardApple("red", (10,))])
    assert rule_error(lambda: applejack.check_orchard(inner)).code == "board_apple_not_border"
    apart = orchard(apples=[BoardApple("red", (1, 3))])
    assert rule_error(lambda: applejack.check_orchard(apart)).code == "board_apple_fields_apart"
    same = orchard(apples=[BoardApple("red", (1, 1))])
    assert rule_error(lambda: applejack.check_orchard(same)).code == "board_apple_fields_apart"
    applejack.check_orchard(orchard(apples=[BoardApple("red", (2, 3)), BoardApple("red", (17,))]))


def test_placement_refusals():
    garden = orchard(tree(10, beehives=["e"], price=4), tree(12, red=2))
    cases = [
        (tree(10, beehives=["e"], price=1), True, "field_occupied", ("new_tile", "field")),
        (pasture(11), True, "pasture_not_bought", ("side",)),
        (tree(11, beehives=["w"]), True, "beehives_without_price", ("new_tile", "price")),
        (tree(11, red=1), True, "price_required", ("new_tile", "price")),
        (tree(11, price=2, red=1), True, "beehives_required", ("new_tile", "beehive")),
        (tree(11, beehives=["e"], price=2), True, "neighbour_beehives_unknown", (("tile", 1), "beehive")),
    ]
    for tile, pay, code, at in cases:
        error = rule_error(lambda tile=tile, pay=pay: applejack.place(garden, tile, pay))
        assert (error.code, error.at) == (code, at), tile
