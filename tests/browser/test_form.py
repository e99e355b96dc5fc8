"""The form as a whole: language switch, keyboard use, offline assets, errors never blank."""

import re

from playwright.sync_api import expect


def test_japanese_by_default_and_english_on_request_is_remembered(page, open_game, shots):
    open_game("apero")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.get_by_test_id("tab-apero")).to_have_text("アペロ")
    page.get_by_test_id("apero-p0-green-2").click()
    page.get_by_test_id("apero-p0-green-3").click()
    expect(page.get_by_test_id("apero-winner")).to_contain_text("の勝ち")

    page.get_by_test_id("lang-en").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_test_id("tab-apero")).to_have_text("Apero")
    expect(page.get_by_test_id("tab-fairy-black-box")).to_have_text("Fairy & Black Box")
    expect(page.get_by_test_id("lang-en")).to_have_attribute("aria-pressed", "true")
    # The explanations come back from the service in English (?lang=en), cards are kept.
    expect(page.get_by_test_id("apero-color-0-green")).to_contain_text("green")
    expect(page.get_by_test_id("apero-winner")).to_contain_text("wins")
    expect(page.get_by_test_id("apero-total-0")).to_have_text("6")
    page.screenshot(path=shots / "apero-en.png", full_page=True)

    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    expect(page.get_by_test_id("tab-pedro")).to_have_text("Pedro")
    page.get_by_test_id("tab-pedro").click()
    expect(page.get_by_test_id("pedro-explanation")).to_contain_text("target 100")

    page.get_by_test_id("lang-ja").click()
    expect(page.get_by_test_id("tab-pedro")).to_have_text("ピードロ")
    expect(page.get_by_test_id("pedro-explanation")).to_contain_text("目標100点")


def test_tabs_and_cards_work_from_the_keyboard(page, open_game):
    open_game("apero")
    page.get_by_test_id("tab-apero").focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("tab-pedro")).to_be_focused()
    expect(page.get_by_test_id("tab-pedro")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_test_id("panel-pedro")).to_be_visible()
    expect(page.get_by_test_id("panel-apero")).to_be_hidden()
    page.keyboard.press("End")
    expect(page.get_by_test_id("tab-chat")).to_be_focused()  # the last tab: アイちゃん
    page.keyboard.press("Home")
    expect(page.get_by_test_id("tab-apero")).to_be_focused()

    card = page.get_by_test_id("apero-p0-blue-2")
    card.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    expect(page.get_by_test_id("apero-total-0")).to_have_text("4")  # 2 + 2 (or 2 x 2)
    expect(card).to_be_focused()  # re-rendering keeps the keyboard where it was
    outline = card.evaluate("el => getComputedStyle(el).outlineStyle")
    assert outline != "none", "focus must stay visible"

    page.get_by_test_id("tab-applejack").click()
    hexagon = page.get_by_test_id("aj-field-10")
    hexagon.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("aj-editor")).to_contain_text("畑10")
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowRight")  # radio group: empty -> tree
    expect(page.get_by_test_id("aj-kind-tree")).to_be_checked()


def test_every_asset_comes_from_the_service(page, open_game, base_url):
    open_game("applejack")
    resources = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert resources, "the page loads its own scripts and styles"
    assert all(url.startswith(base_url) for url in resources), resources
    for url in (f"{base_url}assets/app.css", f"{base_url}assets/main.js"):
        assert page.request.get(url).ok


def test_a_failing_service_shows_an_error_not_a_blank_page(page, open_game):
    open_game("apero")
    page.route(
        "**/api/v1/apero/score*",
        lambda route: route.fulfill(status=502, body="<h1>Bad gateway</h1>", content_type="text/html"),
    )
    page.get_by_test_id("apero-p0-red-1").click()
    expect(page.get_by_test_id("apero-error")).to_contain_text("502")

    page.unroute("**/api/v1/apero/score*")
    page.route("**/api/v1/apero/score*", lambda route: route.abort())
    page.get_by_test_id("apero-p0-red-2").click()
    expect(page.get_by_test_id("apero-error")).to_contain_text(re.compile("接続"))
    expect(page.get_by_test_id("apero-p0-red-2")).to_be_visible()


def test_every_game_fits_a_phone_in_both_languages(page, open_game, fits_phone):
    open_game("apero")
    for lang in ("ja", "en"):
        page.get_by_test_id(f"lang-{lang}").click()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        for game in ("apero", "pedro", "applejack", "fairy-black-box", "chat"):
            page.get_by_test_id(f"tab-{game}").click()
            if game == "pedro":
                page.get_by_test_id("pedro-mode-cards").check()
                page.get_by_test_id("pedro-settings").locator("summary").click()
            if game == "applejack":
                page.get_by_test_id("aj-field-12").click()
                page.get_by_test_id("aj-kind-tree").check()
            fits_phone()


def test_pedro_starts_offline_then_recovers(page, open_game):
    page.route("**/api/v1/pedro/game*", lambda route: route.abort())
    open_game("pedro")
    expect(page.get_by_test_id("pedro-error")).to_be_visible()
    page.unroute("**/api/v1/pedro/game*")
    page.get_by_test_id("pedro-retry").click()
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("0")
    expect(page.get_by_test_id("pedro-error")).to_have_count(0)
