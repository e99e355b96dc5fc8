"""The print layout of every game: the results (and Applejack's orchard) on one page, with
no entry boxes, tabs, share bar or totals bar. Printed through Chromium's own PDF output,
as the browser's print button does, and checked with the print media emulated."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .test_apero_form import OFFICIAL_EXAMPLE, enter_hand
from .test_applejack_form import build_small_orchard
from .test_fairy_black_box_table import fill_table, open_fairy_black_box
from .test_pedro_form import enter_points


def apero(page):
    enter_hand(page, 0, OFFICIAL_EXAMPLE, "アキ")
    enter_hand(page, 1, [("blue", 3)], "ベン")
    expect(page.get_by_test_id("apero-total-0")).to_have_text("16")
    expect(page.get_by_test_id("apero-total-1")).to_have_text("3")


def pedro(page):
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("0")
    enter_points(page, "NS", 7, 9, 5)
    enter_points(page, "EW", 8, 4, 10)
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("13")
    expect(page.get_by_test_id("pedro-score-EW")).to_have_text("15")


def fairy_black_box(page):
    open_fairy_black_box(page)
    fill_table(page)
    page.get_by_test_id("fairy-black-box-score").click()
    expect(page.get_by_test_id("fairy-black-box-top-0")).to_contain_text("Aki")


def applejack(page):
    page.get_by_test_id("aj-name").fill("ハナコ")
    build_small_orchard(page)
    page.get_by_test_id("aj-supply").fill("5")
    page.get_by_test_id("aj-final-go").click()
    expect(page.get_by_test_id("aj-final-total")).to_have_text("8")


# game: (what fills it, what the printout shows, what it leaves out)
PRINTS = {
    "apero": (
        apero,
        ["apero-result-0", "apero-result-1", "apero-winner"],
        ["apero-p0-name", "apero-sets", "apero-pick"],
    ),
    "pedro": (pedro, ["pedro-score-NS", "pedro-ledger-row-0", "pedro-ledger-row-1"], ["pedro-entry", "pedro-settings"]),
    "fairy-black-box": (
        fairy_black_box,
        ["fairy-black-box-result", "fairy-black-box-top-0", "fairy-black-box-decided"],
        ["fairy-black-box-p0-name", "fairy-black-box-setup", "fairy-black-box-score"],
    ),
    "applejack": (applejack, ["aj-orchard", "aj-final-result"], ["aj-name", "aj-final-form", "aj-harvest-form"]),
}


@pytest.mark.parametrize("game", PRINTS)
def test_the_printout_is_the_results_on_one_page(page, game):
    fill, shown, left_out = PRINTS[game]
    page.goto(f"/#{game}")
    page.wait_for_selector("body[data-ready='true']")
    fill(page)

    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1, "the printout takes more than one A4 page"

    page.emulate_media(media="print")
    for testid in shown:
        expect(page.get_by_test_id(testid).first).to_be_visible()
    for testid in [*left_out, f"{game}-share", f"tab-{game}", "apero-totals"]:
        expect(page.get_by_test_id(testid)).to_be_hidden()
    expect(page.locator(f"#panel-{game} button:visible")).to_have_count(0)
    expect(page.locator(f"#panel-{game} input:visible, #panel-{game} select:visible")).to_have_count(0)
