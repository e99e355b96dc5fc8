"""Rate limits per client, refused as a JSON 429 with Retry-After; shared between instances
through a real Redis server that the tests start on 127.0.0.1."""

from __future__ import annotations

import json
import threading
import time
import uuid

import pytest

from scoring_api import SettingsError, create_app
from scoring_api.assistant.budget import estimate_tokens, prompt_tokens
from tests.conftest import make_chat_app
from tests.fake_openai import calls, gated, raw, reply, sleep, sse, stall_after, status, stream_chunks
from tests.redis_server import RedisServer
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


KEYS = ("first-client-key-0123456789", "second-client-key-abcdefghij")


def made_up() -> dict:
    return {"Authorization": f"Bearer made-up-{uuid.uuid4()}"}


@pytest.mark.parametrize("keys", [None, ",".join(KEYS)])
def test_a_made_up_key_on_each_request_is_counted_by_address(keys):
    client = limited(API_KEYS=keys)
    assert [score(client, **made_up()).status_code for _ in range(3)] == [200, 200, 200]
    assert score(client, **made_up()).status_code == 429
    assert score(client).status_code == 429  # the same count: the address's


def test_a_made_up_key_on_each_chat_is_counted_by_address(fake_model):
    client = make_chat_app(fake_model, CHAT_RATE_LIMIT="2 per minute").test_client()  # an open chat
    fake_model.play(reply("一"), reply("二"), reply("三"))
    answers = [client.post("/api/v1/chat", json=QUESTION, headers=made_up()) for _ in range(3)]
    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert answers[2].get_json()["error"]["code"] == "rate_limited"


def test_a_verified_key_has_its_own_count():
    client = limited(API_KEYS=",".join(KEYS))
    first, second = ({"Authorization": f"Bearer {key}"} for key in KEYS)
    assert [score(client).status_code for _ in range(4)] == [200, 200, 200, 429]  # the address is spent
    assert [score(client, **first).status_code for _ in range(4)] == [200, 200, 200, 429]
    assert score(client, **second).status_code == 200
    assert score(client, Authorization=f"Bearer {KEYS[0]}x").status_code == 429  # a wrong key: the address's count


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
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    yield server.uri
    server.stop()


def test_two_instances_share_one_limit_through_redis(redis_uri):
    key = f"shared-client-key-{time.time_ns()}"  # a count of its own
    first = limited(RATELIMIT_STORAGE_URI=redis_uri, RATE_LIMIT="3 per minute", API_KEYS=key)
    second = limited(RATELIMIT_STORAGE_URI=redis_uri, RATE_LIMIT="3 per minute", API_KEYS=key)
    bearer = {"Authorization": f"Bearer {key}"}
    assert [score(first, **bearer).status_code, score(second, **bearer).status_code] == [200, 200]
    assert score(first, **bearer).status_code == 200
    assert score(second, **bearer).status_code == 429
    assert score(first, **bearer).status_code == 429


def test_an_unreachable_redis_is_no_5xx():
    client = limited(RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{free_port()}/0", RATE_LIMIT="2 per minute")
    assert [score(client).status_code for _ in range(3)] == [200, 200, 429]  # counted in memory meanwhile


QUESTION = {"messages": [{"role": "user", "content": "?"}]}
STREAMED = {"model": "ai-chan", "stream": True, "messages": [{"role": "user", "content": "?"}]}

# --- the daily token budget: each model round reserved (prompt estimate + max_tokens), then
# settled at the reported usage or, when none comes, the estimate (scoring_api/assistant/budget.py)


def spent(app, client="ip:127.0.0.1") -> int:
    """Today's tokens of ``client`` (the test client's address), as the limits' storage holds them."""
    allowance = app.extensions["chat_allowance"]
    return allowance.limiter.limiter.storage.get(allowance.budget.key_for("chat-tokens", client))


def round_cost(fake_model, **settings) -> int:
    """What one round of QUESTION sets aside: the estimate of the prompt the model receives
    (the conversation and the tools), plus max_tokens."""
    client = make_chat_app(fake_model, **settings).test_client()
    fake_model.play(reply("はい"))
    assert client.post("/api/v1/chat", json=QUESTION).status_code == 200
    sent = fake_model.requests[0]
    return prompt_tokens(sent["messages"]) + sent["max_tokens"]


def test_the_estimate_counts_other_characters_one_token_each_and_ascii_three_to_one():
    assert estimate_tokens("") == 0
    assert estimate_tokens("16と20です。") == 2 + 4  # 4 ASCII characters, 4 others
    assert estimate_tokens("hello, world") == 4
    assert estimate_tokens("初期ハチミツ") == 6


def test_a_settled_round_costs_what_the_model_reported(fake_model):
    app = make_chat_app(fake_model)
    fake_model.play(reply("はい", tokens=37))
    assert app.test_client().post("/api/v1/chat", json=QUESTION).status_code == 200
    assert spent(app) == 37  # the reservation was given back, but for the usage


def test_the_chat_stops_when_todays_tokens_are_spent(fake_model):
    cost = round_cost(fake_model)
    budget = 2 * cost + cost // 2
    app = make_chat_app(fake_model, CHAT_TOKEN_BUDGET=budget)
    client = app.test_client()
    fake_model.play(reply("one", tokens=cost), reply("two", tokens=cost), reply("three"))
    assert client.post("/api/v1/chat", json=QUESTION).status_code == 200
    assert client.post("/api/v1/chat", json=QUESTION).status_code == 200
    assert spent(app) == 2 * cost  # half a round left: not enough for another
    refused = client.post("/api/v1/chat?lang=en", json=QUESTION)
    assert refused.status_code == 429
    seconds = int(refused.headers["Retry-After"])
    assert 1 <= seconds <= 86400
    assert refused.get_json()["error"] == {
        "code": "chat_budget_spent",
        "message": f"Today's chat budget ({budget} tokens) is used up; the chat opens again in {seconds} seconds.",
        "details": {},
    }
    assert client.post("/api/v1/chat", json=QUESTION).get_json()["error"]["message"] == (
        f"今日のチャットの利用上限（{budget}トークン）に達しました。{seconds}秒後にまた使えます。"
    )
    assert len(fake_model.requests) == 2
    assert spent(app) == 2 * cost  # a refused reservation is not kept
    assert score(client).status_code == 200  # the scorers are not on the budget


def test_a_stream_the_client_leaves_is_charged_the_estimate(fake_model):
    app = make_chat_app(fake_model, CHAT_TIMEOUT=5.0, CHAT_DEADLINE=5.0)
    fake_model.play(stall_after("長い答えです"))  # one chunk, then no usage ever
    leaving = app.test_client().post("/v1/chat/completions", json=STREAMED, buffered=False)
    next(iter(leaving.response))
    leaving.close()  # the client goes away
    received = "長い答"  # the first 3-character chunk, read before the stream began
    assert spent(app) == prompt_tokens(fake_model.requests[0]["messages"]) + estimate_tokens(received) > 0
    fake_model.play()


def _no_usage_stream(text: str) -> bytes:
    chunks = [c for c in stream_chunks({"content": text}) if c["choices"]]  # without the usage chunk
    return (
        b"".join(b"data: " + json.dumps(c, ensure_ascii=False).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"
    )


@pytest.mark.parametrize("streamed", [False, True])
def test_a_model_that_reports_no_usage_is_charged_the_estimate(fake_model, streamed):
    app = make_chat_app(fake_model)
    answer = "16と20です。"
    if streamed:
        fake_model.play(sse(_no_usage_stream(answer)))
        stream = app.test_client().post("/v1/chat/completions", json=STREAMED).get_data(as_text=True)
        assert stream.endswith("data: [DONE]\n\n")
    else:
        message = {"role": "assistant", "content": answer}
        fake_model.play(raw({"object": "chat.completion", "choices": [{"index": 0, "message": message}]}))
        assert app.test_client().post("/api/v1/chat", json=QUESTION).get_json()["reply"] == answer
    assert spent(app) == prompt_tokens(fake_model.requests[0]["messages"]) + 6


def test_a_round_the_model_fails_costs_nothing(fake_model):
    app = make_chat_app(fake_model)
    fake_model.play(status(500))
    assert app.test_client().post("/api/v1/chat", json=QUESTION).status_code == 502
    assert spent(app) == 0


def test_concurrent_chats_cannot_overshoot_the_budget(fake_model):
    """Six chats of one client at once against a budget of three and a half rounds: three
    are served, three refused before the model is asked; what they cost stays within the
    budget (each round's usage is all it reserved)."""
    cost = round_cost(fake_model, CHAT_MAX_TOKENS=100)
    budget = 3 * cost + cost // 2
    app = make_chat_app(fake_model, CHAT_MAX_TOKENS=100, CHAT_TOKEN_BUDGET=budget, CHAT_MAX_IN_FLIGHT=16)
    gate = threading.Event()
    fake_model.play(gated(gate, "はい", tokens=cost), forever=True)
    answers: list = []
    chats = [
        threading.Thread(target=lambda: answers.append(app.test_client().post("/api/v1/chat", json=QUESTION)))
        for _ in range(6)
    ]
    for chat in chats:
        chat.start()
    deadline = time.monotonic() + 10  # until every chat is refused or waits on the model
    while len(answers) + len(fake_model.requests) < 6 and time.monotonic() < deadline:
        time.sleep(0.01)
    gate.set()
    for chat in chats:
        chat.join(timeout=10)
    assert sorted(answer.status_code for answer in answers) == [200, 200, 200, 429, 429, 429]
    assert {a.get_json()["error"]["code"] for a in answers if a.status_code == 429} == {"chat_budget_spent"}
    assert len(fake_model.requests) == 3
    assert spent(app) == 3 * cost <= budget + 100  # within the budget plus one chat's max_tokens
    later = app.test_client().post("/api/v1/chat", json=QUESTION)
    assert later.status_code == 429 and later.get_json()["error"]["code"] == "chat_budget_spent"


def test_a_later_round_the_budget_does_not_cover_is_refused_mid_chat(fake_model):
    cost = round_cost(fake_model)
    app = make_chat_app(fake_model, CHAT_TOKEN_BUDGET=cost + 50)
    fake_model.play(calls(("applejack_starting_honey", {"players": 2})) | {"tokens": cost - 10}, reply("16と20"))
    refused = app.test_client().post("/api/v1/chat?lang=en", json=QUESTION)
    assert refused.status_code == 429 and refused.get_json()["error"]["code"] == "chat_budget_spent"
    assert len(fake_model.requests) == 1
    assert spent(app) == cost - 10


def test_each_key_has_its_own_budget(fake_model):
    cost = round_cost(fake_model)
    keys = "budget-key-one-0123456789,budget-key-two-0123456789"
    client = make_chat_app(fake_model, CHAT_OPEN=False, API_KEYS=keys, CHAT_TOKEN_BUDGET=cost).test_client()
    fake_model.play(reply("one", tokens=cost), reply("two"))
    first, second = ({"Authorization": f"Bearer {key}"} for key in keys.split(","))
    assert client.post("/api/v1/chat", json=QUESTION, headers=first).status_code == 200
    assert client.post("/api/v1/chat", json=QUESTION, headers=first).status_code == 429
    assert client.post("/api/v1/chat", json=QUESTION, headers=second).status_code == 200


def test_instances_share_the_budget_through_redis(fake_model, redis_uri):
    cost = round_cost(fake_model)
    key = f"budget-shared-key-{time.time_ns()}"  # a budget of its own in this Redis
    settings = {"CHAT_TOKEN_BUDGET": cost, "RATELIMIT_STORAGE_URI": redis_uri, "CHAT_OPEN": False, "API_KEYS": key}
    first = make_chat_app(fake_model, **settings).test_client()
    second = make_chat_app(fake_model, **settings).test_client()
    fake_model.play(reply("one", tokens=cost // 2))
    bearer = {"Authorization": f"Bearer {key}"}
    assert first.post("/api/v1/chat", json=QUESTION, headers=bearer).status_code == 200
    assert second.post("/api/v1/chat", json=QUESTION, headers=bearer).status_code == 429  # half a round left


def test_a_worker_runs_at_most_its_chats_in_flight(fake_model):
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
    assert busy.get_json()["error"]["message"] == "いまチャットが混み合っています。5秒後にもう一度お試しください。"
    fake_model.play(reply("done"))  # wakes the first chat's model request
    first.join(timeout=10)
    assert answers["first"].status_code == 200
    fake_model.play(reply("again"))
    assert app.test_client().post("/api/v1/chat", json=QUESTION).status_code == 200  # the slot is free again
