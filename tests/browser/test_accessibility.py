"""Reachable and readable on every game: axe-core (from npm, tests/browser/package.json)
finds no serious or critical violation, every tap target is at least 44x44 px, the page
works at 200% text size, and the layout does not shift (CLS under 0.1)."""

from __future__ import annotations

import re
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


def contrast(first: str, second: str) -> float:
    """WCAG contrast ratio of two computed colours ('rgb(r, g, b)' or 'rgba(...)', opaque)."""

    def luminance(colour: str) -> float:
        r, g, b = (int(part) / 255 for part in re.findall(r"[\d.]+", colour)[:3])
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


#: The focused element's ring colour and what it is drawn against: the page's background
#: (the ring sits outside the element), or the element's own where it sits inside (a tab).
RING = """(inside) => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  const under = inside ? style.backgroundColor : getComputedStyle(document.documentElement).backgroundColor;
  return { ring: style.outlineColor, width: style.outlineWidth, style: style.outlineStyle, offset: style.outlineOffset, under };
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_focus_ring_stands_out_from_the_page_by_3_to_1(browser, base_url, scheme):
    for page in guarded_page(browser, base_url, PHONE, color_scheme=scheme):
        open_game(page, "apero")
        card = page.get_by_test_id("apero-p0-blue-2")
        card.focus()
        page.keyboard.press("Enter")  # a key: the ring is the keyboard's (:focus-visible)
        found = page.evaluate(RING, False)
        assert found["style"] == "solid" and found["width"] == "3px", found
        assert contrast(found["ring"], found["under"]) >= 3, found
        # The tabs: the ring inside the tab, against the tab's own colour, selected or not.
        page.get_by_test_id("tab-apero").focus()
        found = page.evaluate(RING, True)
        assert found["offset"] == "-5px" and contrast(found["ring"], found["under"]) >= 3, found
        page.keyboard.press("ArrowRight")
        expect(page.get_by_test_id("tab-pedro")).to_be_focused()
        found = page.evaluate(RING, True)
        assert contrast(found["ring"], found["under"]) >= 3, found
        # The language buttons, on the dark header.
        page.get_by_test_id("lang-en").focus()
        found = page.evaluate(RING, False)
        header = page.evaluate("() => getComputedStyle(document.querySelector('.app-header')).backgroundColor")
        assert contrast(found["ring"], header) >= 3, (found, header)


def test_the_light_ring_was_below_3_to_1_and_the_new_one_is_above():
    """The figures of the change: the former orange on the page, and the rings now."""
    assert round(contrast("rgb(255, 152, 0)", "rgb(246, 244, 239)"), 2) == 1.96  # #ff9800 on --bg
    assert round(contrast("rgb(179, 92, 0)", "rgb(246, 244, 239)"), 2) == 4.3  # #b35c00 on --bg
    assert round(contrast("rgb(255, 183, 77)", "rgb(18, 22, 25)"), 2) == 10.51  # dark: #ffb74d on --bg


@pytest.mark.parametrize("size", ["150%", "200%"])
def test_the_tab_strip_wraps_rather_than_scrolls_at_large_text(page, size):
    page.goto("/")
    page.wait_for_selector("body[data-ready='true']")
    page.evaluate(f"document.documentElement.style.fontSize = '{size}'")
    strip = page.evaluate(
        "() => { const s = document.querySelector('[role=tablist]'); return [s.scrollWidth, s.clientWidth]; }"
    )
    assert strip[0] <= strip[1], f"the tab strip scrolls sideways at {size}: {strip}"
    for game in GAMES:
        box = page.get_by_test_id(f"tab-{game}").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (game, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Each label still breaks only between words: no line is wider than its tab.
    overflowing = page.evaluate(
        "() => [...document.querySelectorAll('[role=tab]')].filter((t) => t.scrollWidth > t.clientWidth).map((t) => t.id)"
    )
    assert overflowing == []
    page.get_by_test_id("tab-fairy-black-box").click()
    expect(page.get_by_test_id("panel-fairy-black-box")).to_be_visible()


def test_the_tab_strip_is_inside_a_landmark(tab, axe_source):
    open_game(tab, "apero")
    nav = tab.get_by_role("navigation", name="ゲームの切り替え")
    expect(nav.get_by_role("tablist", name="ゲーム")).to_be_visible()
    expect(nav.get_by_role("tab")).to_have_count(len(GAMES))
    tab.add_script_tag(content=axe_source)
    found = tab.evaluate(
        """async () => (await axe.run(document, { runOnly: ['region'] })).violations
          .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }))"""
    )
    assert found == []
    tab.get_by_test_id("lang-en").click()
    expect(tab.get_by_role("navigation", name="Choose a game")).to_be_visible()


@pytest.fixture(params=["phone", "desktop"])
def dark(request, browser, base_url):
    """A guarded page in the system's dark theme, on a phone then a desktop."""
    viewport = PHONE if request.param == "phone" else DESKTOP
    yield from guarded_page(browser, base_url, viewport, bypass_csp=True, color_scheme="dark")


@pytest.mark.parametrize("game", ["apero", "pedro", "fairy-black-box", "applejack"])
def test_the_dark_theme_follows_the_system_and_axe_finds_no_serious_violation(dark, game, axe_source, shots):
    open_game(dark, game)
    background = dark.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
    assert background == "rgb(18, 22, 25)"  # --bg of the dark theme
    with_results(dark, game)
    dark.screenshot(path=shots / f"dark-{game}-{dark.viewport_size['width']}.png", full_page=True)
    assert violations(dark, axe_source) == []
