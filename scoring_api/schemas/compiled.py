"""Fast ``load`` and ``dump`` with exactly marshmallow's results, for the common case.

Marshmallow takes every value through several layers of calls (error stores, getters,
``And`` validators): about 5 µs per nested object, which made loading and dumping cost
more than the game rules (an Apero request: 115 µs to load, 46 µs to dump). The schemas
stay the single source of shapes; this module reads them once and builds straight-line
closures that make the same checks for the field types the schemas use.

Exact by construction: a compiled loader either returns what ``schema.load`` returns, or
gives up (:class:`Fallback`) and marshmallow runs from the start. It gives up on anything
it cannot vouch for: a wrong type, a failed validator, a missing required field, an
unknown key. So every error (its message and its JSON path) still comes from
marshmallow, and a field type or hook it does not know is handed to marshmallow itself.
The same holds for dumping. ``tests/schemas/test_compiled.py`` checks both against
marshmallow on generated valid and invalid documents for every operation.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, fields, missing, validate
from marshmallow.decorators import POST_DUMP, POST_LOAD, PRE_DUMP, PRE_LOAD, VALIDATES, VALIDATES_SCHEMA

from .common import JsonBoolean, JsonInteger

Convert = Callable[[Any], Any]

_STRINGS = (fields.String,)
_INTEGERS = (fields.Integer, JsonInteger)
_BOOLEANS = (fields.Boolean, JsonBoolean)
_RAW = (fields.Raw, fields.Field)


#: When true, every compiled result is also computed by marshmallow and compared (the test
#: suite turns it on, so each request of every test checks the compiled road).
VERIFY = False


class Fallback(Exception):
    """The compiled path cannot vouch for this document: marshmallow decides."""


def loader(schema: Schema) -> Convert:
    """``schema.load`` as a function, compiled where possible (see the module docstring)."""
    return _or_marshmallow(_schema_loader(schema, schema.unknown), schema.load, schema)


def dumper(schema: Schema) -> Convert:
    """``schema.dump`` as a function, compiled where possible."""
    return _or_marshmallow(_schema_dumper(schema), schema.dump, schema)


def _or_marshmallow(fast: Convert, marshmallow: Convert, schema: Schema) -> Convert:
    """``fast``, or ``marshmallow`` where ``fast`` falls back; under :data:`VERIFY` both."""

    def run(value):
        try:
            result = fast(value)
        except Fallback:
            return marshmallow(value)
        if VERIFY:
            _same(result, marshmallow(value), schema)
        return result

    return run


def _same(compiled_result, marshmallow_result, schema: Schema) -> None:
    if compiled_result != marshmallow_result:
        name = type(schema).__name__
        raise AssertionError(f"{name}: compiled {compiled_result!r} != marshmallow {marshmallow_result!r}")


# --- loading ------------------------------------------------------------------------


def _schema_loader(schema: Schema, unknown: str) -> Convert:
    """One object of ``schema``: the fields of ``Schema._deserialize``, then post_load."""
    hooks = schema._hooks
    if (
        hooks[PRE_LOAD] or hooks[VALIDATES] or hooks[VALIDATES_SCHEMA] or schema.many or schema.partial
        or unknown not in (RAISE, EXCLUDE) or schema.dict_class is not dict
    ):
        return _marshmallow_load(schema, unknown)
    entries = []
    for name, field in schema.load_fields.items():
        key = field.data_key if field.data_key is not None else name
        target = field.attribute or name
        if "." in target:
            return _marshmallow_load(schema, unknown)
        entries.append((key, target, field, _value_loader(field, direct=False), *_inline_check(field)))
    known = frozenset(entry[0] for entry in entries)
    refuse_unknown = unknown == RAISE
    post_load = _post_loader(schema, unknown)

    def load(data):
        if type(data) is not dict or (refuse_unknown and not known.issuperset(data)):
            raise Fallback
        result = {}
        for key, target, field, convert, kind, check in entries:
            value = data.get(key, missing)
            if type(value) is kind and (check is None or check(value)):  # the common case, inline
                result[target] = value
                continue
            if convert is None:  # a field this module does not know: marshmallow's own
                value = _deserialize(field, value, key, data)
            elif value is missing:
                if field.required:
                    raise Fallback
                value = field.load_default() if callable(field.load_default) else field.load_default
            else:
                value = convert(value)
            if value is not missing:
                result[target] = value
        if post_load:
            try:
                return post_load(result, data)
            except ValidationError:
                raise Fallback from None
        return result

    return load


def _inline_check(field: fields.Field) -> tuple[type | None, Callable[[Any], bool] | None]:
    """``(kind, check)`` for a string, integer or boolean field with at most one validator:
    a value of that exact type passing ``check`` loads as itself, without a call.
    ``(None, None)`` otherwise (no value's type is ``None``)."""
    kind = _scalar_kind(field) if not (field.pre_load or field.post_load) else None
    if kind is None or len(field.validators) > 1:
        return None, None
    return kind, _check(field.validators[0], scalar=True) if field.validators else None


def _post_loader(schema: Schema, unknown: str) -> Callable[[dict, Any], Any] | None:
    """``Schema._invoke_load_processors(POST_LOAD, ...)`` for one object, with the bound
    hooks looked up once: collection hooks first, then the others, as marshmallow runs them."""
    hooks = schema._hooks[POST_LOAD]
    ordered = [h for h in hooks if h[1]] + [h for h in hooks if not h[1]]
    processors = [(getattr(schema, name), options.get("pass_original", False)) for name, _, options in ordered]
    if not processors:
        return None

    def post_load(result, data):
        for processor, pass_original in processors:
            if pass_original:
                result = processor(result, data, many=False, partial=None, unknown=unknown)
            else:
                result = processor(result, many=False, partial=None, unknown=unknown)
        return result

    return post_load


def _marshmallow_load(schema: Schema, unknown: str) -> Convert:
    def load(data):
        try:
            return schema.load(data, unknown=unknown)
        except ValidationError:
            raise Fallback from None

    return load


def _deserialize(field: fields.Field, value, key=None, data=None):
    try:
        return field.deserialize(value, key, data)
    except ValidationError:
        raise Fallback from None


def _value_loader(field: fields.Field, direct: bool = True) -> Convert | None:
    """``field.deserialize`` of a present value (``None`` included), or ``None`` when the
    field is not one this module knows; with ``direct`` it then calls marshmallow's."""
    known = not (field.pre_load or field.post_load)
    kind = _scalar_kind(field) if known else None
    convert = None if kind or not known else _typed_loader(field)
    if kind is None and convert is None:
        return (lambda value: _deserialize(field, value)) if direct else None
    checks = [_check(v, scalar=kind is not None) for v in field.validators]
    allow_none = field.allow_none
    if kind is not None and len(checks) <= 1:  # the common case, in one closure
        check = checks[0] if checks else None

        def load_scalar(value):
            if type(value) is kind and (check is None or check(value)):
                return value
            if value is None and allow_none:
                return None
            raise Fallback

        return load_scalar
    if kind is not None:
        convert = _exactly(kind)

    def load(value):
        if value is None:
            if allow_none:
                return None
            raise Fallback
        value = convert(value)
        for check in checks:
            if not check(value):
                raise Fallback
        return value

    return load


def _scalar_kind(field: fields.Field) -> type | None:
    """The one JSON type a string, integer or boolean field accepts without converting
    (``bool`` is not ``int`` here; ``2.0`` for an integer goes to marshmallow)."""
    kind = type(field)
    if kind in _STRINGS:
        return str
    if kind in _INTEGERS:
        return int
    if kind in _BOOLEANS:
        return bool
    return None


def _typed_loader(field: fields.Field) -> Convert | None:
    """``field._deserialize`` for the field types of this project's schemas."""
    kind = type(field)
    if kind in _RAW:
        return lambda value: value
    if kind is fields.List:
        item, as_list = _value_loader(field.inner), _exactly(list)
        return lambda value: [item(each) for each in as_list(value)]
    if kind is fields.Dict:
        return _dict_loader(field)
    if kind is fields.Nested and not (field.many or field.schema.many):
        return _schema_loader(field.schema, field.unknown or field.schema.unknown)
    return None


def _dict_loader(field: fields.Dict) -> Convert:
    as_dict = _exactly(dict)
    if field.key_field is None and field.value_field is None:
        return lambda value: dict(as_dict(value))
    key = _value_loader(field.key_field) if field.key_field else (lambda k: k)
    item = _value_loader(field.value_field) if field.value_field else (lambda v: v)
    return lambda value: {key(k): item(v) for k, v in as_dict(value).items()}


def _exactly(kind: type) -> Convert:
    def check(value):
        if type(value) is kind:
            return value
        raise Fallback

    return check


def _check(validator, scalar: bool = False) -> Callable[[Any], bool]:
    """A validator as a predicate: the common ones inlined, any other one called.
    ``scalar``: the value is a str, int or bool (hashable, so membership cannot fail)."""
    kind = type(validator)
    if kind is validate.OneOf:
        try:
            choices = frozenset(validator.choices)
        except TypeError:
            choices = None
        if choices is not None:
            return choices.__contains__ if scalar else (lambda value: _member(value, choices))
    if kind is validate.Range:
        return _range_check(validator)
    if kind is validate.Length:
        if validator.equal is not None:
            return lambda value: len(value) == validator.equal
        low = -1 if validator.min is None else validator.min
        high = validator.max
        return lambda value: low <= len(value) and (high is None or len(value) <= high)
    if kind is validate.Regexp and isinstance(validator.regex, re.Pattern):
        match = validator.regex.match
        return lambda value: match(value) is not None

    def called(value):
        try:
            validator(value)
        except ValidationError:
            return False
        return True

    return called


def _member(value, choices: frozenset) -> bool:
    try:
        return value in choices
    except TypeError:  # unhashable: OneOf refuses it too
        return False


def _range_check(rule: validate.Range) -> Callable[[Any], bool]:
    low, high = rule.min, rule.max

    def check(value):
        if low is not None and (value < low if rule.min_inclusive else value <= low):
            return False
        return high is None or not (value > high if rule.max_inclusive else value >= high)

    return check


# --- dumping ------------------------------------------------------------------------


def _schema_dumper(schema: Schema) -> Convert:
    """One object of ``schema``: the fields of ``Schema._serialize``, for dicts and plain
    objects whose every field is present."""
    hooks = schema._hooks
    if (
        hooks[PRE_DUMP] or hooks[POST_DUMP] or schema.many or schema.dict_class is not dict
        or type(schema).get_attribute is not Schema.get_attribute
    ):
        return _marshmallow_dump(schema)
    entries = []
    for name, field in schema.dump_fields.items():
        source = field.attribute or name
        if "." in source:
            return _marshmallow_dump(schema)
        key = field.data_key if field.data_key is not None else name
        kind = _scalar_kind(field) if not getattr(field, "as_string", False) else None
        entries.append((name, source, key, field, _value_dumper(field), kind))

    def dump(obj):
        kind = type(obj)
        if kind is dict:
            get = obj.get
        elif not hasattr(kind, "__getitem__"):  # marshmallow reads attributes then
            get = lambda source, default: getattr(obj, source, default)  # noqa: E731
        else:
            raise Fallback
        result = {}
        for name, source, key, field, convert, kind in entries:
            if kind is not None:  # strings, integers, booleans: themselves, inline
                value = get(source, missing)
                if type(value) is kind or value is None:
                    result[key] = value
                    continue
                raise Fallback  # missing (dump_default), or marshmallow would convert it
            if convert is None:
                value = field.serialize(name, obj, accessor=schema.get_attribute)
                if value is not missing:
                    result[key] = value
                continue
            value = get(source, missing)
            if value is missing:  # dump_default, or a dict method's name: marshmallow's rules
                raise Fallback
            result[key] = convert(value)
        return result

    return dump


def _marshmallow_dump(schema: Schema) -> Convert:
    return schema.dump


def _value_dumper(field: fields.Field) -> Convert | None:
    """``field._serialize`` for the field types of this project's schemas, or ``None``."""
    kind = type(field)
    scalar = _scalar_kind(field)
    if scalar is not None and not getattr(field, "as_string", False):
        return _scalar_dumper(scalar)
    if kind in _RAW:
        return lambda value: value
    if kind is fields.List:
        item = _value_dumper(field.inner)
        convert = None if item is None else (lambda value: [item(each) for each in _sequence(value)])
    elif kind is fields.Dict:
        convert = _dict_dumper(field)
    elif kind is fields.Nested:
        convert = _nested_dumper(field)
    else:
        convert = None
    if convert is None:
        return None
    return lambda value: None if value is None else convert(value)


def _scalar_dumper(kind: type) -> Convert:
    """Strings, integers and booleans of the right type are their own dump (marshmallow
    would convert others: ``str(x)``, ``int(x)``; those go to marshmallow)."""

    def dump(value):
        if type(value) is kind or value is None:
            return value
        raise Fallback

    return dump


def _sequence(value):
    if type(value) is list or type(value) is tuple:
        return value
    raise Fallback


def _nested_dumper(field: fields.Nested) -> Convert:
    schema = field.schema
    one = _schema_dumper(schema)
    if schema.many or field.many:
        return lambda value: [one(each) for each in _sequence(value)]
    return one


def _dict_dumper(field: fields.Dict) -> Convert | None:
    as_dict = _exactly(dict)
    if field.key_field is None and field.value_field is None:
        return lambda value: dict(as_dict(value))
    key = _value_dumper(field.key_field) if field.key_field else (lambda k: k)
    item = _value_dumper(field.value_field) if field.value_field else (lambda v: v)
    if key is None or item is None:
        return None
    return lambda value: {key(k): item(v) for k, v in as_dict(value).items()}
