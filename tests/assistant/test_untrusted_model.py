"""The model is untrusted input: malformed replies, hostile tool arguments, too many or too
large tool calls, a model that hangs, and what the log lines may say. Against the scripted
OpenAI-compatible server on 127.0.0.1 (tests/fake_openai.py), through the real client."""

import json
import logging
import time

import pytest

from tests.conftest import API_KEY, make_chat_app
from tests.fake_openai import calls, hang, raw, raw_message, reply, status

BAD_RESPONSE = {
    "ja": {"code": "model_bad_response", "message": "モデルから読めない応答が返りました。", "details": {}},
    "en": {"code": "model_bad_response", "message": "The model sent a response that could not be read.", "details": {}},
}
APERO = {"players": [{"name": "A", "cards": [{"color": "red", "value": 3}]}]}


def ask(client, text="?", lang=None):
    url = "/api/v1/chat" + (f"?lang={lang}" if lang else "")
    return client.post(url, json={"messages": [{"role": "user", "content": text}]})


def tool_messages(request):
    return [m for m in request["messages"] if m["role"] == "tool"]


def deep_arguments_body():
    """A completion whose call's ``arguments`` is an object nested 5,000 deep (raw text:
    json.dumps itself could not write it)."""
    deep = '{"a": ' * 5000 + "1" + "}" * 5000
    return (
        '{"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": [{"index": 0,'
        ' "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls":'
        ' [{"id": "call_0", "type": "function", "function": {"name": "score_apero", "arguments": ' + deep + "}}]}}]}"
    )


# -- 1. malformed replies are a JSON 502 -------------------------------------------------


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(
    "step",
    [
        raw_message("16点です"),  # the message is a string
        raw_message({"role": "assistant", "content": None, "tool_calls": "score_apero"}),
        raw_message({"role": "assistant", "content": None, "tool_calls": [{"id": "call_0", "type": "function"}]}),
        raw_message(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "call_0", "type": "function", "function": {"name": "score_apero", "arguments": APERO}}
                ],
            }
        ),
        raw_message(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "call_0", "type": "function", "function": {"arguments": "{}"}}],
            }
        ),
        raw_message({"role": "assistant", "content": None, "tool_calls": ["score_apero"]}),
        raw(deep_arguments_body()),
    ],
    ids=[
        "message-string",
        "tool_calls-string",
        "call-without-function",
        "arguments-object",
        "function-without-name",
        "call-string",
        "arguments-object-5000-deep",
    ],
)
def test_a_malformed_reply_is_a_json_502(chat_client, fake_model, step, lang):
    fake_model.play(step)
    response = ask(chat_client, lang=lang)
    assert response.status_code == 502
    assert response.get_json() == {"error": BAD_RESPONSE[lang]}
    assert len(fake_model.requests) == 1


def test_a_malformed_reply_after_a_good_round_is_still_a_502(chat_client, fake_model):
    fake_model.play(calls(("score_apero", APERO)), raw_message({"role": "assistant", "tool_calls": "again"}))
    response = ask(chat_client, lang="en")
    assert response.status_code == 502 and response.get_json() == {"error": BAD_RESPONSE["en"]}
    assert len(fake_model.requests) == 2


def test_arguments_nested_5000_deep_are_an_error_result_read_without_recursion(chat_client, fake_model):
    """Decision: a deep ``arguments`` string is the model's mistake in one call, so it is an
    error tool result (bounded: the depth is found without parsing), not a 502."""
    fake_model.play(
        calls(("score_apero", "[" * 5000 + "]" * 5000), ("score_apero", '{"a": ' * 5000)), reply("ごめんなさい")
    )
    response = ask(chat_client)
    assert response.status_code == 200
    body = response.get_json()
    assert body["reply"] == "ごめんなさい"
    for call in body["tool_calls"]:
        assert call["result"] == {
            "error": {
                "code": "invalid_arguments",
                "message": "ツールの引数の入れ子が32段より深いので読みませんでした。",
                "details": {},
            }
        }
    [first, _second] = tool_messages(fake_model.requests[1])
    assert json.loads(first["content"]) == body["tool_calls"][0]["result"]


def test_64_kib_of_arguments_is_refused_unread(chat_client, fake_model):
    huge = json.dumps({"players": "x" * 64 * 1024})
    fake_model.play(calls(("score_apero", huge)), reply("ok"))
    body = ask(chat_client, lang="en").get_json()
    [call] = body["tool_calls"]
    assert call["arguments"] is None  # not echoed back in the answer either
    assert call["result"] == {
        "error": {
            "code": "invalid_arguments",
            "message": "The tool arguments are longer than 65536 bytes, so they were not read.",
            "details": {},
        }
    }
    assert json.loads(tool_messages(fake_model.requests[1])[0]["content"]) == call["result"]


def test_the_argument_bound_is_the_rest_body_limit(fake_model):
    client = make_chat_app(fake_model, MAX_CONTENT_LENGTH=1024).test_client()
    fake_model.play(calls(("score_apero", json.dumps({"players": [], "pad": "x" * 1100}))), reply("ok"))
    [call] = ask(client, lang="en").get_json()["tool_calls"]
    assert call["result"]["error"]["message"] == "The tool arguments are longer than 1024 bytes, so they were not read."


@pytest.mark.parametrize(
    "arguments, message",
    [
        (
            '{"players": [], "players": [{"name": "A"}]}',
            'The tool arguments repeat the key "players"; give it once and call again.',
        ),
        (
            '{"players": [{"name": "A", "name": "B", "cards": []}]}',
            'The tool arguments repeat the key "name"; give it once and call again.',
        ),
        ('{"sets": NaN, "players": []}', "The tool arguments may not contain NaN."),
        (
            '{"sets": 1e400, "players": []}',
            "The number 1e400 in the tool arguments is out of range (no finite double).",
        ),
        (
            '{"players": [{"name": "\\ud800", "cards": []}]}',
            "A string in the tool arguments holds a lone surrogate (\\ud800 and the like).",
        ),
        ("[1, 2]", "The tool arguments are not a JSON object."),
        ('{"players": [}', "The tool arguments are not valid JSON (line 1, column 14)."),
    ],
)
def test_arguments_are_read_strictly(chat_client, fake_model, arguments, message):
    fake_model.play(calls(("score_apero", arguments)), reply("ok"))
    [call] = ask(chat_client, lang="en").get_json()["tool_calls"]
    assert call["arguments"] == arguments
    assert call["result"] == {"error": {"code": "invalid_arguments", "message": message, "details": {}}}


def test_a_repeated_key_is_named_in_japanese_too(chat_client, fake_model):
    fake_model.play(calls(("score_apero", '{"sets": 1, "sets": 2, "players": []}')), reply("ok"))
    [call] = ask(chat_client).get_json()["tool_calls"]
    assert (
        call["result"]["error"]["message"]
        == "ツールの引数でキー「sets」が繰り返されています。一度だけ書いて呼び直してください。"
    )


def test_repeated_map_pairs_in_a_chat_call_name_the_path(chat_client, fake_model):
    tiles = [
        {
            "field": 1,
            "apples": [{"key": "light_green", "value": 2}, {"key": "light_green", "value": 3}],
            "pasture": None,
            "blossoms": None,
            "beehives": None,
            "price": None,
        }
    ]
    arguments = {"orchard": {"tiles": tiles, "board": None}, "varieties": ["light_green"], "die": 1}
    fake_model.play(calls(("applejack_harvest", arguments)), reply("ok"))
    [call] = ask(chat_client).get_json()["tool_calls"]
    assert call["result"] == {
        "error": {
            "code": "repeated_key",
            "message": "キー「light_green」が繰り返されています。",
            "details": {"orchard.tiles[0].apples[1].key": ["キー「light_green」が繰り返されています。"]},
        }
    }


# -- 2. per-round call limit, result cap, max_tokens --------------------------------------


def test_at_most_eight_calls_run_per_round_and_every_call_gets_its_tool_message(chat_client, fake_model):
    fake_model.play(calls(*[("applejack_starting_honey", {"players": 2})] * 10), reply("できました"))
    body = ask(chat_client).get_json()
    assert body["reply"] == "できました"
    results = [c["result"] for c in body["tool_calls"]]
    assert len(results) == 10
    assert all("error" not in r for r in results[:8])
    skipped = {
        "error": {
            "code": "too_many_tool_calls",
            "details": {},
            "message": "1回の応答で実行するツール呼び出しは8件までです。この呼び出しは実行していません。必要なら次の応答で呼び直してください。",
        }
    }
    assert results[8:] == [skipped, skipped]
    assert body["tool_calls"][9]["arguments"] == '{"players": 2}'  # not run, so not parsed
    sent = tool_messages(fake_model.requests[1])
    assert [m["tool_call_id"] for m in sent] == [f"call_{i}" for i in range(10)]
    assert [json.loads(m["content"]) for m in sent] == results


def test_the_call_limit_is_a_setting(fake_model):
    client = make_chat_app(fake_model, CHAT_MAX_TOOL_CALLS=1).test_client()
    fake_model.play(
        calls(("applejack_starting_honey", {"players": 2}), ("applejack_starting_honey", {"players": 3})), reply("ok")
    )
    results = [c["result"] for c in ask(client, lang="en").get_json()["tool_calls"]]
    assert "error" not in results[0]
    assert results[1]["error"]["message"].startswith("At most 1 tool calls are run per turn")


PEDRO_GAME = {
    "hands": [{"bid": {"team": t, "amount": 7}, "points": {t: 6, o: 8}} for t, o in [("NS", "EW"), ("EW", "NS")] * 12]
}


def test_a_tool_result_over_the_limit_goes_back_as_a_short_error(fake_model):
    chat_client = make_chat_app(fake_model, CHAT_TOOL_RESULT_LIMIT=8192).test_client()
    fake_model.play(calls(("pedro_game", PEDRO_GAME), ("applejack_starting_honey", {"players": 2})), reply("ok"))
    body = ask(chat_client, lang="en").get_json()
    full = body["tool_calls"][0]["result"]
    assert len(full["hands"]) == 24  # the answer keeps the whole result
    size = len(json.dumps(full, ensure_ascii=False).encode())
    assert size > 8192
    long_one, short_one = tool_messages(fake_model.requests[1])
    assert len(long_one["content"].encode()) < 1024
    assert json.loads(long_one["content"]) == {
        "error": {
            "code": "tool_result_too_long",
            "details": {},
            "message": f"The tool's result is {size} bytes, more than the 8192 bytes that can be sent back; split the input and call again.",
        }
    }
    assert json.loads(short_one["content"]) == body["tool_calls"][1]["result"]


def test_the_result_limit_is_a_setting(fake_model):
    client = make_chat_app(fake_model, CHAT_TOOL_RESULT_LIMIT=1024).test_client()
    two_hands = {"hands": PEDRO_GAME["hands"][:2]}
    fake_model.play(calls(("pedro_game", two_hands)), reply("ok"))
    [call] = ask(client).get_json()["tool_calls"]
    size = len(json.dumps(call["result"], ensure_ascii=False).encode())
    assert 1024 < size < 8192
    sent = json.loads(tool_messages(fake_model.requests[1])[0]["content"])
    assert sent["error"]["message"] == (
        f"ツールの結果が{size}バイトで、返せる上限1024バイトを超えました。入力を小さく分けて呼び直してください。"
    )


def test_max_tokens_is_sent_with_every_request(chat_client, fake_model):
    fake_model.play(calls(("score_apero", APERO)), reply("3点"))
    assert ask(chat_client).status_code == 200
    assert [r["max_tokens"] for r in fake_model.requests] == [1024, 1024]
    fake_model.play(reply("はい"))
    ask(make_chat_app(fake_model, CHAT_MAX_TOKENS=64).test_client())
    assert fake_model.requests[0]["max_tokens"] == 64


# -- 3. one deadline for the whole chat ---------------------------------------------------


def test_a_hanging_model_meets_the_chat_deadline(fake_model):
    client = make_chat_app(fake_model, CHAT_DEADLINE=1, CHAT_TIMEOUT=5, CHAT_MAX_RETRIES=1).test_client()
    fake_model.play(hang(), forever=True)
    started = time.monotonic()
    response = ask(client, lang="en")
    elapsed = time.monotonic() - started
    assert response.status_code == 504
    assert response.get_json() == {
        "error": {
            "code": "chat_deadline",
            "details": {},
            "message": "The chat did not finish within its time limit of 1 second; try again later.",
        }
    }
    assert elapsed < 4
    assert len(fake_model.requests) == 1  # no retry past the deadline
    fake_model.play()  # wake the hanging handler


def test_the_deadline_message_in_japanese(fake_model):
    client = make_chat_app(fake_model, CHAT_DEADLINE=1, CHAT_TIMEOUT=5).test_client()
    fake_model.play(hang())
    error = ask(client).get_json()["error"]
    assert (
        error["message"] == "チャットが制限時間（1秒）内に終わりませんでした。しばらくしてからもう一度お試しください。"
    )
    fake_model.play()


def test_the_deadline_covers_all_rounds(fake_model):
    def slow_call(body):
        time.sleep(0.4)
        return calls(("applejack_starting_honey", {"players": 2}))["message"]

    client = make_chat_app(fake_model, CHAT_DEADLINE=1, CHAT_TIMEOUT=5, CHAT_MAX_ROUNDS=10).test_client()
    fake_model.play(slow_call, forever=True)
    started = time.monotonic()
    response = ask(client)
    assert response.status_code == 504 and response.get_json()["error"]["code"] == "chat_deadline"
    assert time.monotonic() - started < 4
    assert 2 <= len(fake_model.requests) <= 3


def test_retries_stop_before_the_deadline(fake_model):
    client = make_chat_app(fake_model, CHAT_DEADLINE=1, CHAT_TIMEOUT=5, CHAT_MAX_RETRIES=5).test_client()
    fake_model.play(status(503), forever=True)
    started = time.monotonic()
    response = ask(client, lang="en")
    assert time.monotonic() - started < 4
    assert response.status_code == 502
    assert response.get_json()["error"]["message"] == "The model endpoint answered with an error (HTTP 503)."
    assert 2 <= len(fake_model.requests) <= 3  # retried, but not five times


# -- 5. log lines: tool, round, outcome; never the key or the conversation ----------------


def test_log_lines_name_only_tool_round_and_outcome(chat_client, fake_model, caplog):
    caplog.set_level(logging.DEBUG)
    secret_question = "わたしの秘密の手札は紫の-3です"
    made_up = "secret_" + "わたしの秘密の手札"
    fake_model.play(calls(("score_apero", APERO), (made_up, {})), calls(("score_apero", "{bad")), reply("秘密の答え"))
    assert ask(chat_client, secret_question).status_code == 200
    lines = [r.getMessage() for r in caplog.records if r.name == "scoring_api.assistant.chat"]
    assert lines == [
        "chat tool call: round 1, tool score_apero, ok",
        "chat tool call: round 1, tool (unknown tool), error",
        "chat tool call: round 2, tool score_apero, error",
    ]
    for text in (API_KEY, secret_question, "秘密", made_up, "{bad"):
        assert text not in caplog.text
        assert all(text not in str(record.__dict__) for record in caplog.records)


def test_a_failed_chat_logs_its_code_only(fake_model, caplog):
    caplog.set_level(logging.INFO)
    client = make_chat_app(fake_model).test_client()
    fake_model.play(status(500))
    ask(client, "秘密の質問")
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("scoring_api")]
    assert lines == ["chat failed: model_error (502)"]
