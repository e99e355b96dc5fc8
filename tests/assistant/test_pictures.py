"""Photos of the table in the chat (``SCORING_CHAT_VISION``): a picture reaches the model as
it was sent, on both chat routes; every refusal names the picture and says why, in the
player's language, before the model is asked; pictures count against the token budget."""

from __future__ import annotations

import pytest

from scoring_api.assistant import pictures
from scoring_api.assistant.budget import PICTURE_TOKENS, estimate_tokens, prompt_tokens
from tests.api.test_rate_limits import spent
from tests.assistant.pictures import JPEG, WEBP, data_url, photo_message, picture, png
from tests.conftest import make_chat_app
from tests.fake_openai import raw, reply

PNG_URL = data_url(png())


@pytest.fixture
def seeing(fake_model):
    """A client of an app whose model can see."""
    return make_chat_app(fake_model, CHAT_VISION=True).test_client()


def completions(client, messages, model="ai-chan"):
    return client.post("/v1/chat/completions", json={"model": model, "messages": messages})


@pytest.mark.parametrize(
    ("url", "detail"),
    [(PNG_URL, None), (data_url(JPEG, "image/jpeg"), "high"), (data_url(WEBP, "image/webp"), "low")],
)
def test_a_picture_reaches_the_model_as_sent(seeing, fake_model, url, detail):
    fake_model.play(reply("赤1、緑2、緑3が見えます。"))
    part = picture(url, **({"detail": detail} if detail else {}))
    message = {"role": "user", "content": [{"type": "text", "text": "何点？"}, part]}
    answer = completions(seeing, [message])
    assert answer.status_code == 200
    assert fake_model.requests[0]["messages"][1] == {
        "role": "user",
        "content": [{"type": "text", "text": "何点？"}, part],
    }


def test_the_chat_route_takes_pictures_too(seeing, fake_model):
    fake_model.play(reply("見えます。"))
    answer = seeing.post("/api/v1/chat", json={"messages": [photo_message(PNG_URL, PNG_URL)]})
    assert answer.status_code == 200
    assert fake_model.requests[0]["messages"][1]["content"][1:] == [picture(PNG_URL), picture(PNG_URL)]


def test_a_photo_without_text_is_a_message(seeing, fake_model):
    fake_model.play(reply("見えます。"))
    assert completions(seeing, [{"role": "user", "content": [picture(PNG_URL)]}]).status_code == 200
    assert fake_model.requests[0]["messages"][1]["content"] == [picture(PNG_URL)]


def test_her_prompt_says_how_to_read_a_photo_when_the_model_can_see(seeing, chat_client, fake_model):
    fake_model.play(reply("はい。"), reply("Yes."), reply("はい。"))
    completions(seeing, [{"role": "user", "content": "?"}])
    completions(seeing, [{"role": "user", "content": "?"}], model="ai-chan-en")
    completions(chat_client, [{"role": "user", "content": "?"}])
    ja, en, blind = (request["messages"][0]["content"] for request in fake_model.requests)
    assert "## 写真を読むとき" in ja and "読み取ったものを一覧にして返します" in ja
    assert "答えをもらうまで得点のツールを呼びません" in ja
    assert "## Reading a photo" in en and "first list back what you read" in en
    assert "call no scoring tool until they answer" in en
    assert "写真" not in blind and "photo" not in blind


def test_without_vision_a_picture_is_refused_in_the_players_language(chat_client, fake_model):
    fake_model.play(reply("はい。"))
    messages = [{"role": "user", "content": "こんにちは"}, {"role": "assistant", "content": "はい"}]
    messages.append(photo_message(PNG_URL))
    ja = completions(chat_client, messages).get_json()["error"]
    assert ja == {
        "message": "messages[2].content[1].image_url: このモデルは写真を読めません。カードや得点を文字で送ってください。",
        "type": "invalid_request_error",
        "code": "vision_off",
        "param": "messages[2].content[1].image_url",
        "details": {
            "messages[2].content[1].image_url": ["このモデルは写真を読めません。カードや得点を文字で送ってください。"]
        },
    }
    en = chat_client.post("/api/v1/chat?lang=en", json={"messages": messages}).get_json()["error"]
    assert en == {
        "code": "vision_off",
        "message": "This model cannot read pictures; send the cards and scores as text.",
        "details": {
            "messages[2].content[1].image_url": ["This model cannot read pictures; send the cards and scores as text."]
        },
    }
    assert fake_model.requests == []


@pytest.mark.parametrize(
    ("url", "code", "reason"),
    [
        (
            "https://example.org/table.jpg",
            "invalid_picture",
            "ウェブ上の画像の URL は読みに行きません。写真そのものを data URL（data:image/jpeg;base64,…）で送ってください。",
        ),
        (
            "HTTP://example.org/table.jpg",
            "invalid_picture",
            "ウェブ上の画像の URL は読みに行きません。写真そのものを data URL（data:image/jpeg;base64,…）で送ってください。",
        ),
        (
            data_url(b"GIF89a", "image/gif"),
            "invalid_picture",
            "写真は JPEG・PNG・WebP の data URL（data:image/jpeg;base64,…）で送ってください。",
        ),
        (
            "data:image/png,rawbytes",
            "invalid_picture",
            "写真は JPEG・PNG・WebP の data URL（data:image/jpeg;base64,…）で送ってください。",
        ),
        ("data:image/png;base64,iVBORw0KGgo*", "invalid_picture", "data URL の写真が base64 として読めません。"),
        ("data:image/png;base64,iVBORw0KGg", "invalid_picture", "data URL の写真が base64 として読めません。"),
        (
            data_url("得点表です".encode(), "image/png"),
            "invalid_picture",
            "data URL の中身が image/png の画像ではありません（画像のデータではありません）。",
        ),
        (
            data_url(png(), "image/jpeg"),
            "invalid_picture",
            "data URL の中身が image/jpeg の画像ではありません（中身は PNG です）。",
        ),
        (
            data_url(b"RIFF\x00\x00\x00\x00WAVEfmt ", "image/webp"),
            "invalid_picture",
            "data URL の中身が image/webp の画像ではありません（画像のデータではありません）。",
        ),
    ],
)
def test_a_picture_that_is_not_a_photo_sent_in_the_request_is_refused(seeing, fake_model, url, code, reason):
    fake_model.play(reply("はい。"))
    answer = completions(seeing, [photo_message(PNG_URL, url)])
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert (error["code"], error["param"]) == (code, "messages[0].content[2].image_url")
    assert error["details"] == {"messages[0].content[2].image_url": [reason]}
    assert fake_model.requests == []


def test_a_picture_over_the_size_limit_is_refused_before_it_is_decoded(seeing, fake_model, monkeypatch):
    monkeypatch.setattr(pictures, "MAX_PICTURE_BYTES", 100)
    fake_model.play(reply("はい。"))
    answer = seeing.post("/api/v1/chat?lang=en", json={"messages": [photo_message(data_url(png(40, 40)))]})
    assert answer.status_code == 400
    size = len(png(40, 40))
    assert answer.get_json()["error"]["details"] == {
        "messages[0].content[1].image_url": [
            f"The photo is too large ({size} bytes; the limit is 100 bytes); make it smaller and send it again."
        ]
    }


def test_at_most_four_pictures_a_message(seeing, fake_model):
    fake_model.play(reply("はい。"))
    assert completions(seeing, [photo_message(*[PNG_URL] * 4)]).status_code == 200
    refused = completions(seeing, [photo_message(*[PNG_URL] * 5)]).get_json()["error"]
    assert (refused["code"], refused["param"]) == ("too_many_pictures", "messages[0].content[5].image_url")
    assert refused["details"]["messages[0].content[5].image_url"] == ["1つのメッセージに付けられる写真は4枚までです。"]


def test_at_most_eight_pictures_a_conversation(seeing, fake_model):
    fake_model.play(reply("はい。"))
    eight = [photo_message(*[PNG_URL] * 4), {"role": "assistant", "content": "はい"}, photo_message(*[PNG_URL] * 4)]
    assert completions(seeing, eight).status_code == 200
    refused = completions(seeing, [*eight, photo_message(PNG_URL)], model="ai-chan-en").get_json()["error"]
    assert (refused["code"], refused["param"]) == ("too_many_pictures", "messages[3].content[1].image_url")
    assert refused["details"]["messages[3].content[1].image_url"] == [
        "One conversation may hold at most 8 photos; leave earlier ones out, or start a new conversation."
    ]


@pytest.mark.parametrize("role", ["assistant", "system", "tool"])
def test_only_the_users_messages_hold_pictures(seeing, fake_model, role):
    fake_model.play()
    answer = completions(seeing, [{"role": role, "content": [picture(PNG_URL)]}, {"role": "user", "content": "?"}])
    error = answer.get_json()["error"]
    assert (answer.status_code, error["code"], error["param"]) == (
        400,
        "invalid_picture",
        "messages[0].content[0].image_url",
    )
    assert error["details"]["messages[0].content[0].image_url"] == [
        f"写真はユーザーのメッセージにだけ付けられます（この役割: {role}）。"
    ]


@pytest.mark.parametrize(
    ("part", "param"),
    [
        ({"type": "image_url", "image_url": "data:image/png;base64,AAAA"}, "messages[0].content[0]"),
        ({"type": "image_url", "image_url": {"url": PNG_URL, "detail": "max"}}, "messages[0].content[0]"),
        ({"type": "image_url", "image_url": {"url": ""}}, "messages[0].content[0]"),
        ({"type": "input_audio", "input_audio": {"data": "AAAA"}}, "messages[0].content[0]"),
        ({"type": "text", "text": "x" * 4001}, "messages[0].content[0].text"),
    ],
)
def test_a_malformed_part_is_refused_naming_it(seeing, fake_model, part, param):
    fake_model.play()
    answer = completions(seeing, [{"role": "user", "content": [part]}])
    error = answer.get_json()["error"]
    assert (answer.status_code, error["code"], error["param"]) == (400, "invalid_input", param)


def test_a_picture_is_estimated_at_its_fixed_tokens_not_its_characters():
    text = [{"role": "user", "content": [{"type": "text", "text": "何点？"}]}]
    with_picture = [{"role": "user", "content": [{"type": "text", "text": "何点？"}, picture(data_url(png(300, 300)))]}]
    assert prompt_tokens(with_picture) == prompt_tokens(text) + PICTURE_TOKENS == prompt_tokens(text) + 1445


def test_a_round_with_a_picture_and_no_reported_usage_costs_the_pictures_estimate(fake_model):
    app = make_chat_app(fake_model, CHAT_VISION=True)
    completion = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "見えます"}}]}  # no usage
    fake_model.play(raw(completion))
    big = data_url(png(600, 600, (10, 120, 40)))
    assert completions(app.test_client(), [photo_message(big)]).status_code == 200
    sent = fake_model.requests[0]["messages"]
    without = [sent[0], {"role": "user", "content": [sent[1]["content"][0]]}]
    assert spent(app) == prompt_tokens(without) + PICTURE_TOKENS + estimate_tokens("見えます")
