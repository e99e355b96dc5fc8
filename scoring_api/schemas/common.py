"""Schema helpers shared by every game: strictness, names, the error shape."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Mapping

from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, fields, utils, validate

from ..error_shape import MAX_DETAILS  # a list stops validating its items beyond (ItemList)
from ..i18n import t
from .localized import keyed


class StrictSchema(Schema):
    """Unknown fields are errors (and ``additionalProperties: false`` in the spec). Its
    messages are the player's language in the instances :func:`.localized.localized` builds."""

    class Meta:
        unknown = RAISE
        ordered = True

    def _deserialize(self, data, *, error_store, unknown=RAISE, index=None, **kwargs):
        """Marshmallow's, with unknown keys refused in the order the document gives them
        (marshmallow walks a set, so their order in ``details`` changed from one process to
        the next), at most ``MAX_DETAILS + 1`` of them: no answer shows more, and a body of thousands
        of unknown keys is refused as cheaply as one of twenty."""
        result = super()._deserialize(data, error_store=error_store, unknown=EXCLUDE, index=index, **kwargs)
        if unknown == RAISE and isinstance(data, Mapping):
            known = self._known_keys()
            strangers = (key for key in data if key not in known)
            for key in itertools.islice(strangers, MAX_DETAILS + 1):
                error_store.store_error([self.error_messages["unknown"]], key, index)
        return result

    def _known_keys(self) -> frozenset:
        known = self.__dict__.get("_known")
        if known is None:
            known = self.__dict__["_known"] = frozenset(
                field.data_key if field.data_key is not None else name for name, field in self.load_fields.items()
            )
        return known


class ItemList(fields.List):
    """A list whose length is checked first: a list longer (or shorter) than its
    ``validate.Length`` allows is refused with that validator's message before any item is
    read, so a long list of bad items costs one ``len``. Items are then loaded one by one,
    as marshmallow's List does, stopping once the failed ones gave more than
    :data:`MAX_DETAILS` reasons (the answer shows no more). Valid lists load exactly as
    with ``fields.List``; the spec still shows ``minItems``/``maxItems`` (the validator is
    a plain ``Length``)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not utils.is_collection(value):
            raise self.make_error("invalid")
        for validator in self.validators:
            if isinstance(validator, validate.Length):
                validator(value)
        result = []
        errors = {}
        reasons = 0
        for index, each in enumerate(value):
            try:
                result.append(self.inner.deserialize(each, **kwargs))
            except ValidationError as error:
                if error.valid_data is not None:
                    result.append(error.valid_data)
                errors[index] = error.messages
                reasons += count_reasons(error.messages)
                if reasons > MAX_DETAILS:
                    break
        if errors:
            raise ValidationError(errors, valid_data=result)
        return result


def count_reasons(messages) -> int:
    """How many ``details`` entries marshmallow's nested ``messages`` make (at least 1)."""
    if isinstance(messages, str) or (isinstance(messages, list) and all(isinstance(m, str) for m in messages)):
        return 1
    values = messages.values() if isinstance(messages, dict) else messages
    return sum(count_reasons(value) for value in values) or 1


def items(inner: fields.Field, min_length: int = 0, max_length: int | None = None, **kwargs) -> ItemList:
    """A list of ``inner`` of ``min_length``..``max_length`` items, its length checked first
    (see :class:`ItemList`)."""
    return ItemList(inner, validate=validate.Length(min_length, max_length), **kwargs)


class MaxProperties(validate.Validator):
    """At most ``maximum`` members in an object (JSON Schema's ``maxProperties``, which the
    field's metadata states), refused as a too long list is. Not a ``Length``: apispec
    would document that as a string's ``maxLength``."""

    def __init__(self, maximum: int) -> None:
        self.maximum = maximum
        self.error = t("validation.length_max", "en", max=maximum)
        self.catalogue_message = ("validation.length_max", {"max": maximum})

    def __call__(self, value):
        if len(value) > self.maximum:
            raise ValidationError(self.error.format())
        return value

    def _repr_args(self) -> str:
        return f"maximum={self.maximum!r}"


class ItemDict(fields.Dict):
    """A dict whose size is checked first: one with more members than its
    :class:`MaxProperties` allows is refused with that validator's message before any key
    or value is read (marshmallow runs validators after loading every member, so a body of
    thousands of bad values cost a refusal each, docs/performance.md). Valid dicts load
    exactly as with ``fields.Dict``."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, Mapping):
            raise self.make_error("invalid")
        for validator in self.validators:
            if isinstance(validator, MaxProperties):
                validator(value)
        return super()._deserialize(value, attr, data, **kwargs)


class JsonInteger(fields.Integer):
    """A JSON integer: ``2`` and ``2.0`` (the same JSON number) load as 2; ``1.5``,
    ``"1"``, ``true`` and non-finite numbers are refused."""

    def _validated(self, value):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid")
        if isinstance(value, float):
            if not value.is_integer():
                raise self.make_error("invalid")
            value = int(value)
        return super()._validated(value)


def integer(**kwargs) -> fields.Integer:
    """An integer field with JSON's rules (see :class:`JsonInteger`)."""
    return JsonInteger(strict=True, **kwargs)


class JsonBoolean(fields.Boolean):
    """A JSON boolean only: ``true``/``false``; ``1``, ``"true"`` and the like are refused
    (marshmallow's Boolean would accept them, which the spec's ``boolean`` does not)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def boolean(**kwargs) -> fields.Boolean:
    """A boolean field with JSON's rules (see :class:`JsonBoolean`)."""
    return JsonBoolean(**kwargs)


#: Names may hold any text but control characters and bidirectional overrides (which can
#: make a name display as another); emoji, kana and combining marks are welcome.
def text(min_length: int = 1, max_length: int = 40, **kwargs) -> fields.String:
    """A bounded string of displayable text (player names and the like)."""
    metadata = {"pattern": NAME_PATTERN, **kwargs.pop("metadata", {})}
    return fields.String(
        validate=[
            validate.Length(min_length, max_length),
            keyed(validate.Regexp(NAME_REGEX), "validation.control_character"),
        ],
        metadata=metadata,
        **kwargs,
    )


# -- Player names -------------------------------------------------------------------------
#
# Two names a player reads as one are one name (docs/rules/README.md, "Player names"): a
# name is read in Unicode's compatibility form (NFKC: full-width ``Ａｋｉ`` is ``Aki``, a
# decomposed ``か`` + ``゙`` is ``が``) without its leading and trailing spaces, and a name
# holding a character nobody sees, or only spaces, is refused. The lists are explicit
# (Unicode 14, Python 3.11's ``unicodedata``; tests/schemas/test_player_names.py checks
# them against it) and published as the field's ``pattern``.

#: Controls (Cc) and text-direction overrides and isolates: refused as :func:`text` always has.
CONTROL_CHARACTERS = ((0x0000, 0x001F), (0x007F, 0x009F), (0x202A, 0x202E), (0x2066, 0x2069))
#: Every other invisible character: the rest of the format characters (Cf: soft hyphen,
#: zero-width space, joiners and marks, word joiner, BOM, tags...), the line and paragraph
#: separators (Zl, Zp) and the letters and symbols that draw nothing: combining grapheme
#: joiner, Hangul fillers, Khmer inherent vowels, Mongolian variation selectors, Braille
#: blank, musical null notehead.
INVISIBLE_CHARACTERS = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors and vowel separator
    (0x200B, 0x200F),
    (0x2028, 0x2029),
    (0x2060, 0x2064),
    (0x206A, 0x206F),
    (0x2800, 0x2800),  # Braille pattern blank
    (0x3164, 0x3164),  # Hangul filler
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x13438),
    (0x1BCA0, 0x1BCA3),
    (0x1D159, 0x1D159),  # musical symbol null notehead
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)
#: Spaces (Zs): trimmed from both ends; a name of nothing else is blank.
SPACES = (
    (0x0020, 0x0020),
    (0x00A0, 0x00A0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
)


def _char_class(ranges) -> str:
    """Ranges as the inside of a character class both ECMA-262 (``u``) and Python read
    alike: ``\\uXXXX`` escapes, and characters beyond U+FFFF as themselves (ECMA's
    ``\\u{...}`` is no Python, Python's ``\\U`` no ECMA)."""

    def one(code: int) -> str:
        return f"\\u{code:04x}" if code <= 0xFFFF else chr(code)

    return "".join(one(low) if low == high else f"{one(low)}-{one(high)}" for low, high in ranges)


#: The published (ECMA-262) pattern of :func:`text`: no control character, where ``$`` is
#: the end of the text; Python's ``$`` also matches before a final newline, so the
#: validator ends in ``\\Z``.
NAME_PATTERN = f"^[^{_char_class(CONTROL_CHARACTERS)}]*$"
NAME_REGEX = NAME_PATTERN[:-1] + "\\Z"

_HIDDEN = _char_class(CONTROL_CHARACTERS + INVISIBLE_CHARACTERS)
#: The published pattern of a player name: no control or invisible character, and one
#: character at least that is not a space (``$``: the end of the text, as in ECMA-262).
PLAYER_NAME_PATTERN = f"^[^{_HIDDEN}]*[^{_HIDDEN}{_char_class(SPACES)}][^{_HIDDEN}]*$"


class Visible(validate.Validator):
    """Refuses a name holding one of :data:`INVISIBLE_CHARACTERS`, naming the first as
    ``U+200B`` (the player cannot see it). Its catalogue sentence is a template with
    ``{character}`` (:func:`.localized.localized` gives it per language)."""

    catalogue_template = "validation.name_invisible"

    def __init__(self) -> None:
        self.hidden = re.compile(f"[{_char_class(INVISIBLE_CHARACTERS)}]")
        self.error = t(self.catalogue_template, "en", character="{character}")

    def __call__(self, value: str) -> str:
        found = self.hidden.search(value)
        if found is not None:
            raise ValidationError(str(self.error).format(character=f"U+{ord(found.group()):04X}"))
        return value


class NotBlank(validate.Validator):
    """Refuses a name of spaces only (:data:`SPACES`); an empty one is the length's to refuse."""

    def __init__(self) -> None:
        self.spaces = "".join(chr(code) for low, high in SPACES for code in range(low, high + 1))
        self.error = t("validation.name_blank", "en")
        self.catalogue_message: tuple[str, dict] = ("validation.name_blank", {})

    def __call__(self, value: str) -> str:
        if value and not value.strip(self.spaces):
            raise ValidationError(str(self.error))
        return value


def same_name(name: str) -> str:
    """The name two spellings of which read alike share: NFKC, without surrounding spaces."""
    return unicodedata.normalize("NFKC", name).strip()


#: The description of every game's player name field (the pattern refuses the invisible
#: characters and blank names).
PLAYER_NAME = "Unique (compared in NFKC, trimmed)."


def player_name(**kwargs) -> fields.String:
    """A player's name, the one field type of every game's names: 1-40 characters as sent
    (what the pattern and ``maxLength`` say), no control or invisible character, not blank;
    loaded as :func:`same_name`, so the rules compare, and the answers show, that name."""
    metadata = {"pattern": PLAYER_NAME_PATTERN, **kwargs.pop("metadata", {})}
    return fields.String(
        validate=[
            validate.Length(1, 40),
            keyed(validate.Regexp(NAME_REGEX), "validation.control_character"),
            Visible(),
            NotBlank(),
        ],
        post_load=[same_name],
        metadata=metadata,
        **kwargs,
    )


class ErrorBodySchema(StrictSchema):
    code = fields.String(required=True, metadata={"description": "Machine-readable error code."})
    message = fields.String(required=True, metadata={"description": "What went wrong, in the requested language."})
    details = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        required=True,
        metadata={
            "description": "JSON path of each bad field -> reasons ($ = the whole body); "
            f"at most {MAX_DETAILS} paths (then truncated is true)."
        },
    )
    truncated = fields.Boolean(
        metadata={
            "description": f"Present, and true, only when details was cut to its first {MAX_DETAILS} paths "
            "(the input had more reasons; fix these and send it again)."
        },
    )


class ErrorSchema(StrictSchema):
    error = fields.Nested(ErrorBodySchema, required=True)


class HealthSchema(StrictSchema):
    status = fields.String(required=True, metadata={"examples": ["ok"]})
    limits = fields.String(
        required=True,
        validate=validate.OneOf(["redis", "memory"]),
        metadata={"description": "Where this worker counts the rate limits now (memory while Redis does not answer)."},
    )
