"""A frontend's history with another model's tool use (``tool``/``function`` messages,
assistant ``tool_calls``/``function_call``) moves to アイちゃん: the model behind her gets
it as plain text, never as calls or ids it could answer, and no foreign call is run."""

from __future__ import annotations

import pytest

from tests.fake_openai import reply

WEATHER_CALL = {
    "id": "call_w1",
    "type": "function",
    "function": {"name": "get_weather", "arguments": '{"city": "Tokyo"}'},
}
# A foreign call that names one of this service's tools: text too, never run.
APERO_CALL = {"id": "call_0", "type": "function", "function": {"name": "score_apero", "arguments": "{}"}}

HISTORY = [
    {"role": "user", "content": "東京の天気は？"},
    {"role": "assistant", "content": "調べます。", "tool_calls": [WEATHER_CALL, APERO_CALL]},
    {"role": "tool", "tool_call_id": "call_w1", "content": "晴れ、25度"},
    {"role": "tool", "tool_call_id": "call_0", "content": [{"type": "text", "text": '{"total": 99}'}]},
    {"role": "assistant", "content": "晴れです。"},
    {"role": "user", "content": "赤1、緑2、緑3なら何点？"},
]


def ask(client, messages, model="ai-chan"):
    return client.post("/v1/chat/completions", json={"model": model, "messages": messages})


def test_tool_messages_reach_the_model_as_plain_context(chat_client, fake_model):
    fake_model.play(reply("計算しますね。"))
    answer = ask(chat_client, HISTORY)
    assert answer.status_code == 200
    assert answer.get_json()["ai_chan"] == {"tool_calls": [], "rounds": 1}  # nothing of the history was run
    sent = fake_model.requests[0]["messages"][1:]
    assert sent == [
        {"role": "user", "content": "東京の天気は？"},
        {
            "role": "assistant",
            "content": "調べます。\n"
            '（以前の会話でツール「get_weather」を呼び出しました。引数: {"city": "Tokyo"}）\n'
            "（以前の会話でツール「score_apero」を呼び出しました。引数: {}）",
        },
        {
            "role": "user",
            "content": "（以前の会話でのツール「get_weather」の結果: 晴れ、25度）\n"
            '（以前の会話でのツール「score_apero」の結果: {"total": 99}）',
        },
        {"role": "assistant", "content": "晴れです。"},
        {"role": "user", "content": "赤1、緑2、緑3なら何点？"},
    ]
    text = str(fake_model.requests[0]["messages"])
    assert "call_w1" not in text and "call_0" not in text  # no id the model could answer
    assert all(set(m) == {"role", "content"} for m in fake_model.requests[0]["messages"])


def test_legacy_function_messages_and_results_without_a_call_are_told_too(chat_client, fake_model):
    fake_model.play(reply("Sunny."))
    history = [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": None, "function_call": {"name": "get_weather", "arguments": ""}},
        {"role": "function", "name": "get_weather", "content": "sunny"},
        {"role": "tool", "tool_call_id": "call_unknown", "content": "42"},
        {"role": "tool", "tool_call_id": "call_unknown", "name": None, "content": None},
        {"role": "user", "content": "And the score?"},
    ]
    assert ask(chat_client, history, model="ai-chan-en").status_code == 200
    assert fake_model.requests[0]["messages"][1:] == [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": '(Earlier in this conversation, the tool "get_weather" was called with: {})'},
        {
            "role": "user",
            "content": '(Earlier in this conversation, the tool "get_weather" returned: sunny)\n'
            "(Earlier in this conversation, a tool returned: 42)\n"
            "(Earlier in this conversation, a tool returned: )",
        },
        {"role": "user", "content": "And the score?"},
    ]


def test_the_streamed_answer_takes_the_same_history(chat_client, fake_model):
    fake_model.play(reply("はい。"))
    answer = chat_client.post("/v1/chat/completions", json={"model": "ai-chan", "stream": True, "messages": HISTORY})
    assert answer.status_code == 200
    assert answer.get_data(as_text=True).endswith("data: [DONE]\n\n")
    assert fake_model.requests[0]["messages"][3]["content"].startswith("（以前の会話でのツール「get_weather」の結果")


LONG = "x" * 4001


@pytest.mark.parametrize(
    ("message", "param"),
    [
        ({"role": "tool", "tool_call_id": "call_w1", "content": LONG}, "messages[1].content"),
        (
            {"role": "assistant", "content": None, "tool_calls": [WEATHER_CALL] * 21},
            "messages[1].tool_calls",
        ),
        (
            {
                "role": "assistant",
                "tool_calls": [{"id": "c", "function": {"name": "get_weather", "arguments": LONG}}],
            },
            "messages[1].tool_calls[0].function.arguments",
        ),
        (
            {"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "", "arguments": "{}"}}]},
            "messages[1].tool_calls[0].function.name",
        ),
        ({"role": "assistant", "tool_calls": [{"id": "c", "type": "function"}]}, "messages[1].tool_calls[0].function"),
        ({"role": "assistant", "function_call": {"arguments": "{}"}}, "messages[1].function_call.name"),
        ({"role": "tool", "tool_call_id": "c" * 257, "content": "ok"}, "messages[1].tool_call_id"),
        ({"role": "function", "name": "n" * 257, "content": "ok"}, "messages[1].name"),
    ],
)
def test_the_history_is_bounded_like_every_message(chat_client, fake_model, message, param):
    fake_model.play()
    answer = ask(chat_client, [{"role": "user", "content": "?"}, message, {"role": "user", "content": "?"}])
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert (error["type"], error["code"], error["param"]) == ("invalid_request_error", "invalid_input", param)
    assert fake_model.requests == []


def test_a_history_of_only_tool_use_still_reaches_the_model(chat_client, fake_model):
    """A conversation whose messages are all tool use is not empty: the model reads it."""
    fake_model.play(reply("はい。"))
    history = [
        {"role": "assistant", "tool_calls": [WEATHER_CALL]},
        {"role": "tool", "tool_call_id": "call_w1", "content": "晴れ"},
    ]
    assert ask(chat_client, history).status_code == 200
    assert [m["role"] for m in fake_model.requests[0]["messages"]] == ["system", "assistant", "user"]
