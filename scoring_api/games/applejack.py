"""Applejack: harvests, beehive honey, blossoms and final scoring of one orchard.

Rules: ``docs/rules/applejack.md`` (seed 002 and the published rulebook). The tile list
and the printed board values are not in our sources, so the caller describes every tile
and the board; everything the rules derive from them is computed here exactly.
The geometry (fields 1-19, edges, neighbours) lives in :mod:`.applejack_orchard`.

Decisions where the rules are silent (the rules file's "Decisions"):

* Variety ids are free strings (1-30 characters), at most 7 distinct per request
  (the orchard, its board apples and the varieties asked for together).
* A tree tile's beehives and price may be left out when they do not matter (harvest,
  blossoms, final scoring); beehives need a price (every beehive carries the price).
  Placement needs them: the placed tile, when bought, must give its price and at least
  one beehive, and a tree tile it would connect to must state its beehives.
* A pasture shows nothing: it may not carry apples (a count above 0), blossoms, beehives
  or a price. Placing with ``pay: false`` flips the tile described to its pasture side.
* A board apple (side B) counts as 1 apple of its variety; it touches one border field,
  or two that share an edge reaching the rim. It joins the area of every touching tile
  showing its variety (so it can link two tiles); alone it is an area of 1 apple.
* Final scoring harvests every variety of the orchard (tiles and board apples), in order
  of first appearance in the request; the orchard need not be full.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field as dataclass_field

from . import applejack_orchard as board
from .rule_error import Position, RuleError

MAX_VARIETIES = 7
VARIETY_NAME_LENGTH = (1, 30)
PASTURE_BONUS = 2

#: Honey in hand at the start, by number of players, in seat order ("Starting honey").
STARTING_HONEY: dict[int, tuple[int, ...]] = {
    1: (14,),
    2: (16, 20),
    3: (16, 19, 22),
    4: (16, 18, 20, 22),
}

#: "Final scoring", step 3: number of profitable varieties -> bonus honey (fewer: 0).
VARIETY_BONUS: dict[int, int] = {4: 4, 5: 11, 6: 21, 7: 35}

FINAL_DIE = 3


class ApplejackError(RuleError):
    """An Applejack request the rules do not allow (a field used twice, an inner-edge
    board beehive, a pasture with apples, ...).

    Its position names the orchard's tiles ``("tile", i)``, board beehives
    ``("board_beehive", i)`` and board apples ``("board_apple", i)``, the tile being
    placed ``"new_tile"``, the varieties to harvest ``("variety", i)`` and the side it is
    placed on ``"side"``; inside a tile: ``"field"``, ``"apple"``, ``"blossom"``,
    ``"beehive"`` (one: ``("beehive", i)``) and ``"price"``; inside a board beehive
    ``"edge"``, inside a board apple ``"variety"`` and the fields it touches ``"field"``
    (one: ``("field", i)``)."""


# -- The orchard as plain data -----------------------------------------------------------


@dataclass(frozen=True)
class Tile:
    """A tile on a field: a tree side (apples per variety, blossoms, beehive edges as
    placed, price) or a pasture (nothing on it counts)."""

    field: int
    apples: dict[str, int] = dataclass_field(default_factory=dict)
    blossoms: int = 0
    beehives: tuple[str, ...] | None = None  # None: not stated
    price: int | None = None
    pasture: bool = False

    def shows(self, variety: str) -> bool:
        return not self.pasture and self.apples.get(variety, 0) > 0


@dataclass(frozen=True)
class BoardBeehive:
    """A beehive printed on the board at an outer edge of a border field."""

    field: int
    edge: str
    value: int


@dataclass(frozen=True)
class BoardApple:
    """An apple printed in a corner of side B, next to one or two border fields."""

    variety: str
    fields: tuple[int, ...]


@dataclass(frozen=True)
class Orchard:
    tiles: tuple[Tile, ...] = ()
    board_beehives: tuple[BoardBeehive, ...] = ()
    board_apples: tuple[BoardApple, ...] = ()

    def varieties(self) -> list[str]:
        """Varieties shown by tiles (a tree side with a count above 0) or board apples, in
        order of first appearance (tiles first)."""
        return list(self.first_appearances())

    def first_appearances(self) -> dict[str, Position]:
        """Variety -> where it first appears, in order of first appearance: tiles showing
        it (a count above 0, at ``(("tile", i), "apple")``), then board apples (at
        ``(("board_apple", i), "variety")``)."""
        seen: dict[str, Position] = {}
        for index, tile in enumerate(self.tiles):
            if tile.pasture:
                continue
            for variety, count in tile.apples.items():
                if count > 0 and variety not in seen:
                    seen[variety] = (("tile", index), "apple")
        for index, apple in enumerate(self.board_apples):
            if apple.variety not in seen:
                seen[apple.variety] = (("board_apple", index), "variety")
        return seen

    def tile_at(self, field: int) -> tuple[int, Tile] | None:
        for index, tile in enumerate(self.tiles):
            if tile.field == field:
                return index, tile
        return None


# -- Checks ---------------------------------------------------------------------------


def _is_variety_name(name: str) -> bool:
    """1-30 characters that can be shown (encodable as UTF-8: no lone surrogates)."""
    low, high = VARIETY_NAME_LENGTH
    if not low <= len(name) <= high:
        return False
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _bad_variety_name(name: str, at: Position) -> ApplejackError:
    low, high = VARIETY_NAME_LENGTH
    shown = name.encode("utf-8", "replace").decode("utf-8")[: high + 1]
    return ApplejackError("bad_variety_name", at, variety=shown, low=low, high=high)


def _check_pasture(tile: Tile) -> None:
    """A pasture shows nothing: no apples (a count above 0), blossoms, beehives or price
    (the first one found is named, in that order; the fact ``feature`` is its key in the
    catalogue's ``applejack.features``)."""
    if any(count > 0 for count in tile.apples.values()):
        feature, term = "apples", "apple"
    elif tile.blossoms > 0:
        feature, term = "blossoms", "blossom"
    elif tile.beehives:
        feature, term = "beehives", "beehive"
    elif tile.price is not None:
        feature, term = "price", "price"
    else:
        return
    raise ApplejackError("pasture_with_features", (term,), field=tile.field, feature=feature)


def _check_beehives(tile: Tile) -> None:
    """A tree tile's beehive edges are distinct and carry the tile's price."""
    edges = tile.beehives
    assert edges is not None  # only called for a tile whose beehives are stated and not empty
    for index, edge in enumerate(edges):
        if edge in edges[:index]:
            raise ApplejackError("beehive_edge_twice", (("beehive", index),), field=tile.field, edge=edge)
    if tile.price is None:
        raise ApplejackError("beehives_without_price", ("price",), field=tile.field)


def check_tile(tile: Tile) -> None:
    """A pasture shows nothing; a tree tile's varieties have names (:func:`_is_variety_name`)
    and its beehive edges are distinct and carry the tile's price.

    Errors are located inside the tile (``("price",)``): the caller puts them inside the
    tile's own position (:meth:`~.errors.RuleError.within`).
    """
    if tile.pasture:
        _check_pasture(tile)
        return
    for variety in tile.apples:
        if not _is_variety_name(variety):
            raise _bad_variety_name(variety, ("apple",))
    if tile.beehives:
        _check_beehives(tile)


def _check_tiles(orchard: Orchard) -> None:
    """Each field holds one tile, and each tile is legal (:func:`check_tile`)."""
    used: set[int] = set()
    for index, tile in enumerate(orchard.tiles):
        if tile.field in used:
            raise ApplejackError("field_used_twice", (("tile", index), "field"), field=tile.field)
        used.add(tile.field)
        try:
            check_tile(tile)
        except ApplejackError as error:
            raise error.within(("tile", index)) from None


def _check_board(orchard: Orchard) -> None:
    """Board beehives sit on outer edges, one per edge; board apples lie on the rim next
    to one border field or two fields that share an edge reaching the rim."""
    seen: set[tuple[int, str]] = set()
    for index, hive in enumerate(orchard.board_beehives):
        outer = board.outer_edges(hive.field)
        if hive.edge not in outer:
            raise ApplejackError(
                "board_beehive_inner_edge",
                (("board_beehive", index), "edge"),
                field=hive.field,
                edge=hive.edge,
                outer=list(outer),
            )
        spot = (hive.field, hive.edge)
        if spot in seen:
            raise ApplejackError(
                "board_beehive_twice",
                (("board_beehive", index),),
                field=hive.field,
                edge=hive.edge,
            )
        seen.add(spot)
    for index, apple in enumerate(orchard.board_apples):
        printed = ("board_apple", index)
        if not _is_variety_name(apple.variety):
            raise _bad_variety_name(apple.variety, (printed, "variety"))
        for position, field in enumerate(apple.fields):
            if not board.is_border(field):
                raise ApplejackError("board_apple_not_border", (printed, ("field", position)), field=field)
        if len(apple.fields) == 2 and not board.meet_on_rim(*apple.fields):
            raise ApplejackError("board_apple_fields_apart", (printed, "field"), fields=list(apple.fields))


def check_orchard(orchard: Orchard, more_varieties: Iterable[tuple[str, Position]] = ()) -> list[str]:
    """Every rule of a legal orchard description; raises :class:`ApplejackError`.

    ``more_varieties`` are ``(variety, position)`` pairs also named by the request (the
    varieties to harvest, a tile being placed); with the orchard's own they may number at
    most 7 distinct (docs/rules/applejack.md, "Decisions", 1). Returns the varieties
    named, in order of first appearance (the orchard's own first, as
    :meth:`Orchard.varieties` lists them).
    """
    _check_tiles(orchard)
    _check_board(orchard)
    named = orchard.varieties()
    for variety, at in more_varieties:
        if not _is_variety_name(variety):
            raise _bad_variety_name(variety, at)
        if variety not in named:
            named.append(variety)
    if len(named) > MAX_VARIETIES:
        found_at = orchard.first_appearances()
        for variety, at in more_varieties:
            found_at.setdefault(variety, at)
        raise ApplejackError(
            "too_many_varieties",
            found_at[named[MAX_VARIETIES]],
            count=len(named),
            limit=MAX_VARIETIES,
            varieties=named,
        )
    return named


# -- Harvest ----------------------------------------------------------------------------


def area_honey(apples: int, die: int) -> int:
    """docs/rules/applejack.md, "Harvest": an area yields max(0, apples - die); nothing is
    ever paid."""
    return max(0, apples - die)


@dataclass(frozen=True)
class Area:
    """One area of a variety: its tiles' fields, the board apples joined to them, the
    apples they show together and the honey they yield at the harvest's die
    (:func:`area_honey`)."""

    variety: str
    fields: tuple[int, ...]
    board_apples: tuple[int, ...]  # indices into the orchard's board apples
    apples: int
    honey: int


@dataclass(frozen=True)
class Harvest:
    """One variety harvested at one die value: its areas and their honey added up."""

    variety: str
    die: int
    areas: tuple[Area, ...]
    honey: int


#: Board apples of one variety as ``(index, touched fields)``, in index order.
BoardApples = list[tuple[int, tuple[int, ...]]]


def _linked(field: int, printed: BoardApples) -> list[int]:
    """The fields an area reaches from ``field``: those sharing an edge with it, and those
    a board apple touching it also touches (docs/rules/applejack.md, "Decisions", 4)."""
    linked = list(board.touching(field))
    for _, fields in printed:
        if field in fields:
            linked += fields
    return linked


def _groups(showing: dict[int, int], printed: BoardApples) -> list[tuple[int, ...]]:
    """The fields of the tiles ``showing`` a variety, split into areas (each sorted), in
    the order of their smallest field."""
    unseen = set(showing)
    groups = []
    while unseen:
        start = min(unseen)
        unseen.remove(start)
        group = [start]
        for field in group:  # the list grows while it is read: a breadth-first fill
            for other in _linked(field, printed):
                if other in unseen:
                    unseen.remove(other)
                    group.append(other)
        groups.append(tuple(sorted(group)))
    return groups


def harvest(orchard: Orchard, variety: str, die: int) -> Harvest:
    """One harvest of one variety at the die's value (1-3), without checks
    (docs/rules/applejack.md, "Harvest"): the maximal groups of tiles showing ``variety``
    joined by shared edges (a tile without it, a pasture or an empty field breaks an
    area), each board apple of ``variety`` joined to every touching tile showing it
    ("Decisions", 4); each area yields :func:`area_honey`.

    Areas are ordered by their smallest field; areas of a lone board apple come last.
    """
    showing = {tile.field: tile.apples[variety] for tile in orchard.tiles if tile.shows(variety)}
    printed = [(index, apple.fields) for index, apple in enumerate(orchard.board_apples) if apple.variety == variety]
    areas = []
    for group in _groups(showing, printed):
        joined = tuple(index for index, fields in printed if any(field in group for field in fields))
        apples = sum(showing[field] for field in group) + len(joined)
        areas.append(Area(variety, group, joined, apples, area_honey(apples, die)))
    for index, fields in printed:
        if not any(field in showing for field in fields):  # a lone board apple
            areas.append(Area(variety, (), (index,), 1, area_honey(1, die)))
    return Harvest(variety, die, tuple(areas), sum(area.honey for area in areas))


def harvests(orchard: Orchard, varieties: list[str], die: int) -> tuple[Harvest, ...]:
    """docs/rules/applejack.md, "Harvest": one or two apple symbols passed, harvested
    separately in path order (every player harvests; this is one player's orchard)."""
    check_orchard(orchard, more_varieties=[(v, (("variety", i),)) for i, v in enumerate(varieties)])
    return tuple(harvest(orchard, variety, die) for variety in varieties)


# -- Placing a tile (turn steps 2-4) ----------------------------------------------------


@dataclass(frozen=True)
class Connection:
    """A beehive of the new tile meeting a beehive beyond its edge: a tree tile's facing
    edge (``neighbour_field`` set) or the board's printed beehive (``neighbour_field``
    None)."""

    edge: str
    neighbour_field: int | None
    own_value: int
    other_value: int

    @property
    def honey(self) -> int:
        """The LOWER of the two numbers (4 and 5 -> 4)."""
        return min(self.own_value, self.other_value)


@dataclass(frozen=True)
class Placement:
    """One tile placed and the honey it brings (:func:`place` works the numbers out)."""

    field: int
    as_pasture: bool
    cost: int
    pasture_bonus: int
    connections: tuple[Connection, ...]
    beehive_honey: int  # the connections' honey added up
    honey: int  # the net change of the player's honey: beehive_honey - cost + pasture_bonus


def check_placement(orchard: Orchard, tile: Tile, pay: bool) -> None:
    """The orchard before, plus the tile: its field is empty, and a bought tile shows its
    price and beehives (docs/rules/applejack.md, "Decisions", 3: needed to pay and to
    connect)."""
    check_orchard(
        orchard,
        more_varieties=[(v, ("new_tile", "apple")) for v, n in tile.apples.items() if n > 0],
    )
    try:
        check_tile(tile)
    except ApplejackError as error:
        raise error.within("new_tile") from None
    occupied = orchard.tile_at(tile.field)
    if occupied is not None:
        raise ApplejackError("field_occupied", ("new_tile", "field"), field=tile.field, index=occupied[0])
    if not pay:
        return
    if tile.pasture:
        raise ApplejackError("pasture_not_bought", ("side",), field=tile.field)
    if tile.price is None:
        raise ApplejackError("price_required", ("new_tile", "price"), field=tile.field)
    if not tile.beehives:
        raise ApplejackError("beehives_required", ("new_tile", "beehive"), field=tile.field)


def _printed_beehive(orchard: Orchard, field: int, edge: str) -> int | None:
    """The value of the board beehive printed at that outer edge, if any."""
    for hive in orchard.board_beehives:
        if hive.field == field and hive.edge == edge:
            return hive.value
    return None


def place(orchard: Orchard, tile: Tile, pay: bool) -> Placement:
    """docs/rules/applejack.md, "Placing a tile" (turn steps 2-4): pay the price (or flip
    to pasture for +2), then for each beehive of the NEW tile facing a beehive (on the
    facing edge of a tree tile there, or printed on the board at that outer edge) gain the
    lower number, each connection separately. A pasture has no beehives, so it connects
    to nothing.
    """
    check_placement(orchard, tile, pay)
    return connect(orchard, tile, pay)


def connect(orchard: Orchard, tile: Tile, pay: bool) -> Placement:
    """:func:`place` without its checks, for a placement :func:`check_placement` allows
    (the advice checks the orchard and the tile once for all its options)."""
    if not pay:
        return Placement(tile.field, True, 0, PASTURE_BONUS, (), 0, PASTURE_BONUS)
    # check_placement raised unless a bought tile states its price and (non-empty) beehives
    assert tile.price is not None and tile.beehives is not None
    connections = []
    for edge in tile.beehives:
        beyond = board.neighbour(tile.field, edge)
        if beyond is None:
            printed = _printed_beehive(orchard, tile.field, edge)
            if printed is not None:
                connections.append(Connection(edge, None, tile.price, printed))
            continue
        found = orchard.tile_at(beyond)
        if found is None or found[1].pasture:
            continue
        index, other = found
        if other.beehives is None:
            raise ApplejackError(
                "neighbour_beehives_unknown",
                (("tile", index), "beehive"),
                field=beyond,
                placed=tile.field,
            )
        if board.OPPOSITE[edge] in other.beehives:
            # its beehives are not empty, so check_orchard's _check_beehives required its price
            assert other.price is not None
            connections.append(Connection(edge, beyond, tile.price, other.price))
    beehive_honey = sum(c.honey for c in connections)
    cost = tile.price
    honey = beehive_honey - cost
    return Placement(tile.field, False, cost, 0, tuple(connections), beehive_honey, honey)


# -- Blossoms, starting honey, final scoring -------------------------------------------


def blossoms(orchard: Orchard) -> int:
    """All blossoms shown in the orchard (pastures show none)."""
    return sum(tile.blossoms for tile in orchard.tiles if not tile.pasture)


def blossom_honey(orchard: Orchard, times: int) -> int:
    """docs/rules/applejack.md, "Blossoms": blossoms x1 the first time the die crosses the
    bridge, x2 the second time (no areas, no die)."""
    check_orchard(orchard)
    return blossoms(orchard) * times


def starting_honey(players: int) -> tuple[int, ...]:
    """docs/rules/applejack.md, "Starting honey": honey in hand at the start, by seat
    (solo 14)."""
    return STARTING_HONEY[players]


def variety_bonus(profitable: int) -> int:
    """docs/rules/applejack.md, "Final scoring", step 3: 4/5/6/7 profitable varieties ->
    4/11/21/35 (fewer: 0)."""
    return VARIETY_BONUS.get(profitable, 0)


@dataclass(frozen=True)
class FinalScore:
    """The five steps of final scoring (:func:`final_score` works the numbers out)."""

    harvests: tuple[Harvest, ...]
    blossoms: int
    supply: int
    crop: int
    crop_doubled: int
    profitable_varieties: tuple[str, ...]
    variety_bonus: int
    total: int


def final_score(orchard: Orchard, supply: int) -> FinalScore:
    """docs/rules/applejack.md, "Final scoring": 1. harvest EVERY variety at die 3;
    2. double that crop; 3. variety bonus for the varieties that yielded honey (not
    doubled); 4. blossoms once; 5. the honey in supply."""
    return final_tally(final_harvest(orchard, check_orchard(orchard)), blossoms(orchard), supply)


def final_harvest(orchard: Orchard, varieties: list[str]) -> tuple[Harvest, ...]:
    """Final scoring's step 1 for an orchard already checked: each of ``varieties`` (the
    orchard's, as :func:`check_orchard` lists them) harvested at die 3."""
    return tuple(harvest(orchard, variety, FINAL_DIE) for variety in varieties)


def final_tally(harvested: tuple[Harvest, ...], shown: int, supply: int) -> FinalScore:
    """Final scoring's steps 2-5 from the final harvest, the blossoms shown and the supply."""
    crop = sum(found.honey for found in harvested)
    profitable = tuple(found.variety for found in harvested if found.honey >= 1)
    doubled = 2 * crop
    bonus = variety_bonus(len(profitable))
    return FinalScore(harvested, shown, supply, crop, doubled, profitable, bonus, doubled + bonus + shown + supply)
