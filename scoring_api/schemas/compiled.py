"""Fast ``load`` with exactly marshmallow's results, for the common case.

Marshmallow takes every value through several layers of calls (error stores, getters,
``And`` validators): about 5 µs per nested object, which made loading cost more than the
game rules (an Apero request: 115 µs to load). The schemas stay the single source of
shapes; this module reads them once and writes one plain Python function per schema (see
:mod:`.codegen`): each field is read once, its type and validators are tested inline
(``type(v) is int and 1 <= v <= 19``), nested objects and list items are calls and
comprehensions of the nested schema's function, and the result is a dict literal.

Exact by construction: a compiled loader either returns what ``schema.load`` returns, or
gives up (:class:`Fallback`) and marshmallow runs from the start. It gives up on anything
it cannot vouch for: a wrong type, a value marshmallow would convert (``2.0`` for an
integer), a failed validator, a missing required field, an unknown key. So every error (its
message and its JSON path) still comes from marshmallow, and a field type or hook it does
not know is handed to marshmallow itself.
``tests/schemas/test_compiled.py`` checks this against marshmallow on generated valid and
invalid documents for every operation; the test suite also compares every load of every
request with marshmallow's (:data:`VERIFY`).

Responses are not dumped at run time: each handler writes its answer in the response
schema's own shape (see :meth:`~scoring_api.api.operations.Operation.run`).
"""

from __future__ import annotations

import dis
import inspect
from collections.abc import Callable
from typing import Any, cast

from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, fields, missing, validate
from marshmallow.decorators import POST_LOAD, PRE_LOAD, VALIDATES, VALIDATES_SCHEMA

from .codegen import Fallback, Source
from .common import ItemList, JsonBoolean, JsonInteger, MaxProperties

Convert = Callable[[Any], Any]

_STRINGS = (fields.String,)
_INTEGERS = (fields.Integer, JsonInteger)
_BOOLEANS = (fields.Boolean, JsonBoolean)
_RAW = (fields.Raw, fields.Field)
_LISTS = (fields.List, ItemList)  # ItemList: the same result, its length checked first

__all__ = ["Fallback", "VERIFY", "loader"]

#: When true, every compiled result is also computed by marshmallow and compared (the test
#: suite turns it on, so each request of every test checks the compiled road).
VERIFY = False


def loader(schema: Schema) -> Convert:
    """``schema.load`` as a function, compiled where possible (see the module docstring)."""
    return _or_marshmallow(_schema_loader(schema, schema.unknown), schema.load, schema)


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


def _scalar_kind(field: fields.Field) -> type | None:
    """The one JSON type a string, integer or boolean field takes as itself, without
    converting (``bool`` is not ``int`` here; ``2.0`` for an integer goes to marshmallow)."""
    kind = type(field)
    if kind in _STRINGS:
        return str
    if kind in _INTEGERS:
        return int
    if kind in _BOOLEANS:
        return bool
    return None


def _plain(field: fields.Field) -> bool:
    """No field-level hooks: the field's type alone says what loading does."""
    return not (field.pre_load or field.post_load)


def _data_key(field: fields.Field, attr: str) -> str:
    return field.data_key if field.data_key is not None else attr


def _nested_one(field: fields.Field) -> bool:
    return type(field) is fields.Nested and not (field.many or field.schema.many)


# --- loading ------------------------------------------------------------------------


def _schema_loader(schema: Schema, unknown: str) -> Convert:
    """One object of ``schema``: the fields of ``Schema._deserialize``, then post_load."""
    source = Source()
    return source.build(_load_function(source, schema, unknown))


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


def _load_function(source: Source, schema: Schema, unknown: str) -> str:
    """The name of the function that loads one object of ``schema`` (written once per
    schema instance and ``unknown``)."""
    cache_key = ("load", id(schema), unknown)
    name, new = source.function(cache_key, schema)
    if not new:
        return name
    hooks = schema._hooks
    if (
        source.crowded()
        or hooks[PRE_LOAD]
        or hooks[VALIDATES]
        or hooks[VALIDATES_SCHEMA]
        or schema.many
        or schema.partial
        or unknown not in (RAISE, EXCLUDE)
        or schema.dict_class is not dict
        or any("." in (field.attribute or attr) for attr, field in schema.load_fields.items())
    ):
        source.alias(name, _marshmallow_load(schema, unknown))
        return name
    lines = [f"def {name}(data):"]
    test = "type(data) is not dict"
    if unknown == RAISE:
        known = frozenset(_data_key(field, attr) for attr, field in schema.load_fields.items())
        test += f" or not {source.ref(known, 'known')}.issuperset(data)"
    lines += [f"    if {test}:", "        raise Fallback", "    get = data.get"]
    literal: list[str] = []
    later: list[str] = []  # fields always in the result (in order), then conditional ones
    for index, (attr, field) in enumerate(schema.load_fields.items()):
        key = _data_key(field, attr)
        target = repr(field.attribute or attr)
        value = f"v{index}"
        lines.append(f"    {value} = get({key!r}, missing)")
        statements = _load_entry(source, field, key, value, target)
        if isinstance(statements, str) and not later:
            literal.append(f"{target}: {statements}")
        else:
            if isinstance(statements, str):
                statements = [f"result[{target}] = {statements}"]
            later += statements
    lines.append(f"    result = {{{', '.join(literal)}}}")
    lines += [f"    {line}" for line in later]
    lines += _post_load_lines(source, schema, unknown)
    source.add(lines)
    return name


def _load_entry(source: Source, field: fields.Field, key: str, value: str, target: str) -> str | list[str]:
    """How one field reaches the result: an expression (always set) or statements."""
    expression = _load_expression(source, field, value)
    if expression is None:  # a field this module does not know: marshmallow's own
        call = f"{source.ref(_deserialize, 'deserialize')}({source.ref(field, 'field')}, {value}, {key!r}, data)"
        return [f"{value} = {call}", f"if {value} is not missing:", f"    result[{target}] = {value}"]
    if field.required:
        if _scalar_kind(field) or _nested_one(field):  # ``missing`` fails their test anyway
            return expression
        return f"({expression}) if {value} is not missing else _fail()"
    default = field.load_default
    if default is missing:
        return [f"if {value} is not missing:", f"    result[{target}] = {expression}"]
    made = f"{source.ref(default, 'default')}()" if callable(default) else source.ref(default, "default")
    return f"{made} if {value} is missing else ({expression})"


def _load_expression(source: Source, field: fields.Field, value: str) -> str | None:
    """An expression of the name ``value`` (a present value, ``None`` included): the
    field's loaded value, or a ``Fallback`` raised. ``None`` for a field this module
    does not know."""
    if not _plain(field) or source.crowded():
        return None
    kind = _scalar_kind(field)
    if kind is not None:
        test = " and ".join(
            [f"type({value}) is {kind.__name__}"]
            + [_test(source, validator, value, scalar=True) for validator in field.validators]
        )
        other = f"_none({value})" if field.allow_none else "_fail()"
        return f"({value} if {test} else {other})"
    if _nested_one(field) and not field.validators and not field.allow_none:
        nested = cast(fields.Nested, field)  # _nested_one: exactly a Nested
        return f"{_load_function(source, nested.schema, nested.unknown or nested.schema.unknown)}({value})"
    body = _load_body(source, field)
    if body is None:
        return None
    helper, _ = source.function(("load value", id(field)), field)
    lines = [f"def {helper}(x):", "    if x is None:"]
    lines.append("        return None" if field.allow_none else "        raise Fallback")
    validators = field.validators
    if type(field) in _LISTS:  # a list's length is tested before its items are read
        first = [v for v in validators if type(v) is validate.Length]
        validators = [v for v in validators if type(v) is not validate.Length]
        if first:
            lengths = " and ".join(_test(source, v, "x", scalar=False) for v in first)
            lines += ["    if type(x) is not list:", "        raise Fallback"]
            lines += [f"    if not ({lengths}):", "        raise Fallback"]
    lines += [f"    {line}" for line in body]
    checks = [_test(source, validator, "x", scalar=False) for validator in validators]
    if checks:
        lines += [f"    if not ({' and '.join(checks)}):", "        raise Fallback"]
    lines.append("    return x")
    source.add(lines)
    return f"{helper}({value})"


def _load_body(source: Source, field: fields.Field) -> list[str] | None:
    """Statements turning ``x`` (present, not ``None``) into the loaded value, for the field
    types of this project's schemas; ``None`` for others."""
    kind = type(field)
    if kind in _RAW:
        return []
    if kind in _LISTS:
        inner = cast(fields.List, field).inner  # a List or ItemList (a List)
        item = _load_expression(source, inner, "y")
        if item is None:
            item = f"{source.ref(_deserialize, 'deserialize')}({source.ref(inner, 'field')}, y)"
        return ["if type(x) is not list:", "    raise Fallback", f"x = [{item} for y in x]"]
    if kind is fields.Dict:
        mapping = cast(fields.Dict, field)
        key = _load_expression(source, mapping.key_field, "k") if mapping.key_field else "k"
        item = _load_expression(source, mapping.value_field, "y") if mapping.value_field else "y"
        if key is None or item is None:
            return None
        return ["if type(x) is not dict:", "    raise Fallback", f"x = {{{key}: {item} for k, y in x.items()}}"]
    if _nested_one(field):
        nested = cast(fields.Nested, field)  # _nested_one: exactly a Nested
        return [f"x = {_load_function(source, nested.schema, nested.unknown or nested.schema.unknown)}(x)"]
    return None


def _post_load_lines(source: Source, schema: Schema, unknown: str) -> list[str]:
    """``Schema._invoke_load_processors(POST_LOAD, ...)`` for one object, with the bound
    hooks looked up once: collection hooks first, then the others, as marshmallow runs them."""
    hooks = schema._hooks[POST_LOAD]
    ordered = [h for h in hooks if h[1]] + [h for h in hooks if not h[1]]
    if not ordered:
        return ["    return result"]
    lines = ["    try:"]
    for hook_name, _, options in ordered:
        bound = getattr(schema, hook_name)
        hook = source.ref(bound, "post_load")
        arguments = ["result", "data"] if options.get("pass_original", False) else ["result"]
        if not _ignores_keywords(bound):
            arguments.append(f"many=False, partial=None, unknown={unknown!r}")
        lines.append(f"        result = {hook}({', '.join(arguments)})")
    return lines + ["    except ValidationError:", "        raise Fallback from None", "    return result"]


def _ignores_keywords(hook: Callable) -> bool:
    """Does ``hook`` (a bound ``def hook(self, data, **_)``) never read its keyword
    arguments? Then calling it without ``many``, ``partial`` and ``unknown`` changes nothing,
    and saves a tenth of a microsecond per object. Read from the bytecode: no instruction
    names the ``**`` parameter, no closure captures it, and neither ``locals()`` nor
    ``vars()`` is called."""
    code = getattr(getattr(hook, "__func__", None), "__code__", None)
    if code is None or code.co_flags & inspect.CO_VARARGS or not code.co_flags & inspect.CO_VARKEYWORDS:
        return False
    if code.co_argcount != 2 or code.co_kwonlyargcount or {"locals", "vars"} & set(code.co_names):
        return False
    keywords = code.co_varnames[code.co_argcount]
    if keywords in code.co_cellvars:
        return False
    return all(instruction.argval != keywords for instruction in dis.get_instructions(code))


def _test(source: Source, validator, value: str, scalar: bool) -> str:
    """A validator as a test of the name ``value``: the common ones inline, any other one
    called. ``scalar``: the value is a str, int or bool (hashable, comparable)."""
    kind = type(validator)
    if kind is validate.OneOf:
        try:
            choices = frozenset(validator.choices)
        except TypeError:
            choices = None
        if choices is not None:
            if scalar:
                return f"{value} in {_constant(source, choices)}"
            return f"_member({value}, {source.ref(choices, 'choices')})"
    if kind is validate.Range and scalar:
        below = "<=" if validator.min_inclusive else "<"
        above = "<=" if validator.max_inclusive else "<"
        low = "" if validator.min is None else f"{_constant(source, validator.min)} {below} "
        high = "" if validator.max is None else f" {above} {_constant(source, validator.max)}"
        return f"{low}{value}{high}" if low or high else "True"
    if kind is validate.Length:
        if validator.equal is not None:
            return f"len({value}) == {_constant(source, validator.equal)}"
        low = "" if validator.min is None else f"{_constant(source, validator.min)} <= "
        high = "" if validator.max is None else f" <= {_constant(source, validator.max)}"
        return f"{low}len({value}){high}" if low or high else "True"
    if kind is MaxProperties:
        return f"len({value}) <= {_constant(source, validator.maximum)}"
    if kind is validate.Regexp and scalar and hasattr(validator.regex, "match"):
        return f"{source.ref(validator.regex.match, 'match')}({value}) is not None"
    return f"_passes({source.ref(validator, 'validator')}, {value})"


def _constant(source: Source, value) -> str:
    """``value`` written into the code when it is an integer, or a set of strings and
    integers (Python makes ``x in {...}`` a test against a constant frozenset); else a name."""
    if type(value) is int:
        return repr(value)
    if type(value) is frozenset and value and all(type(each) in (int, str) for each in value):
        return "{" + ", ".join(sorted(map(repr, value))) + "}"
    return source.ref(value, "constant")
