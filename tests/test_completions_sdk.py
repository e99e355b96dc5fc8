"""アイちゃん through the official ``openai`` SDK, as any chat frontend reaches her: the SDK's
client pointed at the service (the README's gunicorn command, a live process), the service
pointed at the scripted model on 127.0.0.1, which streams."""

from __future__ import annotations

import socket

import httpx
import openai
import pydantic
import pytest

from tests.assistant.pictures import data_url, photo_message, png
from tests.conftest import chat_env
from tests.fake_openai import calls, reply, sse, stall_after, status
from tests.servers import gunicorn

pytestmark = pytest.mark.slow  # a live gunicorn process (docs/development.md)

CLIENT_KEY = "sdk-client-key-0123456789"
QUESTION = [{"role": "user", "content": "2人の初期ハチミツは？"}]
HONEY_RESULT = {"players": 2, "honey": [16, 20], "explanation": "2人: 1番手 16、2番手 20"}


@pytest.fixture(scope="module")
def base_url(fake_model):
    env = chat_env(fake_model, SCORING_CHAT_TIMEOUT="2", SCORING_CHAT_OPEN="false", SCORING_API_KEYS=CLIENT_KEY)
    with gunicorn(env) as port:
        yield f"http://127.0.0.1:{port}/v1"


@pytest.fixture
def ai_chan(base_url):
    with openai.OpenAI(base_url=base_url, api_key=CLIENT_KEY, max_retries=0, timeout=20) as client:
        yield client


def test_the_sdk_lists_the_models(ai_chan):
    assert [model.id for model in ai_chan.models.list()] == ["ai-chan", "ai-chan-en"]


def test_the_sdk_gets_an_answer_with_its_usage_and_the_tool_trace(ai_chan, fake_model):
    fake_model.play(calls(("applejack_starting_honey", {"players": 2})), reply("16と20です。", tokens=30))
    completion = ai_chan.chat.completions.create(model="ai-chan", messages=QUESTION)
    assert completion.choices[0].message.content == "16と20です。"
    assert completion.choices[0].finish_reason == "stop"
    assert (completion.usage.prompt_tokens, completion.usage.completion_tokens, completion.usage.total_tokens) == (
        30,
        2,
        32,
    )
    assert completion.model_extra["ai_chan"] == {
        "tool_calls": [{"name": "applejack_starting_honey", "arguments": {"players": 2}, "result": HONEY_RESULT}],
        "rounds": 2,
    }


def test_the_sdk_streams_the_answer(ai_chan, fake_model):
    fake_model.play(calls(("applejack_starting_honey", {"players": 2})), reply("2人なら16と20です。", tokens=30))
    chunks = list(
        ai_chan.chat.completions.create(
            model="ai-chan", messages=QUESTION, stream=True, stream_options={"include_usage": True}
        )
    )
    assert chunks[0].choices[0].delta.role == "assistant"
    text = [chunk.choices[0].delta.content for chunk in chunks if chunk.choices and chunk.choices[0].delta.content]
    assert text == ["2人な", "ら16", "と20", "です。"]
    finish = next(chunk for chunk in chunks if chunk.choices and chunk.choices[0].finish_reason)
    assert finish.choices[0].finish_reason == "stop"
    assert finish.model_extra["ai_chan"]["tool_calls"][0]["result"] == HONEY_RESULT
    assert chunks[-1].choices == [] and chunks[-1].usage.total_tokens == 32


def test_text_reaches_the_sdk_while_the_model_is_still_writing(ai_chan, fake_model):
    """The model sends its first chunk and stops: the SDK has that text before the model
    has finished (it is relayed, not gathered)."""
    fake_model.play(stall_after("まだ書いています"))
    stream = ai_chan.chat.completions.create(model="ai-chan", messages=QUESTION, stream=True)
    pieces = iter(stream)
    assert next(pieces).choices[0].delta.role == "assistant"
    assert next(pieces).choices[0].delta.content == "まだ書"  # while the model still writes
    fake_model.play(reply("次"))  # the model's stream ends
    rest = list(pieces)
    assert rest[-1].choices[0].finish_reason == "stop"


def test_a_wrong_key_is_the_sdks_authentication_error(base_url, fake_model):
    fake_model.play()
    with (
        openai.OpenAI(base_url=base_url, api_key="wrong-key-0123456789", max_retries=0) as client,
        pytest.raises(openai.AuthenticationError) as refused,
    ):
        client.chat.completions.create(model="ai-chan-en", messages=QUESTION)
    assert refused.value.body["code"] == "chat_key_wrong"
    assert refused.value.body["type"] == "authentication_error"
    assert fake_model.requests == []


def test_an_unknown_model_is_the_sdks_not_found_error(ai_chan):
    with pytest.raises(openai.NotFoundError) as refused:
        ai_chan.chat.completions.create(model="gpt-4o", messages=QUESTION)
    assert refused.value.body["code"] == "model_not_found"


def test_a_model_refusing_before_any_text_is_a_502_for_the_sdk(ai_chan, fake_model):
    fake_model.play(status(429))
    with pytest.raises(openai.InternalServerError) as failed:
        ai_chan.chat.completions.create(model="ai-chan-en", messages=QUESTION, stream=True)
    assert failed.value.status_code == 502
    assert failed.value.body["message"] == "The model endpoint answered with an error (HTTP 429)."


def test_a_malformed_chunk_mid_stream_is_an_error_the_sdk_raises(ai_chan, fake_model):
    fake_model.play(sse(b'data: {"choices": [{"index": 0, "delta": {"content": "abc"}}]}\n\ndata: {broken\n\n'))
    stream = ai_chan.chat.completions.create(model="ai-chan-en", messages=QUESTION, stream=True)
    received = []
    with pytest.raises(openai.APIError) as failed:
        for chunk in stream:
            received.append(chunk.choices[0].delta.content)
    assert received == ["", "abc"]
    assert failed.value.message == "The model sent a response that could not be read."


class Score(pydantic.BaseModel):
    player: str
    total: int


def test_structured_output_is_a_bad_request_naming_response_format(ai_chan, fake_model):
    """``chat.completions.parse`` (and LangChain's ``with_structured_output``) ask for JSON
    she does not write: the SDK raises at once, the body naming the parameter."""
    fake_model.play(reply("16点です。"))
    with pytest.raises(openai.BadRequestError) as refused:
        ai_chan.chat.completions.parse(model="ai-chan-en", messages=QUESTION, response_format=Score)
    assert refused.value.status_code == 400
    assert (refused.value.body["param"], refused.value.body["code"]) == ("response_format", "unsupported_parameter")
    assert refused.value.body["message"].startswith("response_format: json_schema is not supported")
    assert fake_model.requests == []


def test_a_history_with_another_models_tool_use_moves_to_ai_chan(ai_chan, fake_model):
    fake_model.play(reply("2人なら16と20です。"))
    history = [
        {"role": "user", "content": "東京の天気は？"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_w1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_w1", "content": "晴れ"},
        {"role": "assistant", "content": "晴れです。"},
        *QUESTION,
    ]
    completion = ai_chan.chat.completions.create(model="ai-chan", messages=history)
    assert completion.choices[0].message.content == "2人なら16と20です。"
    assert completion.model_extra["ai_chan"]["tool_calls"] == []
    assert fake_model.requests[0]["messages"][1:] == [
        {"role": "user", "content": "東京の天気は？"},
        {"role": "assistant", "content": "（以前の会話でツール「get_weather」を呼び出しました。引数: {}）"},
        {"role": "user", "content": "（以前の会話でのツール「get_weather」の結果: 晴れ）"},
        {"role": "assistant", "content": "晴れです。"},
        *QUESTION,
    ]


def test_the_sdk_retrieves_a_model_and_not_another(ai_chan):
    model = ai_chan.models.retrieve("ai-chan-en")
    assert (model.id, model.object, model.created, model.owned_by) == ("ai-chan-en", "model", 1796169600, "scoring-api")
    with pytest.raises(openai.NotFoundError) as refused:
        ai_chan.models.retrieve("gpt-4o")
    assert refused.value.body["code"] == "model_not_found"


def test_an_unknown_path_answers_in_openais_shape(ai_chan):
    with pytest.raises(openai.NotFoundError) as refused:
        ai_chan.embeddings.create(model="ai-chan", input="こんにちは")
    assert refused.value.response.json() == {
        "error": {
            "message": "そのパスはありません: /v1/embeddings",
            "type": "invalid_request_error",
            "code": "not_found",
            "param": None,
        }
    }


def test_under_gunicorn_a_photo_reaches_the_model_within_the_chats_body_limit(fake_model):
    """The chat routes take their own limit (here 2,000,000 bytes), the scorers keep 64 KiB."""
    env = chat_env(
        fake_model, SCORING_CHAT_OPEN="true", SCORING_CHAT_VISION="true", SCORING_CHAT_MAX_BODY_BYTES="2000000"
    )
    photo = data_url(png(500, 500) + b"\0" * 900_000)  # about 1.2 MB as base64
    with (
        gunicorn(env) as port,
        openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key="open", max_retries=0, timeout=20) as client,
    ):
        fake_model.play(reply("赤1、緑2が見えます。"))
        completion = client.chat.completions.create(model="ai-chan", messages=[photo_message(photo)])
        assert completion.choices[0].message.content == "赤1、緑2が見えます。"
        assert fake_model.requests[0]["messages"][1]["content"][1] == {"type": "image_url", "image_url": {"url": photo}}
        with pytest.raises(openai.APIStatusError) as refused:
            client.chat.completions.create(model="ai-chan", messages=[photo_message(photo, photo)])
        assert refused.value.status_code == 413
        assert refused.value.body["message"] == "リクエストが大きすぎます（上限2000000バイト）。"
        scorer = httpx.post(
            f"http://127.0.0.1:{port}/api/v1/apero/score",
            content=b"{" + b" " * 64 * 1024 + b"}",
            headers={"Content-Type": "application/json"},
            timeout=20,
        )
        assert scorer.status_code == 413
        assert scorer.json()["error"]["message"] == "リクエストが大きすぎます（上限65536バイト）。"
        for path in ("/api/v1/chat", "/v1/chat/completions", "/v1/chat/%63ompletions"):  # as Flask routes it
            assert _invited(port, path, 100_000), path
        assert not _invited(port, "/api/v1/apero/score", 100_000)


def _invited(port: int, path: str, length: int) -> bool:
    """Whether a body of ``length`` announced with ``Expect: 100-continue`` gets ``100
    Continue`` (else the 413 comes at once)."""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(head.encode())
        return connection.recv(100).startswith(b"HTTP/1.1 100 Continue")
