"""Apero at the table: no tap lost, totals in view, nothing lost on reload, shared by a link."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import PHONE
from .test_apero_form import OFFICIAL_EXAMPLE, enter_hand

DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def desktop(browser, base_url):
    """A fresh 1280x800 page of its own (new storage)."""
    context = browser.new_context(viewport=DESKTOP, base_url=base_url, locale="ja-JP", service_workers="block")
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    yield tab
    context.close()


def open_apero(tab):
    tab.goto("/#apero")
    tab.wait_for_selector("body[data-ready='true']")
    tab.get_by_test_id("panel-apero").wait_for(state="visible")


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_thirty_fast_clicks_give_thirty_cards(viewport, page, desktop):
    """Clicks 40 ms apart, while the service's answers come back and redraw the form."""
    tab = page if viewport == "phone" else desktop
    open_apero(tab)
    tab.get_by_test_id("apero-sets").select_option("10")  # 10 sets hold 30 red 2s
    expect(tab.get_by_test_id("apero-p0-red-2-left")).to_have_text("残30")
    button = tab.get_by_test_id("apero-p0-red-2")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for _ in range(30):
        tab.mouse.click(x, y)
        tab.wait_for_timeout(40)

    expect(tab.get_by_test_id("apero-p0-red-2")).to_contain_text("×30")
    moved = tab.get_by_test_id("apero-p0-red-2").evaluate(
        "el => [el.getBoundingClientRect().x, el.getBoundingClientRect().y]"
    )
    assert [round(v) for v in moved] == [round(box["x"]), round(box["y"])], "the button moved under the pointer"
    expect(tab.get_by_test_id("apero-p0-red-2-left")).to_have_text("残0")
    expect(tab.get_by_test_id("apero-total-0")).to_have_text("1073741824")  # 2 × 2 × ... × 2 = 2^30


def test_the_totals_stay_in_view_while_cards_are_tapped(page):
    open_apero(page)
    enter_hand(page, 0, OFFICIAL_EXAMPLE, "アキ")
    enter_hand(page, 1, [("orange", 1), ("orange", 2)], "ベン")

    totals = page.get_by_test_id("apero-totals")
    expect(totals).to_contain_text("アキ")
    expect(page.get_by_test_id("apero-totals-ranking-0")).to_contain_text("★")
    expect(page.get_by_test_id("apero-totals-ranking-0")).to_contain_text("16")
    expect(page.get_by_test_id("apero-totals-ranking-1")).to_contain_text("ベン")
    expect(page.get_by_test_id("apero-totals-ranking-1")).to_contain_text("3")
    page.get_by_test_id("apero-p1-orange-3").click()  # ベン: 1 + 2 + 3 → (1 + 2) × 3 = 9
    expect(page.get_by_test_id("apero-totals-ranking-1")).to_contain_text("9")
    box = totals.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    expect(page.get_by_test_id("apero-p1-running")).to_have_text("9点")
    expect(page.get_by_test_id("apero-p0-running")).to_have_text("16点")


def test_a_reload_keeps_the_table(page):
    open_apero(page)
    page.get_by_test_id("apero-sets").select_option("2")
    enter_hand(page, 0, OFFICIAL_EXAMPLE, "アキ")
    expect(page.get_by_test_id("apero-total-0")).to_have_text("16")

    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    expect(page.get_by_test_id("apero-p0-name")).to_have_value("アキ")
    expect(page.get_by_test_id("apero-sets")).to_have_value("2")
    expect(page.get_by_test_id("apero-total-0")).to_have_text("16")


def test_a_shared_link_opens_the_same_table_in_a_fresh_browser(page, browser, base_url):
    open_apero(page)
    enter_hand(page, 0, OFFICIAL_EXAMPLE, "アキ")
    enter_hand(page, 1, [("blue", 3)], "ベン")
    expect(page.get_by_test_id("apero-total-1")).to_have_text("3")
    page.get_by_test_id("apero-share-link").click()
    link = page.get_by_test_id("apero-share-text").input_value()
    assert link.startswith(base_url + "#apero:"), link

    other = browser.new_context(viewport=PHONE, locale="ja-JP", service_workers="block")
    try:
        tab = other.new_page()
        tab.goto(link)
        tab.wait_for_selector("body[data-ready='true']")
        expect(tab.get_by_test_id("shared-opened")).to_be_visible()
        expect(tab.get_by_test_id("panel-apero")).to_be_visible()
        expect(tab.get_by_test_id("apero-p1-name")).to_have_value("ベン")
        expect(tab.get_by_test_id("apero-total-0")).to_have_text("16")
        expect(tab.get_by_test_id("apero-total-1")).to_have_text("3")
        assert tab.evaluate("location.hash") == "#apero"  # the data leaves the address once opened
    finally:
        other.close()


def test_a_broken_link_opens_an_empty_table(page, base_url):
    page.goto(base_url + "#apero:not-base64!!")
    page.wait_for_selector("body[data-ready='true']")
    expect(page.get_by_test_id("panel-apero")).to_be_visible()
    expect(page.get_by_test_id("apero-p0-name")).to_have_value("")


def test_the_scoreboard_copies_as_text(page):
    open_apero(page)
    enter_hand(page, 0, OFFICIAL_EXAMPLE, "アキ")
    enter_hand(page, 1, [("blue", 3)], "ベン")
    expect(page.get_by_test_id("apero-total-1")).to_have_text("3")
    page.get_by_test_id("apero-share-copy").click()
    text = page.get_by_test_id("apero-share-text").input_value()
    lines = text.split("\n")
    assert lines[0] == "アペロ（Apero） (1セット)"
    assert lines[1] == "★ アキ: 16点"
    assert lines[2] == "  赤 1 = 1 / 緑 2 × 3 = 6 / 紫 (-1 + -2) × -3 = 9"
    assert lines[3] == "ベン: 3点"


def test_a_card_button_is_named_by_what_it_shows(page):
    open_apero(page)
    # the screen reader's words and the visible ones (the browser puts spaces between the parts)
    expect(page.get_by_role("button", name=re.compile(r"^赤 1 ?を追加。 ?残2$"))).to_be_visible()
    page.get_by_test_id("apero-p0-red-1").click()
    expect(page.get_by_role("button", name=re.compile(r"^赤 1 ?を追加。 ?手札 ?×1 ?、 ?残1$"))).to_be_visible()


def test_the_print_layout_shows_the_scores_without_the_pickers(page):
    open_apero(page)
    enter_hand(page, 0, OFFICIAL_EXAMPLE, "アキ")
    expect(page.get_by_test_id("apero-total-0")).to_have_text("16")
    page.emulate_media(media="print")
    expect(page.get_by_test_id("apero-result-0")).to_be_visible()
    expect(page.get_by_test_id("apero-p0-red-1")).to_be_hidden()
    expect(page.get_by_test_id("apero-share")).to_be_hidden()
    expect(page.get_by_test_id("tab-apero")).to_be_hidden()
