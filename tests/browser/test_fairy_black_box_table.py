"""Fairy & Black Box at the table: the ranking in view and focused, messages naming the box,
the table kept over a reload and shared by a link, big tap targets, readable text."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, only_the_service
from .test_pedro_table import CONTRAST, IN_VIEW_AND_FOCUSED, TARGETS, link_for


def open_fairy_black_box(page, hash_part="fairy-black-box"):
    page.goto(f"/#{hash_part}")
    page.wait_for_selector("body[data-ready='true']")
    page.get_by_test_id("panel-fairy-black-box").wait_for(state="visible")
    expect(page.get_by_test_id("fairy-black-box-setup")).to_be_visible()


def fill_table(page):
    """Aki 3 (〈きらきら〉) + 2, Ben 5 with mood 4, Chie eliminated."""
    page.get_by_test_id("fairy-black-box-p0-name").fill("Aki")
    page.get_by_test_id("fairy-black-box-p0-mood").fill("2")
    page.get_by_test_id("fairy-black-box-p0-t0-points").fill("3")
    page.get_by_test_id("fairy-black-box-p0-t0-kira").check()
    page.get_by_test_id("fairy-black-box-p0-add-treasure").click()
    page.get_by_test_id("fairy-black-box-p0-t1-points").fill("2")
    page.get_by_test_id("fairy-black-box-p1-name").fill("Ben")
    page.get_by_test_id("fairy-black-box-p1-t0-points").fill("5")
    page.get_by_test_id("fairy-black-box-p2-name").fill("Chie")
    page.get_by_test_id("fairy-black-box-p2-out").check()


def expect_the_ranking(page):
    expect(page.get_by_test_id("fairy-black-box-top-0")).to_have_text("★Aki5点")
    expect(page.get_by_test_id("fairy-black-box-top-0")).to_have_class("winner-row")
    expect(page.get_by_test_id("fairy-black-box-top-1")).to_have_text("Ben5点")
    expect(page.get_by_test_id("fairy-black-box-top-2")).to_have_text("Chie脱落")
    expect(page.get_by_test_id("fairy-black-box-decided")).to_have_text("決め手: 〈きらきら〉（同点）")


def test_scoring_brings_the_ranking_into_view_with_the_focus(screen):
    open_fairy_black_box(screen)
    fill_table(screen)
    screen.get_by_test_id("fairy-black-box-score").click()
    expect_the_ranking(screen)
    screen.wait_for_function("document.getElementById('fairy-black-box-result')?.contains(document.activeElement)")
    where = screen.evaluate(IN_VIEW_AND_FOCUSED, "fairy-black-box-result")
    assert where["inView"] and where["focused"], where


def test_a_refusal_comes_into_view_at_its_box_named_in_the_players_language(screen):
    open_fairy_black_box(screen)
    screen.get_by_test_id("fairy-black-box-p0-name").fill("Aki")
    screen.get_by_test_id("fairy-black-box-p0-mood").fill("30")
    screen.get_by_test_id("fairy-black-box-p1-t0-points").fill("1000")
    screen.get_by_test_id("fairy-black-box-score").click()
    mood = screen.get_by_test_id("fairy-black-box-p0-mood-error")
    expect(mood).to_have_text("Akiさんのゴキゲン: 0以上20以下にしてください。")
    points = screen.get_by_test_id("fairy-black-box-p1-t0-error")
    expect(points).to_have_text("プレイヤー2のタカラモノ（1枚目）: -100以上100以下にしてください。")
    screen.wait_for_function("document.activeElement?.id === 'fairy-black-box-p0-mood-error'")
    where = screen.evaluate(IN_VIEW_AND_FOCUSED, "fairy-black-box-p0-mood-error")
    assert where["inView"] and where["focused"], where
    expect(screen.get_by_test_id("fairy-black-box-result")).to_have_count(0)

    screen.get_by_test_id("lang-en").click()
    screen.get_by_test_id("fairy-black-box-score").click()
    expect(mood).to_have_text("Aki's mood: Must be from 0 to 20.")
    expect(points).to_have_text("Player 2's 1st treasure: Must be from -100 to 100.")


def test_a_rule_refusal_says_what_to_do_in_words_not_json(page, open_game):
    open_game("fairy-black-box")
    page.get_by_test_id("fairy-black-box-p0-name").fill("Aki")
    page.get_by_test_id("fairy-black-box-p0-mood").fill("0")  # mood 0 but not marked eliminated
    page.get_by_test_id("fairy-black-box-p0-t0-points").fill("3")
    page.get_by_test_id("fairy-black-box-score").click()
    expect(page.get_by_test_id("fairy-black-box-p0-mood-error")).to_have_text(
        "Akiさんはゴキゲンが0ですが、脱落していません。ゴキゲンが0になったプレイヤーはタカラモノカードをすべて捨て札にして脱落します。"
        "Akiさんを脱落したプレイヤーにして、タカラモノは入力しないでください。"
    )
    text = page.get_by_test_id("panel-fairy-black-box").inner_text()
    for words in ("eliminated", "treasures", "true", "[]", "null", "details"):
        assert words not in text

    page.get_by_test_id("fairy-black-box-p0-out").check()
    for player in (1, 2):
        page.get_by_test_id(f"fairy-black-box-p{player}-name").fill("Ben")
    page.get_by_test_id("fairy-black-box-score").click()
    expect(page.get_by_test_id("fairy-black-box-p2-name-error")).to_have_text(
        "プレイヤー名「Ben」が重複しています。名前で勝者を示すので、別の名前にしてください。"
    )
    expect(page.get_by_test_id("fairy-black-box-p2-name-error")).to_be_focused()


def test_treasure_names_never_run_into_their_points(page, open_game):
    open_game("fairy-black-box")
    fill_table(page)
    page.get_by_test_id("fairy-black-box-score").click()
    explanations = page.get_by_test_id("fairy-black-box-result").locator(".explanations li")
    expect(explanations.nth(0)).to_have_text("Akiさん: 〈きらきら〉 3 + タカラモノ（2枚目） 2 = 5点")
    expect(explanations.nth(1)).to_have_text("Benさん: タカラモノ（1枚目） 5 = 5点")
    expect(page.get_by_test_id("fairy-black-box-explanation")).to_have_text(
        "Chieさんは脱落したので得点計算に加わりません。Akiさん、Benさんが5点で同点です。同点のうち〈きらきら〉を持っているAkiさんの勝利です。"
    )
    page.get_by_test_id("lang-en").click()
    expect(explanations.nth(1)).to_have_text("Ben: 1st treasure 5 = 5")
    expect(explanations.nth(0)).to_have_text("Aki: 〈きらきら〉 3 + 2nd treasure 2 = 5")


def test_the_whole_table_survives_a_reload(page, open_game):
    open_game("fairy-black-box")
    fill_table(page)
    page.get_by_test_id("fairy-black-box-add-player").click()
    page.get_by_test_id("fairy-black-box-p3-name").fill("Dai")
    page.get_by_test_id("fairy-black-box-p3-t0-points").fill("-2")
    page.get_by_test_id("fairy-black-box-score").click()
    ranking = ["★Aki5点", "Ben5点", "Dai-2点", "Chie脱落"]  # the eliminated last
    expect(page.get_by_test_id("fairy-black-box-top").locator("li")).to_have_text(ranking)

    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    page.get_by_test_id("tab-fairy-black-box").click()
    expect(page.get_by_test_id("fairy-black-box-p0-name")).to_have_value("Aki")
    expect(page.get_by_test_id("fairy-black-box-p0-mood")).to_have_value("2")
    expect(page.get_by_test_id("fairy-black-box-p0-t0-points")).to_have_value("3")
    expect(page.get_by_test_id("fairy-black-box-p0-t0-kira")).to_be_checked()
    expect(page.get_by_test_id("fairy-black-box-p0-t1-points")).to_have_value("2")
    expect(page.get_by_test_id("fairy-black-box-p1-name")).to_have_value("Ben")
    expect(page.get_by_test_id("fairy-black-box-p2-out")).to_be_checked()
    expect(page.get_by_test_id("fairy-black-box-p3-t0-points")).to_have_value("-2")
    expect(page.get_by_test_id("fairy-black-box-setup")).to_contain_text("4人プレイの準備: ゴキゲンは3から")
    expect(page.get_by_test_id("fairy-black-box-top").locator("li")).to_have_text(ranking)  # scored again on opening
    expect(page.get_by_test_id("fairy-black-box-decided")).to_have_text("決め手: 〈きらきら〉（同点）")

    # An entry changed after scoring: the ranking says it is out of date, and stays readable.
    page.get_by_test_id("fairy-black-box-p1-t0-points").fill("6")
    expect(page.get_by_test_id("fairy-black-box-stale")).to_have_text(
        "入力が変わりました。「得点を計算」を押すと計算し直します。"
    )
    assert page.evaluate(CONTRAST, "panel-fairy-black-box") == []
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    page.get_by_test_id("tab-fairy-black-box").click()
    expect(page.get_by_test_id("fairy-black-box-p1-t0-points")).to_have_value("6")
    expect(page.get_by_test_id("fairy-black-box-top-0")).to_have_text("★Ben6点")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_shared_link_opens_the_same_table_on_another_phone(browser, base_url, viewport):
    context = browser.new_context(viewport=viewport, base_url=base_url, locale="ja-JP", service_workers="block")
    problems = only_the_service(context, base_url)
    page = context.new_page()
    open_fairy_black_box(page)
    fill_table(page)
    page.get_by_test_id("fairy-black-box-share-copy").click()
    expect(page.get_by_test_id("fairy-black-box-share-status")).to_contain_text("まだ結果がありません。")
    page.get_by_test_id("fairy-black-box-score").click()
    expect_the_ranking(page)

    page.get_by_test_id("fairy-black-box-share-copy").click()
    expect(page.get_by_test_id("fairy-black-box-share-text")).to_have_value(
        "フェアリー＆ブラックボックス\n"
        "★ Aki: 5点\n"
        "Ben: 5点\n"
        "Chie: 脱落\n"
        "決め手: 〈きらきら〉（同点）\n"
        "Chieさんは脱落したので得点計算に加わりません。Akiさん、Benさんが5点で同点です。同点のうち〈きらきら〉を持っているAkiさんの勝利です。"
    )
    page.get_by_test_id("fairy-black-box-share-link").click()
    expect(page.get_by_test_id("fairy-black-box-share-text")).to_have_value(
        re.compile(r"^http://.*#fairy-black-box:[\w-]+$")
    )
    link = page.get_by_test_id("fairy-black-box-share-text").input_value()

    other = browser.new_context(viewport=viewport, base_url=base_url, locale="ja-JP", service_workers="block")
    problems += only_the_service(other, base_url)
    friend = other.new_page()
    friend.goto(link)
    friend.wait_for_selector("body[data-ready='true']")
    expect(friend.get_by_test_id("shared-opened")).to_be_visible()
    expect(friend.get_by_test_id("panel-fairy-black-box")).to_be_visible()
    expect_the_ranking(friend)
    expect(friend.get_by_test_id("fairy-black-box-p0-t0-kira")).to_be_checked()
    expect(friend.get_by_test_id("fairy-black-box-p2-out")).to_be_checked()
    expect(friend.get_by_test_id("fairy-black-box-score-1")).to_have_text("5")
    other.close()
    context.close()
    assert not problems, problems


def test_a_broken_link_opens_what_it_can_and_never_breaks_the_page(page):
    bad = {
        "players": [
            {
                "name": "Aki",
                "mood": "x",
                "eliminated": "yes",
                "treasures": [{"points": "7", "kirakira": 1}, "junk", {"points": 99999}],
            },
            "junk",
            {"name": 5, "mood": 3, "treasures": "none"},
            {},
            {},
            {},
            {},
        ],
        "scored": True,
    }
    page.goto(f"/#fairy-black-box:{link_for(bad)}")
    page.wait_for_selector("body[data-ready='true']")
    expect(page.get_by_test_id("panel-fairy-black-box").locator("fieldset.player")).to_have_count(5)
    expect(page.get_by_test_id("fairy-black-box-p0-name")).to_have_value("Aki")
    expect(page.get_by_test_id("fairy-black-box-p0-mood")).to_have_value("")
    expect(page.get_by_test_id("fairy-black-box-p0-out")).not_to_be_checked()
    expect(page.get_by_test_id("fairy-black-box-p0-t0-points")).to_have_value("7")
    expect(page.get_by_test_id("fairy-black-box-p0-t0-kira")).not_to_be_checked()
    expect(page.get_by_test_id("fairy-black-box-p0-t1-points")).to_have_value("")
    expect(page.get_by_test_id("fairy-black-box-p2-mood")).to_have_value("3")
    expect(page.get_by_test_id("fairy-black-box-top-0")).to_have_text("★Aki7点")

    # Links that hold no table leave the table kept on this phone as it was.
    for junk in ("%%%", link_for([1, 2]), link_for({"players": "all"})):
        page.goto("about:blank")
        page.goto(f"/#fairy-black-box:{junk}")
        page.wait_for_selector("body[data-ready='true']")
        expect(page.get_by_test_id("fairy-black-box-p0-name")).to_have_value("Aki")
        expect(page.get_by_test_id("fairy-black-box-score")).to_be_enabled()


# -- Before the rename: the form called this game "fairy" (store.js, RENAMED) ------------------

OLD_NAME = "fairy"  # the tab's name in links and saves made before it took the URL spelling


def test_a_link_from_before_the_rename_opens_the_tab_with_its_table(page):
    table = {
        "players": [
            {"name": "Aki", "mood": "2", "treasures": [{"points": "3", "kirakira": True}, {"points": "2"}]},
            {"name": "Ben", "treasures": [{"points": "5"}]},
            {"name": "Chie", "eliminated": True},
        ],
        "scored": True,
    }
    page.goto(f"/#{OLD_NAME}:{link_for(table)}")
    page.wait_for_selector("body[data-ready='true']")
    expect(page.get_by_test_id("tab-fairy-black-box")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_test_id("panel-fairy-black-box")).to_be_visible()
    expect(page.get_by_test_id("shared-opened")).to_be_visible()
    expect(page.get_by_test_id("fairy-black-box-p0-name")).to_have_value("Aki")
    expect(page.get_by_test_id("fairy-black-box-p0-t0-kira")).to_be_checked()
    expect(page.get_by_test_id("fairy-black-box-p2-out")).to_be_checked()
    expect_the_ranking(page)
    assert page.evaluate("location.hash") == "#fairy-black-box"

    # A plain old tab link opens the tab too.
    page.goto("about:blank")
    page.goto(f"/#{OLD_NAME}")
    page.wait_for_selector("body[data-ready='true']")
    expect(page.get_by_test_id("panel-fairy-black-box")).to_be_visible()
    expect(page.get_by_test_id("fairy-black-box-p0-name")).to_have_value("Aki")
    assert page.evaluate("location.hash") == "#fairy-black-box"


def test_a_table_saved_before_the_rename_is_restored_and_moved_once(page, open_game):
    page.goto("/")
    page.wait_for_selector("body[data-ready='true']")
    old = {
        "v": 1,
        "data": {
            "players": [
                {"name": "Aki", "mood": "2", "treasures": [{"points": "3", "kirakira": True}]},
                {"name": "Ben", "treasures": [{"points": "4"}]},
            ],
            "scored": False,
        },
    }
    page.evaluate(
        """([key, old]) => { localStorage.clear(); localStorage.setItem(key, JSON.stringify(old)); }""",
        [f"scoring.{OLD_NAME}", old],
    )
    open_game("fairy-black-box")
    expect(page.get_by_test_id("fairy-black-box-p0-name")).to_have_value("Aki")
    expect(page.get_by_test_id("fairy-black-box-p0-mood")).to_have_value("2")
    expect(page.get_by_test_id("fairy-black-box-p0-t0-points")).to_have_value("3")
    expect(page.get_by_test_id("fairy-black-box-p0-t0-kira")).to_be_checked()
    expect(page.get_by_test_id("fairy-black-box-p1-t0-points")).to_have_value("4")
    saved = page.evaluate(
        "(key) => [localStorage.getItem(key), localStorage.getItem('scoring.fairy-black-box')]", f"scoring.{OLD_NAME}"
    )
    assert saved[0] is None
    assert json.loads(saved[1])["data"]["players"][0]["name"] == "Aki"

    # Moved once: what is entered now is what a reload shows, even if an old save reappears.
    page.get_by_test_id("fairy-black-box-p0-name").fill("Dai")
    page.evaluate("([key, old]) => localStorage.setItem(key, JSON.stringify(old))", [f"scoring.{OLD_NAME}", old])
    open_game("fairy-black-box")
    expect(page.get_by_test_id("fairy-black-box-p0-name")).to_have_value("Dai")
    assert page.evaluate("(key) => localStorage.getItem(key)", f"scoring.{OLD_NAME}") is None


def test_every_tap_target_is_big_labelled_by_its_text_and_readable(screen):
    open_fairy_black_box(screen)
    fill_table(screen)
    screen.get_by_test_id("fairy-black-box-score").click()
    expect_the_ranking(screen)
    small = [t for t in screen.evaluate(TARGETS, "panel-fairy-black-box") if t["width"] < 44 or t["height"] < 44]
    assert small == []
    # Checkboxes are named by the text they show; the treasure boxes by their full name.
    expect(screen.get_by_test_id("fairy-black-box-p2-out")).to_have_accessible_name("脱落")
    expect(screen.get_by_test_id("fairy-black-box-p0-t0-kira")).to_have_accessible_name("〈きらきら〉")
    expect(screen.get_by_test_id("fairy-black-box-p0-t1-points")).to_have_accessible_name("タカラモノ（2枚目）")
    expect(screen.get_by_test_id("fairy-black-box-p0-t1-remove")).to_have_accessible_name("タカラモノ（2枚目）を削除")
    assert (
        screen.locator("#panel-fairy-black-box [aria-label]").count()
        == screen.locator("#panel-fairy-black-box section[aria-label], #panel-fairy-black-box ol[aria-label]").count()
    )
    assert screen.evaluate(CONTRAST, "panel-fairy-black-box") == []


def test_scoring_again_patches_the_ranking_in_place(page):
    """A second score changes the numbers on the ranking already shown: the same elements,
    the new score, the focus still on the result; the form's boxes are never redrawn."""
    open_fairy_black_box(page)
    fill_table(page)
    page.get_by_test_id("fairy-black-box-score").click()
    expect_the_ranking(page)
    page.evaluate(
        """() => { window.keptNodes = ['fairy-black-box-result', 'fairy-black-box-score-1', 'fairy-black-box-p1-t0-points']
             .map((id) => document.querySelector(`[data-testid='${id}']`)); }"""
    )
    page.get_by_test_id("fairy-black-box-p1-t0-points").fill("6")
    page.get_by_test_id("fairy-black-box-score").click()
    expect(page.get_by_test_id("fairy-black-box-top-0")).to_have_text("★Ben6点")
    expect(page.get_by_test_id("fairy-black-box-score-1")).to_have_text("6")
    expect(page.get_by_test_id("fairy-black-box-stale")).to_have_count(0)
    page.wait_for_function("document.getElementById('fairy-black-box-result')?.contains(document.activeElement)")
    assert page.evaluate(
        "() => window.keptNodes.every((el) => document.querySelector(`[data-testid='${el.dataset.testid}']`) === el)"
    )
