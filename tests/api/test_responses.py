"""Every answer is its response schema's own dump.

Handlers write their answers in the response schema's shape, and nothing dumps them again
at run time (``Operation.run``). These tests hold them to it: on generated requests of
every operation and on the benchmark requests, the answer must be written as exactly the
JSON that ``response_schema.dump`` gives (the same fields, in the schema's order, of its
types). The test suite also checks every answer of every other test
(``operations.CHECK_RESPONSES``, set in conftest.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from scoring_api import create_app
from scoring_api.api import operations
from scoring_api.api.operations import load_operations
from scoring_api.games.errors import RuleError
from tests.documents import document

create_app()  # registers every operation
OPERATIONS = {op.operation_id: op for op in load_operations()}
BENCHMARK = json.loads((Path(__file__).parents[2] / "benchmarks" / "requests.json").read_text(encoding="utf-8"))
BENCHMARK.pop("_comment")


def _benchmark_request(op) -> dict:
    """The benchmark's request of ``op`` (every operation has one), as its schema reads it."""
    for key, body in BENCHMARK.items():
        method, target = key.split(" ", 1)
        path, _, query = target.partition("?")
        if method == op.method and path == f"/api/v1{op.path}":
            return body if method == "POST" else {k: int(v) for k, v in [query.split("=")]}
    raise LookupError(op.operation_id)


def test_the_suite_checks_every_answer():
    assert operations.CHECK_RESPONSES is True


@pytest.mark.parametrize("operation_id", sorted(OPERATIONS))
def test_answers_to_generated_requests_are_their_schemas_dump(operation_id):
    op = OPERATIONS[operation_id]
    answered = []

    @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.one_of(document(op.request_schema), st.just(_benchmark_request(op))), st.sampled_from(["ja", "en"]))
    def run(data, lang):
        try:
            result = op.handler(op.request_schema.load(data), lang)
        except (ValidationError, RuleError):
            return
        op.check_response(result)
        answered.append(result)

    run()
    assert answered  # some requests were valid and answered (the benchmark's at least)


@pytest.mark.parametrize("operation_id", sorted(OPERATIONS))
def test_benchmark_answers_are_their_schemas_dump(operation_id):
    op = OPERATIONS[operation_id]
    data = _benchmark_request(op)
    for lang in ("ja", "en"):
        result = op.handler(op.load(data), lang)
        op.check_response(result)
        assert json.loads(json.dumps(result)) == op.response_schema.dump(result)


BLOSSOMS = OPERATIONS["applejack_blossoms"]
ANSWER = {"blossoms": 3, "times": 2, "honey": 6, "explanation": "3 blossoms x 2 = 6 honey."}


def test_an_answer_in_the_schemas_shape_passes():
    BLOSSOMS.check_response(ANSWER)
    # a field left out is left out by the dump too; the OpenAPI document says which are
    # required, and the contract tests (schemathesis) check every answer against it
    BLOSSOMS.check_response({k: v for k, v in ANSWER.items() if k != "honey"})


@pytest.mark.parametrize("answer, why", [
    ({**ANSWER, "secret": 1}, "a field the schema does not have"),
    ({k: ANSWER[k] for k in ("times", "blossoms", "honey", "explanation")}, "fields out of the schema's order"),
    ({**ANSWER, "honey": "6"}, "a number written as a string"),
])
def test_an_answer_off_the_schema_is_caught(answer, why):
    with pytest.raises(AssertionError, match="applejack_blossoms: the handler wrote"):
        BLOSSOMS.check_response(answer)


def test_a_tuple_is_written_as_the_list_the_schema_dumps():
    final = OPERATIONS["applejack_final_score"]
    result = final.handler(final.load(BENCHMARK["POST /api/v1/applejack/final"]), "en")
    area = result["final_harvest"][0]["areas"][0]
    assert type(area["fields"]) is tuple  # the rules' own tuple, not copied
    final.check_response(result)
    assert final.response_schema.dump(result)["final_harvest"][0]["areas"][0]["fields"] == list(area["fields"])
