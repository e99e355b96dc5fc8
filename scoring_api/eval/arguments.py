"""Argument exactness: did a tool call state the question's state?

A call is exact when it names the question's operation and its arguments, loaded through
the operation's request schema (after the tool's own reading of strict-mode arguments:
a null means "left out", a list of ``{key, value}`` pairs is a map), equal the intended
arguments loaded the same way. Loading makes spellings the service reads alike equal
(赤 and red, an option left out and its default, ``Ａｋｉ`` and ``Aki``). Then what the
rules do not order is compared without order:

* Apero: players by name, each player's cards as a multiset;
* Applejack: tiles by field, a tile's varieties as a map (a pasture's contents ignored, as
  the rules ignore them), the harvested varieties as a set; a variety is its id, or the
  form's word for it in either language, in any case, with ``_``, ``-`` or a space;
* Fairy & Black Box: players by name, an eliminated player's mood ignored (the rules do not
  read it), treasures as a multiset of (is it 〈きらきら〉, points): the questions give no
  treasure names;
* Pedro: the loaded request as it is (maps, nothing ordered).

A call whose arguments cannot be read or loaded is not exact.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable

from marshmallow import ValidationError

from ..error_shape import ApiError
from ..games.fairy_black_box import is_kirakira
from ..operations.registry import find_operation
from ..schemas.localized import localized
from ..tools import rest_arguments
from .terms import VARIETIES, VARIETY_SYNONYMS


def loaded(operation: str, arguments: object) -> object | None:
    """The arguments as the operation's request schema loads them (None if it refuses)."""
    op = find_operation(operation)
    if op is None or not isinstance(arguments, dict):
        return None
    try:
        rest = rest_arguments(operation, arguments, "en")  # as the tool reads them
        return localized(op.request, "en").load(rest) if isinstance(rest, dict) else None
    except (ValidationError, ApiError):
        return None


def _bag(items: Iterable[object]) -> tuple[object, ...]:
    """The items without their order: a multiset, as a tuple in one fixed order (by
    ``repr``, which orders None beside numbers too)."""
    return tuple(sorted(items, key=repr))


def _apero(request: dict) -> object:
    players = _bag((player["name"], _bag(player["cards"])) for player in request["players"])
    return request["sets"], tuple(players)


def variety(name: str) -> str:
    """A variety's id from its id or the form's word for it (any language, case, width)."""
    folded = unicodedata.normalize("NFKC", name).casefold().replace("_", " ").replace("-", " ").strip()
    for words in VARIETIES.values():
        for id_, shown in words.items():
            if folded in (id_.replace("_", " "), shown.casefold()):
                return id_
    return VARIETY_SYNONYMS.get(folded, folded)


def _orchard(orchard) -> object:
    tiles = _bag(
        (
            tile.field,
            tile.pasture,
            () if tile.pasture else _bag((variety(v), n) for v, n in tile.apples.items() if n > 0),
            0 if tile.pasture else tile.blossoms,
            None if tile.beehives is None else _bag(tile.beehives),
            tile.price,
        )
        for tile in orchard.tiles
    )
    beehives = _bag((b.field, b.edge, b.value) for b in orchard.board_beehives)
    apples = _bag((variety(a.variety), _bag(a.fields)) for a in orchard.board_apples)
    return tiles, beehives, apples


def _applejack(request: dict) -> object:
    rest = {key: value for key, value in request.items() if key not in ("orchard", "varieties")}
    varieties = _bag({variety(v) for v in request.get("varieties", ())})
    return _orchard(request["orchard"]), varieties, _bag(rest.items())


def _fairy_black_box(request: dict) -> object:
    return _bag(
        (
            player["name"],
            player["eliminated"],
            None if player["eliminated"] else player["mood"],
            _bag((is_kirakira(t["name"]), t["points"]) for t in player["treasures"]),
        )
        for player in request["players"]
    )


#: How each operation's loaded request is compared (others: as loaded).
CANONICAL: dict[str, Callable[[dict], object]] = {
    "score_apero": _apero,
    "applejack_harvest": _applejack,
    "applejack_final_score": _applejack,
    "score_fairy_black_box": _fairy_black_box,
}


def canonical(operation: str, request: object) -> object:
    form = CANONICAL.get(operation)
    return form(request) if form is not None and isinstance(request, dict) else request


def exact(operation: str, intended: dict, name: str, arguments: object) -> bool:
    """Is the call ``name(arguments)`` the intended call of ``operation``?"""
    if name != operation:
        return False
    given = loaded(operation, arguments)
    return given is not None and canonical(operation, given) == canonical(operation, loaded(operation, intended))
