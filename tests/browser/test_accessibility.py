"""Reachable and readable on every game: axe-core (from npm, tests/browser/package.json)
finds no serious or critical violation, every tap target is at least 44x44 px, the page
works at 200% text size, and the layout does not shift (CLS under 0.1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, guarded_page
from .test_applejack_form import build_small_orchard
from .test_pedro_form import enter_points

AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
GAMES = ("apero", "pedro", "applejack", "fairy-black-box", "chat")
MIN_TARGET = 44

# Every control a finger may aim at, with the box it can be hit by: a radio or checkbox is
# hit through its label too, so its target is the larger of the two.
TARGETS = """() => {
  const seen = [];
  const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
  const panel = document.querySelector('[role=tabpanel]:not([hidden])');
  const scope = [...document.querySelectorAll('header button, [role=tab]'), ...panel.querySelectorAll('button, select, input, summary, textarea, a[href]')];
  for (const el of scope) {
    if (!visible(el) || el.closest('.sr-only')) continue;
    let box = el.getBoundingClientRect();
    if (el.type === 'radio' || el.type === 'checkbox') {
      const label = el.closest('label') || (el.id && document.querySelector(`label[for="${CSS.escape(el.id)}"]`));
      const around = el.closest('td, .choice-item, .target');
      for (const other of [label, around]) {
        if (!other) continue;
        const r = other.getBoundingClientRect();
        if (r.width * r.height > box.width * box.height) box = r;
      }
    }
    seen.push({ what: el.dataset.testid || el.id || el.outerHTML.slice(0, 60), width: Math.round(box.width), height: Math.round(box.height) });
  }
  return seen;
}"""

LAYOUT_SHIFT = """() => new Promise((resolve) => {
  let total = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) total += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
  setTimeout(() => resolve(total), 500);
})"""


@pytest.fixture(scope="module")
def axe_source():
    if not AXE.exists():
        pytest.fail(f"axe-core is missing: run `npm install --prefix tests/browser` ({AXE})", pytrace=False)
    return AXE.read_text()


@pytest.fixture(params=["phone", "desktop"])
def tab(request, browser, base_url):
    """A guarded page on the narrowest phone (375x812), then on a desktop. bypass_csp: axe is
    injected as an inline script (the CSP itself is tested in test_security_headers)."""
    yield from guarded_page(browser, base_url, PHONE if request.param == "phone" else DESKTOP, bypass_csp=True)


def open_game(page, game):
    page.goto(f"/#{game}")
    page.wait_for_selector("body[data-ready='true']")
    page.get_by_test_id(f"panel-{game}").wait_for(state="visible")


def with_results(page, game):
    """Each game with something scored, so that its results are checked too (the chat needs
    a model: test_chat_panel.py)."""
    if game == "apero":
        for color, value in [("red", 1), ("green", 2), ("green", 3), ("purple", -1)]:
            page.get_by_test_id(f"apero-p0-{color}-{value}").click()
        expect(page.get_by_test_id("apero-total-0")).to_have_text("6")
        page.get_by_test_id("apero-pick-open").click()
        page.get_by_test_id("apero-table-blue-2").click()
        expect(page.get_by_test_id("apero-pick-option-0")).to_be_visible()
    elif game == "pedro":
        enter_points(page, "NS", 7, 9, 5)
        expect(page.get_by_test_id("pedro-score-NS")).to_have_text("9")
    elif game == "applejack":
        build_small_orchard(page)
        page.get_by_test_id("aj-variety").select_option("red")
        page.get_by_test_id("aj-die-1").check()
        page.get_by_test_id("aj-harvest-go").click()
        expect(page.get_by_test_id("aj-harvest-honey")).to_have_text("3")
    elif game == "fairy-black-box":
        for k, (name, mood, points) in enumerate([("Aki", 2, 3), ("Ben", 4, 5)]):
            page.get_by_test_id(f"fairy-black-box-p{k}-name").fill(name)
            page.get_by_test_id(f"fairy-black-box-p{k}-mood").fill(str(mood))
            page.get_by_test_id(f"fairy-black-box-p{k}-t0-points").fill(str(points))
        page.get_by_test_id("fairy-black-box-p2-out").check()
        page.get_by_test_id("fairy-black-box-score").click()
        expect(page.get_by_test_id("fairy-black-box-winner")).to_contain_text("Ben")


def violations(page, source):
    page.add_script_tag(content=source)
    found = page.evaluate(
        """async () => {
          const result = await axe.run(document, { rules: { 'label-content-name-mismatch': { enabled: true } } });
          return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
        }"""
    )
    return [v for v in found if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("game", GAMES)
def test_axe_finds_no_serious_violation(tab, game, axe_source):
    open_game(tab, game)
    with_results(tab, game)
    assert violations(tab, axe_source) == []


@pytest.mark.parametrize("game", GAMES)
def test_every_tap_target_is_at_least_44_px(tab, game):
    open_game(tab, game)
    with_results(tab, game)
    small = [t for t in tab.evaluate(TARGETS) if t["width"] < MIN_TARGET or t["height"] < MIN_TARGET]
    assert small == []


@pytest.mark.parametrize("game", GAMES)
def test_nothing_is_cut_off_at_200_percent_text(page, game):
    open_game(page, game)
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    with_results(page, game)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{width}px wide at 200% text"
    if game == "apero":
        box = page.get_by_test_id("apero-p0-red-3").bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"], box


@pytest.mark.parametrize("game", GAMES)
def test_the_layout_does_not_shift(tab, game):
    open_game(tab, game)
    with_results(tab, game)
    assert tab.evaluate(LAYOUT_SHIFT) < 0.1


def test_tab_labels_break_only_between_words(page):
    """アップルジャック never shows as アップルジャ / ック: each tab label's lines end at a word."""
    page.goto("/")
    page.wait_for_selector("body[data-ready='true']")
    for game in GAMES:
        lines = page.evaluate(
            """(id) => {
              const el = document.getElementById(id);
              const text = el.firstChild;
              const range = document.createRange();
              const lines = [];
              for (let i = 0; i < text.length; i += 1) {
                range.setStart(text, i); range.setEnd(text, i + 1);
                const top = Math.round(range.getBoundingClientRect().top);
                if (!lines.length || lines.at(-1).top !== top) lines.push({ top, text: '' });
                lines.at(-1).text += text.data[i];
              }
              return lines.map((l) => l.text.replace(/\\u200b/g, ''));
            }""",
            f"tab-{game}",
        )
        words = {
            "apero": [["アペロ"]],
            "pedro": [["ピードロ"]],
            "applejack": [["アップルジャック"], ["アップル", "ジャック"]],
            "fairy-black-box": None,
            "chat": [["アイちゃん"]],
        }[game]
        if words is not None:
            assert lines in words, lines
        else:
            assert all(
                line
                in (
                    "フェアリー＆",
                    "フェアリー",
                    "＆",
                    "ブラック",
                    "ボックス",
                    "フェアリー＆ブラック",
                    "ブラックボックス",
                    "＆ブラックボックス",
                    "＆ブラック",
                )
                for line in lines
            ), lines


def test_every_tab_fits_a_phone_without_scrolling(page):
    page.goto("/")
    page.wait_for_selector("body[data-ready='true']")
    for game in GAMES:
        box = page.get_by_test_id(f"tab-{game}").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (game, box)
