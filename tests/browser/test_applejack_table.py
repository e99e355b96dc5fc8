"""Applejack at the table: answers in view, no tap lost, messages that name the box,
nothing lost on a reload or in a shared link, targets big enough and text readable."""

import base64
import json
import re

import pytest
from playwright.sync_api import expect

from .conftest import SCREENS, guarded_page, in_view, wait_for_focus_in
from .test_accessibility import AXE, LAYOUT_SHIFT, violations
from .test_applejack_form import build_small_orchard, open_advice, set_tree

RAW_WORDS = re.compile(r"orchard\.\w|tiles\[|\bnull\b|\btrue\b|\bfalse\b|\[\]|\bundefined\b|\bNaN\b")


def open_applejack(tab, url="/#applejack"):
    tab.goto(url)
    tab.wait_for_selector("body[data-ready='true']")
    tab.get_by_test_id("panel-applejack").wait_for(state="visible")


@pytest.fixture
def phone(browser, base_url):
    """A guarded page on the issue's phone (390x844)."""
    yield from guarded_page(browser, base_url, SCREENS["phone"])


# -- 1. Answers in view ---------------------------------------------------------------------


def test_every_answer_comes_into_view_with_the_focus_and_closes_the_editor(screen):
    tab = screen
    open_applejack(tab)
    build_small_orchard(tab)
    tab.get_by_test_id("aj-supply").fill("5")
    for action, result, shown in [
        ("harvest", "aj-harvest-result", "3"),
        ("blossoms", "aj-blossoms-result", "1"),
        ("final", "aj-final-result", "8"),
        ("advice", "aj-advice-result", None),
    ]:
        tab.get_by_test_id("aj-field-12").click()
        expect(tab.get_by_test_id("aj-editor")).to_be_visible()
        if action == "advice":
            open_advice(tab)
        tab.get_by_test_id(f"aj-{action}-go").click()
        expect(tab.get_by_test_id(result)).to_be_visible()
        expect(tab.get_by_test_id("aj-editor")).to_have_count(0)  # the editor closed
        wait_for_focus_in(tab, result)
        in_view(tab, result)
        if action in ("harvest", "blossoms"):
            expect(tab.get_by_test_id(f"aj-{action}-honey")).to_have_text(shown)
        if action == "final":
            expect(tab.get_by_test_id("aj-final-total")).to_have_text(shown)
        if action in ("harvest", "advice"):  # the areas (or the places) marked on the orchard are in view too
            best = (
                re.search(r"畑(\d+)", tab.get_by_test_id("aj-advice-option-0").inner_text())
                if action == "advice"
                else None
            )
            marked = f"aj-field-{best.group(1)}" if best else "aj-field-9"
            expect(tab.get_by_test_id(marked)).to_have_class(re.compile(r"\bhl\b"))
            box = tab.get_by_test_id(marked).locator("polygon").evaluate("e => e.getBoundingClientRect().toJSON()")
            assert box["y"] >= 0 and box["y"] + box["height"] <= tab.viewport_size["height"], (action, box)

    tab.get_by_test_id("aj-field-10").click()
    tab.get_by_test_id("aj-placement-go").click()
    expect(tab.get_by_test_id("aj-placement-result")).to_contain_text("ハチミツ +0")
    expect(tab.get_by_test_id("aj-editor")).to_have_count(0)
    wait_for_focus_in(tab, "aj-placement-result")
    in_view(tab, "aj-placement-result")


def test_the_final_result_opens_with_the_players_ranking(page):
    open_applejack(page)
    page.get_by_test_id("aj-name").fill("ハナコ")
    build_small_orchard(page)
    page.get_by_test_id("aj-supply").fill("5")
    page.get_by_test_id("aj-final-go").click()
    expect(page.get_by_test_id("aj-final-total")).to_have_text("8")
    expect(page.get_by_test_id("aj-ranking-0")).to_have_text("ハナコ8")  # solo so far: no ★

    page.get_by_test_id("aj-add-player").click()
    expect(page.get_by_test_id("aj-name")).to_be_focused()
    page.get_by_test_id("aj-name").fill("タロウ")
    expect(page.get_by_test_id("aj-player-1")).to_have_text("タロウ")
    set_tree(page, 10, {"red": 5})
    page.get_by_test_id("aj-supply").fill("2")
    page.get_by_test_id("aj-final-go").click()
    # red 5 at die 3 -> 2, doubled 4; no bonus, no blossoms; supply 2 -> 6
    expect(page.get_by_test_id("aj-final-total")).to_have_text("6")
    first = page.get_by_test_id("aj-final-result").locator("> *").first
    expect(first.get_by_test_id("aj-ranking")).to_be_visible()  # the ranking comes first
    expect(page.get_by_test_id("aj-ranking-0")).to_have_text("★ハナコ8")
    expect(page.get_by_test_id("aj-ranking-1")).to_have_text("タロウ6")
    expect(page.get_by_test_id("aj-final-breakdown").locator("caption")).to_have_text("タロウさんの最終得点の内訳")

    page.get_by_test_id("applejack-share-copy").click()
    expect(page.get_by_test_id("applejack-share-text")).to_have_value(
        "アップルジャックの最終得点\nハナコ: 8\nタロウ: 6\n★ ハナコさんの勝ち（8点）"
    )
    page.get_by_test_id("lang-en").click()
    page.get_by_test_id("applejack-share-copy").click()
    expect(page.get_by_test_id("applejack-share-text")).to_have_value(
        "Applejack final scores\nハナコ: 8\nタロウ: 6\n★ ハナコ wins (8 points)"
    )

    set_tree(page, 11, {"red": 1})  # タロウ's orchard changed: his score is gone until scored again
    page.get_by_test_id("applejack-share-copy").click()
    expect(page.get_by_test_id("applejack-share-text")).to_have_value(
        "Applejack final scores\nハナコ: 8\nNot scored yet: タロウ"
    )


def test_the_editor_sits_beside_the_orchard_on_a_wide_screen_and_over_the_page_below_it_on_a_phone(page, desktop):
    for tab, beside in ((desktop, True), (page, False)):
        open_applejack(tab)
        tab.get_by_test_id("aj-field-10").click()
        expect(tab.locator("#aj-editor-title")).to_be_focused()
        orchard = tab.get_by_test_id("aj-orchard").bounding_box()
        editor = tab.get_by_test_id("aj-editor").bounding_box()
        position = tab.get_by_test_id("aj-editor").evaluate("el => getComputedStyle(el).position")
        if beside:
            assert editor["x"] >= orchard["x"] + orchard["width"], (orchard, editor)
            assert editor["y"] < orchard["y"] + orchard["height"], (orchard, editor)
            assert (
                tab.get_by_test_id("aj-orchard").evaluate("el => getComputedStyle(el.closest('.aj-layout')).display")
                == "grid"
            )
            assert position != "fixed"
        else:  # a panel at the bottom of the screen, the whole orchard in view above it
            assert position == "fixed"
            assert orchard["y"] >= 0 and editor["y"] >= orchard["y"] + orchard["height"] - 1, (orchard, editor)
            assert editor["y"] + editor["height"] == pytest.approx(812, abs=1), editor


def test_arrow_keys_move_between_the_hexes(page):
    open_applejack(page)
    assert page.locator("[data-testid='aj-orchard'] [tabindex='0']").count() == 1  # one Tab stop
    page.get_by_test_id("aj-field-10").focus()
    for key, field in [
        ("ArrowRight", 11),
        ("ArrowLeft", 10),
        ("ArrowLeft", 9),
        ("ArrowRight", 10),
        ("ArrowUp", 6),  # the nearest hexes above 10 are 5 and 6: up takes the right one
        ("ArrowDown", 10),  # ... and down the left one, so up then down comes back
        ("ArrowDown", 14),
        ("Home", 13),
        ("End", 16),
        ("ArrowDown", 19),
        ("ArrowDown", 19),  # the edge: stays
        ("ArrowUp", 16),
        ("ArrowUp", 12),
        ("ArrowRight", 12),
    ]:
        page.keyboard.press(key)
        expect(page.get_by_test_id(f"aj-field-{field}")).to_be_focused()
    assert page.get_by_test_id("aj-field-12").get_attribute("tabindex") == "0"
    assert page.locator("[data-testid='aj-orchard'] [tabindex='0']").count() == 1
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("aj-editor")).to_contain_text("畑12")
    # a hex button is named by its label alone: what it draws lies outside it, hidden from screen readers
    assert page.locator("[data-testid='aj-orchard'] [role='button'] text").count() == 0


def test_emptying_the_orchard_or_removing_a_player_asks_first(page, open_game):
    open_game("applejack")
    set_tree(page, 9, {"red": 2})
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_test_id("aj-clear").click()
    expect(page.get_by_test_id("aj-field-9")).to_have_attribute("aria-label", "畑9: 赤2")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id("aj-clear").click()
    expect(page.get_by_test_id("aj-field-9")).to_have_attribute("aria-label", "畑9: 空き")

    page.get_by_test_id("aj-add-player").click()
    page.get_by_test_id("aj-name").fill("タロウ")
    messages = []
    page.once("dialog", lambda dialog: (messages.append(dialog.message), dialog.accept()))
    page.get_by_test_id("aj-remove-player").click()
    expect(page.get_by_test_id("aj-player-1")).to_have_count(0)
    expect(page.get_by_test_id("aj-player-0")).to_have_attribute("aria-pressed", "true")
    assert messages == ["タロウさんの果樹園を消して、プレイヤーを削除しますか？"]


def test_a_harvest_at_another_die_redraws_the_honey_not_the_orchard(page):
    """The areas are the same at every die: the second harvest patches the honey and the
    explanation, and leaves every hex of the orchard as it was (the same nodes, untouched)."""
    open_applejack(page)
    build_small_orchard(page)
    page.get_by_test_id("aj-harvest-go").click()
    expect(page.get_by_test_id("aj-harvest-honey")).to_have_text("3")  # (2 + 2) - 1; 1 - 1
    area = page.get_by_test_id("aj-field-10").get_attribute("data-area")
    page.evaluate(
        """() => {
          window.hexes = [...document.querySelectorAll('[data-testid=aj-orchard] g')];
          window.changedHexes = new Set();
          new MutationObserver((records) => {
            for (const record of records) {
              const el = record.target.nodeType === 1 ? record.target : record.target.parentElement;
              if (el.closest('[data-testid=aj-orchard]')) window.changedHexes.add(el.closest('g')?.id || el.tagName);
            }
          }).observe(document.getElementById('panel-applejack'), { subtree: true, childList: true, characterData: true, attributes: true });
        }"""
    )
    page.get_by_test_id("aj-die-2").check()
    page.get_by_test_id("aj-harvest-go").click()
    expect(page.get_by_test_id("aj-harvest-honey")).to_have_text("2")  # (2 + 2) - 2
    expect(page.get_by_test_id("aj-harvest-result")).to_contain_text("リンゴ 4 − ダイス 2 = ハチミツ 2")
    expect(page.get_by_test_id("aj-field-10")).to_have_attribute("data-area", area)
    assert page.evaluate("() => window.changedHexes.size") == 0
    assert page.evaluate("() => window.hexes.length === 38 && window.hexes.every((g) => g.isConnected)")


# -- 2. Never lose a tap ----------------------------------------------------------------------


def test_a_tap_is_not_lost_when_an_answer_arrives_while_the_finger_is_down(screen):
    tab = screen
    open_applejack(tab)
    build_small_orchard(tab)
    tab.get_by_test_id("aj-editor-close").click()
    tab.get_by_test_id("aj-supply").fill("5")
    held = []
    tab.route("**/api/v1/applejack/harvest*", lambda route: held.append(route))
    tab.get_by_test_id("aj-harvest-go").click()
    for _ in range(100):
        if held:
            break
        tab.wait_for_timeout(20)
    assert held, "the harvest request was sent"

    final = tab.get_by_test_id("aj-final-go")
    final.scroll_into_view_if_needed()
    box = final.bounding_box()
    tab.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tab.mouse.down()
    held[0].continue_()  # the harvest answer comes back (and would redraw the forms) mid-tap
    tab.wait_for_timeout(400)
    tab.mouse.up()

    expect(tab.get_by_test_id("aj-final-total")).to_have_text("8")
    wait_for_focus_in(tab, "aj-final-result")
    in_view(tab, "aj-final-result")


# -- 3. Messages for people ------------------------------------------------------------------


def test_a_number_out_of_range_names_its_box_in_each_language(page, open_game):
    open_game("applejack")
    page.get_by_test_id("lang-en").click()
    set_tree(page, 3, {"red": 25, "yellow": 1})
    page.get_by_test_id("aj-apples-brown").fill("")  # blank means none
    page.get_by_test_id("aj-harvest-go").click()

    message = "Field 3, red apples: enter a whole number from 0 to 10."
    expect(page.get_by_test_id("aj-editor-error")).to_have_text(message)
    expect(page.get_by_test_id("aj-field-errors")).to_have_text(message)
    expect(page.get_by_test_id("aj-apples-red")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_test_id("aj-apples-yellow")).not_to_have_attribute("aria-invalid", "true")
    expect(page.get_by_test_id("aj-field-3")).to_have_class(re.compile(r"\bhas-error\b"))
    wait_for_focus_in(page, "aj-editor-error")
    in_view(page, "aj-editor-error")
    assert not RAW_WORDS.search(page.get_by_test_id("panel-applejack").inner_text())

    page.get_by_test_id("lang-ja").click()  # the same check, in Japanese
    expect(page.get_by_test_id("aj-editor-error")).to_have_text("畑3の赤のリンゴ: 0〜10の整数で入れてください。")

    page.get_by_test_id("aj-apples-red").fill("2.5")
    page.get_by_test_id("aj-harvest-go").click()
    expect(page.get_by_test_id("aj-editor-error")).to_have_text("畑3の赤のリンゴ: 0〜10の整数で入れてください。")
    page.get_by_test_id("aj-apples-red").fill("2")
    page.get_by_test_id("aj-harvest-go").click()
    expect(page.get_by_test_id("aj-harvest-honey")).to_have_text("1")


def test_a_blank_honey_supply_is_asked_for_and_a_blank_apple_box_is_zero(page, open_game):
    open_game("applejack")
    set_tree(page, 9, {"red": 4})
    page.get_by_test_id("aj-apples-yellow").fill("")
    page.get_by_test_id("aj-final-go").click()
    expect(page.get_by_test_id("aj-final-error")).to_have_text(
        "手持ちのハチミツはいくつですか？ないときは0を入れてください。"
    )
    expect(page.get_by_test_id("aj-supply")).to_have_attribute("aria-invalid", "true")
    wait_for_focus_in(page, "aj-final-error")
    in_view(page, "aj-final-error")

    page.get_by_test_id("aj-supply").fill("0")
    expect(page.get_by_test_id("aj-final-error")).to_have_count(0)
    page.get_by_test_id("aj-final-go").click()
    expect(page.get_by_test_id("aj-final-total")).to_have_text("2")  # (4 - 3) × 2

    open_advice(page)
    page.get_by_test_id("aj-taken-price").fill("")
    page.get_by_test_id("aj-advice-go").click()
    expect(page.get_by_test_id("aj-advice-error")).to_have_text("取ったタイルの価格（巣箱の数字）はいくつですか？")
    expect(page.get_by_test_id("aj-taken-price")).to_have_attribute("aria-invalid", "true")


def test_the_services_refusal_is_shown_at_the_box_with_its_name(page, open_game):
    open_game("applejack")
    page.get_by_test_id("lang-en").click()
    set_tree(page, 3, {"red": 2})
    set_tree(page, 7, {"red": 1})
    refusal = {
        "error": {
            "code": "invalid_input",
            "message": "The input is invalid; details lists each field and the reason.",
            "details": {
                "orchard.tiles[1].blossoms": ["Must be from 0 to 10."],
                "die": ["Enter one of these numbers: 1, 2, 3."],
            },
        }
    }
    page.route(
        "**/api/v1/applejack/harvest*",
        lambda route: route.fulfill(status=400, content_type="application/json", body=json.dumps(refusal)),
    )
    page.get_by_test_id("aj-harvest-go").click()
    expect(page.get_by_test_id("aj-field-errors")).to_have_text("Field 7, blossoms: Must be from 0 to 10.")
    expect(page.locator("#aj-editor-title")).to_contain_text("Field 7")
    expect(page.get_by_test_id("aj-blossoms")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_test_id("aj-harvest-error")).to_have_text("Die: Enter one of these numbers: 1, 2, 3.")
    assert not RAW_WORDS.search(page.get_by_test_id("panel-applejack").inner_text())


# -- 4. Nothing lost -----------------------------------------------------------------------------


def test_a_reload_and_a_shared_link_keep_the_whole_table(page, desktop, base_url):
    open_applejack(page)
    page.get_by_test_id("aj-name").fill("ハナコ")
    build_small_orchard(page)
    page.get_by_test_id("aj-editor-close").click()
    page.get_by_test_id("aj-supply").fill("5")
    page.get_by_test_id("aj-die-2").check()
    open_advice(page)
    page.get_by_test_id("aj-taken-apples-pink").fill("3")
    page.get_by_test_id("aj-final-go").click()
    expect(page.get_by_test_id("aj-final-total")).to_have_text("8")
    label_9 = re.compile(r"^畑9: 赤2、花1、巣箱（右）価格3( · エリア\d)?$")

    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    expect(page.get_by_test_id("aj-name")).to_have_value("ハナコ")
    expect(page.get_by_test_id("aj-field-9")).to_have_attribute("aria-label", label_9)
    expect(page.get_by_test_id("aj-field-5")).to_have_attribute("aria-label", "畑5: 牧草地")
    expect(page.get_by_test_id("aj-supply")).to_have_value("5")
    expect(page.get_by_test_id("aj-die-2")).to_be_checked()
    expect(page.get_by_test_id("aj-taken-apples-pink")).to_have_value("3")
    expect(page.get_by_test_id("aj-final-total")).to_have_text("8")  # the answer shown is asked again
    expect(page.get_by_test_id("aj-ranking-0")).to_have_text("ハナコ8")

    page.get_by_test_id("applejack-share-link").click()
    link = page.get_by_test_id("applejack-share-text").input_value()
    assert link.startswith(f"{base_url}#applejack:"), link

    desktop.goto(link)  # another phone: nothing kept there
    desktop.wait_for_selector("body[data-ready='true']")
    expect(desktop.get_by_test_id("shared-opened")).to_be_visible()
    expect(desktop.get_by_test_id("aj-name")).to_have_value("ハナコ")
    expect(desktop.get_by_test_id("aj-field-9")).to_have_attribute("aria-label", label_9)
    expect(desktop.get_by_test_id("aj-field-10")).to_have_attribute(
        "aria-label", re.compile(r"^畑10: 赤2、黄1、巣箱（左）価格2")
    )
    expect(desktop.get_by_test_id("aj-final-total")).to_have_text("8")
    expect(desktop.get_by_test_id("aj-final-crop_doubled")).to_contain_text("2")
    expect(desktop.get_by_test_id("aj-ranking-0")).to_have_text("ハナコ8")
    desktop.reload()  # the opened table is kept there too
    desktop.wait_for_selector("body[data-ready='true']")
    expect(desktop.get_by_test_id("aj-final-total")).to_have_text("8")


def link_for(base_url, data):
    raw = json.dumps({"v": 1, "data": data}).encode()
    return f"{base_url}#applejack:" + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def open_link(tab, link):
    tab.goto("about:blank")  # a new document (a change of the hash alone would not reload)
    tab.goto(link)
    tab.wait_for_selector("body[data-ready='true']")


def test_a_bad_link_does_not_break_the_page(desktop, base_url):
    desktop.goto(f"{base_url}#applejack:not-a-link")
    desktop.wait_for_selector("body[data-ready='true']")
    expect(desktop.get_by_test_id("aj-field-1")).to_have_attribute("aria-label", "畑1: 空き")

    odd = {
        "players": [
            {
                "name": 5,
                "supply": "lots",
                "final": [1],
                "tiles": {
                    "99": {"apples": {"red": 2}},
                    "3": {"apples": {"red": 2, "gold": 4, "pink": "x"}, "beehives": "e", "price": 2.5},
                    "4": {"pasture": "yes", "apples": None},
                    "x": None,
                },
            },
            "nobody",
        ],
        "current": 7,
        "die": 9,
        "first": "<img>",
        "taken": [],
        "last": "alert",
    }
    open_link(desktop, link_for(base_url, odd))
    expect(desktop.get_by_test_id("aj-field-3")).to_have_attribute("aria-label", "畑3: 赤2")
    expect(desktop.get_by_test_id("aj-field-4")).to_have_attribute("aria-label", "畑4: 木（まだ何もなし）")
    expect(desktop.get_by_test_id("aj-player-1")).to_have_count(0)
    expect(desktop.get_by_test_id("aj-die-1")).to_be_checked()
    expect(desktop.get_by_test_id("aj-variety")).to_have_value("red")
    desktop.get_by_test_id("aj-harvest-go").click()
    expect(desktop.get_by_test_id("aj-harvest-honey")).to_have_text("1")

    open_link(desktop, link_for(base_url, {"players": {"0": {}}}))  # not a table: what was there stays
    expect(desktop.get_by_test_id("aj-field-3")).to_have_attribute("aria-label", "畑3: 赤2 · エリア1")


def test_the_save_from_before_versions_is_read_once(page, open_game):
    open_game("applejack")
    page.evaluate(
        """() => localStorage.setItem('scoring.applejack', JSON.stringify({tiles: {"10": {
            pasture: false, apples: {red: 2}, blossoms: 1, beehives: ['w'], price: 2}}}))"""
    )
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    expect(page.get_by_test_id("aj-field-10")).to_have_attribute("aria-label", "畑10: 赤2、花1、巣箱（左）価格2")
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('scoring.applejack'))")
    assert saved["v"] == 1 and saved["data"]["players"][0]["tiles"]["10"]["apples"] == {"red": 2}


# -- 5. Reachable and readable -------------------------------------------------------------------

TARGETS = """() => {
  const panel = document.querySelector('[data-testid="panel-applejack"]');
  const out = [];
  const seen = new Set();
  for (const el of panel.querySelectorAll('button, select, input, summary, a[href], [role="button"]')) {
    const target = (el.type === 'radio' || el.type === 'checkbox') ? el.closest('label') || el : el;
    if (seen.has(target)) continue;
    seen.add(target);
    const box = target.getBoundingClientRect();
    if (!box.width && !box.height) continue; // not shown
    out.push({ what: target.dataset.testid || el.dataset.testid || target.id || target.textContent.trim().slice(0, 30),
      width: Math.round(box.width * 10) / 10, height: Math.round(box.height * 10) / 10 });
  }
  return out;
}"""

CONTRAST = """() => {
  const parse = (text) => {
    const rgb = text.match(/rgba?\\(([^)]+)\\)/);
    if (rgb) { const [r, g, b, a = '1'] = rgb[1].split(/[ ,/]+/).filter(Boolean); return [+r, +g, +b, +a]; }
    const srgb = text.match(/color\\(srgb ([^)]+)\\)/);
    if (srgb) { const [r, g, b, a] = srgb[1].split(/[ /]+/).filter(Boolean).map(Number); return [r * 255, g * 255, b * 255, a ?? 1]; }
    return null;
  };
  const lum = ([r, g, b]) => {
    const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const background = (el) => {
    for (let node = el; node; node = node.parentElement) {
      const color = parse(getComputedStyle(node).backgroundColor);
      if (color && color[3] > 0.5) return color;
    }
    return [255, 255, 255, 1];
  };
  const panel = document.querySelector('[data-testid="panel-applejack"]');
  const bad = [];
  let checked = 0;
  const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || el.closest('option, title, [hidden]') || !el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none' || el.closest('[disabled], :disabled')) continue;
    let fg;
    let bg;
    if (el instanceof SVGElement) {
      // the shape drawn last under the middle of the text is its background
      const svg = el.ownerSVGElement;
      const box = el.getBoundingClientRect();
      const middle = new DOMPoint(box.left + box.width / 2, box.top + box.height / 2).matrixTransform(svg.getScreenCTM().inverse());
      const under = [...svg.querySelectorAll('circle, polygon')]
        .filter((shape) => shape.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING && shape.isPointInFill(middle))
        .at(-1);
      fg = parse(style.fill);
      bg = under ? parse(getComputedStyle(under).fill) : background(svg);
    } else {
      fg = parse(style.color);
      bg = background(el);
    }
    checked += 1;
    const value = ratio(fg, bg);
    if (value < 4.5) bad.push(`${node.textContent.trim().slice(0, 20)} ${value.toFixed(2)} ${style.color || style.fill} on ${bg}`);
  }
  return { checked, bad };
}"""


def assert_reachable_and_readable(page):
    small = [t for t in page.evaluate(TARGETS) if t["width"] < 44 or t["height"] < 44]
    assert not small, small
    result = page.evaluate(CONTRAST)
    assert result["checked"] > 40 and not result["bad"], result


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_target_is_44px_and_every_text_reads_at_4_5_to_1(page, open_game, fits_phone, lang):
    open_game("applejack")
    page.get_by_test_id(f"lang-{lang}").click()
    build_small_orchard(page)
    set_tree(page, 4, {"orange": 2, "pink": 1, "light_green": 1, "seventh": 3, "brown": 1}, blossoms=2, hives=["e"])
    page.get_by_test_id("aj-add-player").click()
    page.get_by_test_id("aj-player-0").click()
    page.get_by_test_id("aj-variety2").select_option("yellow")
    page.get_by_test_id("aj-harvest-go").click()
    expect(page.get_by_test_id("aj-show-1")).to_be_visible()
    page.get_by_test_id("applejack-share-link").click()
    fits_phone()
    assert_reachable_and_readable(page)

    page.get_by_test_id("aj-field-4").click()  # the editor of a tree tile, with what to fix
    page.get_by_test_id("aj-placement-go").click()
    expect(page.get_by_test_id("aj-editor-error")).to_be_visible()
    expect(page.get_by_test_id("aj-field-4")).to_have_class(re.compile(r"\bhas-error\b"))
    fits_phone()
    assert_reachable_and_readable(page)

    page.get_by_test_id("aj-price").fill("1")
    page.get_by_test_id("aj-supply").fill("4")
    page.get_by_test_id("aj-final-go").click()
    expect(page.get_by_test_id("aj-final-total")).to_be_visible()
    page.get_by_test_id("aj-final-result").locator("summary").click()
    fits_phone()
    assert_reachable_and_readable(page)


PARTICLE_AFTER_SPACE = re.compile(r"[^\s] (?:の|に|が|を|は|で|と|へ|も|から|まで)")


def test_the_japanese_reads_naturally_and_the_beehive_is_never_honey(page, open_game):
    open_game("applejack")
    build_small_orchard(page)
    page.get_by_test_id("aj-supply").fill("5")
    panel = page.get_by_test_id("panel-applejack")
    texts = []
    page.get_by_test_id("aj-field-9").click()
    texts.append(panel.inner_text())
    expect(page.get_by_test_id("aj-editor")).to_contain_text("巣箱のある辺")
    expect(page.get_by_test_id("aj-editor")).to_contain_text("価格（巣箱＝ハチミツの絵の数字）")
    for action, result in [
        ("harvest", "aj-harvest-result"),
        ("final", "aj-final-result"),
        ("advice", "aj-advice-result"),
    ]:
        if action == "advice":
            open_advice(page)
        page.get_by_test_id(f"aj-{action}-go").click()
        expect(page.get_by_test_id(result)).to_be_visible()
        texts.append(panel.inner_text())
    page.get_by_test_id("aj-field-10").click()
    page.get_by_test_id("aj-placement-go").click()
    placement = page.get_by_test_id("aj-placement-result")
    expect(placement).to_contain_text("左の辺: このタイルの巣箱2と畑9のタイルの巣箱3がつながる → 低い方の2")
    expect(placement).to_contain_text("畑10に木の面で置く: 代金 −2、巣箱のつながり1個で +2 → 増減 +0")
    texts.append(panel.inner_text())
    for text in texts:
        assert not PARTICLE_AFTER_SPACE.search(text), PARTICLE_AFTER_SPACE.findall(text)
        assert not re.search(r"ハチミツ(?:のある|の辺|の向き|の数字)|のハチミツ\d", text)


# -- 6. A whole orchard on a phone ------------------------------------------------------------

ORCHARD_AND_PANEL = """() => {
  const orchard = document.querySelector('[data-testid=aj-orchard]').getBoundingClientRect();
  const panel = document.querySelector('[data-testid=aj-editor]').getBoundingClientRect();
  return { top: orchard.top, bottom: orchard.bottom, panelTop: panel.top, panelBottom: panel.bottom, height: innerHeight };
}"""


def assert_orchard_in_view_above_the_panel(tab):
    box = tab.evaluate(ORCHARD_AND_PANEL)
    assert box["top"] >= 0 and box["bottom"] <= box["panelTop"] + 1, box
    assert box["panelBottom"] == pytest.approx(box["height"], abs=1), box


def test_the_tile_panel_keeps_the_orchard_in_view_and_walks_the_fields(phone):
    open_applejack(phone)
    phone.mouse.wheel(0, 250)  # the top of the orchard scrolled away
    phone.wait_for_function("() => scrollY >= 200")
    phone.get_by_test_id("aj-field-17").click()
    expect(phone.locator("#aj-editor-title")).to_have_text("畑17 空き")
    expect(phone.locator("#aj-editor-title")).to_be_focused()
    assert_orchard_in_view_above_the_panel(phone)  # the page moved the orchard back into view, not away

    # an empty field shows a tree's boxes: filling one makes it a tree
    expect(phone.get_by_test_id("aj-kind-empty")).to_be_checked()
    phone.get_by_test_id("aj-apples-red").fill("2")
    expect(phone.get_by_test_id("aj-kind-tree")).to_be_checked()
    expect(phone.get_by_test_id("aj-apples-red")).to_be_focused()  # typing goes on in the same box
    phone.get_by_test_id("aj-blossoms").fill("1")
    phone.get_by_test_id("aj-hive-e").check()
    phone.get_by_test_id("aj-price").fill("2")
    expect(phone.get_by_test_id("aj-field-17")).to_have_attribute("aria-label", "畑17: 赤2、花1、巣箱（右）価格2")
    expect(phone.get_by_test_id("aj-same-tile")).to_have_count(0)  # nothing entered before it

    phone.get_by_test_id("aj-next-field").click()
    expect(phone.get_by_test_id("aj-next-field")).to_have_text("次の畑（畑19）")
    expect(phone.locator("#aj-editor-title")).to_have_text("畑18 空き")
    assert phone.get_by_test_id("aj-editor").evaluate("el => el.scrollTop") == 0
    assert_orchard_in_view_above_the_panel(phone)
    same = phone.get_by_test_id("aj-same-tile")
    expect(same).to_have_text("前と同じタイル赤2、花1、巣箱（右）価格2")
    same.click()
    expect(phone.get_by_test_id("aj-field-18")).to_have_attribute("aria-label", "畑18: 赤2、花1、巣箱（右）価格2")
    expect(phone.get_by_test_id("aj-apples-red")).to_have_value("2")
    phone.get_by_test_id("aj-apples-red").fill("3")  # a copy, not the same tile
    expect(phone.get_by_test_id("aj-field-17")).to_have_attribute("aria-label", "畑17: 赤2、花1、巣箱（右）価格2")

    phone.get_by_test_id("aj-next-field").click()
    expect(phone.locator("#aj-editor-title")).to_have_text("畑19 空き")
    expect(phone.get_by_test_id("aj-next-field")).to_have_count(0)  # the last field
    phone.get_by_test_id("aj-kind-pasture").check()
    phone.keyboard.press("Escape")
    expect(phone.get_by_test_id("aj-editor")).to_have_count(0)
    expect(phone.get_by_test_id("aj-field-19")).to_be_focused()
    expect(phone.get_by_test_id("aj-field-19")).to_have_attribute("aria-label", "畑19: 牧草地")


def test_escape_closes_the_editor_from_any_box_and_gives_the_focus_back_to_its_field(page, desktop):
    for tab in (page, desktop):
        open_applejack(tab)
        tab.get_by_test_id("aj-field-6").focus()
        tab.keyboard.press("Enter")
        expect(tab.locator("#aj-editor-title")).to_be_focused()
        tab.get_by_test_id("aj-apples-pink").fill("1")
        tab.keyboard.press("Escape")
        expect(tab.get_by_test_id("aj-editor")).to_have_count(0)
        expect(tab.get_by_test_id("aj-field-6")).to_be_focused()
        assert tab.locator("[data-testid='aj-orchard'] [tabindex='0']").get_attribute("id") == "aj-field-6"
        tab.keyboard.press("Enter")  # and opens again from there
        tab.get_by_test_id("aj-editor-close").click()
        expect(tab.get_by_test_id("aj-field-6")).to_be_focused()


def test_the_final_scoring_path_asks_only_for_apples_blossoms_and_the_honey_held(phone):
    open_applejack(phone)
    expect(phone.get_by_test_id("aj-mode-game")).to_be_checked()
    phone.get_by_test_id("aj-mode-final").check()
    expect(phone.get_by_test_id("aj-mode-hint")).to_have_text(
        "最終得点に使うのは、リンゴ・花・手持ちのハチミツだけです。巣箱と価格は入れなくてかまいません。"
    )
    for form in ("aj-harvest-form", "aj-blossoms-form", "aj-advice"):
        expect(phone.get_by_test_id(form)).to_have_count(0)
    phone.get_by_test_id("aj-field-1").click()
    for box in ("aj-price", "aj-hive-e", "aj-placement-go"):
        expect(phone.get_by_test_id(box)).to_have_count(0)
    phone.get_by_test_id("aj-apples-red").fill("4")
    phone.get_by_test_id("aj-blossoms").fill("2")
    phone.get_by_test_id("aj-next-field").click()
    phone.get_by_test_id("aj-apples-red").fill("3")
    phone.get_by_test_id("aj-next-field").click()
    phone.get_by_test_id("aj-kind-pasture").check()
    phone.get_by_test_id("aj-next-field").click()
    phone.get_by_test_id("aj-same-tile").click()  # another pasture
    phone.get_by_test_id("aj-supply").fill("12")
    phone.get_by_test_id("aj-final-go").click()
    # die 3: red 4 + 3 = 7 (fields 1 and 2 touch) -> 4, doubled 8; blossoms 2; supply 12 -> 22
    expect(phone.get_by_test_id("aj-final-total")).to_have_text("22")
    expect(phone.get_by_test_id("aj-editor")).to_have_count(0)
    wait_for_focus_in(phone, "aj-final-result")
    expect(phone.get_by_test_id("aj-field-4")).to_have_attribute("aria-label", re.compile("^畑4: 牧草地"))

    phone.reload()  # the path is kept
    phone.wait_for_selector("body[data-ready='true']")
    expect(phone.get_by_test_id("aj-mode-final")).to_be_checked()
    expect(phone.get_by_test_id("aj-final-total")).to_have_text("22")
    expect(phone.get_by_test_id("aj-harvest-form")).to_have_count(0)
    phone.get_by_test_id("aj-mode-game").check()  # back to everything
    expect(phone.get_by_test_id("aj-harvest-form")).to_be_visible()
    phone.get_by_test_id("aj-field-1").click()
    expect(phone.get_by_test_id("aj-price")).to_be_visible()


DISCLOSURE = """(summary) => {
  const style = getComputedStyle(summary);
  const marker = getComputedStyle(summary, '::before');
  const box = summary.getBoundingClientRect();
  return { display: style.display, border: style.borderTopWidth, radius: style.borderTopLeftRadius,
    background: style.backgroundColor, height: Math.round(box.height),
    marker: marker.content, markerBorder: marker.borderRightWidth, turned: marker.transform,
    outline: style.outlineStyle };
}"""


def test_the_disclosures_look_like_buttons_with_a_chevron_and_stay_open(page, open_game):
    open_game("applejack")
    build_small_orchard(page)
    page.get_by_test_id("aj-editor-close").click()
    page.get_by_test_id("aj-supply").fill("5")
    page.get_by_test_id("aj-final-go").click()
    expect(page.get_by_test_id("aj-final-total")).to_have_text("8")
    for testid in ("aj-advice-summary", "aj-final-areas-summary"):
        summary = page.get_by_test_id(testid)
        closed = summary.evaluate(DISCLOSURE)
        assert closed["display"] == "flex" and closed["border"] == "1px" and closed["radius"] == "8px", closed
        assert closed["background"] == "rgb(255, 255, 255)" and closed["height"] >= 44, closed
        assert closed["marker"] == '""' and closed["markerBorder"] == "2px", closed  # the chevron
        summary.focus()
        page.keyboard.press("Enter")  # opens from the keyboard, the ring on it
        opened = summary.evaluate(DISCLOSURE)
        assert opened["turned"] != closed["turned"] and opened["outline"] == "solid", (closed, opened)
    expect(page.get_by_test_id("aj-advice-form")).to_be_visible()
    expect(page.get_by_test_id("aj-advice-summary")).to_have_text("どこに置く？")
    expect(page.get_by_test_id("aj-final-areas-summary")).to_have_text("品種ごとのエリア")

    page.get_by_test_id("aj-show-1").click()  # a button inside: the areas stay open
    expect(page.get_by_test_id("aj-show-1")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("aj-final-areas")).to_have_attribute("open", "")
    expect(page.get_by_test_id("aj-advice")).to_have_attribute("open", "")
    page.get_by_test_id("aj-advice-summary").click()
    expect(page.get_by_test_id("aj-advice-form")).to_be_hidden()


def test_the_open_panel_passes_axe_and_shifts_nothing(browser, base_url):
    axe_source = AXE.read_text()
    for tab in guarded_page(browser, base_url, SCREENS["phone"], bypass_csp=True):  # axe is an inline script
        open_applejack(tab)
        build_small_orchard(tab)
        tab.get_by_test_id("aj-next-field").click()
        expect(tab.get_by_test_id("aj-same-tile")).to_be_visible()
        assert violations(tab, axe_source) == []
        tab.get_by_test_id("aj-mode-final").check()
        tab.get_by_test_id("aj-field-9").click()
        expect(tab.get_by_test_id("aj-editor")).to_contain_text("畑9")
        expect(tab.get_by_test_id("aj-advice")).to_have_count(0)
        assert violations(tab, axe_source) == []
        assert tab.evaluate(LAYOUT_SHIFT) == 0
