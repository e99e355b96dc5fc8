"""What the worst invalid bodies cost: server time and answer size, per operation and case.

    python benchmarks/invalid_bodies.py [--only REGEX] [--limit BYTES] [--runs N] [--wall]

Every body is built to fit the size limit (64 KiB by default) and sent in-process through
the Flask test client; each line prints the best of ``--runs`` runs, in milliseconds of
this process's CPU time (``--wall``: elapsed time, which other work on the machine
inflates), the answer's status and size in bytes. The last lines compare the worst with
the worst valid request of ``benchmarks/worst_valid.py``, timed here on the same clock:
no invalid body should cost more. The cases, for every operation reading a body:

- ``unknown_keys``: the body is an object of as many unknown keys as fit;
- ``empty_objects <path>``: one list (every list the request schema reaches, its
  surroundings filled in) holding as many ``{}`` as fit;
- ``long_dict <path>``: one object of free keys (every ``Dict`` the request schema
  reaches, its surroundings filled in) holding as many valid members (``"k1": 1``) as fit;
- ``bad_items``: every list at its longest allowed length, every item's every field of
  the wrong type (nested objects likewise, as deep as the schema goes), shrunk to fit;
- ``deep_nesting``: every field of the body a list nested as deep as the reader allows;
- ``long_strings``: every field of the body one long string (the limit shared out);
- ``bad_values``: every list at its longest, every field given a value of the right type
  but out of range (``-1``, ``"?"``), shrunk to fit.

GET operations read the query string: ``many_params`` sends one of as many unknown
parameters as fit in 8 KiB (werkzeug's default request-line bound is the server's).
No figure is asserted anywhere: the script prints, a person reads.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from marshmallow import fields, validate  # noqa: E402

from scoring_api import create_app  # noqa: E402
from scoring_api.operations.registry import OPERATIONS  # noqa: E402
from scoring_api.strict_json import MAX_DEPTH  # noqa: E402

#: One client sends every request here: the rate limit stays in the road, never reached.
UNLIMITED = "1000000 per minute"


def _max_length(field: fields.List, default: int) -> int:
    for validator in field.validators:
        if isinstance(validator, validate.Length):
            return validator.equal if validator.equal is not None else (validator.max or default)
    return default


def _nested_schema(field):
    return field.schema if isinstance(field, fields.Nested) else None


def _key(attr: str, field) -> str:
    return field.data_key or attr


def lists_of(schema, path=()):
    """Every list field the schema reaches: ``(path of keys, field)``; a list's items as ``0``."""
    for attr, field in schema.load_fields.items():
        here = (*path, _key(attr, field))
        if isinstance(field, fields.List):
            yield here, field
            inner = _nested_schema(field.inner)
            if inner is not None:
                yield from lists_of(inner, (*here, 0))
        elif _nested_schema(field) is not None:
            yield from lists_of(field.schema, here)


def dicts_of(schema, path=()):
    """Every dict field (free keys) the schema reaches: ``(path of keys, field)``."""
    for attr, field in schema.load_fields.items():
        here = (*path, _key(attr, field))
        if isinstance(field, fields.Dict):
            yield here, field
        elif isinstance(field, fields.List):
            inner = _nested_schema(field.inner)
            if inner is not None:
                yield from dicts_of(inner, (*here, 0))
        elif _nested_schema(field) is not None:
            yield from dicts_of(field.schema, here)


def place(path, value):
    """``value`` at ``path`` inside empty surroundings (objects and one-item lists)."""
    for key in reversed(path):
        value = [value] if key == 0 else {key: value}
    return value


def bad_object(schema, scale: int, out_of_range: bool) -> dict:
    """Every field of ``schema`` wrong: lists at their longest (at most ``scale``) of bad
    items, objects bad inside, scalars of the wrong type (or, ``out_of_range``, the right
    type and no allowed value)."""
    document = {}
    for attr, field in schema.load_fields.items():
        document[_key(attr, field)] = bad_value(field, scale, out_of_range)
    return document


def bad_value(field, scale: int, out_of_range: bool):
    if isinstance(field, fields.List):
        return [bad_value(field.inner, scale, out_of_range) for _ in range(min(scale, _max_length(field, scale)))]
    if isinstance(field, fields.Nested):
        return bad_object(field.schema, scale, out_of_range)
    if isinstance(field, fields.Dict):
        return {f"v{i}": "?" for i in range(scale)}
    if not out_of_range:
        return [] if not isinstance(field, fields.Boolean) else "x"
    if isinstance(field, fields.Integer):
        return -12345
    if isinstance(field, fields.Boolean):
        return 2
    return "?\u0000"


def encode(document) -> bytes:
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()


def largest(build, limit: int, top: int = 100_000):
    """``build(n)`` for the largest ``n`` whose body fits ``limit`` (``build`` grows with n)."""
    low, high = 0, top
    while low < high:
        middle = (low + high + 1) // 2
        if len(encode(build(middle))) <= limit:
            low = middle
        else:
            high = middle - 1
    return build(low)


def cases(op, limit: int):
    schema = op.request_schema
    yield "unknown_keys", largest(lambda n: {f"k{i}": 0 for i in range(n)}, limit)
    for path, _field in lists_of(schema):
        yield (
            f"empty_objects {'.'.join(map(str, path))}",
            largest(lambda n, p=path: place(p, [{}] * n), limit),
        )
    for path, _field in dicts_of(schema):
        yield (
            f"long_dict {'.'.join(map(str, path))}",
            largest(lambda n, p=path: place(p, {f"k{i}": 1 for i in range(n)}), limit),
        )
    yield "bad_items", largest(lambda n: bad_object(schema, n, False), limit, 1000)
    yield "bad_values", largest(lambda n: bad_object(schema, n, True), limit, 1000)
    deep = place((0,) * (MAX_DEPTH - 2), [])
    yield (
        "deep_nesting",
        largest(lambda n: {_key(a, f): deep for a, f in list(schema.load_fields.items())[:n]}, limit, 50),
    )
    keys = [_key(a, f) for a, f in schema.load_fields.items()]
    yield "long_strings", largest(lambda n: dict.fromkeys(keys, "x" * n), limit, limit)


def measure(client, method, target, raw, runs: int, clock=time.process_time):
    best, response = float("inf"), None
    for _ in range(runs):
        start = clock()
        if method == "GET":
            response = client.get(target)
        else:
            response = client.post(target, data=raw, content_type="application/json")
        best = min(best, clock() - start)
    return best * 1000, response.status_code, len(response.get_data())


def worst_valid(client, runs: int, clock) -> tuple[float, str]:
    """The costliest request of ``benchmarks/worst_valid.py`` (each must be answered 200)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import worst_valid as valid

    worst = (0.0, "")
    for name, (path, build) in valid.CASES.items():
        ms, status, _ = measure(client, "POST", path, json.dumps(build(), ensure_ascii=False).encode(), runs, clock)
        assert status == 200, name
        worst = max(worst, (ms, name))
    return worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="regular expression over 'operation case'")
    parser.add_argument("--limit", type=int, default=64 * 1024, help="body size (bytes) to fill")
    parser.add_argument("--runs", type=int, default=3, help="runs per case; the best is printed")
    parser.add_argument("--wall", action="store_true", help="elapsed time instead of this process's CPU time")
    args = parser.parse_args()
    clock = time.perf_counter if args.wall else time.process_time
    client = create_app({"RATE_LIMIT": UNLIMITED}).test_client()
    worst_time = worst_size = (0.0, "")
    print(f"{'operation':28} {'case':44} {'body':>7} {'ms':>8} {'status':>6} {'answer':>9}")
    for op in OPERATIONS:
        target = f"/api/v1{op.path}?lang=ja"
        if op.method == "GET":
            query = "&".join(f"k{i}=1" for i in range(8 * 1024 // 8))
            todo = [("many_params", f"{target}&{query}", b"")]
        else:
            todo = [(name, target, encode(doc)) for name, doc in cases(op, args.limit)]
        for name, url, raw in todo:
            label = f"{op.operation_id} {name}"
            if args.only and not re.search(args.only, label):
                continue
            ms, status, size = measure(client, op.method, url, raw, args.runs, clock)
            print(f"{op.operation_id:28} {name:44} {len(raw):7} {ms:8.2f} {status:6} {size:9}", flush=True)
            worst_time = max(worst_time, (ms, label))
            worst_size = max(worst_size, (size, label))
    print(f"worst time: {worst_time[0]:.2f} ms ({worst_time[1]})")
    print(f"worst answer: {worst_size[0]} bytes ({worst_size[1]})")
    valid_ms, valid_name = worst_valid(client, args.runs, clock)
    print(f"worst valid request: {valid_ms:.2f} ms ({valid_name})")
    verdict = "no more than" if worst_time[0] <= valid_ms else "MORE than"
    print(f"the worst invalid body costs {verdict} the worst valid request ({worst_time[0] / valid_ms:.2f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
