"""Request documents for the tests: generated ones for a marshmallow schema (hypothesis
strategies: mostly valid, some with wrong types, values out of range, missing or unknown
keys), and the benchmark's own request of each operation."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import strategies as st
from marshmallow import Schema, fields, validate

from scoring_api.schemas.common import JsonBoolean, JsonInteger

WEIRD = st.sampled_from([None, True, False, 0, 1, -1, 2.0, 1.5, "", "x", "pass", "1", [], {}, [1], {"a": 1}, 10**20])


def _rule(field, kind):
    return next((v for v in field.validators if isinstance(v, kind)), None)


def _valid(field: fields.Field, depth: int) -> st.SearchStrategy:
    one_of, span, size = _rule(field, validate.OneOf), _rule(field, validate.Range), _rule(field, validate.Length)
    if one_of is not None:
        return st.sampled_from(list(one_of.choices))
    if isinstance(field, (JsonInteger, fields.Integer)):
        low = span.min if span and span.min is not None else -3
        high = span.max if span and span.max is not None else 30
        return st.integers(low - 1, min(high + 1, low + 60))
    if isinstance(field, (JsonBoolean, fields.Boolean)):
        return st.booleans()
    if isinstance(field, fields.String):
        low, high = _sizes(size, 12)
        return st.text(min_size=low, max_size=high)
    if isinstance(field, fields.List):
        low, high = _sizes(size, 6)
        return st.lists(_value(field.inner, depth + 1), min_size=low, max_size=high)
    if isinstance(field, fields.Nested):
        return document(field.schema, depth + 1)
    if isinstance(field, fields.Dict):
        keys = _valid(field.key_field, depth + 1) if field.key_field else st.text(max_size=4)
        values = _value(field.value_field, depth + 1) if field.value_field else WEIRD
        return st.dictionaries(keys, values, max_size=4)
    return st.one_of(st.integers(-2, 30), WEIRD)


def _sizes(size: validate.Length | None, most: int) -> tuple[int, int]:
    """Sizes around a Length rule: from its minimum (or 0) to its maximum (at most ``most``)."""
    if size is not None and size.equal is not None:
        return size.equal, size.equal
    low = size.min if size and size.min else 0
    return low, max(low, min(size.max if size and size.max else most, most))


def _value(field: fields.Field, depth: int) -> st.SearchStrategy:
    valid = _valid(field, depth) if depth < 6 else WEIRD
    return st.one_of(valid, valid, valid, valid, valid, valid, WEIRD)


def document(schema: Schema, depth: int = 0) -> st.SearchStrategy:
    """Documents for ``schema``: mostly valid, sometimes a key dropped or one too many."""
    required, optional = {}, {}
    for name, field in schema.load_fields.items():
        key = field.data_key or name
        (required if field.required else optional)[key] = _value(field, depth)
    base = st.fixed_dictionaries(required, optional=optional)

    def mutate(doc, how, key):
        doc = dict(doc)
        if how == "drop" and doc:
            doc.pop(sorted(doc)[key % len(doc)])
        elif how == "unknown":
            doc["unexpected"] = key
        return doc

    how = st.sampled_from(["keep"] * 8 + ["drop", "unknown"])
    return st.builds(mutate, base, how, st.integers(0, 20))


BENCHMARK = json.loads((Path(__file__).parents[1] / "benchmarks" / "requests.json").read_text(encoding="utf-8"))
BENCHMARK.pop("_comment")


def benchmark_request(op) -> dict:
    """The benchmark's request of the operation ``op`` (every operation has one), as its
    schema reads it (a GET's query as a dict, numbers as integers)."""
    for key, body in BENCHMARK.items():
        method, target = key.split(" ", 1)
        path, _, query = target.partition("?")
        if method == op.method and path == f"/api/v1{op.path}":
            if method == "POST":
                return body
            pairs = (pair.split("=") for pair in query.split("&"))
            return {k: int(v) if v.isdigit() else v for k, v in pairs}
    raise LookupError(op.operation_id)
