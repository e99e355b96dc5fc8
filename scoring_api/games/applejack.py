"""Applejack: harvests, beehive honey, blossoms and final scoring of one orchard.

Rules: ``shared/rules/applejack.md`` (seed 002 and the published rulebook). The tile list
and the printed board values are not in our sources, so the caller describes every tile
and the board; everything the rules derive from them is computed here exactly.
The geometry (fields 1-19, edges, neighbours) lives in :mod:`.applejack_orchard`.

Decisions where the rules are silent (also in the rules file where it decides):

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

from dataclasses import dataclass, field as dataclass_field

from . import applejack_orchard as board
from .errors import RuleError

MAX_VARIETIES = 7
VARIETY_NAME_LENGTH = (1, 30)
PASTURE_BONUS = 2

#: Honey in hand at the start, by number of players, in seat order (rules: "Turn honey").
STARTING_HONEY: dict[int, tuple[int, ...]] = {
    1: (14,),
    2: (16, 20),
    3: (16, 19, 22),
    4: (16, 18, 20, 22),
}

#: Final scoring step 3: number of profitable varieties -> bonus honey (fewer: 0).
VARIETY_BONUS: dict[int, int] = {4: 4, 5: 11, 6: 21, 7: 35}

FINAL_DIE = 3


class ApplejackError(RuleError):
    """An Applejack request the rules do not allow (a field used twice, an inner-edge
    board beehive, a pasture with apples, ...)."""


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
        """Varieties shown by tiles or board apples, in order of first appearance."""
        return list(self.first_appearances())

    def first_appearances(self) -> dict[str, tuple]:
        """Variety -> where it first appears (a path inside the orchard)."""
        seen: dict[str, tuple] = {}
        for index, tile in enumerate(self.tiles):
            for variety in tile.apples:
                if tile.shows(variety):
                    seen.setdefault(variety, ("tiles", index, "apples"))
        for index, apple in enumerate(self.board_apples):
            seen.setdefault(apple.variety, ("board", "apples", index, "variety"))
        return seen

    def tile_at(self, field: int) -> tuple[int, Tile] | None:
        for index, tile in enumerate(self.tiles):
            if tile.field == field:
                return index, tile
        return None


# -- Checks ---------------------------------------------------------------------------


def _check_variety_name(name: str, where: tuple) -> None:
    low, high = VARIETY_NAME_LENGTH
    try:
        name.encode("utf-8")
        printable = True
    except UnicodeEncodeError:
        printable = False
    if not printable or not low <= len(name) <= high:
        shown = name.encode("utf-8", "replace").decode("utf-8")[:high + 1]
        raise ApplejackError("bad_variety_name", where, variety=shown, low=low, high=high)


def _check_tile(tile: Tile, where: tuple) -> None:
    """A pasture shows nothing; beehive edges are distinct and carry the tile's price."""
    if tile.pasture:
        stated = {
            "apples": any(count > 0 for count in tile.apples.values()),
            "blossoms": tile.blossoms > 0,
            "beehives": bool(tile.beehives),
            "price": tile.price is not None,
        }
        for feature, present in stated.items():
            if present:
                raise ApplejackError(
                    "pasture_with_features", where + (feature,), field=tile.field, feature=feature
                )
        return
    for variety in tile.apples:
        _check_variety_name(variety, where + ("apples",))
    edges = tile.beehives or ()
    for index, edge in enumerate(edges):
        if edge in edges[:index]:
            raise ApplejackError(
                "beehive_edge_twice", where + ("beehives", index), field=tile.field, edge=edge
            )
    if edges and tile.price is None:
        raise ApplejackError("beehives_without_price", where + ("price",), field=tile.field)


def _check_board(orchard: Orchard, where: tuple) -> None:
    """Board beehives sit on outer edges, one per edge; board apples lie on the rim next
    to one border field or two fields that share an edge reaching the rim."""
    seen: set[tuple[int, str]] = set()
    for index, hive in enumerate(orchard.board_beehives):
        at = where + ("board", "beehives", index)
        if hive.edge not in board.outer_edges(hive.field):
            raise ApplejackError(
                "board_beehive_inner_edge", at + ("edge",), field=hive.field, edge=hive.edge,
                outer=list(board.outer_edges(hive.field)),
            )
        if (hive.field, hive.edge) in seen:
            raise ApplejackError("board_beehive_twice", at, field=hive.field, edge=hive.edge)
        seen.add((hive.field, hive.edge))
    for index, apple in enumerate(orchard.board_apples):
        at = where + ("board", "apples", index)
        _check_variety_name(apple.variety, at + ("variety",))
        for position, field in enumerate(apple.fields):
            if not board.is_border(field):
                raise ApplejackError(
                    "board_apple_not_border", at + ("fields", position), field=field
                )
        if len(apple.fields) == 2 and not board.meet_on_rim(*apple.fields):
            raise ApplejackError(
                "board_apple_fields_apart", at + ("fields",), fields=list(apple.fields)
            )


def check_orchard(orchard: Orchard, where: tuple = ("orchard",), more_varieties=()) -> None:
    """Every rule of a legal orchard description; raises :class:`ApplejackError`.

    ``more_varieties`` are ``(variety, where)`` pairs also named by the request (the
    varieties to harvest, a tile being placed); with the orchard's own they may number at
    most 7 distinct.
    """
    used: set[int] = set()
    for index, tile in enumerate(orchard.tiles):
        at = where + ("tiles", index)
        if tile.field in used:
            raise ApplejackError("field_used_twice", at + ("field",), field=tile.field)
        used.add(tile.field)
        _check_tile(tile, at)
    _check_board(orchard, where)
    named = {variety: where + at for variety, at in orchard.first_appearances().items()}
    for variety, at in more_varieties:
        _check_variety_name(variety, at)
        named.setdefault(variety, at)
    if len(named) > MAX_VARIETIES:
        last = list(named)[MAX_VARIETIES]
        raise ApplejackError(
            "too_many_varieties", named[last], count=len(named), limit=MAX_VARIETIES,
            varieties=list(named),
        )


# -- Harvest ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Area:
    """One area of a variety: its tiles' fields, the board apples joined to them, the
    apples they show together."""

    variety: str
    fields: tuple[int, ...]
    board_apples: tuple[int, ...]  # indices into the orchard's board apples
    apples: int

    def honey(self, die: int) -> int:
        """Rules, "Harvest": max(0, apples - die); nothing is ever paid."""
        return max(0, self.apples - die)


@dataclass(frozen=True)
class Harvest:
    variety: str
    die: int
    areas: tuple[Area, ...]

    @property
    def honey(self) -> int:
        return sum(area.honey(self.die) for area in self.areas)


def areas(orchard: Orchard, variety: str) -> tuple[Area, ...]:
    """Rules, "Harvest": the maximal groups of tiles showing ``variety`` joined by shared
    edges (a tile without it, a pasture or an empty field breaks an area), each board apple
    of ``variety`` joined to every touching tile showing it (decision: side B).

    Areas are ordered by their smallest field; areas of a lone board apple come last.
    """
    by_field = {tile.field: tile for tile in orchard.tiles if tile.shows(variety)}
    links: dict[int, set[int]] = {
        f: {n for n in board.neighbours(f).values() if n in by_field} for f in by_field
    }
    apples_by_field: dict[int, list[int]] = {}
    lone: list[int] = []
    for index, apple in enumerate(orchard.board_apples):
        if apple.variety != variety:
            continue
        touching = [f for f in apple.fields if f in by_field]
        if not touching:
            lone.append(index)
        for f in touching:
            apples_by_field.setdefault(f, []).append(index)
            links[f].update(touching)  # the apple links the tiles it touches
    found, seen = [], set()
    for start in sorted(by_field):
        if start in seen:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            f = stack.pop()
            group.append(f)
            for n in links[f]:
                if n not in seen:
                    seen.add(n)
                    stack.append(n)
        joined = sorted({i for f in group for i in apples_by_field.get(f, ())})
        count = sum(by_field[f].apples[variety] for f in group) + len(joined)
        found.append(Area(variety, tuple(sorted(group)), tuple(joined), count))
    found.extend(Area(variety, (), (index,), 1) for index in lone)
    return tuple(found)


def harvest(orchard: Orchard, variety: str, die: int) -> Harvest:
    """One harvest of one variety at the die's value (1-3)."""
    return Harvest(variety, die, areas(orchard, variety))


def harvests(orchard: Orchard, varieties: list[str], die: int) -> tuple[Harvest, ...]:
    """Rules, "Harvest": one or two apple symbols passed, harvested separately in path
    order (every player harvests; this is one player's orchard)."""
    check_orchard(orchard, more_varieties=[(v, ("varieties", i)) for i, v in enumerate(varieties)])
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
    field: int
    as_pasture: bool
    cost: int
    pasture_bonus: int
    connections: tuple[Connection, ...]

    @property
    def beehive_honey(self) -> int:
        return sum(c.honey for c in self.connections)

    @property
    def honey(self) -> int:
        """The net change of the player's honey this turn."""
        return self.beehive_honey - self.cost + self.pasture_bonus


def check_placement(orchard: Orchard, tile: Tile, pay: bool) -> None:
    """The orchard before, plus the tile: its field is empty, and a bought tile shows its
    price and beehives (decision: needed to pay and to connect)."""
    check_orchard(
        orchard,
        more_varieties=[(v, ("tile", "apples")) for v, n in tile.apples.items() if n > 0],
    )
    _check_tile(tile, ("tile",))
    occupied = orchard.tile_at(tile.field)
    if occupied is not None:
        raise ApplejackError("field_occupied", ("tile", "field"), field=tile.field, index=occupied[0])
    if not pay:
        return
    if tile.pasture:
        raise ApplejackError("pasture_not_bought", ("pay",), field=tile.field)
    if tile.price is None:
        raise ApplejackError("price_required", ("tile", "price"), field=tile.field)
    if not tile.beehives:
        raise ApplejackError("beehives_required", ("tile", "beehives"), field=tile.field)


def place(orchard: Orchard, tile: Tile, pay: bool) -> Placement:
    """Turn steps 2-4: pay the price (or flip to pasture for +2), then for each beehive of
    the NEW tile facing a beehive (on the facing edge of a tree tile there, or printed on
    the board at that outer edge) gain the lower number, each connection separately.
    A pasture has no beehives, so it connects to nothing.
    """
    check_placement(orchard, tile, pay)
    if not pay:
        return Placement(tile.field, True, 0, PASTURE_BONUS, ())
    printed = {(h.field, h.edge): h.value for h in orchard.board_beehives}
    connections = []
    for edge in tile.beehives:
        beyond = board.neighbour(tile.field, edge)
        if beyond is None:
            if (tile.field, edge) in printed:
                connections.append(Connection(edge, None, tile.price, printed[tile.field, edge]))
            continue
        found = orchard.tile_at(beyond)
        if found is None or found[1].pasture:
            continue
        index, other = found
        if other.beehives is None:
            raise ApplejackError(
                "neighbour_beehives_unknown", ("orchard", "tiles", index, "beehives"),
                field=beyond, placed=tile.field,
            )
        if board.OPPOSITE[edge] in other.beehives:
            connections.append(Connection(edge, beyond, tile.price, other.price))
    return Placement(tile.field, False, tile.price, 0, tuple(connections))


# -- Blossoms, starting honey, final scoring -------------------------------------------


def blossoms(orchard: Orchard) -> int:
    """All blossoms shown in the orchard (pastures show none)."""
    return sum(tile.blossoms for tile in orchard.tiles if not tile.pasture)


def blossom_honey(orchard: Orchard, times: int) -> int:
    """Rules, "Blossom scoring": blossoms x1 the first time the die crosses the bridge,
    x2 the second time (no areas, no die)."""
    check_orchard(orchard)
    return blossoms(orchard) * times


def starting_honey(players: int) -> tuple[int, ...]:
    """Rules, "Turn honey": honey in hand at the start, by seat (solo 14)."""
    return STARTING_HONEY[players]


def variety_bonus(profitable: int) -> int:
    """Final scoring step 3: 4/5/6/7 profitable varieties -> 4/11/21/35 (fewer: 0)."""
    return VARIETY_BONUS.get(profitable, 0)


@dataclass(frozen=True)
class FinalScore:
    harvests: tuple[Harvest, ...]
    blossoms: int
    supply: int

    @property
    def crop(self) -> int:
        return sum(h.honey for h in self.harvests)

    @property
    def crop_doubled(self) -> int:
        return 2 * self.crop

    @property
    def profitable_varieties(self) -> tuple[str, ...]:
        return tuple(h.variety for h in self.harvests if h.honey >= 1)

    @property
    def variety_bonus(self) -> int:
        return variety_bonus(len(self.profitable_varieties))

    @property
    def total(self) -> int:
        return self.crop_doubled + self.variety_bonus + self.blossoms + self.supply


def final_score(orchard: Orchard, supply: int) -> FinalScore:
    """Rules, "Final scoring": 1. harvest EVERY variety at die 3; 2. double that crop;
    3. variety bonus for the varieties that yielded honey (not doubled); 4. blossoms once;
    5. the honey in supply."""
    check_orchard(orchard)
    crop = tuple(harvest(orchard, v, FINAL_DIE) for v in orchard.varieties())
    return FinalScore(crop, blossoms(orchard), supply)
