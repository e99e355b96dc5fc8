"""Every recorded request gets the recorded answer, byte for byte (see recorder.py).

The recording was made from the test suite's own requests, generated documents, the
benchmark's requests and hostile bodies: the service must answer each of them exactly as
it did then. An answer is replaced only where the service changed on purpose, each group
with its reason in the commit that replaced it: refusals of unreadable JSON that quoted
Python's own messages, player names read as players read them (docs/rules/README.md),
free-keys objects refused at their size before their members, and 107 Pedro refusals of a
15 or 16 (or of a split only the other point schedule allows), which the rules now refuse
naming the schedule since a table may play California Pedro's 16 points
(docs/rules/pedro.md, Decisions 17-19), and 530 answers whose sentences changed, each
with the same status and the same JSON but for its texts: English counts without "(s)"
("1 hand", "2 hands"), さん on every player named in a Japanese sentence but never on a
placeholder name or an honoured one (tests/test_catalogue_words.py), no space between a
Japanese number and its unit, and Apero's winner announced as 「アキさんの勝ち（16点）」.
"""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from pathlib import Path

import pytest

from scoring_api import create_app
from scoring_api.operations.registry import OPERATIONS
from tests.conftest import answer_mismatches
from tests.recorded.recorder import raw_bytes

pytestmark = pytest.mark.slow  # 13,000 recorded answers replayed (docs/development.md)

ANSWERS = Path(__file__).parent / "answers.jsonl.gz"


def _lists_the_tools(record: dict) -> bool:
    """The tools list and the unknown-tool refusal (which names every tool) change by
    design when an operation is added; ``tests/assistant`` checks them."""
    return record["path"] == "/api/v1/tools" or '"code":"unknown_tool"' in record["answer"].get("text", "")


def _recorded() -> dict[str, list[dict]]:
    by_path = defaultdict(list)
    with gzip.open(ANSWERS, "rt", encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            if not _lists_the_tools(record):
                by_path[f"{record['method']} {record['path']}"].append(record)
    return dict(sorted(by_path.items()))


RECORDED = _recorded()


def test_the_recording_covers_the_fourteen_operations_it_was_made_with():
    """An operation added later is not in the recording (its own tests cover it)."""
    answered = {key for key, records in RECORDED.items() if any(r["status"] == 200 for r in records)}
    operations = {f"{op.method} /api/v1{op.path}" for op in OPERATIONS}
    assert len(answered & operations) == 14
    assert sum(map(len, RECORDED.values())) > 10_000


@pytest.mark.parametrize("target", list(RECORDED))
def test_recorded_answers(target):
    clients = {}
    differences = []
    for record in RECORDED[target]:
        limit = record["config"]["MAX_CONTENT_LENGTH"]
        if limit not in clients:
            clients[limit] = create_app({"TESTING": True, "MAX_CONTENT_LENGTH": limit}).test_client()
        response = clients[limit].open(
            record["path"],
            method=record["method"],
            query_string=record["query"],
            data=raw_bytes(record["body"]),
            content_type=record["content_type"],
        )
        got = (response.status_code, response.content_type, response.get_data())
        want = (record["status"], record["answer_type"], raw_bytes(record["answer"]))
        if got != want:
            differences.append(f"{record['query']} {raw_bytes(record['body'])[:300]!r}\n  want {want}\n  got  {got}")
    assert not differences, f"{len(differences)} of {len(RECORDED[target])} answers changed:\n" + "\n".join(
        differences[:5]
    )


OPERATION_AT = {f"{op.method} /api/v1{op.path}": op for op in OPERATIONS}


@pytest.mark.parametrize("target", [target for target in RECORDED if target in OPERATION_AT])
def test_recorded_answers_keep_their_response_schema(target):
    """Every recorded 200 answer (the response schema's dump wrote them) is, read back,
    exactly what that schema makes of it (tests/conftest.py, ``answer_mismatches``): so
    the handlers' answers, built once and replayed above byte for byte, keep the schema too."""
    op = OPERATION_AT[target]
    answers = [json.loads(raw_bytes(record["answer"])) for record in RECORDED[target] if record["status"] == 200]
    assert answers
    found = {index: mismatches for index, answer in enumerate(answers) if (mismatches := answer_mismatches(op, answer))}
    assert found == {}, f"{len(found)} of {len(answers)} answers miss the schema: {list(found.items())[:3]}"
