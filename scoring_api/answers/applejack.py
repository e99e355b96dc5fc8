"""Applejack over HTTP: harvest, placement, blossoms, final scoring, starting honey."""

from __future__ import annotations

from ..games import applejack
from ..games.applejack_orchard import DIRECTIONS
from ..i18n import LANGS, LIST_SEPARATORS, positional, slot, t
from ..operation import Operation, operation
from ..schemas import applejack as schemas

#: This game's operations, in the order they are listed (see scoring_api.operations).
OPERATIONS: list[Operation] = []

TAG = "applejack"
ORCHARD_SHAPE = "Fields 1-19 in reading order (rows 3-4-5-4-3)."


def _area_sentences(place_key: str) -> dict[str, tuple[str, str]]:
    """``applejack.area_nothing`` and ``applejack.area`` with the place ``place_key``
    written in, by language: one ``str.format`` per area, with ``(variety, apples, die,
    honey, fields_text, count)``."""
    sentences = {}
    for lang in LANGS:
        place = t(place_key, lang, fields_text=slot(4), count=slot(5))
        slots = {"variety": slot(0), "apples": slot(1), "die": slot(2), "honey": slot(3), "place": place}
        sentences[lang] = (t("applejack.area_nothing", lang, **slots), t("applejack.area", lang, **slots))
    return sentences


#: The sentences of the answers with positional placeholders, by language. An area's
#: sentence depends on where it lies and is a pair: (it yields nothing, it yields honey).
AREA_ON_FIELDS = _area_sentences("applejack.place_fields")
AREA_WITH_BOARD_APPLES = _area_sentences("applejack.place_fields_board")
AREA_LONE_BOARD_APPLE = _area_sentences("applejack.place_board_alone")
HARVEST = positional("applejack.harvest", "variety", "die", "count", "parts", "honey")
HARVEST_EMPTY = positional("applejack.harvest_empty", "variety", "die")
HARVEST_TOTAL = positional("applejack.harvest_total", "parts", "honey")
CONNECTION_NAMES = ("edge_name", "own", "other", "field", "honey")
CONNECTION_TILE = positional("applejack.connection_tile", *CONNECTION_NAMES)
CONNECTION_BOARD = positional("applejack.connection_board", *CONNECTION_NAMES)
PLACEMENT_TREE = positional("applejack.placement_tree", "field", "cost", "count", "beehive_honey", "honey")
PLACEMENT_PASTURE = positional("applejack.placement_pasture", "field", "bonus")
BLOSSOMS = positional("applejack.blossoms", "blossoms", "times", "honey")
FINAL_CROP = positional("applejack.final_crop", "parts", "crop")
FINAL_DOUBLED = positional("applejack.final_doubled", "crop", "crop_doubled")
FINAL_BONUS = positional("applejack.final_bonus", "count", "names", "bonus")
FINAL_BLOSSOMS = positional("applejack.final_blossoms", "blossoms")
FINAL_SUPPLY = positional("applejack.final_supply", "supply")
FINAL_TOTAL = positional("applejack.final_total", "crop_doubled", "bonus", "blossoms", "supply", "total")
STARTING_SOLO = positional("applejack.starting_solo", "honey")
STARTING = positional("applejack.starting", "players", "seats")
SEAT = positional("applejack.seat", "seat", "honey")
#: Words of lists: the separator (as :func:`~scoring_api.i18n.join_list`) and "none".
NONE = positional("applejack.none")
#: Edge names by language: ``EDGE_NAMES["en"]["ne"] == "upper right (ne)"``.
EDGE_NAMES = {lang: {edge: t(f"applejack.edges.{edge}", lang) for edge in DIRECTIONS} for lang in LANGS}


def _join(items: list | tuple, lang: str) -> str:
    """The items listed in ``lang`` (as :func:`~scoring_api.i18n.join_list`); "none" when
    there are none (one needs no separator)."""
    if len(items) == 1:
        return str(items[0])
    return LIST_SEPARATORS[lang].join(map(str, items)) if items else NONE[lang]


def _edge(edge: str, lang: str) -> str:
    return EDGE_NAMES[lang][edge]


def _display_facts(facts: dict, lang: str) -> dict:
    """Facts of a rule error as text in ``lang`` (edge and feature names, lists)."""
    shown = {}
    if "edge" in facts:
        shown["edge_name"] = _edge(facts["edge"], lang)
    if "feature" in facts:
        shown["feature_name"] = t(f"applejack.features.{facts['feature']}", lang)
    if "outer" in facts:
        shown["outer_text"] = _join([_edge(e, lang) for e in facts["outer"]], lang)
    if "fields" in facts:
        shown["fields_text"] = _join(facts["fields"], lang)
    if "varieties" in facts:
        shown["varieties_text"] = _join(facts["varieties"], lang)
    return shown


# -- Harvests -------------------------------------------------------------------------


def _added(numbers: list[int]) -> int | str:
    """The honey of each part of a sum as the sentences write it, ``1 + 3``; a single part
    as it is (``str.format`` writes a number as ``str`` would)."""
    return numbers[0] if len(numbers) == 1 else " + ".join(map(str, numbers))


def _harvests(harvests: tuple[applejack.Harvest, ...], orchard: applejack.Orchard, lang: str) -> list[dict]:
    """The harvests as answers, each area and each harvest with its sentence in ``lang``
    (the sentences looked up once for all of them).

    Where a sentence lists a single field or adds up a single part, the number itself is
    passed: ``str.format`` writes it as ``str`` would, without a string built first.
    """
    on_fields, with_board_apples = AREA_ON_FIELDS[lang], AREA_WITH_BOARD_APPLES[lang]
    lone_board_apple, separator = AREA_LONE_BOARD_APPLE[lang], LIST_SEPARATORS[lang]
    harvest_sentence, empty_sentence = HARVEST[lang], HARVEST_EMPTY[lang]
    answers = []
    for harvest in harvests:
        variety, die, found = harvest.variety, harvest.die, harvest.areas
        areas = []
        for area in found:
            fields, board_apples, apples, honey = area.fields, area.board_apples, area.apples, area.honey
            if not fields:
                sentences = lone_board_apple
                shown = orchard.board_apples[board_apples[0]].fields  # the fields it lies beside
            else:
                sentences = with_board_apples if board_apples else on_fields
                shown = fields
            sentence = sentences[1] if honey else sentences[0]
            listed = shown[0] if len(shown) == 1 else separator.join(map(str, shown))
            areas.append(
                {
                    "fields": fields,
                    "board_apples": board_apples,
                    "apples": apples,
                    "honey": honey,
                    "explanation": sentence.format(variety, apples, die, honey, listed, len(board_apples)),
                }
            )
        if not found:
            explanation = empty_sentence.format(variety, die)
        else:
            # a single area's honey is the whole sum: no list built for it
            parts = found[0].honey if len(found) == 1 else _added([area.honey for area in found])
            explanation = harvest_sentence.format(variety, die, len(found), parts, harvest.honey)
        answers.append(
            {
                "variety": variety,
                "die": die,
                "areas": areas,
                "honey": harvest.honey,
                "explanation": explanation,
            }
        )
    return answers


@operation(
    OPERATIONS,
    operation_id="applejack_harvest",
    method="POST",
    path="/applejack/harvest",
    request=schemas.ApplejackHarvestRequestSchema,
    response=schemas.ApplejackHarvestResponseSchema,
    tag=TAG,
    display_facts=_display_facts,
    summary="Applejack: honey from one harvest of 1 or 2 apple varieties at die 1-3.",
    description=(
        "Call when the die passes apple symbols. Finds each connected area of tiles showing "
        "the variety (with its fields) and pays max(0, apples - die) honey per area. "
        "Returns honey per area, per variety and in total. " + ORCHARD_SHAPE
    ),
)
def harvest(request: dict, lang: str) -> dict:
    orchard = request["orchard"]
    found = applejack.harvests(orchard, request["varieties"], request["die"])
    parts = [harvest.honey for harvest in found]
    honey = sum(parts)
    return {
        "harvests": _harvests(found, orchard, lang),
        "honey": honey,
        "explanation": HARVEST_TOTAL[lang].format(_added(parts), honey),
    }


# -- Placement -------------------------------------------------------------------------


def _connection(connection: applejack.Connection, lang: str) -> dict:
    on_board = connection.neighbour_field is None
    honey = connection.honey
    return {
        "edge": connection.edge,
        "neighbour": "board" if on_board else "tile",
        "neighbour_field": connection.neighbour_field,
        "own_value": connection.own_value,
        "other_value": connection.other_value,
        "honey": honey,
        "explanation": (CONNECTION_BOARD if on_board else CONNECTION_TILE)[lang].format(
            _edge(connection.edge, lang),
            connection.own_value,
            connection.other_value,
            connection.neighbour_field,
            honey,
        ),
    }


@operation(
    OPERATIONS,
    operation_id="applejack_placement",
    method="POST",
    path="/applejack/placement",
    request=schemas.ApplejackPlacementRequestSchema,
    response=schemas.ApplejackPlacementResponseSchema,
    tag=TAG,
    display_facts=_display_facts,
    summary="Applejack: honey change of placing one tile (price or +2 pasture, beehive links).",
    description=(
        "Call after a player places a tile: give the orchard before, the tile with its field, "
        "and pay. Returns the price paid or the +2 pasture bonus, each beehive connection "
        "(the lower of the two numbers), and the net honey change."
    ),
)
def placement(request: dict, lang: str) -> dict:
    tile = request["tile"]
    placed = applejack.place(request["orchard"], tile, request["pay"])
    if placed.as_pasture:
        explanation = PLACEMENT_PASTURE[lang].format(placed.field, placed.pasture_bonus)
    else:
        explanation = PLACEMENT_TREE[lang].format(
            placed.field, placed.cost, len(placed.connections), placed.beehive_honey, placed.honey
        )
    return {
        "field": placed.field,
        "as_pasture": placed.as_pasture,
        "connections": [_connection(c, lang) for c in placed.connections],
        "beehive_honey": placed.beehive_honey,
        "cost": placed.cost,
        "pasture_bonus": placed.pasture_bonus,
        "honey": placed.honey,
        "explanation": explanation,
    }


# -- Blossoms, final scoring, starting honey --------------------------------------------


@operation(
    OPERATIONS,
    operation_id="applejack_blossoms",
    method="POST",
    path="/applejack/blossoms",
    request=schemas.ApplejackBlossomsRequestSchema,
    response=schemas.ApplejackBlossomsResponseSchema,
    tag=TAG,
    display_facts=_display_facts,
    summary="Applejack: honey from blossom scoring when the die crosses the bridge.",
    description=(
        "Call when the die crosses the bridge (not in the solo game): honey = all blossoms "
        "in the orchard × times (1 the first time, 2 the second). No areas, no die. Returns "
        "the blossom count and the honey."
    ),
)
def blossoms(request: dict, lang: str) -> dict:
    orchard, times = request["orchard"], request["times"]
    honey = applejack.blossom_honey(orchard, times)
    count = applejack.blossoms(orchard)
    return {
        "blossoms": count,
        "times": times,
        "honey": honey,
        "explanation": BLOSSOMS[lang].format(count, times, honey),
    }


@operation(
    OPERATIONS,
    operation_id="applejack_final_score",
    method="POST",
    path="/applejack/final",
    request=schemas.ApplejackFinalRequestSchema,
    response=schemas.ApplejackFinalResponseSchema,
    tag=TAG,
    display_facts=_display_facts,
    summary="Applejack: a player's final score in honey, every step broken out.",
    description=(
        "Call at game end with the orchard and the honey in supply. Harvests every variety at "
        "die 3, doubles it, adds the variety bonus (4/5/6/7 profitable: 4/11/21/35), 1 per "
        "blossom and the supply. Returns each step and the total honey."
    ),
)
def final(request: dict, lang: str) -> dict:
    orchard = request["orchard"]
    score = applejack.final_score(orchard, request["supply"])
    parts = [harvest.honey for harvest in score.harvests]
    profitable = list(score.profitable_varieties)
    crop, doubled, bonus = score.crop, score.crop_doubled, score.variety_bonus
    blossoms, supply, total = score.blossoms, score.supply, score.total
    steps = [
        FINAL_CROP[lang].format(_added(parts) if parts else "0", crop),
        FINAL_DOUBLED[lang].format(crop, doubled),
        FINAL_BONUS[lang].format(len(profitable), _join(profitable, lang), bonus),
        FINAL_BLOSSOMS[lang].format(blossoms),
        FINAL_SUPPLY[lang].format(supply),
    ]
    return {
        "final_harvest": _harvests(score.harvests, orchard, lang),
        "crop": crop,
        "crop_doubled": doubled,
        "profitable_varieties": profitable,
        "variety_bonus": bonus,
        "blossoms": blossoms,
        "supply": supply,
        "total": total,
        "steps": steps,
        "explanation": FINAL_TOTAL[lang].format(doubled, bonus, blossoms, supply, total),
    }


@operation(
    OPERATIONS,
    operation_id="applejack_starting_honey",
    method="GET",
    path="/applejack/starting-honey",
    request=schemas.ApplejackStartingHoneyRequestSchema,
    response=schemas.ApplejackStartingHoneyResponseSchema,
    tag=TAG,
    display_facts=_display_facts,
    summary="Applejack: honey each seat starts with, for 1 (solo) to 4 players.",
    description=(
        "Call when setting up a game. Returns the starting honey by seat, first player first: "
        "2 players 16/20, 3 players 16/19/22, 4 players 16/18/20/22, solo 14."
    ),
)
def starting_honey(request: dict, lang: str) -> dict:
    players = request["players"]
    honey = applejack.starting_honey(players)
    if players == 1:
        explanation = STARTING_SOLO[lang].format(honey[0])
    else:
        seat = SEAT[lang]
        seats = _join([seat.format(i, h) for i, h in enumerate(honey, start=1)], lang)
        explanation = STARTING[lang].format(players, seats)
    return {"players": players, "honey": list(honey), "explanation": explanation}
