"""Schema helpers shared by every game: strictness, names, the error shape."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, fields, utils, validate

from ..i18n import t
from .messages import keyed

#: The most ``details`` entries an error answer holds (then ``truncated: true``). A list
#: stops validating its items once they gave more reasons than this (see :class:`ItemList`).
MAX_DETAILS = 20


class StrictSchema(Schema):
    """Unknown fields are errors (and ``additionalProperties: false`` in the spec). Its
    messages are the player's language in the instances :func:`.messages.localized` builds."""

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
#: ``NAME_PATTERN`` is the published (ECMA-262) pattern, where ``$`` is the end of the text;
#: Python's ``$`` also matches before a final newline, so the validator ends in ``\\Z``.
NAME_PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]*$"
NAME_REGEX = NAME_PATTERN[:-1] + "\\Z"


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
