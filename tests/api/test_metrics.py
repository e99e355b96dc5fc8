"""``GET /metrics`` (scoring_api/api/metrics.py): counts that move by exactly what was asked,
429s by the limit that refused them, chats with their rounds and tokens, open streams, the
token (or this host only), and under gunicorn the sum of both workers' counts."""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from scoring_api import SettingsError, create_app
from scoring_api.settings import KEY_LENGTH
from tests.conftest import make_chat_app
from tests.fake_openai import calls, reply, sleep
from tests.servers import gunicorn

BODY = {"players": [{"name": "A", "cards": [{"color": "red", "value": 2}]}]}
SCORE = "/api/v1/apero/score"
QUESTION = {"messages": [{"role": "user", "content": "?"}]}
TOKEN = "metrics-token-5f1c9a7e3d2b8046"


def parse(text: str) -> dict[tuple[str, tuple], float]:
    """Every sample: (name, sorted labels) -> value."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def scrape(client, **headers) -> dict[tuple[str, tuple], float]:
    answer = client.get("/metrics", headers=headers, buffered=True)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return parse(answer.get_data(as_text=True))


def value(samples, name: str, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_requests_are_counted_by_endpoint_and_status():
    client = create_app({"TESTING": True}).test_client()
    for _ in range(3):
        assert client.post(SCORE, json=BODY, buffered=True).status_code == 200
    assert client.post(SCORE, json={"players": []}, buffered=True).status_code == 400
    assert client.get("/api/v1/nowhere/at-all-1", buffered=True).status_code == 404
    assert client.get("/api/v1/nowhere/at-all-2", buffered=True).status_code == 404
    assert client.post("/healthz", buffered=True).status_code == 405
    assert client.get("/healthz", buffered=True).status_code == 200
    samples = scrape(client)
    assert value(samples, "scoring_requests_total", endpoint="api.score_apero", status="200") == 3
    assert value(samples, "scoring_requests_total", endpoint="api.score_apero", status="400") == 1
    assert value(samples, "scoring_requests_total", endpoint="none", status="404") == 2  # never the raw path
    assert value(samples, "scoring_requests_total", endpoint="none", status="405") == 1
    assert value(samples, "scoring_requests_total", endpoint="meta.healthz", status="200") == 1
    assert value(samples, "scoring_request_duration_seconds_count", endpoint="api.score_apero") == 4
    assert value(samples, "scoring_request_duration_seconds_bucket", endpoint="api.score_apero", le="+Inf") == 4
    assert value(samples, "scoring_requests_in_flight") == 1  # the scrape itself
    assert value(samples, "scoring_streams_open") == 0
    assert value(samples, "scoring_limits_storage", storage="memory") == 1
    assert value(samples, "scoring_limits_storage", storage="redis") == 0
    again = scrape(client)
    assert value(again, "scoring_requests_total", endpoint="metrics.metrics_view", status="200") == 1
    assert not any(name.endswith("_created") for name, _ in again)


def test_the_answer_is_prometheus_text_and_is_not_rate_limited():
    client = create_app({"TESTING": True, "RATE_LIMIT": "1 per minute"}).test_client()
    answers = [client.get("/metrics", buffered=True) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert answers[0].mimetype == "text/plain" and "version=" in answers[0].content_type
    assert client.post(SCORE, json=BODY, buffered=True).status_code == 200  # its one request is still there


def refusal_codes(answers) -> dict[str, int]:
    codes: dict[str, int] = {}
    for answer in answers:
        if answer.status_code == 429:
            code = answer.get_json()["error"]["code"]
            codes[code] = codes.get(code, 0) + 1
    return codes


def test_429s_are_counted_by_the_limit_that_refused(fake_model):
    fake_model.play(reply("はい"), forever=True)
    client = make_chat_app(fake_model, RATE_LIMIT="2 per minute", CHAT_RATE_LIMIT="1 per minute").test_client()
    answers = [client.post(SCORE, json=BODY, buffered=True) for _ in range(3)]
    answers += [client.get("/api/v1/tools", buffered=True)]  # the scorers' count too
    answers += [client.post("/api/v1/chat", json=QUESTION, buffered=True) for _ in range(2)]
    completion = {"model": "ai-chan", "messages": QUESTION["messages"]}
    answers += [client.post("/v1/chat/completions", json=completion, buffered=True)]  # OpenAI's error shape
    assert refusal_codes(answers) == {"rate_limited": 4}
    samples = scrape(client)
    assert value(samples, "scoring_refusals_total", limit="scoring") == 2
    assert value(samples, "scoring_refusals_total", limit="chat") == 2


def test_tool_calls_past_the_mcp_limit_are_counted_as_mcp():
    client = create_app({"TESTING": True, "MCP_RATE_LIMIT": "1 per minute", "RATE_LIMIT": "1 per minute"}).test_client()
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "score_apero", "arguments": BODY}}
    headers = {"Accept": "application/json, text/event-stream"}
    answers = [client.post("/mcp", json=call, headers=headers, buffered=True) for _ in range(4)]
    answers += [client.post(SCORE, json=BODY, buffered=True) for _ in range(2)]
    assert [answer.status_code for answer in answers] == [200, 429, 429, 429, 200, 429]
    samples = scrape(client)
    assert value(samples, "scoring_refusals_total", limit="mcp") == 3
    assert value(samples, "scoring_refusals_total", limit="scoring") == 1


def test_a_spent_budget_is_counted_as_budget(fake_model):
    client = make_chat_app(fake_model, CHAT_TOKEN_BUDGET=1000).test_client()
    fake_model.play(reply("たくさん", tokens=5000), reply("もう一度"))
    answers = [client.post("/api/v1/chat", json=QUESTION, buffered=True) for _ in range(2)]
    codes = refusal_codes(answers)
    assert set(codes) == {"chat_budget_spent"}  # the second chat at least (5000 tokens spent)
    assert value(scrape(client), "scoring_refusals_total", limit="budget") == codes["chat_budget_spent"]


def test_a_busy_worker_is_counted_as_busy(fake_model):
    app = make_chat_app(fake_model, CHAT_MAX_IN_FLIGHT=1, CHAT_TIMEOUT=5.0, CHAT_DEADLINE=5.0)
    fake_model.play(sleep(None))  # the first chat waits on the model, holding the only slot
    first = threading.Thread(target=lambda: app.test_client().post("/api/v1/chat", json=QUESTION, buffered=True))
    first.start()
    deadline = time.monotonic() + 5
    while not fake_model.requests and time.monotonic() < deadline:
        time.sleep(0.01)
    busy = app.test_client().post("/api/v1/chat", json=QUESTION, buffered=True)
    assert busy.status_code == 429 and busy.get_json()["error"]["code"] == "chat_busy"
    fake_model.play(reply("done"))
    first.join(timeout=10)
    samples = scrape(app.test_client())
    assert value(samples, "scoring_refusals_total", limit="busy") == 1
    assert value(samples, "scoring_chats_total") == 1


def test_wrong_keys_past_their_limit_are_counted_as_such(fake_model):
    keys = "metrics-right-key-0123456789abcdef"
    client = make_chat_app(
        fake_model, CHAT_OPEN=False, API_KEYS=keys, WRONG_KEY_RATE_LIMIT="2 per minute"
    ).test_client()
    wrong = {"Authorization": "Bearer metrics-wrong-key-0123456789abcdef"}
    answers = [client.post("/api/v1/chat", json=QUESTION, headers=wrong, buffered=True) for _ in range(4)]
    codes = refusal_codes(answers)
    assert set(codes) == {"too_many_wrong_keys"}
    assert value(scrape(client), "scoring_refusals_total", limit="wrong_key") == codes["too_many_wrong_keys"]


def test_chats_are_counted_with_their_rounds_and_tokens(fake_model):
    client = make_chat_app(fake_model).test_client()
    fake_model.play(calls(("applejack_starting_honey", {"players": 2})), reply("はい", tokens=7))
    assert client.post("/api/v1/chat", json=QUESTION, buffered=True).status_code == 200
    fake_model.play(reply("ja", tokens=11))
    completion = {"model": "ai-chan", "messages": QUESTION["messages"]}
    assert client.post("/v1/chat/completions", json=completion, buffered=True).status_code == 200
    samples = scrape(client)
    assert value(samples, "scoring_chats_total") == 2
    assert value(samples, "scoring_chat_rounds_total") == 3  # 2 + 1
    # the fake model reports tokens - 1 prompt tokens and 1 completion token per reply (2 by default)
    assert value(samples, "scoring_chat_tokens_total", kind="prompt") == 1 + 6 + 10
    assert value(samples, "scoring_chat_tokens_total", kind="completion") == 3


def test_an_open_stream_is_counted_until_its_answer_closes(fake_model):
    client = make_chat_app(fake_model).test_client()
    fake_model.play(reply("ストリームです", tokens=5))
    completion = {"model": "ai-chan", "messages": QUESTION["messages"], "stream": True}
    stream = client.post("/v1/chat/completions", json=completion)
    assert stream.status_code == 200 and stream.mimetype == "text/event-stream"
    during = scrape(client)
    assert value(during, "scoring_streams_open") == 1
    assert value(during, "scoring_requests_in_flight") == 2  # the stream and the scrape
    assert "data: [DONE]" in stream.get_data(as_text=True)
    stream.close()
    after = scrape(client)
    assert value(after, "scoring_streams_open") == 0
    assert value(after, "scoring_requests_in_flight") == 1
    assert value(after, "scoring_requests_total", endpoint="completions.chat_completions", status="200") == 1
    assert value(after, "scoring_chats_total") == 1
    assert value(after, "scoring_chat_tokens_total", kind="prompt") == 4


def test_with_a_token_set_metrics_asks_for_it_and_never_logs_it(caplog):
    caplog.set_level(logging.DEBUG)
    client = create_app({"TESTING": True, "METRICS_TOKEN": TOKEN}).test_client()
    missing = client.get("/metrics", buffered=True)
    assert missing.status_code == 401 and missing.headers["WWW-Authenticate"] == 'Bearer realm="metrics"'
    assert missing.get_json()["error"] == {
        "code": "metrics_token",
        "message": "/metrics を読むには運用者のトークンが必要です。Authorization: Bearer <トークン> を付けて送ってください。",
        "details": {},
    }
    wrong = client.get("/metrics?lang=en", headers={"Authorization": f"Bearer {TOKEN[:-1]}x"}, buffered=True)
    assert wrong.status_code == 401
    assert (
        wrong.get_json()["error"]["message"]
        == "/metrics needs the operator's token: send Authorization: Bearer <token>."
    )
    assert client.get("/metrics", headers={"Authorization": f"bearer {TOKEN}"}, buffered=True).status_code == 200
    remote = client.get(
        "/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, environ_base={"REMOTE_ADDR": "203.0.113.9"}
    )
    assert remote.status_code == 200  # the token opens it from anywhere
    assert TOKEN not in caplog.text
    assert all(TOKEN not in a.get_data(as_text=True) for a in (missing, wrong, remote))


def test_without_a_token_only_this_host_reads_metrics():
    client = create_app({"TESTING": True}).test_client()
    assert client.get("/metrics", environ_base={"REMOTE_ADDR": "::1"}, buffered=True).status_code == 200
    remote = client.get("/metrics?lang=en", environ_base={"REMOTE_ADDR": "203.0.113.9"}, buffered=True)
    assert remote.status_code == 403
    assert remote.get_json()["error"] == {
        "code": "metrics_this_host_only",
        "message": "/metrics answers this host only; set SCORING_METRICS_TOKEN to read it from elsewhere.",
        "details": {},
    }
    proxied = client.get("/metrics", headers={"X-Forwarded-For": "203.0.113.9"}, buffered=True)
    assert proxied.status_code == 403  # a proxy on this host forwarded someone else's request
    assert proxied.get_json()["error"]["message"] == (
        "/metrics はこのサーバー自身からしか読めません。ほかの場所から読むには SCORING_METRICS_TOKEN を設定してください。"
    )


@pytest.mark.parametrize("token", ["short", "x" * (KEY_LENGTH[0] - 1), "metrics token with spaces", 123])
def test_a_bad_metrics_token_refuses_to_start_without_showing_it(token):
    with pytest.raises(SettingsError) as refused:
        create_app({"TESTING": True, "METRICS_TOKEN": token})
    message = str(refused.value)
    assert message.startswith(f"SCORING_METRICS_TOKEN=(hidden): must be {KEY_LENGTH[0]} to {KEY_LENGTH[1]} printable")
    assert str(token) not in message


def gunicorn_env(**settings) -> dict:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("SCORING_METRICS", "PROMETHEUS"))}
    return {**env, **settings}


def served_by(access_log: Path) -> dict[str, int]:
    """Scorer requests per worker pid, from the access log (format ``%(p)s %(U)s``)."""
    pids: dict[str, int] = {}
    for line in access_log.read_text().splitlines():
        pid, _, path = line.partition(" ")
        if path == SCORE:
            pid = re.sub(r"\D", "", pid)
            pids[pid] = pids.get(pid, 0) + 1
    return pids


def post_score(port: int) -> int:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{SCORE}", data=json.dumps(BODY).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status


def scrape_port(port: int) -> dict[tuple[str, tuple], float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        return parse(answer.read().decode())


@pytest.mark.slow  # a live gunicorn process (docs/development.md)
def test_under_gunicorn_the_workers_counts_add_up(tmp_path):
    access = tmp_path / "access.log"
    options = ("--access-logfile", str(access), "--access-logformat", "%(p)s %(U)s")
    with gunicorn(gunicorn_env(), workers=2, log=tmp_path / "error.log", options=options) as port:
        sent = 0
        while len(served_by(access)) < 2:  # until both workers have answered some
            assert sent < 400, f"one worker answered every request: {served_by(access)}"
            assert post_score(port) == 200
            sent += 1
            time.sleep(0.01)
        for _ in range(10):
            assert post_score(port) == 200
        sent += 10
        time.sleep(0.2)
        per_worker = served_by(access)
        assert sum(per_worker.values()) == sent and len(per_worker) == 2
        samples = scrape_port(port)
        assert value(samples, "scoring_requests_total", endpoint="api.score_apero", status="200") == sent
        assert value(samples, "scoring_request_duration_seconds_count", endpoint="api.score_apero") == sent
        assert value(samples, "scoring_limits_storage", storage="memory") == 2  # one per worker
        assert value(samples, "scoring_requests_in_flight") == 1  # the scrape

        # a worker that ends takes its gauges along (child_exit); its counts stay in the totals
        gone = next(iter(per_worker))
        os.kill(int(gone), signal.SIGTERM)
        deadline = time.monotonic() + 20
        while True:
            replacement = set(served_by(access)) - set(per_worker)
            if replacement:
                break
            assert time.monotonic() < deadline, "no worker replaced the one that ended"
            assert post_score(port) == 200
            sent += 1
            time.sleep(0.05)
        time.sleep(0.2)
        assert sum(served_by(access).values()) == sent
        samples = scrape_port(port)
        assert value(samples, "scoring_limits_storage", storage="memory") == 2  # not 3
        assert value(samples, "scoring_requests_total", endpoint="api.score_apero", status="200") == sent
