"""Rate limits per client, refused as a JSON 429 with Retry-After; shared between instances
through a real Redis server that the tests start on 127.0.0.1."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time

import pytest

from scoring_api import SettingsError, create_app
from tests.conftest import make_chat_app
from tests.fake_openai import reply, sleep
from tests.servers import free_port

BODY = {"players": [{"name": "A", "cards": [{"color": "red", "value": 2}]}]}
SCORE = "/api/v1/apero/score"


def limited(**settings):
    return create_app({"TESTING": True, "RATE_LIMIT": "3 per minute", **settings}).test_client()


def score(client, lang="en", **headers):
    return client.post(f"{SCORE}?lang={lang}", json=BODY, headers=headers)


def test_beyond_the_limit_a_client_gets_a_json_429_with_retry_after():
    client = limited()
    assert [score(client).status_code for _ in range(3)] == [200, 200, 200]
    refused = score(client)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 61
    error = refused.get_json()["error"]
    assert error["code"] == "rate_limited" and error["details"] == {}
    assert (
        error["message"]
        == f"Too many requests (limit: 3 per minute); try again in {refused.headers['Retry-After']} seconds."
    )


def test_the_refusal_speaks_japanese_too():
    client = limited(RATE_LIMIT="1 per 10 minutes")
    score(client)
    refused = score(client, lang="ja")
    seconds = refused.headers["Retry-After"]
    assert refused.get_json()["error"]["message"] == (
        f"リクエストが多すぎます（上限: 10分あたり1回）。{seconds}秒後にもう一度お試しください。"
    )


def test_scorers_and_tools_share_one_count_per_client():
    client = limited()
    assert score(client).status_code == 200
    assert client.get("/api/v1/fairy-black-box/setup?players=3").status_code == 200
    assert client.post("/api/v1/tools/score_apero", json=BODY).status_code == 200
    assert client.get("/api/v1/tools").status_code == 429
    assert client.get("/healthz").status_code == 200  # the service's own routes are not counted


def test_an_untrusted_forwarded_for_header_changes_nothing():
    client = limited()
    for index in range(3):
        assert score(client, **{"X-Forwarded-For": f"203.0.113.{index}"}).status_code == 200
    assert score(client, **{"X-Forwarded-For": "203.0.113.99"}).status_code == 429


def test_behind_a_trusted_proxy_each_forwarded_client_counts_alone():
    client = limited(TRUSTED_PROXIES="127.0.0.1,10.0.0.2")
    for _ in range(3):
        assert score(client, **{"X-Forwarded-For": "198.51.100.7, 10.0.0.2"}).status_code == 200
    assert score(client, **{"X-Forwarded-For": "198.51.100.7"}).status_code == 429
    assert score(client, **{"X-Forwarded-For": "198.51.100.8"}).status_code == 200
    assert score(client, **{"X-Forwarded-For": "spoofed, 198.51.100.9, 10.0.0.2"}).status_code == 200


def test_each_key_counts_alone():
    client = limited()
    for _ in range(3):
        score(client, Authorization="Bearer first-client-key-0123")
    assert score(client, Authorization="Bearer first-client-key-0123").status_code == 429
    assert score(client, Authorization="Bearer second-client-key-0123").status_code == 200


def test_the_chat_has_its_own_limit(fake_model):
    client = make_chat_app(fake_model, CHAT_RATE_LIMIT="1 per minute", RATE_LIMIT="5 per minute").test_client()
    fake_model.play(reply("はい"), reply("はい"))
    question = {"messages": [{"role": "user", "content": "?"}]}
    assert client.post("/api/v1/chat", json=question).status_code == 200
    refused = client.post("/api/v1/chat", json=question)
    assert refused.status_code == 429 and refused.get_json()["error"]["code"] == "rate_limited"
    assert len(fake_model.requests) == 1  # the refused chat never reached the model
    assert score(client).status_code == 200


@pytest.mark.parametrize(
    "setting, value, message",
    [
        ("RATE_LIMIT", "lots", "SCORING_RATE_LIMIT='lots': must be a rate such as 600 per minute"),
        ("CHAT_RATE_LIMIT", 10, "SCORING_CHAT_RATE_LIMIT=10: must be a rate"),
        ("TRUSTED_PROXIES", "10.0.0.300", "SCORING_TRUSTED_PROXIES='10.0.0.300': must be IP addresses"),
        ("RATELIMIT_STORAGE_URI", "mysql://db", "SCORING_RATELIMIT_STORAGE_URI=(hidden): must be memory://"),
    ],
)
def test_bad_limit_settings_refuse_to_start(setting, value, message):
    with pytest.raises(SettingsError) as refused:
        create_app({"TESTING": True, setting: value})
    assert str(refused.value).startswith(message)


@pytest.fixture(scope="module")
def redis_uri(tmp_path_factory):
    """A real Redis server on 127.0.0.1, started here and stopped after the module."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.fail("redis-server is not installed (apt-get install redis-server; .ci/run does)")
    port = free_port()
    folder = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2) as connection:
                connection.sendall(b"PING\r\n")
                if connection.recv(16).startswith(b"+PONG"):
                    break
        except OSError:
            time.sleep(0.05)
    else:
        process.kill()
        pytest.fail("redis-server did not start")
    yield f"redis://127.0.0.1:{port}/0"
    process.terminate()
    process.wait(timeout=10)


def test_two_instances_share_one_limit_through_redis(redis_uri):
    first = limited(RATELIMIT_STORAGE_URI=redis_uri, RATE_LIMIT="3 per minute")
    second = limited(RATELIMIT_STORAGE_URI=redis_uri, RATE_LIMIT="3 per minute")
    key = {"Authorization": f"Bearer shared-client-key-{time.time_ns()}"}  # a count of its own
    assert [score(first, **key).status_code, score(second, **key).status_code, score(first, **key).status_code] == [
        200,
        200,
        200,
    ]
    assert score(second, **key).status_code == 429
    assert score(first, **key).status_code == 429


def test_an_unreachable_redis_is_no_5xx():
    client = limited(RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{free_port()}/0", RATE_LIMIT="2 per minute")
    assert [score(client).status_code for _ in range(3)] == [200, 200, 429]  # counted in memory meanwhile


QUESTION = {"messages": [{"role": "user", "content": "?"}]}


def test_the_chat_stops_when_todays_tokens_are_spent(fake_model):
    client = make_chat_app(fake_model, CHAT_TOKEN_BUDGET=1000).test_client()
    fake_model.play(reply("one", tokens=800), reply("two", tokens=800), reply("three"))
    assert client.post("/api/v1/chat", json=QUESTION).status_code == 200  # 800 of 1000
    assert client.post("/api/v1/chat", json=QUESTION).status_code == 200  # some left: 1600
    refused = client.post("/api/v1/chat?lang=en", json=QUESTION)
    assert refused.status_code == 429
    seconds = int(refused.headers["Retry-After"])
    assert 1 <= seconds <= 86400
    assert refused.get_json()["error"] == {
        "code": "chat_budget_spent",
        "message": f"Today's chat budget (1000 tokens) is used up; the chat opens again in {seconds} seconds.",
        "details": {},
    }
    assert len(fake_model.requests) == 2
    assert score(client).status_code == 200  # the scorers are not on the budget


def test_each_key_has_its_own_budget(fake_model):
    keys = "budget-key-one-0123456,budget-key-two-0123456"
    client = make_chat_app(fake_model, CHAT_OPEN=False, API_KEYS=keys, CHAT_TOKEN_BUDGET=1000).test_client()
    fake_model.play(reply("one", tokens=1500), reply("two"))
    first, second = ({"Authorization": f"Bearer {key}"} for key in keys.split(","))
    assert client.post("/api/v1/chat", json=QUESTION, headers=first).status_code == 200
    assert client.post("/api/v1/chat", json=QUESTION, headers=first).status_code == 429
    assert client.post("/api/v1/chat", json=QUESTION, headers=second).status_code == 200


def test_instances_share_the_budget_through_redis(fake_model, redis_uri):
    settings = {"CHAT_TOKEN_BUDGET": 1000, "RATELIMIT_STORAGE_URI": redis_uri}
    first = make_chat_app(fake_model, **settings).test_client()
    second = make_chat_app(fake_model, **settings).test_client()
    forwarded = {"X-Forwarded-For": "192.0.2.1"}  # the same address for both (no proxy trusted)
    fake_model.play(reply("one", tokens=1200))
    key = {"Authorization": f"Bearer budget-shared-{time.time_ns()}", **forwarded}
    assert first.post("/api/v1/chat", json=QUESTION, headers=key).status_code == 200
    assert second.post("/api/v1/chat", json=QUESTION, headers=key).status_code == 429


def test_a_worker_runs_at_most_its_chats_in_flight(fake_model):
    import threading

    app = make_chat_app(fake_model, CHAT_MAX_IN_FLIGHT=1, CHAT_TIMEOUT=5.0, CHAT_DEADLINE=5.0)
    fake_model.play(sleep(None))  # the first chat waits until the test lets it go
    answers = {}
    first = threading.Thread(target=lambda: answers.update(first=app.test_client().post("/api/v1/chat", json=QUESTION)))
    first.start()
    deadline = time.monotonic() + 5
    while not fake_model.requests and time.monotonic() < deadline:
        time.sleep(0.01)
    busy = app.test_client().post("/api/v1/chat?lang=ja", json=QUESTION)
    assert busy.status_code == 429 and busy.headers["Retry-After"] == "5"
    assert busy.get_json()["error"]["message"] == "いまチャットが混み合っています。5 秒後にもう一度お試しください。"
    fake_model.play(reply("done"))  # wakes the first chat's model request
    first.join(timeout=10)
    assert answers["first"].status_code == 200
    fake_model.play(reply("again"))
    assert app.test_client().post("/api/v1/chat", json=QUESTION).status_code == 200  # the slot is free again
