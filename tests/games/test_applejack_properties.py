"""Applejack property tests over random orchards: areas against a flood-fill reference that
works on coordinates, partitions, and totals that add up."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring_api.games import applejack
from scoring_api.games import applejack_orchard as board
from scoring_api.games.applejack import BoardApple, BoardBeehive, Orchard, Tile

pytestmark = pytest.mark.slow  # long property tests: 300 orchards each (docs/development.md)

VARIETIES = ["red", "yellow", "pink"]
EDGES = list(board.DIRECTIONS)
#: Every legal board-apple position: a border field, or two fields meeting at the rim.
APPLE_SPOTS = [(f,) for f in board.FIELDS if board.is_border(f)] + [
    (a, b) for a in board.FIELDS for b in board.FIELDS if a < b and board.meet_on_rim(a, b)
]
OUTER = [(f, e) for f in board.FIELDS for e in board.outer_edges(f)]


def hex_distance(a, b):
    (q1, r1), (q2, r2) = board.COORDS[a], board.COORDS[b]
    return max(abs(q1 - q2), abs(r1 - r2), abs((q1 + r1) - (q2 + r2)))


@st.composite
def tiles(draw, field):
    if draw(st.booleans()) and draw(st.booleans()):
        return Tile(field, pasture=True)
    shown = draw(st.lists(st.sampled_from(VARIETIES), max_size=3, unique=True))
    apples = {v: draw(st.integers(0, 4)) for v in shown}
    beehives = tuple(draw(st.lists(st.sampled_from(EDGES), max_size=3, unique=True)))
    return Tile(field, apples, draw(st.integers(0, 3)), beehives, draw(st.integers(1, 6)))


@st.composite
def orchards(draw, max_tiles=19):
    fields = draw(st.lists(st.sampled_from(board.FIELDS), max_size=max_tiles, unique=True))
    spots = draw(st.lists(st.sampled_from(APPLE_SPOTS), max_size=4))
    hives = draw(st.lists(st.sampled_from(OUTER), max_size=6, unique=True))
    return Orchard(
        tuple(draw(tiles(f)) for f in fields),
        tuple(BoardBeehive(f, e, draw(st.integers(1, 6))) for f, e in hives),
        tuple(BoardApple(draw(st.sampled_from(VARIETIES)), spot) for spot in spots),
    )


def reference_areas(orchard, variety):
    """Flood fill over nodes (tiles showing the variety and its board apples), linking
    tiles at hex distance 1 and each board apple to the showing tiles it lies next to."""
    nodes = [("tile", t.field) for t in orchard.tiles if t.shows(variety)]
    nodes += [("apple", i) for i, a in enumerate(orchard.board_apples) if a.variety == variety]

    def linked(x, y):
        if x[0] == y[0] == "tile":
            return hex_distance(x[1], y[1]) == 1
        if x[0] == y[0] == "apple":
            return False
        tile, apple = (x, y) if x[0] == "tile" else (y, x)
        return tile[1] in orchard.board_apples[apple[1]].fields

    groups, left = [], set(nodes)
    while left:
        group, frontier = set(), [left.pop()]
        while frontier:
            node = frontier.pop()
            group.add(node)
            for other in list(left):
                if linked(node, other):
                    left.discard(other)
                    frontier.append(other)
        groups.append(group)
    return {(frozenset(f for k, f in g if k == "tile"), frozenset(i for k, i in g if k == "apple")) for g in groups}


@settings(max_examples=300, deadline=None)
@given(orchards(), st.sampled_from(VARIETIES), st.integers(1, 3))
def test_areas_match_the_reference_and_partition_the_showing_tiles(orchard, variety, die):
    found = applejack.harvest(orchard, variety, die)
    assert {(frozenset(a.fields), frozenset(a.board_apples)) for a in found.areas} == reference_areas(orchard, variety)
    showing = [t.field for t in orchard.tiles if t.shows(variety)]
    listed = [f for a in found.areas for f in a.fields]
    assert sorted(listed) == sorted(showing)  # every showing tile in exactly one area
    apples_of = [i for i, a in enumerate(orchard.board_apples) if a.variety == variety]
    assert sorted(i for a in found.areas for i in a.board_apples) == apples_of
    by_field = {t.field: t for t in orchard.tiles}
    for area in found.areas:
        expected = sum(by_field[f].apples[variety] for f in area.fields) + len(area.board_apples)
        assert area.apples == expected
        assert area.honey == max(0, area.apples - die)
    assert found.honey == sum(a.honey for a in found.areas)


@settings(max_examples=300, deadline=None)
@given(orchards(), st.sampled_from(VARIETIES))
def test_no_area_touches_another_of_the_same_variety(orchard, variety):
    found = applejack.harvest(orchard, variety, 1).areas
    for i, one in enumerate(found):
        for other in found[i + 1 :]:
            assert all(hex_distance(a, b) > 1 for a in one.fields for b in other.fields)
            assert not set(one.board_apples) & set(other.board_apples)


@settings(max_examples=300, deadline=None)
@given(orchards(), st.integers(0, 200))
def test_final_total_is_the_sum_of_its_parts(orchard, supply):
    score = applejack.final_score(orchard, supply)
    assert [h.variety for h in score.harvests] == orchard.varieties()
    assert all(h.die == 3 for h in score.harvests)
    assert score.crop == sum(a.honey for h in score.harvests for a in h.areas)
    assert score.crop_doubled == 2 * score.crop
    assert score.profitable_varieties == tuple(h.variety for h in score.harvests if h.honey > 0)
    assert score.variety_bonus == {4: 4, 5: 11, 6: 21, 7: 35}.get(len(score.profitable_varieties), 0)
    assert score.blossoms == sum(t.blossoms for t in orchard.tiles if not t.pasture)
    assert score.total == score.crop_doubled + score.variety_bonus + score.blossoms + supply


@settings(max_examples=300, deadline=None)
@given(orchards(max_tiles=18), st.data())
def test_placement_honey_is_connections_minus_price_or_plus_2(orchard, data):
    empty = [f for f in board.FIELDS if orchard.tile_at(f) is None]
    field = data.draw(st.sampled_from(empty))
    beehives = tuple(data.draw(st.lists(st.sampled_from(EDGES), min_size=1, max_size=6, unique=True)))
    tile = Tile(field, {"red": 1}, 0, beehives, data.draw(st.integers(1, 6)))
    pay = data.draw(st.booleans())
    placed = applejack.place(orchard, tile, pay)
    assert placed.honey == placed.beehive_honey - placed.cost + placed.pasture_bonus
    if not pay:
        assert (placed.connections, placed.cost, placed.pasture_bonus) == ((), 0, 2)
        return
    assert placed.cost == tile.price and placed.pasture_bonus == 0
    printed = {(h.field, h.edge): h.value for h in orchard.board_beehives}
    expected = []
    for edge in beehives:
        beyond = board.neighbour(field, edge)
        if beyond is None and (field, edge) in printed:
            expected.append((edge, None, min(tile.price, printed[field, edge])))
        elif beyond is not None:
            found = orchard.tile_at(beyond)
            if found and not found[1].pasture and board.OPPOSITE[edge] in found[1].beehives:
                expected.append((edge, beyond, min(tile.price, found[1].price)))
    assert [(c.edge, c.neighbour_field, c.honey) for c in placed.connections] == expected


@settings(max_examples=300, deadline=None)
@given(orchards())
def test_varieties_and_their_first_appearances_agree(orchard):
    appearances = orchard.first_appearances()
    assert list(appearances) == orchard.varieties()
    for variety, ((kind, index), attribute) in appearances.items():
        if kind == "tile":
            assert attribute == "apple"
            tile = orchard.tiles[index]
            assert tile.shows(variety) and not any(t.shows(variety) for t in orchard.tiles[:index])
        else:
            assert (kind, attribute) == ("board_apple", "variety")
            assert orchard.board_apples[index].variety == variety
            assert not any(t.shows(variety) for t in orchard.tiles)
