"""アイちゃんに聞く: the chat panel in Chromium, against the app whose chat talks to the
scripted model on 127.0.0.1 (streaming, as the OpenAI API does)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import served
from tests.conftest import make_chat_app
from tests.fake_openai import calls, reply, stall_after, status

APERO_CALL = calls(
    (
        "score_apero",
        {
            "sets": 1,
            "players": [
                {
                    "name": "アキ",
                    "cards": [
                        {"color": "red", "value": 1},
                        {"color": "green", "value": 2},
                        {"color": "green", "value": 3},
                    ],
                }
            ],
        },
    )
)


@pytest.fixture(scope="module")
def chat_server(fake_model):
    app = make_chat_app(fake_model, CHAT_TIMEOUT=10.0, CHAT_DEADLINE=20.0)
    with served(app, "chat-form-server") as url:
        yield app, url


@pytest.fixture(scope="module")
def base_url(chat_server):
    """The pages of this module talk to the app with a model (the page fixture allows it only)."""
    return chat_server[1]


def test_a_question_streams_an_answer_then_the_score_card(page, open_chat, fake_model, fits_phone):
    fake_model.play(APERO_CALL, reply("アキさんは赤1で1点、緑2と3で6点、合わせて7点です。"))
    open_chat()
    expect(page.get_by_test_id("chat-empty")).to_be_visible()
    page.get_by_test_id("chat-input").fill("赤1、緑2、緑3なら何点？")
    page.get_by_test_id("chat-input").press("Enter")
    expect(page.get_by_test_id("chat-text-0")).to_have_text("赤1、緑2、緑3なら何点？")
    expect(page.get_by_test_id("chat-text-1")).to_have_text("アキさんは赤1で1点、緑2と3で6点、合わせて7点です。")
    # the card the Apero panel shows, computed by the service's scorer
    expect(page.get_by_test_id("chat-1-0-total-0")).to_have_text("7")
    expect(page.get_by_test_id("chat-1-0-color-0-green")).to_contain_text("2 × 3")
    expect(page.get_by_test_id("chat-cards-1")).to_contain_text("アペロの得点")
    expect(page.get_by_test_id("chat-input")).to_be_focused()
    sent = fake_model.requests[0]
    assert sent["stream"] is True
    assert sent["messages"][-1] == {"role": "user", "content": "赤1、緑2、緑3なら何点？"}
    fits_phone()

    fake_model.play(reply("どういたしまして。"))
    page.get_by_test_id("chat-input").fill("ありがとう")
    page.get_by_test_id("chat-send").click()
    expect(page.get_by_test_id("chat-text-3")).to_have_text("どういたしまして。")
    # the page sends its whole conversation each time
    assert [(m["role"], m["content"]) for m in fake_model.requests[0]["messages"][1:]] == [
        ("user", "赤1、緑2、緑3なら何点？"),
        ("assistant", "アキさんは赤1で1点、緑2と3で6点、合わせて7点です。"),
        ("user", "ありがとう"),
    ]
    page.get_by_test_id("chat-new").click()
    expect(page.get_by_test_id("chat-empty")).to_be_visible()


def test_a_rules_question_is_answered_in_words_without_a_card(page, open_chat, fake_model):
    """The rules tool's document is quoted in her answer; only scores get a card."""
    fake_model.play(
        calls(("rules", {"game": "pedro", "language": None, "section": "判断"}), ("score_apero", {"players": []})),
        reply("判断7によると、入札と同じ点を取れば成功です。"),
    )
    open_chat()
    page.get_by_test_id("chat-input").fill("ピードロで入札と同じ点数なら成功？")
    page.get_by_test_id("chat-input").press("Enter")
    expect(page.get_by_test_id("chat-text-1")).to_have_text("判断7によると、入札と同じ点を取れば成功です。")
    expect(page.get_by_test_id("chat-cards-1")).to_have_count(0)  # the refused score_apero has none either
    assert [m["role"] for m in fake_model.requests[1]["messages"]][-3:] == ["assistant", "tool", "tool"]


def test_the_answer_shows_while_the_model_still_writes_and_can_be_stopped(page, open_chat, fake_model):
    fake_model.play(stall_after("いま書いているところです"))
    open_chat()
    page.get_by_test_id("chat-input").fill("長い答えをください")
    page.get_by_test_id("chat-input").press("Enter")
    expect(page.get_by_test_id("chat-text-1")).to_have_text("いま書")  # the first chunk, relayed
    expect(page.get_by_test_id("chat-log")).to_have_attribute("aria-busy", "true")
    page.get_by_test_id("chat-stop").click()
    expect(page.get_by_test_id("chat-error-1")).to_have_text("止めました。")
    expect(page.get_by_test_id("chat-log")).to_have_attribute("aria-busy", "false")
    expect(page.get_by_test_id("chat-send")).to_be_visible()
    fake_model.play()  # the stalled model lets go


def test_shift_enter_starts_a_new_line_and_sends_nothing(page, open_chat, fake_model):
    fake_model.play()
    open_chat()
    box = page.get_by_test_id("chat-input")
    box.fill("一行目")
    box.press("Shift+Enter")
    box.type("二行目")
    expect(box).to_have_value("一行目\n二行目")
    expect(page.get_by_test_id("chat-empty")).to_be_visible()
    assert fake_model.requests == []


def test_an_unconfigured_chat_says_so_in_words(page, open_chat, chat_app):
    chat_app.config["OPENAI_API_KEY"] = None
    open_chat()
    page.get_by_test_id("chat-input").fill("こんにちは")
    page.get_by_test_id("chat-send").click()
    expect(page.get_by_test_id("chat-error-1")).to_contain_text("チャットのモデルが設定されていません")


def test_a_locked_chat_asks_for_the_key_and_remembers_it(page, open_chat, chat_app, fake_model):
    chat_app.config.update(CHAT_OPEN=False, API_KEYS="table-key-0123456789-abcd")
    fake_model.play(reply("キーを確かめました。"))
    open_chat()
    page.get_by_test_id("chat-input").fill("こんにちは")
    page.get_by_test_id("chat-send").click()
    expect(page.get_by_test_id("chat-error-1")).to_contain_text("キー")
    expect(page.get_by_test_id("chat-key")).to_be_focused()
    assert fake_model.requests == []
    page.get_by_test_id("chat-key").fill("table-key-0123456789-abcd")
    page.get_by_test_id("chat-key").press("Tab")
    page.get_by_test_id("chat-input").fill("こんにちは")
    page.get_by_test_id("chat-send").click()
    expect(page.get_by_test_id("chat-text-3")).to_have_text("キーを確かめました。")
    assert fake_model.requests[0]["messages"][-1]["content"] == "こんにちは"
    page.reload()
    page.get_by_test_id("tab-chat").click()
    expect(page.get_by_test_id("chat-key")).to_have_value("table-key-0123456789-abcd")


def test_in_english_the_panel_and_the_model_speak_english(page, open_chat, fake_model):
    fake_model.play(status(500))
    open_chat()
    page.get_by_test_id("lang-en").click()
    expect(page.get_by_test_id("panel-chat").locator("h2")).to_have_text("Ask アイちゃん")
    page.get_by_test_id("chat-input").fill("hello")
    page.get_by_test_id("chat-send").click()
    expect(page.get_by_test_id("chat-error-1")).to_have_text(
        re.compile(r"^The model endpoint answered with an error \(HTTP 500\)\.$")
    )
    assert fake_model.requests[0]["stream"] is True
    assert "英語（English）で答えます" in fake_model.requests[0]["messages"][0]["content"]


def test_offline_the_chat_says_so_and_gives_the_question_back(page, open_chat, fake_model):
    fake_model.play(reply("つながりました。"))
    open_chat()
    page.context.set_offline(True)
    page.get_by_test_id("chat-input").fill("2人の初期ハチミツは？")
    page.get_by_test_id("chat-send").click()
    expect(page.get_by_test_id("chat-error-1")).to_have_text(
        "いまはオフラインです。アイちゃんと話すにはサービスへの接続が必要です。"
        "質問は入力欄に残してあります。接続が回復したら送ってください。"
    )
    expect(page.get_by_test_id("chat-input")).to_have_value("2人の初期ハチミツは？")
    assert fake_model.requests == []

    page.context.set_offline(False)
    page.get_by_test_id("chat-send").click()
    expect(page.get_by_test_id("chat-text-3")).to_have_text("つながりました。")
    # the question that never left the page is not sent twice
    assert [(m["role"], m["content"]) for m in fake_model.requests[0]["messages"][1:]] == [
        ("user", "2人の初期ハチミツは？"),
    ]
