"""More requests for the recording (``python -m tests.recorded.record`` runs this file
with the test suite): for every operation, its benchmark request and generated documents
(derandomized hypothesis: mostly valid, some invalid) in both languages, the same as tool
calls, the invalid-bodies benchmark's worst cases, and hostile raw bodies."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from scoring_api.games import apero
from scoring_api.operations.registry import OPERATIONS
from tests.documents import benchmark_request, document

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
import invalid_bodies

OPERATIONS = OPERATIONS


def _send(client, op, doc, lang: str):
    target = f"/api/v1{op.path}"
    if op.method == "GET":
        return client.get(target, query_string={**doc, "lang": lang} if isinstance(doc, dict) else {"lang": lang})
    return client.post(target, query_string={"lang": lang}, json=doc)


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: op.operation_id)
def test_benchmark_requests(client, op):
    for lang in ("ja", "en"):
        _send(client, op, benchmark_request(op), lang)
        client.post(f"/api/v1/tools/{op.operation_id}", query_string={"lang": lang}, json=benchmark_request(op))


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: op.operation_id)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_generated_documents(app, op, lang):
    client = app.test_client()
    examples = 120 if lang == "ja" else 40

    @settings(
        max_examples=examples, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(document(op.request_schema))
    def send(doc):
        _send(client, op, doc, lang)
        client.post(f"/api/v1/tools/{op.operation_id}", query_string={"lang": lang}, json=doc)

    send()


@pytest.mark.parametrize("op", [op for op in OPERATIONS if op.method == "POST"], ids=lambda op: op.operation_id)
def test_invalid_bodies(client, op):
    for _name, doc in invalid_bodies.cases(op, 16 * 1024):
        client.post(f"/api/v1{op.path}?lang=ja", data=invalid_bodies.encode(doc), content_type="application/json")


RAW_BODIES = [
    b"",
    b" ",
    b"null",
    b"[]",
    b"{}",
    b"1",
    b'"x"',
    b"1e400",
    b"NaN",
    b'{"a": NaN}',
    b'{"a": Infinity}',
    b'{"players": 1, "players": 2}',
    b"[" * 40 + b"]" * 40,
    b'{"name": "\\ud800"}',
    b"\xff\xfe",
    b"{",
    b'{"players": [{"name": "A", "cards": []}]}',
    b'{"x": 123456789012345678901234567890}',
    b'{"x": 1.0}',
    b'{"x": -0.0}',
    b'{"x": 1e308}',
]


@pytest.mark.parametrize("op", [op for op in OPERATIONS if op.method == "POST"], ids=lambda op: op.operation_id)
def test_hostile_bodies(client, op):
    for raw in RAW_BODIES:
        for lang in ("ja", "en"):
            client.post(f"/api/v1{op.path}?lang={lang}", data=raw, content_type="application/json")
    client.post(f"/api/v1{op.path}", data=b"{}", content_type="text/plain")
    client.post(f"/api/v1{op.path}?lang=fr", data=b"{}", content_type="application/json")
    client.get(f"/api/v1{op.path}")


def test_other_paths(client):
    for path in ["/api/v1/nowhere", "/api/v1/tools", "/api/v1/tools/nothing", "/healthz"]:
        client.get(path)
        client.post(path, data=json.dumps({}), content_type="application/json")


# -- Valid requests, made at random (seeded) so that every operation has many answers ------

APERO_DECK = [
    (color, value) for color, values in apero.DECK.items() for value, copies in values.items() for _ in range(copies)
]
NAMES = ["Aki", "Ben", "Cho", "Dai", "えり", "Fumi", "ゴロー"]
SPELLINGS = {"purple": ["purple", "紫"], "orange": ["orange", "橙", "オレンジ"], "red": ["red", "赤"]}


def _apero(rng):
    sets = rng.choice([1, 1, 1, 2, 3, 10])
    deck = APERO_DECK * sets
    rng.shuffle(deck)
    players = []
    for name in rng.sample(NAMES, rng.randint(1, 5)):
        size = rng.choice([1, 2, 6, 6, 6, 9, 12])
        hand, deck = deck[:size], deck[size:]
        cards = [{"color": rng.choice(SPELLINGS.get(c, [c])), "value": v} for c, v in hand]
        players.append({"name": name, "cards": cards})
    return {"sets": sets, "players": players} if sets > 1 or rng.random() < 0.5 else {"players": players}


def _auction(rng):
    calls = []
    for _ in range(4):
        calls.append("pass" if rng.random() < 0.5 else rng.choice([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]))
    return {"dealer": rng.choice("NESW"), "calls": calls}


def _trick(rng):
    deck = [
        rank + suit for suit in "HDCS" for rank in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    ]
    return {"trump": rng.choice("HDCS"), "leader": rng.choice("NESW"), "cards": rng.sample(deck, 4)}


def _fairy(rng):
    players = []
    for name in rng.sample(NAMES, rng.randint(2, 5)):
        treasures = [
            {"name": rng.choice(["kirakira", "〈きらきら〉", "feather", "stone", "ring"]), "points": rng.randint(0, 5)}
            for _ in range(rng.randint(0, 4))
        ]
        players.append(
            {"name": name, "mood": rng.randint(0, 5), "eliminated": rng.random() < 0.2, "treasures": treasures}
        )
    return {"players": players}


def _next_player(rng):
    return {"players": [{"name": n, "treasure_count": rng.randint(0, 6)} for n in rng.sample(NAMES, rng.randint(2, 5))]}


def _end_check(rng):
    players = rng.randint(2, 5)
    return {
        "players": players,
        "star_deck_runouts": rng.randint(0, 3),
        "treasure_deck_empty": rng.random() < 0.3,
        "treasure_discard_empty": rng.random() < 0.3,
        "players_left": rng.randint(0, players),
    }


RANDOM_VALID = {
    "/apero/score": _apero,
    "/pedro/auction": _auction,
    "/pedro/trick": _trick,
    "/fairy-black-box/score": _fairy,
    "/fairy-black-box/next-player": _next_player,
    "/fairy-black-box/end-check": _end_check,
}


@pytest.mark.parametrize("path", list(RANDOM_VALID))
def test_random_valid_requests(client, path):
    import random

    rng = random.Random(path)
    for index in range(300):
        lang = "en" if index % 4 == 3 else "ja"
        client.post(f"/api/v1{path}", query_string={"lang": lang}, json=RANDOM_VALID[path](rng))
