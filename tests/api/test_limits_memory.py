"""The limits counted in memory (scoring_api/api/limits_memory.py): no thread is started
while counting, a count ends with its window (a fake clock, no sleeping), the counts nobody
reads again are swept on a later count; the app counts in it, so does flask-limiter's
fallback while Redis does not answer; only the limited blueprints' requests are counted,
and flask-limiter's own check (under the same key) runs only when the service's cannot."""

from __future__ import annotations

import threading
import time

import pytest
from flask import request
from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter

from scoring_api import create_app
from scoring_api.api import limits
from scoring_api.api.limits_memory import LazyMemoryStorage
from tests.servers import free_port

BODY = {"players": [{"name": "A", "cards": [{"color": "red", "value": 2}]}]}
SCORE = "/api/v1/apero/score"
START = 1_800_000_000.0


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def started(monkeypatch) -> list[str]:
    """The names of the threads started from here on (they are still started)."""
    names: list[str] = []
    start = threading.Thread.start

    def counted(thread):
        names.append(type(thread).__name__)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", counted)
    return names


# --- the storage ---------------------------------------------------------------------------


def test_counting_starts_no_thread(started):
    clock = Clock()
    storage = LazyMemoryStorage(clock=clock, sweep_seconds=1)
    counts = []
    for step in range(300):
        clock.now = START + step * 0.02  # MemoryStorage would start a 10 ms timer again each time
        counts.append(storage.incr(f"key-{step % 3}", 60))
        storage.get("key-0")
        storage.get_expiry("key-1")
    storage.decr("key-2")
    assert counts[-3:] == [100, 100, 100]
    assert storage.get("key-2") == 99
    assert started == []


def test_the_library_storage_did_start_threads(started):
    """What the test above guards against: the limits library's MemoryStorage starts a
    timer thread when it is made, and again on a count once the last one has run."""
    storage = MemoryStorage()
    storage.timer.join(5)  # its 10 ms timer has run
    storage.incr("key", 60)
    assert started == ["Timer", "Timer"]


def test_a_count_ends_with_its_window():
    clock = Clock()
    limiter = FixedWindowRateLimiter(LazyMemoryStorage(clock=clock))
    three = RateLimitItemPerMinute(3)
    assert [limiter.hit(three, "client") for _ in range(4)] == [True, True, True, False]
    clock.now = START + 59.9
    assert limiter.hit(three, "client") is False
    assert tuple(limiter.get_window_stats(three, "client")) == (START + 60, 0)
    clock.now = START + 60  # the window has ended
    assert tuple(limiter.get_window_stats(three, "client")) == (START + 60, 3)
    assert limiter.hit(three, "client") is True
    assert tuple(limiter.get_window_stats(three, "client")) == (START + 120, 2)


def test_counts_nobody_reads_again_are_swept_at_most_every_sweep_seconds():
    clock = Clock()
    storage = LazyMemoryStorage(clock=clock, sweep_seconds=10)
    storage.incr("a", 1)
    clock.now = START + 2
    storage.incr("b", 1)  # "a" has ended, but no sweep is due before START + 10
    assert dict(storage.storage) == {"a": 1, "b": 1}
    clock.now = START + 10
    storage.incr("c", 100)  # the sweep: "a" and "b" have ended
    assert dict(storage.storage) == {"c": 1}
    assert storage.expirations == {"c": START + 110}
    clock.now = START + 12
    storage.incr("d", 1)
    clock.now = START + 14
    storage.incr("e", 1)  # "d" has ended; the next sweep is at START + 20
    assert dict(storage.storage) == {"c": 1, "d": 1, "e": 1}
    assert storage.get("d") == 0  # read after its window: dropped there and then
    assert dict(storage.storage) == {"c": 1, "e": 1}


@pytest.mark.parametrize("storage_class", [MemoryStorage, LazyMemoryStorage])
def test_counts_as_the_library_storage_does(storage_class):
    """Given back (a negative cost, as a right key's attempt is), taken below zero by
    ``decr`` (never), started again from zero: the same counts as MemoryStorage."""
    storage = storage_class()
    counts = [storage.incr("key", 60) for _ in range(3)]
    counts += [storage.incr("key", 60, amount=-1), storage.get("key"), storage.decr("key", 5)]
    counts += [storage.incr("key", 60, amount=2), storage.get("other")]
    assert counts == [1, 2, 3, 2, 2, 0, 2, 0]
    storage.clear("key")
    assert storage.get("key") == 0


def test_the_moving_window_methods_start_no_thread_either(started):
    storage = LazyMemoryStorage(clock=Clock(time.time()))
    assert [storage.acquire_entry("key", 2, 60) for _ in range(3)] == [True, True, False]
    storage.clock = Clock(time.time() + 61)  # every entry has ended
    storage.acquire_entry("other", 2, 60)  # a sweep is due
    assert "key" not in storage.events
    assert started == []


# --- in the app -----------------------------------------------------------------------------


def test_the_app_counts_in_memory_without_a_thread(started):
    app = create_app({"TESTING": True, "RATE_LIMIT": "25 per minute"})
    client = app.test_client()
    statuses = []
    for _ in range(3):
        statuses += [client.post(SCORE, json=BODY).status_code for _ in range(10)]
        time.sleep(0.02)  # time for the library storage's timer to have ended
    assert statuses == [200] * 25 + [429] * 5
    storage = app.extensions["rate_limits"].limiter.storage
    assert type(storage) is LazyMemoryStorage
    assert dict(storage.storage) == {"LIMITER/scoring/ip:127.0.0.1/scoring/25/1/minute": 30}
    assert client.get("/healthz").get_json() == {"status": "ok", "limits": "memory"}
    assert started == []


def test_while_redis_does_not_answer_the_fallback_counts_without_a_thread(started):
    app = create_app(
        {"TESTING": True, "RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{free_port()}/0", "RATE_LIMIT": "3 per minute"}
    )
    client = app.test_client()
    del started[:]  # flask-limiter's own fallback, replaced, started its timer when it was made
    assert [client.post(SCORE, json=BODY).status_code for _ in range(4)] == [200, 200, 200, 429]
    assert type(app.extensions["rate_limits"].limiter.storage) is LazyMemoryStorage
    assert client.get("/healthz").get_json() == {"status": "ok", "limits": "memory"}
    assert started == []


def test_only_the_limited_blueprints_requests_are_counted_and_without_flask_limiters_check(monkeypatch):
    app = create_app({"TESTING": True, "RATE_LIMIT": "600 per minute", "CHAT_RATE_LIMIT": "10 per minute"})
    limiter = app.extensions["rate_limits"]
    looked_at: list[str] = []  # flask-limiter's own check: none while its storage answers
    monkeypatch.setattr(limiter, "identify_request", lambda: looked_at.append("flask-limiter") or "")
    counted: list[str] = []
    client_id = limits.client_id

    def identified() -> str:
        counted.append(request.path)
        return client_id()

    monkeypatch.setattr(limits, "client_id", identified)
    client = app.test_client()
    for path in ("/healthz", "/", "/openapi.yaml", "/metrics", "/sw.js", "/nowhere"):
        client.get(path)
    assert counted == []
    assert client.post(SCORE, json=BODY).status_code == 200
    assert client.get("/api/v1/tools").status_code == 200
    assert client.get("/v1/models").status_code == 200
    assert client.post("/api/v1/chat", json={"messages": [{"role": "user", "content": "?"}]}).status_code == 503
    assert counted == [SCORE, "/api/v1/tools", "/v1/models", "/api/v1/chat"]
    assert looked_at == []
    assert dict(limiter.limiter.storage.storage) == {
        "LIMITER/scoring/ip:127.0.0.1/scoring/600/1/minute": 3,
        "LIMITER/scoring/ip:127.0.0.1/chat/10/1/minute": 1,
    }


def test_flask_limiters_own_check_counts_under_the_same_key():
    app = create_app({"TESTING": True, "RATE_LIMIT": "3 per minute"})
    limiter = app.extensions["rate_limits"]
    client = app.test_client()
    assert client.post(SCORE, json=BODY).status_code == 200
    with app.test_request_context(SCORE, method="POST", json=BODY, environ_base={"REMOTE_ADDR": "127.0.0.1"}):
        app.preprocess_request()  # the service's check: the second request
        limiter._check_request_limit()  # flask-limiter's own (the hook it registers): the third
    assert dict(limiter.limiter.storage.storage) == {"LIMITER/scoring/ip:127.0.0.1/scoring/3/1/minute": 3}
    refused = client.post(SCORE, json=BODY)
    assert refused.status_code == 429 and refused.get_json()["error"]["code"] == "rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60


def test_several_rates_are_each_counted_and_the_first_reached_refuses():
    app = create_app({"TESTING": True, "RATE_LIMIT": "3 per hour;2 per minute"})
    client = app.test_client()
    assert [client.post(SCORE, json=BODY).status_code for _ in range(3)] == [200, 200, 429]
    storage = app.extensions["rate_limits"].limiter.storage
    assert dict(storage.storage) == {  # the minute's count first, as flask-limiter checks them
        "LIMITER/scoring/ip:127.0.0.1/scoring/2/1/minute": 3,
        "LIMITER/scoring/ip:127.0.0.1/scoring/3/1/hour": 2,
    }
    refused = client.post(SCORE + "?lang=en", json=BODY)
    assert refused.get_json()["error"]["message"].startswith("Too many requests (limit: 2 per minute); try again in ")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
