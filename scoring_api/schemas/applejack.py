"""Applejack request and response shapes (``/api/v1/applejack/...``) and their limits.

Cross-field rules (a field used twice, a pasture carrying apples, an inner-edge board
beehive, more than 7 varieties, ...) are the rules module's, raised as rule errors.
"""

from __future__ import annotations

from marshmallow import fields, post_load, validate

from ..games import applejack
from ..games.applejack_orchard import DIRECTIONS, FIELDS
from .common import ItemDict, ItemList, MaxProperties, StrictSchema, boolean, integer

MAX_APPLES = 10  # apples of one variety on one tile
MAX_BLOSSOMS = 10  # blossoms on one tile
MAX_PRICE = 10  # a tile's price = its beehives' number; also a board beehive's value
MAX_BOARD_ITEMS = 30  # board beehives / board apples: the rim has 30 outer edges
MAX_SUPPLY = 10_000  # honey in the player's supply at the end
VARIETY_MIN, VARIETY_MAX = applejack.VARIETY_NAME_LENGTH

EDGES = list(DIRECTIONS)
FIELD_RANGE = validate.Range(min(FIELDS), max(FIELDS))
FIELD_TEXT = "In reading order: rows of 3-4-5-4-3 from the top, 10 the centre."
EDGE_TEXT = "e = right, nw = up-left."
PRICE_TEXT = "Its beehives' number (= its price)."


def variety(**kwargs) -> fields.String:
    return fields.String(validate=validate.Length(VARIETY_MIN, VARIETY_MAX), **kwargs)


# -- The orchard ------------------------------------------------------------------------


class ApplejackTileSchema(StrictSchema):
    field = integer(required=True, validate=FIELD_RANGE, metadata={"description": FIELD_TEXT})
    pasture = boolean(metadata={"description": "Pasture side up."})
    apples = ItemDict(
        keys=fields.String(),
        values=integer(validate=validate.Range(0, MAX_APPLES)),
        validate=MaxProperties(applejack.MAX_VARIETIES),
        metadata={
            "description": "Apples per variety.",
            "maxProperties": applejack.MAX_VARIETIES,
        },
    )
    blossoms = integer(validate=validate.Range(0, MAX_BLOSSOMS))
    beehives = ItemList(
        fields.String(validate=validate.OneOf(EDGES)),
        validate=validate.Length(0, len(EDGES)),
        metadata={
            "description": "Edges with a beehive, as placed: " + EDGE_TEXT,
            "uniqueItems": True,  # the rules refuse an edge given twice
        },
    )
    price = integer(validate=validate.Range(0, MAX_PRICE), metadata={"description": PRICE_TEXT})

    @post_load
    def to_tile(self, tile, **_):
        """The loaded fields as a Tile (``apples`` is the loaded dict itself: a fresh one)."""
        beehives = tile.get("beehives")
        return applejack.Tile(  # positional, as Tile's fields are declared
            tile["field"],
            tile.get("apples", {}),
            tile.get("blossoms", 0),
            None if beehives is None else tuple(beehives),
            tile.get("price"),
            tile.get("pasture", False),
        )


class ApplejackBoardBeehiveSchema(StrictSchema):
    field = integer(required=True, validate=FIELD_RANGE)
    edge = fields.String(required=True, validate=validate.OneOf(EDGES))
    value = integer(required=True, validate=validate.Range(0, MAX_PRICE))

    @post_load
    def to_beehive(self, hive, **_):
        return applejack.BoardBeehive(hive["field"], hive["edge"], hive["value"])


class ApplejackBoardAppleSchema(StrictSchema):
    variety = variety(required=True)
    fields_ = ItemList(
        integer(validate=FIELD_RANGE),
        data_key="fields",
        attribute="fields",
        required=True,
        validate=validate.Length(1, 2),
        metadata={
            "description": "The border fields it touches: one, or two that meet at the rim.",
            "uniqueItems": True,  # the rules refuse a field given twice
        },
    )

    @post_load
    def to_apple(self, apple, **_):
        return applejack.BoardApple(apple["variety"], tuple(apple["fields"]))


class ApplejackBoardSchema(StrictSchema):
    beehives = ItemList(
        fields.Nested(ApplejackBoardBeehiveSchema),
        validate=validate.Length(0, MAX_BOARD_ITEMS),
        metadata={"description": "Beehives printed on the rim: a border field and its outer edge."},
    )
    apples = ItemList(
        fields.Nested(ApplejackBoardAppleSchema),
        validate=validate.Length(0, MAX_BOARD_ITEMS),
        metadata={"description": "Side B's corner apples, 1 each."},
    )


class ApplejackOrchardSchema(StrictSchema):
    tiles = ItemList(
        fields.Nested(ApplejackTileSchema),
        required=True,
        validate=validate.Length(0, len(FIELDS)),
    )
    board = fields.Nested(ApplejackBoardSchema)

    @post_load
    def to_orchard(self, orchard, **_):
        printed = orchard.get("board", {})
        return applejack.Orchard(
            tuple(orchard["tiles"]),
            tuple(printed.get("beehives", ())),
            tuple(printed.get("apples", ())),
        )


# -- Requests -------------------------------------------------------------------------


class ApplejackHarvestRequestSchema(StrictSchema):
    orchard = fields.Nested(ApplejackOrchardSchema, required=True)
    varieties = ItemList(
        variety(),
        required=True,
        validate=validate.Length(1, 2),
        metadata={
            "description": "The varieties the die passed, in path order.",
            "examples": [["red"]],
        },
    )
    die = integer(required=True, validate=validate.Range(1, 3))


class ApplejackPlacementRequestSchema(StrictSchema):
    orchard = fields.Nested(
        ApplejackOrchardSchema, required=True, metadata={"description": "The orchard BEFORE the tile is placed."}
    )
    tile = fields.Nested(
        ApplejackTileSchema, required=True, metadata={"description": "The tile taken, on the empty field it goes to."}
    )
    pay = boolean(
        required=True,
        metadata={"description": "true: pay the price, tree side up; false: flip to pasture for +2 honey."},
    )


class ApplejackBlossomsRequestSchema(StrictSchema):
    orchard = fields.Nested(ApplejackOrchardSchema, required=True)
    times = integer(
        required=True,
        validate=validate.OneOf([1, 2]),
        metadata={"description": "The die's first or second crossing of the bridge."},
    )


class ApplejackFinalRequestSchema(StrictSchema):
    orchard = fields.Nested(ApplejackOrchardSchema, required=True)
    supply = integer(
        required=True,
        validate=validate.Range(0, MAX_SUPPLY),
        metadata={"description": "Honey in supply before final scoring."},
    )


class ApplejackStartingHoneyRequestSchema(StrictSchema):
    players = integer(
        required=True,
        validate=validate.Range(1, 4),
        metadata={"description": "1 = solo."},
    )


# -- Responses ------------------------------------------------------------------------


class ApplejackAreaSchema(StrictSchema):
    fields_ = fields.List(
        integer(),
        data_key="fields",
        attribute="fields",
        required=True,
        metadata={"description": "Fields of the area's tiles (empty for a lone board apple)."},
    )
    board_apples = fields.List(
        integer(),
        required=True,
        metadata={"description": "Indexes of the board apples in this area (orchard.board.apples)."},
    )
    apples = integer(required=True, metadata={"description": "Apples of the variety in the area."})
    honey = integer(required=True, metadata={"description": "max(0, apples - die)."})
    explanation = fields.String(required=True)


class ApplejackHarvestSchema(StrictSchema):
    variety = fields.String(required=True)
    die = integer(required=True)
    areas = fields.List(fields.Nested(ApplejackAreaSchema), required=True)
    honey = integer(required=True, metadata={"description": "Honey of this variety's harvest."})
    explanation = fields.String(required=True)


class ApplejackHarvestResponseSchema(StrictSchema):
    harvests = fields.List(
        fields.Nested(ApplejackHarvestSchema),
        required=True,
        metadata={"description": "One per variety, in path order."},
    )
    honey = integer(required=True, metadata={"description": "Honey gained in total."})
    explanation = fields.String(required=True)


class ApplejackConnectionSchema(StrictSchema):
    edge = fields.String(required=True, metadata={"description": "The new tile's edge with the beehive."})
    neighbour = fields.String(required=True, validate=validate.OneOf(["tile", "board"]))
    neighbour_field = integer(
        required=True, allow_none=True, metadata={"description": "Field of the facing tile; null for a board beehive."}
    )
    own_value = integer(required=True)
    other_value = integer(required=True)
    honey = integer(required=True, metadata={"description": "The lower of the two numbers."})
    explanation = fields.String(required=True)


class ApplejackPlacementResponseSchema(StrictSchema):
    field = integer(required=True)
    as_pasture = fields.Boolean(required=True)
    connections = fields.List(fields.Nested(ApplejackConnectionSchema), required=True)
    beehive_honey = integer(required=True, metadata={"description": "Sum over the connections."})
    cost = integer(required=True, metadata={"description": "Price paid (0 for a pasture)."})
    pasture_bonus = integer(required=True, metadata={"description": "2 for a pasture, else 0."})
    honey = integer(required=True, metadata={"description": "Net change: beehive_honey - cost + pasture_bonus."})
    explanation = fields.String(required=True)


class ApplejackBlossomsResponseSchema(StrictSchema):
    blossoms = integer(required=True, metadata={"description": "Blossoms in the orchard."})
    times = integer(required=True)
    honey = integer(required=True, metadata={"description": "blossoms × times."})
    explanation = fields.String(required=True)


class ApplejackFinalResponseSchema(StrictSchema):
    final_harvest = fields.List(
        fields.Nested(ApplejackHarvestSchema),
        required=True,
        metadata={"description": "Every variety harvested at die 3."},
    )
    crop = integer(required=True, metadata={"description": "Total of the final harvest."})
    crop_doubled = integer(required=True)
    profitable_varieties = fields.List(
        fields.String(), required=True, metadata={"description": "Varieties that yielded at least 1 honey."}
    )
    variety_bonus = integer(required=True, metadata={"description": "4/11/21/35 for 4/5/6/7 profitable varieties."})
    blossoms = integer(required=True, metadata={"description": "+1 per blossom, once."})
    supply = integer(required=True)
    total = integer(required=True, metadata={"description": "crop_doubled + variety_bonus + blossoms + supply."})
    steps = fields.List(fields.String(), required=True, metadata={"description": "One sentence per scoring step."})
    explanation = fields.String(required=True)


class ApplejackStartingHoneyResponseSchema(StrictSchema):
    players = integer(required=True)
    honey = fields.List(integer(), required=True, metadata={"description": "Honey by seat, first player first."})
    explanation = fields.String(required=True)


# -- Where to place a tile ----------------------------------------------------------------


class ApplejackPrintedTileSchema(StrictSchema):
    """A tree tile as printed, before it is placed: no field, beehives at rotation 0."""

    apples = ItemDict(
        keys=fields.String(),
        values=integer(validate=validate.Range(0, MAX_APPLES)),
        validate=MaxProperties(applejack.MAX_VARIETIES),
        metadata={"description": "Apples per variety.", "maxProperties": applejack.MAX_VARIETIES},
    )
    blossoms = integer(validate=validate.Range(0, MAX_BLOSSOMS))
    beehives = ItemList(
        fields.String(validate=validate.OneOf(EDGES)),
        required=True,
        validate=validate.Length(1, len(EDGES)),
        metadata={"description": "Edges with a beehive, as printed: " + EDGE_TEXT, "uniqueItems": True},
    )
    price = integer(required=True, validate=validate.Range(0, MAX_PRICE), metadata={"description": PRICE_TEXT})

    @post_load
    def to_tile(self, tile, **_):
        return applejack.Tile(
            0, tile.get("apples", {}), tile.get("blossoms", 0), tuple(tile["beehives"]), tile["price"]
        )


class ApplejackPlacementsRequestSchema(StrictSchema):
    orchard = fields.Nested(ApplejackOrchardSchema, required=True, metadata={"description": "The orchard now."})
    tile = fields.Nested(ApplejackPrintedTileSchema, required=True, metadata={"description": "The tile taken."})
    supply = integer(
        required=True,
        validate=validate.Range(0, MAX_SUPPLY),
        metadata={"description": "Honey held now (the tree side costs the price)."},
    )


class ApplejackPlacementOptionSchema(StrictSchema):
    field = integer(required=True)
    rotation = integer(required=True, metadata={"description": "Clockwise steps from the tile as printed."})
    beehives = fields.List(fields.String(), required=True, metadata={"description": "Beehive edges as placed."})
    pay = fields.Boolean(required=True, metadata={"description": "true: tree side, price paid; false: pasture."})
    honey_now = integer(required=True, metadata={"description": "The placement's net honey, as /placement."})
    final_if_now = integer(
        required=True,
        metadata={"description": "The final score, as /final, with the tile placed and the honey after it."},
    )


class ApplejackPlacementsResponseSchema(StrictSchema):
    best = fields.Nested(ApplejackPlacementOptionSchema, required=True)
    options = fields.List(
        fields.Nested(ApplejackPlacementOptionSchema),
        required=True,
        metadata={"description": "Every empty field, distinct rotation and side: by final_if_now, then honey_now."},
    )
    explanation = fields.String(required=True, metadata={"description": "The top three options in sentences."})
