"""A photo of the table in the chat panel, in Chromium: the photo button shows when the
service's model reads pictures; a picture taken is downscaled in the browser and reaches
the scripted model as a JPEG data URL, and shows as a thumbnail in the conversation."""

from __future__ import annotations

import base64

import pytest
from playwright.sync_api import expect

from tests.assistant.pictures import png
from tests.browser.conftest import PHONE, guarded_page, served
from tests.browser.test_accessibility import AXE, MIN_TARGET, TARGETS, violations
from tests.conftest import make_chat_app
from tests.fake_openai import reply

#: The picture a phone's camera gives, 3000 × 2000 px (as a PNG: the browser decodes it).
TABLE_PHOTO = {"name": "table.png", "mimeType": "image/png", "buffer": png(3000, 2000, (30, 120, 60))}


@pytest.fixture(scope="module")
def chat_server(fake_model):
    app = make_chat_app(fake_model, CHAT_TIMEOUT=10.0, CHAT_DEADLINE=20.0, CHAT_VISION=True)
    with served(app, "chat-photo-server") as url:
        yield app, url


@pytest.fixture(scope="module")
def base_url(chat_server):
    """The pages of this module talk to the app whose model reads pictures."""
    return chat_server[1]


def jpeg_size(data: bytes) -> tuple[int, int]:
    """A JPEG's width and height, from its start-of-frame segment."""
    assert data[:2] == b"\xff\xd8", data[:4]
    at = 2
    while at < len(data):
        marker, length = data[at + 1], int.from_bytes(data[at + 2 : at + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return int.from_bytes(data[at + 7 : at + 9], "big"), int.from_bytes(data[at + 5 : at + 7], "big")
        at += 2 + length
    raise AssertionError("no start of frame")


def test_a_photo_is_downscaled_sent_as_a_jpeg_and_shown(page, open_chat, fake_model, fits_phone):
    fake_model.play(reply("赤1、緑2、緑3が見えます。合っていますか？"))
    open_chat()
    button = page.get_by_test_id("chat-photo")
    expect(button).to_have_attribute("accept", "image/*")
    expect(button).to_have_attribute("capture", "environment")
    expect(page.get_by_label("写真を添える（カードを撮る）")).to_have_count(1)
    button.set_input_files(files=[TABLE_PHOTO])
    expect(page.get_by_test_id("chat-photo-pending-0")).to_have_attribute("aria-label", "写真1")
    page.get_by_test_id("chat-input").fill("この写真のアペロの得点は？")
    page.get_by_test_id("chat-send").click()
    expect(page.get_by_test_id("chat-text-1")).to_have_text("赤1、緑2、緑3が見えます。合っていますか？")
    expect(page.get_by_test_id("chat-photos-0-0")).to_be_visible()  # the thumbnail, in the question
    expect(page.get_by_test_id("chat-photo-pending-0")).to_have_count(0)

    text, photo = fake_model.requests[0]["messages"][1]["content"]
    assert text == {"type": "text", "text": "この写真のアペロの得点は？"}
    url = photo["image_url"]["url"]
    assert photo["type"] == "image_url" and url.startswith("data:image/jpeg;base64,")
    sent = base64.b64decode(url.removeprefix("data:image/jpeg;base64,"))
    assert jpeg_size(sent) == (1568, 1045)  # 3000 × 2000 with its longest side at 1568 px
    fits_phone()

    fake_model.play(reply("では計算します。"))
    page.get_by_test_id("chat-input").fill("合っています")
    page.get_by_test_id("chat-send").click()
    expect(page.get_by_test_id("chat-text-3")).to_have_text("では計算します。")
    first, _, last = fake_model.requests[0]["messages"][1:]
    assert first["content"][1]["image_url"]["url"] == url  # the photo goes with its question again
    assert last == {"role": "user", "content": "合っています"}


def test_a_photo_alone_is_a_question_and_one_can_be_taken_out(page, open_chat, fake_model):
    fake_model.play(reply("見えました。"))
    open_chat()
    button = page.get_by_test_id("chat-photo")
    button.set_input_files(files=[TABLE_PHOTO])
    expect(page.get_by_test_id("chat-photo-pending-0")).to_be_visible()
    button.set_input_files(files=[TABLE_PHOTO])
    expect(page.get_by_test_id("chat-photo-pending-1")).to_have_attribute("aria-label", "写真2")
    page.get_by_test_id("chat-photo-pending-remove-0").click()
    expect(page.get_by_test_id("chat-photo-pending-1")).to_have_count(0)
    page.get_by_test_id("chat-send").click()
    expect(page.get_by_test_id("chat-text-1")).to_have_text("見えました。")
    content = fake_model.requests[0]["messages"][1]["content"]
    assert [part["type"] for part in content] == ["image_url"]


def test_an_unreadable_file_is_said_in_words(page, open_chat, fake_model):
    fake_model.play()
    open_chat()
    not_a_photo = {"name": "scores.png", "mimeType": "image/png", "buffer": "得点表".encode()}
    page.get_by_test_id("chat-photo").set_input_files(files=[not_a_photo])
    expect(page.get_by_test_id("chat-photo-error")).to_have_text(
        "この写真は読み込めませんでした。JPEG か PNG の写真を選んでください。"
    )
    assert fake_model.requests == []


def test_the_button_speaks_english_and_is_gone_when_the_model_cannot_see(page, open_chat, chat_app):
    open_chat()
    page.get_by_test_id("lang-en").click()
    expect(page.get_by_label("Add a photo (take one of the cards)")).to_have_count(1)
    chat_app.config["CHAT_VISION"] = False
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    page.get_by_test_id("tab-chat").click()
    page.get_by_test_id("chat-input").wait_for()
    expect(page.get_by_test_id("chat-photo")).to_have_count(0)
    expect(page.get_by_test_id("panel-chat")).to_have_attribute("data-vision", "off")


@pytest.fixture(scope="module")
def axe():
    if not AXE.exists():
        pytest.fail(f"axe-core is missing: run `npm install --prefix tests/browser` ({AXE})", pytrace=False)
    return AXE.read_text()


@pytest.fixture
def checked_page(browser, base_url):
    """A guarded phone page without the CSP, so that axe can be injected (test_accessibility.py)."""
    yield from guarded_page(browser, base_url, PHONE, bypass_csp=True)


def test_the_photo_controls_are_reachable_and_large_enough(checked_page, axe, fake_model):
    fake_model.play(reply("見えました。"))
    page = checked_page
    page.goto("/#chat")
    page.wait_for_selector("body[data-ready='true']")
    page.get_by_test_id("chat-photo").set_input_files(files=[TABLE_PHOTO])
    page.get_by_test_id("chat-send").click()
    expect(page.get_by_test_id("chat-photos-0-0")).to_be_visible()
    page.get_by_test_id("chat-photo").set_input_files(files=[TABLE_PHOTO])
    expect(page.get_by_test_id("chat-photo-pending-remove-0")).to_be_visible()
    assert violations(page, axe) == []
    small = [t for t in page.evaluate(TARGETS) if t["width"] < MIN_TARGET or t["height"] < MIN_TARGET]
    assert small == []
