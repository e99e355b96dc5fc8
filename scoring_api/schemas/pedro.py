"""Pedro request and response shapes (``/api/v1/pedro/...``) and their limits."""

from __future__ import annotations

import re
from collections.abc import Mapping
from contextvars import ContextVar
from typing import cast

from marshmallow import ValidationError, fields, post_load, validate

from ..games.pedro.cards import CARD_PATTERN, SEATS, SUIT_PATTERN, SUIT_SPELLINGS, TEAMS
from ..games.pedro.rules import TIE_RULES, TWO_SCORED_BY, Rules
from ..games.pedro.schedules import DEFAULT_SCHEDULE, LARGEST_HAND, SCHEDULES
from ..i18n import t
from .common import ItemList, JsonInteger, StrictSchema, integer
from .localized import Message, keyed

#: The highest target, and the most hands a whole game may list: tables play to 50, 62 or
#: 100; a game to 100 took at most 69 hands in 99.99% of 20,000 simulated games (75 at
#: most), and 80 hands of 24 captured cards cost 17-19 ms of server CPU on a busy machine
#: (docs/rules/pedro.md, "Decisions", 16; ``benchmarks/pedro_games.py``, ``worst_valid.py``).
MAX_TARGET = 100
MAX_HANDS = 80
MAX_SCORE = 100_000  # |score| bound for scores_before
MAX_HAND_CARDS = 14  # cards a player may hold before a trick (6, plus kept trumps)
MAX_CAPTURED_PER_TEAM = 24
#: ``decided_by`` of a settled hand that ends the game (:class:`~..games.pedro.scoring.Settlement`).
DECIDED_BY = ("target", "bidder_goes_out", "tie_rule", "extra_hand")

#: The exact spellings of a suit (``trump``): H D C S in either case, ♥♡ ♦♢ ♣♧ ♠♤.
SUIT_NAMES = list(SUIT_SPELLINGS)
#: The calls of one auction round: one per seat (``call_count`` refuses any other number).
CALLS = 4


class FullMatch(validate.Regexp):
    """``Regexp`` that must match the WHOLE text (``re.fullmatch``): with ``match`` a
    pattern ending in ``$`` would also pass a final newline. apispec publishes its pattern
    as ``pattern`` (JSON Schema's ``$`` is the end of the text, so the two agree)."""

    # marshmallow's Regexp.__call__ is overloaded for str and bytes; these schemas validate text only
    def __call__(self, value: str) -> str:  # type: ignore[override]
        if cast("re.Pattern[str]", self.regex).fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


def card_field(**kwargs) -> fields.String:
    """A card as text; parsed (and refused with the card named) by the game rules, which
    accept exactly the texts that fully match :data:`CARD_PATTERN`."""
    return fields.String(
        metadata={
            "description": "Rank then suit, no space, either case: 10H, qs, 5♦.",
            "pattern": CARD_PATTERN,
            "examples": ["5H"],
        },
        validate=validate.Length(2, 3),
        **kwargs,
    )


def cards_field(max_items: int, **kwargs) -> fields.List:
    return ItemList(card_field(), validate=validate.Length(0, max_items), **kwargs)


def seat_field(**kwargs) -> fields.String:
    return fields.String(validate=validate.OneOf(SEATS), **kwargs)


def team_field(**kwargs) -> fields.String:
    return fields.String(validate=validate.OneOf(TEAMS), **kwargs)


class SuitField(fields.String):
    """A suit, spelled as :data:`SUIT_PATTERN` (the whole text) allows: a pattern, not an
    enum (an enum of ``H`` and ``h`` makes client generators clash on the names); refused
    with the list of spellings, as a choice field is."""

    catalogue_messages = {"null": ("validation.enter_choice", {"choices": ", ".join(SUIT_NAMES)})}

    def __init__(self, **kwargs):
        choices = ", ".join(SUIT_NAMES)
        super().__init__(validate=keyed(FullMatch(SUIT_PATTERN), "validation.one_of", choices=choices), **kwargs)


def suit_field(**kwargs) -> fields.String:
    return SuitField(**kwargs)


# -- Bounds by the point schedule ------------------------------------------------------

#: The schedule the Pedro request being read names (:class:`ScheduledRequest` sets it for
#: the length of one load), so that a bound's message quotes that schedule's.
_READING: ContextVar[str] = ContextVar("pedro_schedule_read", default=DEFAULT_SCHEDULE)
#: The messages that quote the points of a hand, one of each per schedule.
_BOUNDED = ("range", "null")


def _schedule_named(data: object) -> str:
    """The schedule a request's rules name; the default when they name none (or no
    schedule there is: the rules' own field refuses that)."""
    rules = data.get("rules") if isinstance(data, Mapping) else None
    named = rules.get("schedule") if isinstance(rules, Mapping) else None
    return named if isinstance(named, str) and named in SCHEDULES else DEFAULT_SCHEDULE


def _reading(key: str) -> str:
    """``range`` -> ``range_guide_14`` while a ``guide_14`` request is read."""
    return f"{key}_{_READING.get()}" if key in _BOUNDED else key


def _per_schedule(key: str, sentence: str, low: int) -> dict[str, Message]:
    """One message ``<key>_<schedule>`` per schedule: ``sentence`` from ``low`` to the
    points of that schedule's hand."""
    return {
        f"{key}_{name}": (sentence, {"min": low, "max": schedule.largest_hand}) for name, schedule in SCHEDULES.items()
    }


def _english(messages: dict[str, Message]) -> dict[str, str]:
    """The messages of an instance no language was given to (see schemas/localized.py)."""
    return {name: t(key, "en", **values) for name, (key, values) in messages.items()}


class ScheduledRequest(StrictSchema):
    """A Pedro request: while it is read, a number refused for its bound is told the
    bound of the schedule its rules name (docs/rules/pedro.md, "Rule options")."""

    def load(self, data, **kwargs):
        reading = _READING.set(_schedule_named(data))
        try:
            return super().load(data, **kwargs)
        finally:
            _READING.reset(reading)


class HandNumber(JsonInteger):
    """A whole number from ``low`` up to the points of a hand (a bid, a team's points).

    Accepted up to the largest schedule's hand (16, the bound the spec states): a number
    the table's schedule cannot hold (15 under ``guide_14``) is the rules' to refuse, naming
    the schedule. Beyond that, or null, the message quotes the bound of the schedule being
    read (14 under ``guide_14``, 16 under ``california_16``)."""

    def __init__(self, low: int, **kwargs) -> None:
        metadata = {"minimum": low, "maximum": LARGEST_HAND, **kwargs.pop("metadata", {})}
        super().__init__(strict=True, metadata=metadata, **kwargs)
        self.low = low
        self.catalogue_messages = {
            **_per_schedule("range", "validation.range_all", low),
            **_per_schedule("null", "validation.enter_integer_between", low),
        }
        self.error_messages = {**self.error_messages, **_english(self.catalogue_messages)}

    def _validated(self, value):
        number = super()._validated(value)
        if number is not None and not self.low <= number <= LARGEST_HAND:
            raise self.make_error("range")
        return number

    def make_error(self, key: str, **kwargs) -> ValidationError:
        return super().make_error(_reading(key), **kwargs)


# -- Rules -----------------------------------------------------------------------------

#: The schedules, as the spec and the tools describe them (docs/rules/pedro.md, "Rule options").
SCHEDULE_DESCRIPTION = (
    "Point schedule, and the bids' defaults: guide_14 (jack 1, 14 a hand; bids 7-14, dealer forced exactly 7) "
    "or california_16 (BGA's default: jack 3, 16 a hand; bids 6-16, dealer at least 6)."
)


class RulesSchema(StrictSchema):
    """Table rules; every field omitted takes the seed's rule (the bids: the schedule's)."""

    target = integer(
        load_default=100,
        validate=validate.Range(1, MAX_TARGET),
        metadata={"description": "Winning score."},
    )
    # the bids' defaults are the schedule's (its description says them)
    min_bid = HandNumber(1)
    max_bid = HandNumber(1)
    dealer_forced_bid = HandNumber(1, metadata={"description": "The dealer's bid after three passes."})
    two_scored_by = fields.String(
        load_default="dealt",
        validate=validate.OneOf(TWO_SCORED_BY),
        metadata={"description": "Who scores the 2 of trump."},
    )
    bidder_out_margin = integer(
        load_default=7,
        validate=validate.Range(0, MAX_TARGET),
        metadata={"description": "Bidder goes out when both teams start a hand this close to the target."},
    )
    tie_rule = fields.String(
        load_default="extra_hand",
        validate=validate.OneOf(TIE_RULES),
        metadata={"description": "When both teams reach the target in one hand."},
    )
    schedule = fields.String(
        load_default=DEFAULT_SCHEDULE,
        validate=validate.OneOf(list(SCHEDULES)),
        metadata={"description": SCHEDULE_DESCRIPTION},
    )

    @post_load
    def to_rules(self, data, **_):
        return Rules(**data)


def rules_field() -> fields.Nested:
    return fields.Nested(RulesSchema, load_default=lambda: Rules())


class RulesOutSchema(StrictSchema):
    target = integer(required=True)
    min_bid = integer(required=True)
    max_bid = integer(required=True)
    dealer_forced_bid = integer(required=True)
    two_scored_by = fields.String(required=True)
    bidder_out_margin = integer(required=True)
    tie_rule = fields.String(required=True)
    schedule = fields.String(
        validate=validate.OneOf(list(SCHEDULES)), metadata={"description": "Only when not guide_14, the default."}
    )


class TeamNumbersSchema(StrictSchema):
    NS = integer(required=True, validate=validate.Range(-MAX_SCORE, MAX_SCORE))
    EW = integer(required=True, validate=validate.Range(-MAX_SCORE, MAX_SCORE))


class TeamScoresAfterSchema(StrictSchema):
    """Scores after a hand: ``scores_before`` (at most ``MAX_SCORE`` either way) moved by
    one hand's points or set-back (at most ``LARGEST_HAND``); scores may go negative."""

    NS = integer(required=True, validate=validate.Range(-MAX_SCORE - LARGEST_HAND, MAX_SCORE + LARGEST_HAND))
    EW = integer(required=True, validate=validate.Range(-MAX_SCORE - LARGEST_HAND, MAX_SCORE + LARGEST_HAND))


class TeamPointsSchema(StrictSchema):
    NS = HandNumber(0, required=True)
    EW = HandNumber(0, required=True)


class CapturedSchema(StrictSchema):
    NS = cards_field(MAX_CAPTURED_PER_TEAM, load_default=list)
    EW = cards_field(MAX_CAPTURED_PER_TEAM, load_default=list)


# -- Auction ---------------------------------------------------------------------------


class CallField(fields.Field):
    """A call: a bid amount (whole number) or ``"pass"``. Its messages are the catalogue's
    (``validation.pedro_call``, ``validation.range_all``), shown in the request's language;
    an amount is bounded as :class:`HandNumber` bounds a bid."""

    catalogue_messages = {
        "invalid": ("validation.pedro_call", {}),
        "null": ("validation.pedro_call", {}),
        **_per_schedule("range", "validation.range_all", 1),
    }
    default_error_messages = {"invalid": "Invalid call.", "null": "Invalid call.", **_english(catalogue_messages)}

    def make_error(self, key: str, **kwargs) -> ValidationError:
        return super().make_error(key if key == "null" else _reading(key), **kwargs)  # null: a call, not a bound

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and value.strip().lower() == "pass":
            return "pass"
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or (isinstance(value, float) and not value.is_integer())
        ):
            raise self.make_error("invalid")
        if not 1 <= value <= LARGEST_HAND:
            raise self.make_error("range")
        return int(value)


CALL_JSON_SCHEMA = {
    "anyOf": [{"type": "integer", "minimum": 1, "maximum": LARGEST_HAND}, {"type": "string", "enum": ["pass"]}]
}


class AuctionRequestSchema(ScheduledRequest):
    dealer = seat_field(
        required=True,
        metadata={"description": "Calls start at the dealer's left (N E S W clockwise)."},
    )
    calls = ItemList(
        CallField(metadata=CALL_JSON_SCHEMA),
        required=True,
        # exactly CALLS items, as the spec says; any other number is refused by the
        # auction's call_count, whose sentence says why in the player's language
        metadata={
            "description": "In order from the dealer's left.",
            "minItems": CALLS,
            "maxItems": CALLS,
        },
    )
    rules = rules_field()


class CallOutSchema(StrictSchema):
    seat = fields.String(required=True)
    call = fields.Raw(required=True, metadata=CALL_JSON_SCHEMA)


class AuctionResponseSchema(StrictSchema):
    seat = fields.String(required=True, metadata={"description": "High bidder's seat."})
    team = fields.String(required=True)
    amount = integer(required=True)
    forced = fields.Boolean(
        required=True, metadata={"description": "True when the dealer had to bid after three passes."}
    )
    calls = fields.List(fields.Nested(CallOutSchema), required=True)
    rules = fields.Nested(RulesOutSchema, required=True)
    explanation = fields.String(required=True)


# -- Trick -----------------------------------------------------------------------------


class HandsSchema(StrictSchema):
    N = cards_field(MAX_HAND_CARDS)
    E = cards_field(MAX_HAND_CARDS)
    S = cards_field(MAX_HAND_CARDS)
    W = cards_field(MAX_HAND_CARDS)


class TrickRequestSchema(ScheduledRequest):
    trump = suit_field(required=True)
    leader = seat_field(required=True)
    cards = ItemList(
        card_field(),
        required=True,
        validate=validate.Length(4, 4),
        metadata={"description": "In play order, from the leader clockwise."},
    )
    hands = fields.Nested(
        HandsSchema,
        metadata={"description": "Each seat's cards before the trick, to check the follow rule."},
    )
    rules = rules_field()


class PlaySchema(StrictSchema):
    seat = fields.String(required=True)
    card = fields.String(required=True)


class TrickResponseSchema(StrictSchema):
    winner = fields.String(required=True, metadata={"description": "Seat that wins the trick."})
    team = fields.String(required=True)
    point_cards = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "Point cards in the trick (the 2 of trump is listed; who scores it depends on the rules)."
        },
    )
    points = integer(required=True, metadata={"description": "Points of the point cards in the trick."})
    led_suit = fields.String(required=True)
    trumped = fields.Boolean(required=True)
    plays = fields.List(fields.Nested(PlaySchema), required=True)
    explanation = fields.String(required=True)


# -- Hand settlement and whole games ---------------------------------------------------


class BidSchema(StrictSchema):
    team = team_field(required=True)
    amount = HandNumber(1, required=True)


class HandInputSchema(StrictSchema):
    """One hand: the bid and either the points or the captured cards."""

    bid = fields.Nested(BidSchema, required=True)
    points = fields.Nested(
        TeamPointsSchema, metadata={"description": "Points each team took; or give trump and captured instead."}
    )
    trump = suit_field(metadata={"description": "With captured."})
    captured = fields.Nested(
        CapturedSchema, metadata={"description": "Cards each team won in tricks (at least its point cards)."}
    )
    two_dealt_to = team_field(
        allow_none=True,
        metadata={"description": "Rule 'dealt': team dealt the 2 of trump (null if never in play)."},
    )
    two_played_by = team_field(
        allow_none=True, metadata={"description": "Rule 'played': team that played the 2 of trump."}
    )


class HandRequestSchema(ScheduledRequest, HandInputSchema):
    scores_before = fields.Nested(TeamNumbersSchema, required=True)
    rules = rules_field()


class PointCardSchema(StrictSchema):
    card = fields.String(required=True)
    points = integer(required=True)
    name = fields.String(required=True, metadata={"description": "ace, jack, ten, pedro, low_pedro or two."})
    reason = fields.String(required=True, metadata={"description": "captured, dealt or played."})


class TeamPointCardsSchema(StrictSchema):
    NS = fields.List(fields.Nested(PointCardSchema), required=True)
    EW = fields.List(fields.Nested(PointCardSchema), required=True)


class HandResultSchema(StrictSchema):
    bid = fields.Nested(BidSchema, required=True)
    points = fields.Nested(TeamNumbersSchema, required=True)
    point_cards = fields.Nested(
        TeamPointCardsSchema,
        allow_none=True,
        required=True,
        metadata={"description": "The point cards behind the points (null when points were given)."},
    )
    bid_made = fields.Boolean(required=True)
    deltas = fields.Nested(TeamNumbersSchema, required=True)
    scores_before = fields.Nested(TeamNumbersSchema, required=True)
    scores_after = fields.Nested(TeamScoresAfterSchema, required=True)
    bidder_goes_out = fields.Boolean(
        required=True, metadata={"description": "The hand started with both teams within the margin of the target."}
    )
    game_over = fields.Boolean(required=True)
    winner = fields.String(required=True, allow_none=True)
    decided_by = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(DECIDED_BY),
        metadata={
            "description": (
                "What ended the game: target (one team reached it), bidder_goes_out (the bidding team made its bid in a "
                "bidder-goes-out hand), tie_rule (both reached the target; the table's bidder_wins or higher_score rule), "
                "extra_hand (the extra hand after both reached the target: the bidding team if it made its bid, "
                "else the other team); null while the game goes on."
            )
        },
    )
    next_hand = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "normal, bidder_goes_out or extra_hand; null when the game is over."},
    )
    explanation = fields.String(required=True)


class HandResponseSchema(HandResultSchema):
    rules = fields.Nested(RulesOutSchema, required=True)


class GameRequestSchema(ScheduledRequest):
    rules = rules_field()
    hands = ItemList(
        fields.Nested(HandInputSchema),
        required=True,
        validate=validate.Length(0, MAX_HANDS),
        metadata={"description": "Every hand so far, in order, starting from 0-0."},
    )


class GameResponseSchema(StrictSchema):
    hands = fields.List(fields.Nested(HandResultSchema), required=True, metadata={"description": "The running ledger."})
    scores = fields.Nested(TeamScoresAfterSchema, required=True)
    winner = fields.String(required=True, allow_none=True)
    next_hand = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "normal, bidder_goes_out or extra_hand; null when the game is over."},
    )
    rules = fields.Nested(RulesOutSchema, required=True)
    explanation = fields.String(required=True)
