"""アイちゃん as an OpenAI-compatible model (``/v1/models``, ``/v1/chat/completions``), in
process against the scripted model on 127.0.0.1: what the model receives, the answers and
the streams, and every refusal in OpenAI's error shape. The real SDK against a live server
is tests/test_completions_sdk.py."""

from __future__ import annotations

import json
import threading
import time

import pytest

from scoring_api.tools import tool_definitions
from tests.api.test_rate_limits import round_cost, spent
from tests.conftest import make_chat_app
from tests.fake_openai import calls, raw_message, reply, sleep, sse, stall_after, status, stream_chunks

HONEY_CALL = calls(("applejack_starting_honey", {"players": 2}))
HONEY_RESULT = {"players": 2, "honey": [16, 20], "explanation": "2人: 1番手 16、2番手 20"}


def ask(client, *, model="ai-chan", stream=False, headers=None, **fields):
    body = {"model": model, "messages": [{"role": "user", "content": "2人の初期ハチミツは？"}], **fields}
    if stream:
        body["stream"] = True
    return client.post("/v1/chat/completions", json=body, headers=headers or {})


def events(response) -> list:
    """The data of each server-sent event: parsed JSON, or the text ``[DONE]``."""
    text = response.get_data(as_text=True)
    assert text.endswith("\n\n")
    found = []
    for block in text.split("\n\n")[:-1]:
        assert block.startswith("data: "), block
        data = block.removeprefix("data: ")
        found.append(data if data == "[DONE]" else json.loads(data))
    return found


def streamed_text(found: list) -> str:
    return "".join(
        event["choices"][0]["delta"].get("content", "")
        for event in found
        if isinstance(event, dict) and event.get("choices")
    )


@pytest.fixture
def client(chat_app):
    return chat_app.test_client()


def test_the_models_are_ai_chan_in_japanese_and_in_english(client):
    answer = client.get("/v1/models")
    assert answer.status_code == 200
    assert answer.get_json() == {
        "object": "list",
        "data": [
            {"id": "ai-chan", "object": "model", "created": 1796169600, "owned_by": "scoring-api"},
            {"id": "ai-chan-en", "object": "model", "created": 1796169600, "owned_by": "scoring-api"},
        ],
    }


def test_an_answer_is_a_chat_completion_with_the_usage_of_every_round_and_the_tool_trace(client, fake_model):
    fake_model.play(HONEY_CALL, reply("2人なら1番手16、2番手20です。", tokens=40))
    answer = ask(client)
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["id"].startswith("chatcmpl-") and len(body["id"]) == 41
    assert abs(body["created"] - time.time()) < 10
    assert {k: v for k, v in body.items() if k not in ("id", "created")} == {
        "object": "chat.completion",
        "model": "ai-chan",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "2人なら1番手16、2番手20です。"},
                "finish_reason": "stop",
            }
        ],
        # round 1: 1 prompt + 1 completion token (the fake's default 2); round 2: 39 + 1
        "usage": {"prompt_tokens": 40, "completion_tokens": 2, "total_tokens": 42},
        "ai_chan": {
            "tool_calls": [{"name": "applejack_starting_honey", "arguments": {"players": 2}, "result": HONEY_RESULT}],
            "rounds": 2,
        },
    }
    first = fake_model.requests[0]
    assert first["tools"] == tool_definitions()
    assert "stream" not in first
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    assert "日本語で答えます" in first["messages"][0]["content"]
    assert json.loads(fake_model.requests[1]["messages"][-1]["content"]) == HONEY_RESULT


def test_ai_chan_en_answers_in_english(client, fake_model):
    fake_model.play(HONEY_CALL, reply("Seat 1 gets 16, seat 2 gets 20."))
    body = ask(client, model="ai-chan-en").get_json()
    assert body["model"] == "ai-chan-en"
    assert "英語（English）で答えます" in fake_model.requests[0]["messages"][0]["content"]
    assert body["ai_chan"]["tool_calls"][0]["result"]["explanation"] == "2 players: seat 1: 16, seat 2: 20"


def test_the_request_is_read_as_openai_reads_it(chat_app, fake_model):
    """Text parts are joined, developer is system, empty messages and unknown fields are
    left out, max_tokens never exceeds the service's own, temperature is passed on."""
    client = make_chat_app(fake_model, CHAT_MAX_TOKENS=500).test_client()
    fake_model.play(reply("はい。"))
    messages = [
        {"role": "developer", "content": "短く答えて。"},
        {"role": "user", "content": [{"type": "text", "text": "こんにちは"}, {"type": "text", "text": "元気？"}]},
        {"role": "assistant", "content": None, "refusal": None},
        {"role": "user", "content": "スコアは？", "name": "aki"},
    ]
    answer = client.post(
        "/v1/chat/completions",
        json={
            "model": "ai-chan",
            "messages": messages,
            "max_tokens": 4000,
            "temperature": 0.2,
            "n": 1,
            "seed": 7,
            "user": "u1",
        },
    )
    assert answer.status_code == 200
    sent = fake_model.requests[0]
    assert [(m["role"], m["content"]) for m in sent["messages"][1:]] == [
        ("system", "短く答えて。"),
        ("user", "こんにちは\n元気？"),
        ("user", "スコアは？"),
    ]
    assert sent["max_tokens"] == 500
    assert sent["temperature"] == 0.2
    assert "seed" not in sent and "user" not in sent
    fake_model.play(reply("はい。"))
    client.post("/v1/chat/completions", json={"model": "ai-chan", "messages": messages, "max_completion_tokens": 100})
    assert fake_model.requests[0]["max_tokens"] == 100


JSON_SCHEMA = {"type": "json_schema", "json_schema": {"name": "score", "schema": {"type": "object"}, "strict": True}}


@pytest.mark.parametrize(
    ("response_format", "model", "message"),
    [
        (
            {"type": "json_object"},
            "ai-chan",
            "response_format: json_object の形式では答えられません。アイちゃんは文章で答え、計算した得点は応答の "
            "ai_chan.tool_calls に入ります。response_format を付けずに送ってください。",
        ),
        (
            JSON_SCHEMA,
            "ai-chan-en",
            "response_format: json_schema is not supported: アイちゃん answers in text, and the scores she computed "
            "come in the answer's ai_chan.tool_calls. Send the request without response_format.",
        ),
    ],
)
def test_a_response_format_she_cannot_keep_is_refused_naming_it(client, fake_model, response_format, model, message):
    """A client that asked for JSON would fail on her prose: it is told why instead."""
    fake_model.play(reply("はい。"))
    answer = ask(client, model=model, response_format=response_format)
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert (error["type"], error["code"], error["param"]) == (
        "invalid_request_error",
        "unsupported_parameter",
        "response_format",
    )
    assert error["message"] == message
    assert fake_model.requests == []


@pytest.mark.parametrize(("response_format", "param"), [({}, "response_format.type"), ("json", "response_format")])
def test_a_malformed_response_format_is_refused_naming_the_field(client, fake_model, response_format, param):
    fake_model.play()
    answer = ask(client, response_format=response_format)
    assert answer.status_code == 400
    assert answer.get_json()["error"]["param"] == param


@pytest.mark.parametrize("response_format", [{"type": "text"}, None])
def test_a_text_response_format_is_what_she_answers_anyway(client, fake_model, response_format):
    fake_model.play(reply("はい。"))
    answer = ask(client, response_format=response_format)
    assert answer.status_code == 200
    assert answer.get_json()["choices"][0]["message"]["content"] == "はい。"
    assert "response_format" not in fake_model.requests[0]


def test_a_stream_relays_the_text_in_openais_chunks_then_the_trace_then_done(client, fake_model):
    fake_model.play(HONEY_CALL, reply("2人なら16と20です。", tokens=30))
    answer = ask(client, stream=True)
    assert answer.status_code == 200
    assert answer.mimetype == "text/event-stream"
    assert answer.headers["Cache-Control"] == "no-cache"
    found = events(answer)
    assert found[-1] == "[DONE]"
    chunks = found[:-1]
    assert {c["id"] for c in chunks} == {chunks[0]["id"]} and chunks[0]["object"] == "chat.completion.chunk"
    assert chunks[0]["choices"] == [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]
    # the model's 3-character chunks, one for one
    assert [c["choices"][0]["delta"]["content"] for c in chunks[1:-1]] == ["2人な", "ら16", "と20", "です。"]
    assert chunks[-1]["choices"] == [{"index": 0, "delta": {}, "finish_reason": "stop"}]
    assert chunks[-1]["ai_chan"] == {
        "tool_calls": [{"name": "applejack_starting_honey", "arguments": {"players": 2}, "result": HONEY_RESULT}],
        "rounds": 2,
    }
    assert "usage" not in chunks[-1]
    assert all(request["stream"] is True for request in fake_model.requests)
    assert fake_model.requests[0]["stream_options"] == {"include_usage": True}


def test_a_stream_ends_with_the_usage_when_asked(client, fake_model):
    fake_model.play(HONEY_CALL, reply("16と20です。", tokens=30))
    found = events(ask(client, stream=True, stream_options={"include_usage": True}))
    assert found[-1] == "[DONE]"
    assert found[-2]["choices"] == []
    assert found[-2]["usage"] == {"prompt_tokens": 30, "completion_tokens": 2, "total_tokens": 32}


def test_text_before_a_tool_call_is_relayed_then_a_blank_line(client, fake_model):
    preamble = calls(("applejack_starting_honey", {"players": 2}))
    preamble["message"]["content"] = "計算しますね。"
    fake_model.play(preamble, reply("16と20です。"))
    found = events(ask(client, stream=True))
    assert streamed_text(found) == "計算しますね。\n\n16と20です。"
    assert found[-2]["ai_chan"]["rounds"] == 2


def test_a_model_that_answers_a_stream_request_whole_is_relayed_whole(client, fake_model):
    fake_model.play(raw_message({"role": "assistant", "content": "まとめて答えます。"}))
    found = events(ask(client, stream=True))
    assert streamed_text(found) == "まとめて答えます。"
    assert found[-1] == "[DONE]"


def test_a_tool_call_streamed_in_fragments_is_put_together(client, fake_model):
    """Fragments of tool calls (id and name, then the arguments in two parts) make one call."""
    fake_model.play(HONEY_CALL, reply("16と20です。"))
    found = events(ask(client, stream=True))
    assert found[-2]["ai_chan"]["tool_calls"][0]["arguments"] == {"players": 2}
    chunks = stream_chunks(HONEY_CALL["message"])
    assert [
        c["choices"][0]["delta"].get("tool_calls", [{}])[0].get("function", {}).get("arguments") for c in chunks[2:4]
    ] == ['{"playe', 'rs": 2}']


@pytest.mark.parametrize(
    ("body", "status_code", "code", "param"),
    [
        ({"model": "gpt-4o", "messages": [{"role": "user", "content": "x"}]}, 404, "model_not_found", None),
        ({"model": "ai-chan", "messages": []}, 400, "invalid_input", "messages"),
        (
            {"model": "ai-chan", "messages": [{"role": "robot", "content": "x"}]},
            400,
            "invalid_input",
            "messages[0].role",
        ),
        (
            {"model": "ai-chan", "messages": [{"role": "user", "content": [{"type": "image_url"}]}]},
            400,
            "invalid_input",
            "messages[0].content[0]",
        ),
        (
            {"model": "ai-chan", "messages": [{"role": "user", "content": {"type": "text", "text": "x"}}]},
            400,
            "invalid_input",
            "messages[0].content",
        ),
        ({"model": "ai-chan", "messages": [{"role": "user", "content": "  "}]}, 400, "invalid_input", "messages"),
        (
            {"model": "ai-chan", "messages": [{"role": "user", "content": "x"}], "temperature": 3},
            400,
            "invalid_input",
            "temperature",
        ),
        ({"messages": [{"role": "user", "content": "x"}]}, 400, "invalid_input", "model"),
        ([1, 2], 400, "invalid_input", None),
    ],
)
def test_a_bad_request_is_an_openai_shaped_error_before_the_model_is_asked(
    client, fake_model, body, status_code, code, param
):
    fake_model.play()
    answer = client.post("/v1/chat/completions", json=body)
    assert answer.status_code == status_code
    error = answer.get_json()["error"]
    assert error["type"] == "invalid_request_error"
    assert error["code"] == code
    assert error["param"] == param
    assert error["message"]
    assert fake_model.requests == []


def test_the_error_messages_speak_the_models_language(client):
    ja = client.post("/v1/chat/completions", json={"model": "ai-chan", "messages": [{"role": "robot", "content": "x"}]})
    en = client.post(
        "/v1/chat/completions", json={"model": "ai-chan-en", "messages": [{"role": "robot", "content": "x"}]}
    )
    assert (
        ja.get_json()["error"]["message"]
        == "messages[0].role: 次のどれかにしてください: system, developer, user, assistant, tool, function"
    )
    assert (
        en.get_json()["error"]["message"]
        == "messages[0].role: Use one of these: system, developer, user, assistant, tool, function."
    )
    unknown = client.post(
        "/v1/chat/completions", json={"model": "gpt-4o", "messages": [{"role": "user", "content": "x"}]}
    )
    assert (
        unknown.get_json()["error"]["message"]
        == "「gpt-4o」というモデルはありません。使えるモデル: ai-chan、ai-chan-en"
    )


def test_a_locked_chat_wants_a_key_for_the_models_and_the_completions(fake_model):
    client = make_chat_app(fake_model, CHAT_OPEN=False, API_KEYS="frontend-key-0123456789-abc").test_client()
    fake_model.play(reply("はい。"))
    for answer in (
        client.get("/v1/models"),
        ask(client),
        ask(client, headers={"Authorization": "Bearer wrong-key-000000000"}),
    ):
        assert answer.status_code == 401
        assert answer.headers["WWW-Authenticate"] == 'Bearer realm="chat"'
        assert answer.get_json()["error"]["type"] == "authentication_error"
    assert fake_model.requests == []
    key = {"Authorization": "Bearer frontend-key-0123456789-abc"}
    assert client.get("/v1/models", headers=key).status_code == 200
    assert ask(client, headers=key).get_json()["choices"][0]["message"]["content"] == "はい。"


def test_both_chat_endpoints_share_the_chat_limit_and_the_refusal_is_openai_shaped(fake_model):
    client = make_chat_app(fake_model, CHAT_RATE_LIMIT="2 per minute").test_client()
    fake_model.play(reply("一"), reply("二"))
    assert client.post("/api/v1/chat", json={"messages": [{"role": "user", "content": "?"}]}).status_code == 200
    assert ask(client).status_code == 200
    refused = ask(client, model="ai-chan-en")
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 61
    error = refused.get_json()["error"]
    assert (error["type"], error["code"]) == ("rate_limit_error", "rate_limited")
    assert client.get("/v1/models").status_code == 200  # listing the models is not a chat


def test_streamed_usage_is_spent_from_the_budget(fake_model):
    cost = round_cost(fake_model)  # a round of "?": this question's cost a few tokens more
    app = make_chat_app(fake_model, CHAT_TOKEN_BUDGET=3 * cost)
    fake_model.play(HONEY_CALL, reply("一", tokens=2 * cost))
    assert events(ask(app.test_client(), stream=True))[-1] == "[DONE]"
    assert spent(app) == 2 + 2 * cost  # the usage of each round, as the model streamed it
    refused = ask(app.test_client(), stream=True, model="ai-chan-en")
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "chat_budget_spent"


def test_a_round_the_budget_does_not_cover_ends_a_started_stream_with_an_error_event(fake_model):
    cost = round_cost(fake_model)
    app = make_chat_app(fake_model, CHAT_TOKEN_BUDGET=cost + 50)
    preamble = calls(("applejack_starting_honey", {"players": 2})) | {"tokens": cost - 10}
    preamble["message"]["content"] = "計算しますね。"
    fake_model.play(preamble, reply("16と20です。"))
    found = events(ask(app.test_client(), stream=True))
    assert streamed_text(found) == "計算しますね。"
    assert "[DONE]" not in found
    error = found[-1]["error"]
    assert (error["type"], error["code"], error["param"]) == ("rate_limit_error", "chat_budget_spent", None)
    assert error["message"].startswith(f"今日のチャットの利用上限（{cost + 50}トークン）に達しました。")
    assert len(fake_model.requests) == 1


def test_a_stream_holds_a_chat_slot_until_it_ends(fake_model):
    app = make_chat_app(fake_model, CHAT_MAX_IN_FLIGHT=1, CHAT_TIMEOUT=5.0, CHAT_DEADLINE=5.0)
    fake_model.play(stall_after("ゆっくり答えます。"))
    streaming = app.test_client().post(
        "/v1/chat/completions",
        json={"model": "ai-chan", "stream": True, "messages": [{"role": "user", "content": "?"}]},
        buffered=False,
    )
    assert streaming.status_code == 200  # the first piece has come: the stream has started
    busy = ask(app.test_client())
    assert busy.status_code == 429 and busy.get_json()["error"]["code"] == "chat_busy"
    fake_model.play(reply("次"))  # the stalled model ends its stream
    assert streamed_text(events(streaming)) == "ゆっく"
    streaming.close()
    assert ask(app.test_client()).status_code == 200  # the slot is free again


@pytest.mark.parametrize(
    ("step", "code", "status_code"),
    [
        (status(429), "model_error", 502),
        (status(500), "model_error", 502),
        (sse(b"data: {not json\n\n"), "model_bad_response", 502),
        (sse(b'data: {"error": {"message": "overloaded"}}\n\n'), "model_stream_error", 502),
        (sleep(3), "model_timeout", 504),
    ],
)
def test_a_failure_before_any_text_is_a_json_error_not_a_stream(client, fake_model, step, code, status_code):
    fake_model.play(step)
    answer = ask(client, stream=True)
    assert answer.status_code == status_code
    assert answer.mimetype == "application/json"
    error = answer.get_json()["error"]
    assert (error["type"], error["code"]) == ("api_error", code)


def test_a_failure_in_a_tool_round_is_still_a_json_error(client, fake_model):
    fake_model.play(HONEY_CALL, status(503))
    answer = ask(client, stream=True)
    assert answer.status_code == 502
    assert answer.get_json()["error"]["code"] == "model_error"


def _chunk_line(delta) -> bytes:
    event = {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
    return b"data: " + json.dumps(event, ensure_ascii=False).encode() + b"\n\n"


@pytest.mark.parametrize(
    ("rest", "code"),
    [
        (b"data: {not json\n\n", "model_bad_response"),
        (_chunk_line({"content": 7}), "model_bad_response"),
        (_chunk_line({"tool_calls": [{"index": 99, "id": "c", "function": {"name": "x"}}]}), "model_bad_response"),
        (b'data: {"error": {"message": "overloaded", "type": "server_error"}}\n\n', "model_stream_error"),
    ],
)
def test_a_failure_mid_stream_ends_the_stream_with_an_error_event(client, fake_model, rest, code):
    fake_model.play(sse(_chunk_line({"content": "途中まで"}) + rest))
    found = events(ask(client, stream=True))
    assert streamed_text(found) == "途中まで"
    assert "[DONE]" not in found
    assert found[-1]["error"]["code"] == code
    assert found[-1]["error"]["type"] == "api_error"


def test_a_model_that_stalls_mid_stream_ends_it_with_a_timeout_event(fake_model):
    client = make_chat_app(fake_model, CHAT_TIMEOUT=1.0, CHAT_DEADLINE=10.0).test_client()
    fake_model.play(stall_after("止まります"))
    start = time.monotonic()
    found = events(ask(client, stream=True, model="ai-chan-en"))
    assert time.monotonic() - start < 5
    assert streamed_text(found) == "止まり"
    assert found[-1]["error"]["code"] == "model_timeout"
    assert found[-1]["error"]["message"] == "The model did not answer within 1 second; try again later."
    fake_model.play()


def test_a_client_that_leaves_mid_stream_frees_its_slot(fake_model):
    app = make_chat_app(fake_model, CHAT_MAX_IN_FLIGHT=1, CHAT_TIMEOUT=5.0, CHAT_DEADLINE=5.0)
    fake_model.play(stall_after("長い答え"))
    leaving = app.test_client().post(
        "/v1/chat/completions",
        json={"model": "ai-chan", "stream": True, "messages": [{"role": "user", "content": "?"}]},
        buffered=False,
    )
    next(iter(leaving.response))  # the first event
    leaving.close()  # the client goes away
    fake_model.play(reply("はい"))
    done = threading.Event()
    answers = []
    threading.Thread(target=lambda: (answers.append(ask(app.test_client())), done.set())).start()
    assert done.wait(5)
    assert answers[0].status_code == 200
