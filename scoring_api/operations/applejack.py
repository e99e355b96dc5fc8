"""Applejack over HTTP: harvest, placement, blossoms, final scoring and starting honey.

Applies the rules of ``docs/rules/applejack.md`` (:mod:`scoring_api.games.applejack`) and
explains every number with the catalogue's sentences (``messages/applejack.yaml``).
"""

from __future__ import annotations

from ..games import applejack, applejack_advice
from ..i18n import join_list, sentences, t
from ..schemas import applejack as schemas
from .operation import Operation, operation

#: This game's operations, in the order they are listed (see scoring_api.operations).
OPERATIONS: list[Operation] = []

TAG = "applejack"
ORCHARD_SHAPE = "Fields 1-19 in reading order (rows 3-4-5-4-3)."

#: How the requests name the rules' terms inside a tile...
TILE_TERMS = {"field": "field", "apple": "apples", "blossom": "blossoms", "beehive": "beehives", "price": "price"}
#: ...in the orchard: its tiles and the board's beehives and apples...
ORCHARD_TERMS = {
    "tile": ("orchard", "tiles"),
    **{f"tile.{term}": name for term, name in TILE_TERMS.items()},
    "board_beehive": ("orchard", "board", "beehives"),
    "board_beehive.edge": "edge",
    "board_apple": ("orchard", "board", "apples"),
    "board_apple.variety": "variety",
    "board_apple.field": "fields",
}
#: ...and the tile being placed (the request's ``tile``); the advice's tile, as printed,
#: has no field yet.
NEW_TILE_TERMS = {"new_tile": "tile", **{f"new_tile.{term}": name for term, name in TILE_TERMS.items()}}
PRINTED_TILE_TERMS = {term: name for term, name in NEW_TILE_TERMS.items() if term != "new_tile.field"}


def _listed(items, lang: str) -> str:
    """The items listed in ``lang`` (:func:`~scoring_api.i18n.join_list`), "none" when there are none."""
    return join_list(items, lang) if items else t("applejack.none", lang)


def _added(numbers) -> str:
    """The parts of a sum as the sentences write them: ``1 + 3`` (empty for no parts)."""
    return " + ".join(map(str, numbers))


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
        shown["outer_text"] = _listed([_edge(e, lang) for e in facts["outer"]], lang)
    if "fields" in facts:
        shown["fields_text"] = _listed(facts["fields"], lang)
    if "varieties" in facts:
        shown["varieties_text"] = _listed(facts["varieties"], lang)
    return shown


# -- Harvests -------------------------------------------------------------------------


def _area(area: applejack.Area, die: int, orchard: applejack.Orchard, lang: str) -> dict:
    """An area's honey; its sentence names the place: its fields, with the board apples it
    takes in, or a lone board apple by the fields it lies beside."""
    if not area.fields:
        place_key, shown = "applejack.place_board_alone", orchard.board_apples[area.board_apples[0]].fields
    elif area.board_apples:
        place_key, shown = "applejack.place_fields_board", area.fields
    else:
        place_key, shown = "applejack.place_fields", area.fields
    place = t(place_key, lang, fields_text=join_list(shown, lang), fields=len(shown), count=len(area.board_apples))
    return {
        "fields": list(area.fields),
        "board_apples": list(area.board_apples),
        "apples": area.apples,
        "honey": area.honey,
        "explanation": t(
            "applejack.area" if area.honey else "applejack.area_nothing",
            lang,
            variety=area.variety,
            place=place,
            apples=area.apples,
            die=die,
            honey=area.honey,
        ),
    }


def _harvest(harvest: applejack.Harvest, orchard: applejack.Orchard, lang: str) -> dict:
    """A variety's harvest: each area, and the honey they add up to."""
    if harvest.areas:
        explanation = t(
            "applejack.harvest",
            lang,
            variety=harvest.variety,
            die=harvest.die,
            count=len(harvest.areas),
            parts=_added(area.honey for area in harvest.areas),
            honey=harvest.honey,
        )
    else:
        explanation = t("applejack.harvest_empty", lang, variety=harvest.variety, die=harvest.die)
    return {
        "variety": harvest.variety,
        "die": harvest.die,
        "areas": [_area(area, harvest.die, orchard, lang) for area in harvest.areas],
        "honey": harvest.honey,
        "explanation": explanation,
    }


@operation(
    OPERATIONS,
    operation_id="applejack_harvest",
    method="POST",
    path="/applejack/harvest",
    request=schemas.ApplejackHarvestRequestSchema,
    response=schemas.ApplejackHarvestResponseSchema,
    tag=TAG,
    display_facts=_display_facts,
    terms={**ORCHARD_TERMS, "variety": "varieties"},
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
        "harvests": [_harvest(harvest, orchard, lang) for harvest in found],
        "honey": honey,
        "explanation": t("applejack.harvest_total", lang, parts=_added(parts), honey=honey),
    }


# -- Placement -------------------------------------------------------------------------


def _connection(connection: applejack.Connection, lang: str) -> dict:
    """A beehive of the new tile meeting one of a neighbouring tile or of the board."""
    neighbour = "board" if connection.neighbour_field is None else "tile"
    return {
        "edge": connection.edge,
        "neighbour": neighbour,
        "neighbour_field": connection.neighbour_field,
        "own_value": connection.own_value,
        "other_value": connection.other_value,
        "honey": connection.honey,
        "explanation": t(
            f"applejack.connection_{neighbour}",
            lang,
            edge_name=_edge(connection.edge, lang),
            own=connection.own_value,
            other=connection.other_value,
            field=connection.neighbour_field,
            honey=connection.honey,
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
    terms={**ORCHARD_TERMS, **NEW_TILE_TERMS, "side": "pay"},
    summary="Applejack: honey change of placing one tile (price or +2 pasture, beehive links).",
    description=(
        "Call after a player places a tile: give the orchard before, the tile with its field, "
        "and pay. Returns the price paid or the +2 pasture bonus, each beehive connection "
        "(the lower of the two numbers), and the net honey change."
    ),
)
def placement(request: dict, lang: str) -> dict:
    placed = applejack.place(request["orchard"], request["tile"], request["pay"])
    if placed.as_pasture:
        explanation = t("applejack.placement_pasture", lang, field=placed.field, bonus=placed.pasture_bonus)
    else:
        explanation = t(
            "applejack.placement_tree",
            lang,
            field=placed.field,
            cost=placed.cost,
            count=len(placed.connections),
            beehive_honey=placed.beehive_honey,
            honey=placed.honey,
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
    terms=ORCHARD_TERMS,
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
    OPERATIONS,
    operation_id="applejack_final_score",
    method="POST",
    path="/applejack/final",
    request=schemas.ApplejackFinalRequestSchema,
    response=schemas.ApplejackFinalResponseSchema,
    tag=TAG,
    display_facts=_display_facts,
    terms=ORCHARD_TERMS,
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
    profitable = score.profitable_varieties
    steps = [
        t("applejack.final_crop", lang, parts=_added(parts) or 0, crop=score.crop),
        t("applejack.final_doubled", lang, crop=score.crop, crop_doubled=score.crop_doubled),
        t(
            "applejack.final_bonus",
            lang,
            count=len(profitable),
            names=_listed(profitable, lang),
            bonus=score.variety_bonus,
        ),
        t("applejack.final_blossoms", lang, blossoms=score.blossoms),
        t("applejack.final_supply", lang, supply=score.supply),
    ]
    return {
        "final_harvest": [_harvest(harvest, orchard, lang) for harvest in score.harvests],
        "crop": score.crop,
        "crop_doubled": score.crop_doubled,
        "profitable_varieties": list(profitable),
        "variety_bonus": score.variety_bonus,
        "blossoms": score.blossoms,
        "supply": score.supply,
        "total": score.total,
        "steps": steps,
        "explanation": t(
            "applejack.final_total",
            lang,
            crop_doubled=score.crop_doubled,
            bonus=score.variety_bonus,
            blossoms=score.blossoms,
            supply=score.supply,
            total=score.total,
        ),
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
        explanation = t("applejack.starting_solo", lang, honey=honey[0])
    else:
        seats = [t("applejack.seat", lang, seat=seat, honey=h) for seat, h in enumerate(honey, start=1)]
        explanation = t("applejack.starting", lang, players=players, seats=join_list(seats, lang))
    return {"players": players, "honey": list(honey), "explanation": explanation}


# -- Where to place a tile ---------------------------------------------------------------

#: How many of the best options the explanation walks through.
EXPLAINED = 3


def _placement_option(option: applejack_advice.PlacementOption) -> dict:
    return {
        "field": option.field,
        "rotation": option.rotation,
        "beehives": list(option.edges),
        "pay": option.pay,
        "honey_now": option.honey_now,
        "final_if_now": option.final_if_now,
    }


def _advice_sentence(rank: int, option: applejack_advice.PlacementOption, lang: str) -> str:
    if not option.pay:
        return t(
            "applejack.advice_pasture",
            lang,
            rank=rank,
            field=option.field,
            honey_now=option.honey_now,
            final=option.final_if_now,
        )
    return t(
        "applejack.advice_tree",
        lang,
        rank=rank,
        field=option.field,
        edges_text=join_list([_edge(edge, lang) for edge in option.edges], lang),
        honey_now=option.honey_now,
        final=option.final_if_now,
    )


@operation(
    OPERATIONS,
    operation_id="applejack_placements",
    method="POST",
    path="/applejack/placements",
    request=schemas.ApplejackPlacementsRequestSchema,
    response=schemas.ApplejackPlacementsResponseSchema,
    tag=TAG,
    display_facts=_display_facts,
    terms={**ORCHARD_TERMS, **PRINTED_TILE_TERMS},
    summary="Applejack advice: every field, rotation and side for a tile, ranked by the final score.",
    description=(
        "Call when a player asks where to place an Applejack tile: give the orchard, the tile as printed "
        "(beehives at rotation 0, price) and the honey held. Returns every empty field, distinct rotation "
        "and side with the honey now and the final score if the game ended then, best first."
    ),
)
def placements(request: dict, lang: str) -> dict:
    options = applejack_advice.placements(request["orchard"], request["tile"], request["supply"])
    shown = [_placement_option(option) for option in options]
    explained = [_advice_sentence(rank, option, lang) for rank, option in enumerate(options[:EXPLAINED], start=1)]
    return {"best": shown[0], "options": shown, "explanation": sentences(explained, lang)}
