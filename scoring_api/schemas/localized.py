"""Request schemas in the player's language: every refusal a schema gives, by message key.

:func:`localized` builds one instance of a request schema per language, with every
message marshmallow can give replaced by the catalogue's sentence for its key
(``messages/common.yaml``, section ``validation``):

* a field's ``error_messages`` by marshmallow's own keys (``required``, ``null``,
  ``invalid`` by field type, ``too_large``...), or by the keys a field of ours names in
  its ``catalogue_messages`` (``{"invalid": ("validation.pedro_call", {})}``);
* a validator's message by its kind and bounds (``Range(0, 20)`` says
  ``validation.range_all`` with ``min`` and ``max``; a ``Length`` counts a list's items,
  ``validation.length_*``, or a text's characters, ``validation.text_length_*``), by the
  key it was given with :func:`keyed`, or, for a validator that names what it found, by
  the sentence's template its ``catalogue_template`` names (it fills the placeholders);
* a schema's ``unknown`` and ``type`` messages.

A ``null`` says what to enter instead (``validation.enter_*``), from the field's type
and validators. The instances are built once per schema class and language.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from marshmallow import Schema, fields, validate

from ..i18n import t, template

#: ``(catalogue key, values)`` of one message.
Message = tuple[str, dict[str, Any]]

#: marshmallow's message keys that mean the same for every field type.
_FIELD_KEYS = {
    "required": "validation.required",
    "validator_failed": "validation.invalid_value",
    "too_large": "validation.too_large",
    "invalid_utf8": "validation.invalid_utf8",
    "type": "validation.invalid_type",  # Nested: not an object
}

#: ``invalid`` by field type (the first that matches).
_INVALID_KEYS = (
    (fields.Integer, "validation.invalid_integer"),
    (fields.Number, "validation.invalid_number"),
    (fields.String, "validation.invalid_string"),
    (fields.Boolean, "validation.invalid_boolean"),
    (fields.List, "validation.invalid_list"),
    (fields.Mapping, "validation.invalid_mapping"),
)

_SCHEMA_KEYS = {"unknown": "validation.unknown", "type": "validation.invalid_input_type"}


def keyed(validator: validate.Validator, key: str, **values) -> validate.Validator:
    """``validator``, refusing with the catalogue's sentence ``key`` filled with ``values``."""
    validator.catalogue_message = (key, values)  # type: ignore[attr-defined]
    return validator


@cache
def localized(schema_class: type[Schema], lang: str) -> Schema:
    """An instance of ``schema_class`` whose messages are in ``lang`` (nested schemas too)."""
    schema = schema_class()
    _localize_schema(schema, lang, set())
    return schema


def _localize_schema(schema: Schema, lang: str, seen: set[int]) -> None:
    if id(schema) in seen:
        return
    seen.add(id(schema))
    schema.error_messages = {
        name: _format_safe(t(_SCHEMA_KEYS[name], lang)) if name in _SCHEMA_KEYS else message
        for name, message in schema.error_messages.items()
    }
    for field in schema.fields.values():
        _localize_field(field, lang, seen)


def _localize_field(field: fields.Field, lang: str, seen: set[int]) -> None:
    field.error_messages = {
        name: _format_safe(_fill(found, lang)) if (found := _field_message(field, name)) else message
        for name, message in field.error_messages.items()
    }
    field.validators = [_localize_validator(validator, lang, field) for validator in field.validators]
    for inner in (
        getattr(field, "inner", None),
        getattr(field, "value_field", None),
        getattr(field, "key_field", None),
    ):
        if isinstance(inner, fields.Field):
            _localize_field(inner, lang, seen)
    if isinstance(field, fields.Nested):
        _localize_schema(field.schema, lang, seen)


def _field_message(field: fields.Field, name: str) -> Message | None:
    own = getattr(field, "catalogue_messages", {})
    if name in own:
        return own[name]
    if name == "null":
        return what_to_enter(field)
    if name == "invalid":
        return next(((key, {}) for kind, key in _INVALID_KEYS if isinstance(field, kind)), None)
    if name in _FIELD_KEYS:
        return _FIELD_KEYS[name], {}
    return None


def what_to_enter(field: fields.Field) -> Message:
    """What to enter in ``field`` (said when it is given ``null``)."""
    choices = next((v.choices for v in field.validators if isinstance(v, validate.OneOf)), None)
    if isinstance(field, fields.Integer):
        if choices is not None:
            return "validation.enter_integer_choice", {"choices": ", ".join(map(str, choices))}
        span = next((v for v in field.validators if isinstance(v, validate.Range)), None)
        low, high = (None, None) if span is None else (span.min, span.max)
        if low is not None and high is not None:
            return "validation.enter_integer_between", {"min": low, "max": high}
        if low is not None:
            return "validation.enter_integer_from", {"min": low}
        if high is not None:
            return "validation.enter_integer_up_to", {"max": high}
        return "validation.enter_integer", {}
    if isinstance(field, fields.String):
        if choices is not None:
            return "validation.enter_choice", {"choices": ", ".join(map(str, choices))}
        return "validation.enter_text", {}
    if isinstance(field, fields.Boolean):
        return "validation.enter_yes_no", {}
    if isinstance(field, fields.List):
        return "validation.enter_list", {}
    if isinstance(field, (fields.Nested, fields.Mapping)):
        return "validation.enter_object", {}
    return "validation.enter_value", {}


def _localize_validator(validator, lang: str, field: fields.Field):
    """A copy of ``validator`` (of ``field``) whose message is the catalogue's: its
    ``error`` is the sentence's template (marshmallow fills ``{min}``, ``{max}``,
    ``{choices}`` itself), a length's sentence filled in, or the sentence it was
    :func:`keyed` with."""
    localized_copy = copy.copy(validator)
    keyed_message = getattr(validator, "catalogue_message", None)
    template_key = getattr(validator, "catalogue_template", None)
    if keyed_message is not None:
        localized_copy.error = _format_safe(_fill(keyed_message, lang))
    elif template_key is not None:  # the validator fills it in: schemas.common.Visible
        localized_copy.error = template(template_key, lang)
    elif isinstance(validator, validate.Range):
        localized_copy.error = template(_range_key(validator), lang)
    elif isinstance(validator, validate.Length):
        localized_copy.error = _format_safe(_length_message(validator, field, lang))
    elif isinstance(validator, validate.OneOf):
        localized_copy.error = template("validation.one_of", lang)
    else:
        raise ValueError(f"no catalogue message for {validator!r}: give it one with keyed()")
    return localized_copy


def _range_key(span: validate.Range) -> str:
    if span.max is None:
        return "validation.range_min" if span.min_inclusive else "validation.range_min_exclusive"
    if span.min is None:
        return "validation.range_max" if span.max_inclusive else "validation.range_max_exclusive"
    inclusive = (span.min_inclusive, span.max_inclusive)
    return {
        (True, True): "validation.range_all",
        (False, False): "validation.range_all_exclusive",
        (False, True): "validation.range_all_exclusive_min",
        (True, False): "validation.range_all_exclusive_max",
    }[inclusive]


def _length_message(length: validate.Length, field: fields.Field, lang: str) -> str:
    """A length's sentence: a list's (or an object's) items, else a text's characters;
    ``Length(4, 4)`` says exactly 4, ``Length(0, 15)`` at most 15."""
    kind = "length" if isinstance(field, (fields.List, fields.Mapping)) else "text_length"
    low = length.min or None  # at least 0 is no bound
    if length.equal is not None or (low is not None and low == length.max):
        equal = length.equal if length.equal is not None else low
        return t(f"validation.{kind}_equal", lang, equal=equal)
    if length.max is None:
        return t(f"validation.{kind}_min", lang, min=length.min)
    if low is None:
        return t(f"validation.{kind}_max", lang, max=length.max)
    return t(f"validation.{kind}_all", lang, min=low, max=length.max)


def _fill(message: Message, lang: str) -> str:
    key, values = message
    return t(key, lang, **values)


def _format_safe(text: str) -> str:
    """A filled sentence as marshmallow may ``format`` it again (with ``input=...``)."""
    return text.replace("{", "{{").replace("}", "}}")
