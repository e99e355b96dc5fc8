"""Applejack over HTTP: harvest, placement, blossoms, final scoring, starting honey."""

from __future__ import annotations

from ..games import applejack
from ..i18n import join_list, t
from ..schemas import applejack as schemas
from .operations import operation

TAG = "applejack"
ORCHARD_SHAPE = "Fields 1-19 in reading order (rows 3-4-5-4-3)."


def _join(items: list | tuple, lang: str) -> str:
    """The items listed in ``lang``; "none" when there are none (one needs no separator)."""
    if len(items) == 1:
        return str(items[0])
    return join_list(items, lang) if items else t("applejack.none", lang)


def _edge(edge: str, lang: str) -> str:
    return t(f"applejack.edges.{edge}", lang)


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


def _area(area: applejack.Area, orchard: applejack.Orchard, die: int, lang: str) -> dict:
    honey = area.honey(die)
    if not area.fields:
        lone = orchard.board_apples[area.board_apples[0]]
        place = t("applejack.place_board_alone", lang, fields_text=_join(lone.fields, lang))
    elif area.board_apples:
        place = t(
            "applejack.place_fields_board", lang, fields_text=_join(area.fields, lang),
            count=len(area.board_apples),
        )
    else:
        place = t("applejack.place_fields", lang, fields_text=_join(area.fields, lang))
    key = "applejack.area" if honey else "applejack.area_nothing"
    return {
        "fields": list(area.fields),
        "board_apples": list(area.board_apples),
        "apples": area.apples,
        "honey": honey,
        "explanation": t(
            key, lang, variety=area.variety, place=place, apples=area.apples, die=die, honey=honey
        ),
    }


def _harvest(harvest: applejack.Harvest, orchard: applejack.Orchard, lang: str) -> dict:
    areas = [_area(a, orchard, harvest.die, lang) for a in harvest.areas]
    if areas:
        explanation = t(
            "applejack.harvest", lang, variety=harvest.variety, die=harvest.die,
            count=len(areas), parts=" + ".join([str(a["honey"]) for a in areas]),
            honey=harvest.honey,
        )
    else:
        explanation = t("applejack.harvest_empty", lang, variety=harvest.variety, die=harvest.die)
    return {
        "variety": harvest.variety,
        "die": harvest.die,
        "areas": areas,
        "honey": harvest.honey,
        "explanation": explanation,
    }


@operation(
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
    harvests = [_harvest(h, orchard, lang) for h in found]
    honey = sum([h.honey for h in found])
    return {
        "harvests": harvests,
        "honey": honey,
        "explanation": t(
            "applejack.harvest_total", lang,
            parts=" + ".join([str(h["honey"]) for h in harvests]), honey=honey,
        ),
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
        "explanation": t(
            "applejack.connection_board" if on_board else "applejack.connection_tile", lang,
            edge_name=_edge(connection.edge, lang), own=connection.own_value,
            other=connection.other_value, field=connection.neighbour_field, honey=honey,
        ),
    }


@operation(
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
        explanation = t("applejack.placement_pasture", lang, field=placed.field, bonus=placed.pasture_bonus)
    else:
        explanation = t(
            "applejack.placement_tree", lang, field=placed.field, cost=placed.cost,
            count=len(placed.connections), beehive_honey=placed.beehive_honey, honey=placed.honey,
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
        "explanation": t("applejack.blossoms", lang, blossoms=count, times=times, honey=honey),
    }


@operation(
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
    harvests = [_harvest(h, orchard, lang) for h in score.harvests]
    profitable = list(score.profitable_varieties)
    numbers = {
        "crop": score.crop, "crop_doubled": score.crop_doubled, "bonus": score.variety_bonus,
        "blossoms": score.blossoms, "supply": score.supply, "total": score.total,
    }
    parts = " + ".join([str(h["honey"]) for h in harvests]) or "0"
    steps = [
        t("applejack.final_crop", lang, parts=parts, **numbers),
        t("applejack.final_doubled", lang, **numbers),
        t("applejack.final_bonus", lang, count=len(profitable), names=_join(profitable, lang), **numbers),
        t("applejack.final_blossoms", lang, **numbers),
        t("applejack.final_supply", lang, **numbers),
    ]
    return {
        "final_harvest": harvests,
        "crop": score.crop,
        "crop_doubled": score.crop_doubled,
        "profitable_varieties": profitable,
        "variety_bonus": score.variety_bonus,
        "blossoms": score.blossoms,
        "supply": score.supply,
        "total": score.total,
        "steps": steps,
        "explanation": t("applejack.final_total", lang, **numbers),
    }


@operation(
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
        explanation = t("applejack.starting_solo", lang, honey=honey[0])
    else:
        seats = _join(
            [t("applejack.seat", lang, seat=i, honey=h) for i, h in enumerate(honey, start=1)], lang
        )
        explanation = t("applejack.starting", lang, players=players, seats=seats)
    return {"players": players, "honey": list(honey), "explanation": explanation}
