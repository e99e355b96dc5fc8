"""The limits' Redis failing (docs/deployment.md, "Redis"): frozen, it costs each request a
few tens of milliseconds, not seconds; killed, the worker counts in memory with one warning
in the log, and one line when Redis is back; ``/healthz`` says where the limits count.

Each test starts its own redis-server (tests/redis_server.py). The time bounds are
functional: 0.5 s is ten times what a frozen Redis may add (two calls of the 25 ms
timeout), and a twentieth of what it cost before (5 s a call)."""

from __future__ import annotations

import logging
import time

import pytest

from scoring_api import SettingsError, create_app
from tests.redis_server import RedisServer

BODY = {"players": [{"name": "A", "cards": [{"color": "red", "value": 2}]}]}
SCORE = "/api/v1/apero/score"
#: Ten times what a frozen Redis may add to one request.
PROMPT = 0.5
#: flask-limiter tries Redis again after 1, 2, 4 ... 32 s (then from 1 s again).
RECOVERY = 70
WENT_AWAY = "rate limits: Redis does not answer; this worker counts them in its memory until it does"
CAME_BACK = "rate limits: Redis answers again; this worker counts them there"


@pytest.fixture
def redis(tmp_path):
    server = RedisServer(tmp_path).start()
    yield server
    server.stop()


def client_of(redis, **settings):
    return create_app({"TESTING": True, "RATELIMIT_STORAGE_URI": redis.uri, **settings}).test_client()


def timed(call):
    started = time.perf_counter()
    response = call()
    return response, time.perf_counter() - started


def score(client):
    return client.post(SCORE, json=BODY)


def limits_of(client) -> str:
    return client.get("/healthz").get_json()["limits"]


def until_counted_in_redis(client) -> None:
    """Limited requests until the worker counts in Redis again (flask-limiter checks
    Redis on a limited request, at most once in 1 to 32 s)."""
    deadline = time.monotonic() + RECOVERY
    while limits_of(client) != "redis":
        assert time.monotonic() < deadline, "the limits never went back to Redis"
        assert score(client).status_code == 200
        time.sleep(0.2)


def test_healthz_says_the_limits_count_in_redis(redis):
    client = client_of(redis)
    assert score(client).status_code == 200
    health = client.get("/healthz")
    assert health.status_code == 200 and health.get_json() == {"status": "ok", "limits": "redis"}


def test_healthz_says_memory_when_so_configured():
    client = create_app({"TESTING": True}).test_client()
    assert client.get("/healthz").get_json() == {"status": "ok", "limits": "memory"}


def test_a_frozen_redis_costs_a_request_milliseconds_not_seconds(redis):
    client = client_of(redis)
    assert score(client).status_code == 200 and limits_of(client) == "redis"
    redis.freeze()
    for _ in range(3):
        answer, seconds = timed(lambda: score(client))
        assert answer.status_code == 200 and seconds < PROMPT
        health, seconds = timed(lambda: client.get("/healthz"))
        assert health.status_code == 200 and seconds < PROMPT
        assert health.get_json() == {"status": "ok", "limits": "memory"}
    redis.thaw()
    until_counted_in_redis(client)
    assert limits_of(client) == "redis"


def test_while_redis_is_frozen_the_limits_still_hold_in_memory(redis):
    client = client_of(redis, RATE_LIMIT="2 per minute")
    redis.freeze()
    assert [score(client).status_code for _ in range(3)] == [200, 200, 429]
    assert limits_of(client) == "memory"


def test_a_killed_redis_is_one_warning_and_its_return_one_line(redis, caplog):
    caplog.set_level(logging.INFO, logger="scoring_api")
    client = client_of(redis)
    assert score(client).status_code == 200
    redis.kill()
    assert [score(client).status_code for _ in range(5)] == [200] * 5
    assert client.get("/healthz").get_json() == {"status": "ok", "limits": "memory"}
    redis.start()  # the same port
    until_counted_in_redis(client)
    assert [score(client).status_code for _ in range(3)] == [200] * 3
    ours = [(r.levelname, r.getMessage()) for r in caplog.records if r.name.startswith("scoring_api")]
    assert ours == [("WARNING", WENT_AWAY), ("INFO", CAME_BACK)]
    assert not any(redis.uri in r.getMessage() for r in caplog.records)  # the URI may hold a password


def test_an_unreachable_redis_from_the_start_is_one_warning(caplog):
    from tests.servers import free_port

    caplog.set_level(logging.INFO, logger="scoring_api")
    client = create_app({"TESTING": True, "RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{free_port()}/0"}).test_client()
    assert [score(client).status_code for _ in range(4)] == [200] * 4
    assert [r.getMessage() for r in caplog.records if r.name.startswith("scoring_api")] == [WENT_AWAY]


@pytest.mark.parametrize("value", [0, 0.001, 6, "fast", True])
def test_a_bad_storage_timeout_refuses_to_start(value):
    with pytest.raises(SettingsError) as refused:
        create_app({"TESTING": True, "RATELIMIT_STORAGE_TIMEOUT": value})
    assert str(refused.value).startswith(
        f"SCORING_RATELIMIT_STORAGE_TIMEOUT={value!r}: must be a number of seconds from 0.005 to 5"
    )
