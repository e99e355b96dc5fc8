"""The compiled load (scoring_api/schemas/compiled.py) against marshmallow itself.

For every operation's request schema, generated documents (mostly valid, some with wrong
types, values out of range, missing or unknown keys) must either load to exactly what
``schema.load`` gives, or fall back; a document marshmallow refuses must always fall back.
"""

from __future__ import annotations

import linecache
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from marshmallow import EXCLUDE, Schema, ValidationError, fields, post_load, validate

from scoring_api import create_app
from scoring_api.api.operations import load_operations
from scoring_api.schemas import codegen, compiled
from scoring_api.schemas.common import MaxProperties, StrictSchema, integer
from tests.documents import benchmark_request, document

create_app()  # registers every operation
OPERATIONS = {op.operation_id: op for op in load_operations()}


def outcome(function, data):
    try:
        return "ok", function(data)
    except compiled.Fallback:
        return "fallback", None
    except Exception as error:  # noqa: BLE001 - compared by type below
        return type(error).__name__, None


def check_load(schema: Schema, data) -> str:
    fast = compiled._schema_loader(schema, schema.unknown)
    got, value = outcome(fast, data)
    expected, reference = outcome(schema.load, data)
    if got == "ok":
        assert expected == "ok" and value == reference
    elif expected == "ValidationError":
        assert got == "fallback"
    elif got != "fallback":
        assert got == expected  # a rule's own exception, raised on both roads
    return got


@pytest.mark.parametrize("operation_id", sorted(OPERATIONS))
def test_compiled_load_equals_marshmallow(operation_id):
    schema = OPERATIONS[operation_id].request_schema

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(document(schema))
    def run(data):
        check_load(schema, data)

    run()


@pytest.mark.parametrize("operation_id", sorted(OPERATIONS))
def test_benchmark_requests_take_the_compiled_road(operation_id):
    op = OPERATIONS[operation_id]
    data = benchmark_request(op)
    loaded = compiled._schema_loader(op.request_schema, op.request_schema.unknown)(data)
    assert loaded == op.request_schema.load(data)


# --- the module's rules on a schema built for them --------------------------------------


@dataclass
class Point:
    x: int
    label: str | None = None


class PointSchema(StrictSchema):
    x = integer(required=True, validate=validate.Range(0, 9))
    label = fields.String(allow_none=True, load_default=None)

    @post_load
    def to_point(self, data, **_):
        return Point(**data)


class ShapeSchema(StrictSchema):
    kind = fields.String(required=True, data_key="type", validate=validate.OneOf(["dot", "line"]))
    points = fields.List(fields.Nested(PointSchema), required=True, validate=validate.Length(1, 3))
    tags = fields.Dict(keys=fields.String(validate=validate.Length(1, 3)), values=integer(), load_default=dict)
    closed = fields.Boolean(load_default=False)
    extra = fields.Raw(allow_none=True)
    trimmed = fields.String(pre_load=[str.strip])  # field-level pre_load: marshmallow's own
    even = integer(validate=lambda n: n % 2 == 0 or (_ for _ in ()).throw(ValidationError("odd")))
    many = fields.Nested(PointSchema, many=True)


SHAPE = ShapeSchema()
FAST = compiled._schema_loader(SHAPE, SHAPE.unknown)


def test_a_plain_document_loads_on_the_compiled_road_with_defaults_and_hooks():
    data = {"type": "line", "points": [{"x": 1}, {"x": 9, "label": None}], "tags": {"ab": 2}, "extra": [1, {"z": None}]}
    loaded = FAST(data)
    assert loaded == {
        "kind": "line",
        "points": [Point(1), Point(9)],
        "tags": {"ab": 2},
        "closed": False,
        "extra": [1, {"z": None}],
    }
    assert loaded == SHAPE.load(data)
    assert FAST({"type": "dot", "points": [{"x": 0}]})["tags"] == {}  # a callable default is called


@pytest.mark.parametrize(
    "data",
    [
        {"type": "dot", "points": [{"x": 2.0}]},  # 2.0 is 2 for marshmallow: not the compiled road's call
        {"type": "dot", "points": [{"x": 10}]},  # out of range
        {"type": "dot", "points": [{"x": True}]},  # a bool is no integer
        {"type": "dot", "points": []},  # too short
        {"type": "square", "points": [{"x": 1}]},  # not one of
        {"kind": "dot", "points": [{"x": 1}]},  # the attribute name is not the data key
        {"type": "dot", "points": [{"x": 1}], "tags": {"long": 1}},  # key validator
        {"type": "dot", "points": [{"x": 1}], "closed": "yes"},  # marshmallow's Boolean takes it
        {"type": None, "points": [{"x": 1}]},  # null where not allowed
        {"type": "dot", "points": [{"x": 1, "y": 2}]},  # unknown key, nested
        [{"type": "dot"}],  # not an object
    ],
)
def test_anything_unusual_falls_back_to_marshmallow(data):
    with pytest.raises(compiled.Fallback):
        FAST(data)
    load = compiled.loader(SHAPE)
    try:
        expected = SHAPE.load(data)
    except ValidationError as error:
        with pytest.raises(ValidationError) as raised:
            load(data)
        assert raised.value.messages == error.messages
    else:
        assert load(data) == expected


def test_fields_the_module_does_not_know_are_marshmallows_own():
    data = {"type": "dot", "points": [{"x": 1}], "trimmed": "  a ", "even": 4, "many": [{"x": 3}]}
    assert FAST(data) == SHAPE.load(data)
    assert FAST(data)["trimmed"] == "a" and FAST(data)["many"] == [Point(3)]
    with pytest.raises(compiled.Fallback):
        FAST({**data, "even": 3})


def test_exclude_drops_unknown_keys_like_marshmallow():
    schema = ShapeSchema(unknown=EXCLUDE)
    data = {"type": "dot", "points": [{"x": 1}], "other": 1}
    assert compiled._schema_loader(schema, schema.unknown)(data) == schema.load(data)


def test_verify_mode_catches_a_compiled_result_that_differs(monkeypatch):
    monkeypatch.setattr(compiled, "_schema_loader", lambda schema, unknown: lambda data: {"kind": "dot"})
    monkeypatch.setattr(compiled, "VERIFY", True)
    with pytest.raises(AssertionError, match="compiled .* != marshmallow"):
        compiled.loader(SHAPE)({"type": "dot", "points": [{"x": 1}]})


# --- the code the module writes -------------------------------------------------------


def _refuse(refused: bool) -> None:
    if refused:
        raise ValidationError("refused")


class EdgeSchema(Schema):
    """Every validator and field form the generated code writes inline or calls."""

    open_low = integer(validate=validate.Range(0, 5, min_inclusive=False, max_inclusive=False))
    at_least = integer(validate=validate.Range(min=3))
    pair = fields.List(fields.String(), validate=validate.Length(equal=2))
    short = fields.String(validate=validate.Length(max=2))
    code = fields.String(validate=validate.Regexp(r"[a-z]+\Z"))
    kinds = fields.List(fields.Raw(validate=validate.OneOf([1, "a", (2, 3)])))
    even = integer(validate=lambda n: n % 2 == 0)  # a plain function: only raising refuses
    point = fields.Nested(PointSchema, allow_none=True)
    checked = fields.Nested(PointSchema, validate=lambda p: _refuse(p.x <= 0))
    anything = fields.Dict()
    few = fields.Dict(values=integer(), validate=MaxProperties(2))
    loose = fields.Raw(allow_none=True, validate=validate.Length(max=2))
    deep = fields.List(fields.List(integer(validate=validate.OneOf([1, 2]))))
    label = fields.String(load_default="none", allow_none=True)


EDGE = EdgeSchema()


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(document(EDGE))
def test_every_inline_form_loads_as_marshmallow_does(data):
    check_load(EDGE, data)


@pytest.mark.parametrize(
    "data, road",
    [
        ({"open_low": 4, "at_least": 3, "pair": ["a", "b"], "short": "ab", "code": "abc"}, "ok"),
        ({"open_low": 5}, "fallback"),  # the open upper bound
        ({"open_low": 0}, "fallback"),  # the open lower bound
        ({"pair": ["a"]}, "fallback"),
        ({"code": "ab1"}, "fallback"),
        ({"kinds": [1, "a", [2, 3]]}, "fallback"),  # a list is unhashable: OneOf refuses it too
        ({"kinds": [1, "a"]}, "ok"),
        ({"even": 3}, "ok"),  # marshmallow 4 ignores a validator's False; so does the compiled road
        ({"point": None, "checked": {"x": 1}, "loose": None, "deep": [[1], [2, 1]], "label": None}, "ok"),
        ({"checked": {"x": 0}}, "fallback"),
        ({"anything": {"a": [None]}}, "ok"),
        ({"few": {"a": 1, "b": 2}}, "ok"),
        ({"few": {"a": 1, "b": 2, "c": 3}}, "fallback"),
    ],
)
def test_inline_forms_take_the_right_road(data, road):
    assert check_load(EDGE, data) == road


def test_the_generated_code_is_plain_python_shown_in_tracebacks():
    fast = compiled._schema_loader(SHAPE, SHAPE.unknown)
    source = fast.__source__
    assert "type(v0) is str and v0 in {'dot', 'line'}" in source  # a OneOf of constants, inline
    assert "0 <= v0 <= 9" in source  # a Range, as one chained comparison
    filename = fast.__code__.co_filename
    assert linecache.getline(filename, 1).startswith("def ")


class TreeSchema(Schema):
    value = integer(required=True)
    children = fields.List(fields.Nested(lambda: TreeSchema()))


def test_a_schema_nested_in_itself_is_compiled_to_a_bounded_depth():
    schema = TreeSchema()
    tree = {"value": 1, "children": [{"value": 2, "children": [{"value": 3, "children": []}]}]}
    deep = {"value": 0, "children": []}
    for level in range(1, 50):  # deeper than the compiled levels: marshmallow loads the rest
        deep = {"value": level, "children": [deep]}
    for nested in (tree, deep):
        assert compiled._schema_loader(schema, schema.unknown)(nested) == schema.load(nested)
    # one function per level and one per list field, until the source is crowded
    functions = compiled._schema_loader(schema, schema.unknown).__source__.count("\ndef ") + 1
    assert functions <= 2 * codegen.MAX_FUNCTIONS + 2


class HookSchema(Schema):
    n = integer(required=True)

    @post_load
    def quiet(self, data, **_):  # never reads its keywords: called without them
        return {**data, "quiet": True}

    @post_load(pass_original=True)
    def loud(self, data, original, **kwargs):  # reads them: they are passed
        return {**data, "many": kwargs["many"], "unknown": kwargs["unknown"], "keys": sorted(original)}


def test_post_load_hooks_get_their_keywords_unless_they_never_read_them():
    schema = HookSchema()
    fast = compiled._schema_loader(schema, schema.unknown)
    assert (
        fast({"n": 1})
        == schema.load({"n": 1})
        == {
            "n": 1,
            "quiet": True,
            "many": False,
            "unknown": "raise",
            "keys": ["n"],
        }
    )
    assert "(result)" in fast.__source__
    assert "(result, data, many=False, partial=None, unknown='raise')" in fast.__source__
    assert compiled._ignores_keywords(schema.quiet) and not compiled._ignores_keywords(schema.loud)

    def sneaky(self, data, **kwargs):
        return locals()

    def captured(self, data, **kwargs):
        return lambda: kwargs

    for hook in (sneaky, captured):
        assert not compiled._ignores_keywords(hook.__get__(schema))
