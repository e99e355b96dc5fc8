"""Applejack's orchard board: 19 hexagonal fields, their edges and neighbours.

Rules: ``docs/rules/applejack.md``, "Orchard".

* The fields form a hexagon of radius 2, rows of 3, 4, 5, 4, 3 fields, numbered 1-19 in
  reading order (top row left to right, then the next row).
* Axial coordinates ``(q, r)`` with ``max(|q|, |r|, |q + r|) <= 2``; row ``r`` runs -2..2
  from top to bottom; field 1 = (0, -2), field 10 = (0, 0) the centre, field 19 = (0, 2).
* The six edges of a field are named by the direction of the field beyond them:
  ``e`` (+1, 0), ``w`` (-1, 0), ``ne`` (+1, -1), ``nw`` (0, -1), ``se`` (0, +1),
  ``sw`` (-1, +1). Two fields touch when they share an edge.
* An *outer* edge is one with no field beyond it (the board's rim); a *border* field has
  at least one outer edge (the 12 fields of the outer ring).
"""

from __future__ import annotations

RADIUS = 2

#: Edge name -> axial step to the field beyond that edge, clockwise from east.
DIRECTIONS: dict[str, tuple[int, int]] = {
    "e": (1, 0),
    "se": (0, 1),
    "sw": (-1, 1),
    "w": (-1, 0),
    "nw": (0, -1),
    "ne": (1, -1),
}

#: The edge of the neighbour that faces a given edge.
OPPOSITE: dict[str, str] = {"e": "w", "w": "e", "ne": "sw", "sw": "ne", "nw": "se", "se": "nw"}


def _on_board(q: int, r: int) -> bool:
    return max(abs(q), abs(r), abs(q + r)) <= RADIUS


#: Field number -> axial coordinates, in reading order (rows top to bottom, left to right).
COORDS: dict[int, tuple[int, int]] = dict(
    enumerate(
        ((q, r) for r in range(-RADIUS, RADIUS + 1) for q in range(-RADIUS, RADIUS + 1) if _on_board(q, r)),
        start=1,
    )
)
FIELDS: tuple[int, ...] = tuple(COORDS)
FIELD_AT: dict[tuple[int, int], int] = {coords: number for number, coords in COORDS.items()}


def neighbour(field: int, edge: str) -> int | None:
    """The field beyond ``edge`` of ``field``, or None when that edge is on the rim."""
    q, r = COORDS[field]
    dq, dr = DIRECTIONS[edge]
    return FIELD_AT.get((q + dq, r + dr))


def neighbours(field: int) -> dict[str, int]:
    """Edge -> neighbouring field, for the edges that have a field beyond them, in the
    order of :data:`DIRECTIONS`."""
    return {edge: other for edge in DIRECTIONS if (other := neighbour(field, edge)) is not None}


def touching(field: int) -> tuple[int, ...]:
    """The fields that share an edge with ``field``."""
    return tuple(neighbours(field).values())


def outer_edges(field: int) -> tuple[str, ...]:
    """The field's edges on the board's rim, in the order of :data:`DIRECTIONS` (3 for a
    corner field, 2 for the other border fields, none inside)."""
    return tuple(edge for edge in DIRECTIONS if neighbour(field, edge) is None)


def is_border(field: int) -> bool:
    return bool(outer_edges(field))


def edge_between(field: int, other: int) -> str | None:
    """The edge of ``field`` shared with ``other``, or None if they do not touch."""
    for edge, beyond in neighbours(field).items():
        if beyond == other:
            return edge
    return None


def meet_on_rim(field: int, other: int) -> bool:
    """True when two fields share an edge that reaches the board's rim: a point of the rim
    touches both, so a printed corner apple can lie next to both.

    The shared edge has two end points; each is also a corner of the field beyond the two
    edges of ``field`` on either side of it. An end point lies on the rim when that field
    is off the board."""
    edge = edge_between(field, other)
    if edge is None:
        return False
    names = list(DIRECTIONS)
    i = names.index(edge)
    return any(neighbour(field, side) is None for side in (names[(i - 1) % 6], names[(i + 1) % 6]))
