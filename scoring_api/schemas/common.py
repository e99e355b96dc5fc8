"""Schema helpers shared by every game: strictness, names, the error shape."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, fields, utils, validate

from ..i18n import t

#: The most ``details`` entries an error answer holds (then ``truncated: true``). A list
#: stops validating its items once they gave more reasons than this (see :class:`ItemList`).
MAX_DETAILS = 20


class StrictSchema(Schema):
    """Unknown fields are errors (and ``additionalProperties: false`` in the spec).

    A field given ``null`` that does not allow it is told what to enter instead (marshmallow
    says "Field may not be null."): see :func:`field_null_message`."""

    class Meta:
        unknown = RAISE
        ordered = True

    def on_bind_field(self, field_name, field_obj):
        _say_what_to_enter(field_obj)

    def _deserialize(self, data, *, error_store, unknown=RAISE, index=None, **kwargs):
        """Marshmallow's, with unknown keys refused in the order the document gives them
        (marshmallow walks a set, so their order in ``details`` changed from one process to
        the next), at most ``MAX_DETAILS + 1`` of them: no answer shows more, and thousands
        of "Unknown field." reasons cost milliseconds."""
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


def _say_what_to_enter(field: fields.Field) -> None:
    """Replace marshmallow's "Field may not be null." of ``field`` (and of its list items
    and dict values) by a sentence of the catalogue naming what to enter."""
    if field.error_messages.get("null") == fields.Field.default_error_messages["null"]:
        field.error_messages["null"] = field_null_message(field)
    for inner in (
        getattr(field, "inner", None),
        getattr(field, "value_field", None),
        getattr(field, "key_field", None),
    ):
        if isinstance(inner, fields.Field):
            _say_what_to_enter(inner)


def field_null_message(field: fields.Field) -> str:
    """What to enter in ``field`` (given ``null``), in English from the catalogue's
    ``validation.enter_*`` sentences (shown in the request's language by key)."""
    if isinstance(field, fields.Integer):
        choices = next((v.choices for v in field.validators if isinstance(v, validate.OneOf)), None)
        if choices is not None:
            return t("validation.enter_integer_choice", "en", choices=", ".join(map(str, choices)))
        span = next((v for v in field.validators if isinstance(v, validate.Range)), None)
        low, high = (None, None) if span is None else (span.min, span.max)
        if low is not None and high is not None:
            return t("validation.enter_integer_between", "en", min=low, max=high)
        if low is not None:
            return t("validation.enter_integer_from", "en", min=low)
        if high is not None:
            return t("validation.enter_integer_up_to", "en", max=high)
        return t("validation.enter_integer", "en")
    if isinstance(field, fields.String):
        choices = next((v.choices for v in field.validators if isinstance(v, validate.OneOf)), None)
        if choices is not None:
            return t("validation.enter_choice", "en", choices=", ".join(map(str, choices)))
        return t("validation.enter_text", "en")
    if isinstance(field, fields.Boolean):
        return t("validation.enter_yes_no", "en")
    if isinstance(field, fields.List):
        return t("validation.enter_list", "en")
    if isinstance(field, (fields.Nested, fields.Dict)):
        return t("validation.enter_object", "en")
    return t("validation.enter_value", "en")


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
    field's metadata states), refused with marshmallow's Length message. Not a ``Length``:
    apispec would document that as a string's ``maxLength``. The compiled loader tests it
    inline (``len(x) <= maximum``)."""

    error = "Longer than maximum length {maximum}."

    def __init__(self, maximum: int) -> None:
        self.maximum = maximum

    def __call__(self, value):
        if len(value) > self.maximum:
            raise ValidationError(self.error.format(maximum=self.maximum))
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
            validate.Regexp(NAME_REGEX, error="Contains a control or text-direction character."),
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
