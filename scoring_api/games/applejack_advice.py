"""Applejack advice: where to place a tile (docs/rules/applejack.md, Where to place a tile).

Every empty field, every rotation that gives a different beehive layout, and each of
paying for the tree side (when the supply covers the price) or flipping to the pasture:
what the placement brings now (exactly as :func:`~.applejack.place`) and the final score
if the game ended right after it (exactly as :func:`~.applejack.final_score`).

The orchard and the tile are checked once, not once per option; and as beehives play no
part in final scoring, the final harvest and the blossoms are worked out once per field and
side, not once per rotation.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from .applejack import (
    ApplejackError,
    FinalScore,
    Harvest,
    Orchard,
    Placement,
    Tile,
    blossoms,
    check_orchard,
    check_tile,
    connect,
    final_harvest,
    final_tally,
)
from .applejack_orchard import DIRECTIONS, FIELDS

#: The edges clockwise from east: one rotation step turns each beehive one edge on.
CLOCKWISE = tuple(DIRECTIONS)


class PlacementOption(NamedTuple):
    field: int
    rotation: int  # clockwise steps from the tile as printed (0 for a pasture)
    edges: tuple[str, ...]  # the beehive edges as placed, clockwise from east (none for a pasture)
    pay: bool  # True: tree side up, price paid; False: pasture side up
    placement: Placement
    final: FinalScore  # with the tile placed and the supply after the placement

    @property
    def honey_now(self) -> int:
        return self.placement.honey

    @property
    def final_if_now(self) -> int:
        return self.final.total


def rotated(beehives: tuple[str, ...], steps: int) -> tuple[str, ...]:
    """Each beehive edge turned ``steps`` edges clockwise, in clockwise order from east."""
    turned = {CLOCKWISE[(CLOCKWISE.index(edge) + steps) % len(CLOCKWISE)] for edge in beehives}
    return tuple(edge for edge in CLOCKWISE if edge in turned)


def layouts(beehives: tuple[str, ...]) -> dict[tuple[str, ...], int]:
    """Every distinct beehive layout the tile can be turned to, with its fewest steps."""
    found: dict[tuple[str, ...], int] = {}
    for steps in range(len(CLOCKWISE)):
        found.setdefault(rotated(beehives, steps), steps)
    return found


def placements(orchard: Orchard, tile: Tile, supply: int) -> tuple[PlacementOption, ...]:
    """Every way to place ``tile`` (a tree tile as printed; its field is not read), best
    first: by the final score if the game ended now, then by the honey it brings now, then
    by field, rotation and paying first."""
    check_orchard(orchard, more_varieties=[(v, ("new_tile", "apple")) for v, n in tile.apples.items() if n > 0])
    if tile.price is None or not tile.beehives or tile.pasture:
        raise ValueError("a tree tile as printed: its price and at least one beehive (the schema asks for both)")
    for index, edge in enumerate(tile.beehives):  # the tile has no field yet: its own refusal
        if edge in tile.beehives[:index]:
            raise ApplejackError("printed_beehive_edge_twice", ("new_tile", ("beehive", index)), edge=edge)
    try:
        check_tile(tile)  # variety names, as for a placed tile
    except ApplejackError as error:
        raise error.within("new_tile") from None
    occupied = {placed.field for placed in orchard.tiles}
    options = []
    for field in FIELDS:
        if field in occupied:
            continue
        if supply >= tile.price:
            tree = replace(tile, field=field)
            final = _final_parts(orchard, tree)  # the same whichever way it is turned
            for edges, steps in layouts(tile.beehives).items():
                options.append(_option(orchard, replace(tree, beehives=edges), steps, True, final, supply))
        pasture = Tile(field, pasture=True)
        options.append(_option(orchard, pasture, 0, False, _final_parts(orchard, pasture), supply))
    options.sort(key=lambda o: (-o.final_if_now, -o.honey_now, o.field, o.rotation, not o.pay))
    return tuple(options)


def _final_parts(orchard: Orchard, placed: Tile) -> tuple[tuple[Harvest, ...], int]:
    """The final harvest and the blossoms shown of the orchard with ``placed`` in it
    (checked already): neither depends on how a tree tile is turned."""
    after = replace(orchard, tiles=(*orchard.tiles, placed))
    return final_harvest(after, after.varieties()), blossoms(after)


def _option(
    orchard: Orchard, placed: Tile, steps: int, pay: bool, final: tuple[tuple[Harvest, ...], int], supply: int
) -> PlacementOption:
    """One option: the placement's honey (:func:`~.applejack.place` without its checks)
    and the final score of the orchard with the tile placed, from its final harvest and
    blossoms (:func:`_final_parts`)."""
    placement = connect(orchard, placed, pay)
    harvested, shown = final
    return PlacementOption(
        placed.field,
        steps,
        placed.beehives or (),
        pay,
        placement,
        final_tally(harvested, shown, supply + placement.honey),
    )
