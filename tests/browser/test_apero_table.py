"""Apero at the table: no tap lost, totals in view, nothing lost on reload, shared by a link."""

import contextlib
import re
from datetime import datetime

from playwright.sync_api import Error, expect

from .conftest import PHONE, SCREENS, guarded_page, in_view, wait_for_focus_in
from .test_apero_form import OFFICIAL_EXAMPLE, enter_hand


def open_apero(tab):
    tab.goto("/#apero")
    tab.wait_for_selector("body[data-ready='true']")
    tab.get_by_test_id("panel-apero").wait_for(state="visible")


def test_thirty_fast_clicks_give_thirty_cards(screen):
    """Clicks 40 ms apart, while the service's answers come back and redraw the form."""
    tab = screen
    open_apero(tab)
    tab.get_by_test_id("apero-sets").select_option("10")  # 10 sets hold 30 red 2s
    expect(tab.get_by_test_id("apero-p0-red-2-left")).to_have_text("残り30")
    button = tab.get_by_test_id("apero-p0-red-2")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for _ in range(30):
        tab.mouse.click(x, y)
        tab.wait_for_timeout(40)

    expect(tab.get_by_test_id("apero-p0-red-2")).to_contain_text("×30")
    # read in one step: an answer arriving may replace the button between two protocol calls
    moved = tab.evaluate(
        "() => { const r = document.querySelector(`[data-testid='apero-p0-red-2']`).getBoundingClientRect();"
        " return [r.x, r.y]; }"
    )
    assert [round(v) for v in moved] == [round(box["x"]), round(box["y"])], "the button moved under the pointer"
    expect(tab.get_by_test_id("apero-p0-red-2-left")).to_have_text("残り0")
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


def test_a_reload_keeps_the_table(screen):
    page = screen
    open_apero(page)
    page.get_by_test_id("apero-sets").select_option("2")
    enter_hand(page, 0, OFFICIAL_EXAMPLE, "アキ")
    expect(page.get_by_test_id("apero-total-0")).to_have_text("16")

    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    expect(page.get_by_test_id("apero-p0-name")).to_have_value("アキ")
    expect(page.get_by_test_id("apero-sets")).to_have_value("2")
    expect(page.get_by_test_id("apero-total-0")).to_have_text("16")


def test_a_shared_link_opens_the_same_table_in_a_fresh_browser(screen, browser, base_url):
    page = screen
    open_apero(page)
    enter_hand(page, 0, OFFICIAL_EXAMPLE, "アキ")
    enter_hand(page, 1, [("blue", 3)], "ベン")
    expect(page.get_by_test_id("apero-total-1")).to_have_text("3")
    page.get_by_test_id("apero-share-link").click()
    link = page.get_by_test_id("apero-share-text").input_value()
    assert link.startswith(base_url + "#apero:"), link

    other = browser.new_context(viewport=page.viewport_size, locale="ja-JP", service_workers="block")
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
    assert lines[0] == "アペロ（Apero）（1セット）"
    assert lines[1] == "★ アキ: 16点"
    assert lines[2] == "  赤 1 = 1 / 緑 2 × 3 = 6 / 紫 (-1 + -2) × -3 = 9"
    assert lines[3] == "ベン: 3点"
    assert lines[-1] == "★ アキさんの勝ち（16点）"


def test_a_card_button_is_named_by_what_it_shows(page):
    open_apero(page)
    # the screen reader's words and the visible ones (the browser puts spaces between the parts)
    expect(page.get_by_role("button", name=re.compile(r"^赤 1 ?を追加。 ?残り2$"))).to_be_visible()
    page.get_by_test_id("apero-p0-red-1").click()
    expect(
        page.get_by_role("button", name=re.compile(r"^赤 1 ?を追加。 ?取ったカード ?×1 ?、 ?残り1$"))
    ).to_be_visible()


def test_the_options_of_which_card_to_take_come_into_view_with_the_focus(screen):
    open_apero(screen)
    enter_hand(screen, 0, OFFICIAL_EXAMPLE, "Aki")
    enter_hand(screen, 1, [("purple", -2)], "Ben")
    screen.get_by_test_id("apero-add-player").click()
    screen.get_by_test_id("apero-pick-open").click()
    for card in ("green-1", "purple--3", "blue-2"):
        screen.get_by_test_id(f"apero-table-{card}").click()

    # the best card is in the bar while table cards are tapped; the button brings all of them
    expect(screen.get_by_test_id("apero-totals-best")).to_have_text("Akiさんのおすすめ: 紫-3（+11点）")
    in_view(screen, "apero-totals-best")
    more = screen.get_by_test_id("apero-totals-options")
    expect(more).to_have_text("候補をすべて見る（3枚）")
    more.click()
    wait_for_focus_in(screen, "apero-pick-options")
    in_view(screen, "apero-pick-options")
    expect(screen.get_by_test_id("apero-pick-options")).to_have_attribute(
        "aria-label", "取るカードの候補（増える点数が多い順）"
    )
    expect(screen.get_by_test_id("apero-pick-gain-0")).to_have_text("+11")  # purple -3: (-1 + -3) × (-2 + -3) = 20
    expect(screen.get_by_test_id("apero-pick-gain-1")).to_have_text("+3")  # green 1: (1 + 2) × 3 = 9
    expect(screen.get_by_test_id("apero-pick-gain-2")).to_have_text("+2")  # blue 2: a new colour


def test_a_tap_is_sent_at_once_with_no_timer_to_wait_for(page):
    """The page's clock is stopped, so no timer runs: the total still comes, because a tap
    asks the service at once (the form used to wait 120 ms on a timer before sending)."""
    page.clock.install(time=datetime(2026, 12, 1, 12, 0))
    open_apero(page)
    page.clock.pause_at(datetime(2026, 12, 1, 13, 0))
    page.get_by_test_id("apero-p0-red-3").click()
    page.get_by_test_id("apero-p0-blue-2").click()
    expect(page.get_by_test_id("apero-p0-running")).to_have_text("5点")
    expect(page.get_by_test_id("apero-total-0")).to_have_text("5")
    expect(page.get_by_test_id("apero-totals-ranking-0")).to_contain_text("5")


def test_a_newer_tap_cancels_the_question_still_on_its_way(page):
    open_apero(page)
    held = []
    page.route("**/api/v1/apero/score*", lambda route: held.append(route) if len(held) < 2 else route.continue_())
    failed = []
    page.on("requestfailed", lambda request: failed.append((request.post_data_json, request.failure)))
    page.get_by_test_id("apero-p0-red-1").click()  # asked, and held on its way
    page.get_by_test_id("apero-p0-red-2").click()  # asked again: the first question is cancelled
    for _ in range(100):
        if len(held) == 2 and failed:
            break
        page.wait_for_timeout(50)
    one_card = {"sets": 1, "players": [{"name": "プレイヤー1", "cards": [{"color": "red", "value": 1}]}]}
    assert failed == [(one_card, "net::ERR_ABORTED")]
    held[1].continue_()
    expect(page.get_by_test_id("apero-total-0")).to_have_text("3")  # red 1 + 2
    with contextlib.suppress(Error):  # the cancelled question's answer, too late: nobody reads it
        held[0].fulfill(json={"players": [{"name": "プレイヤー1", "total": 1, "total_text": "1"}]})
    page.get_by_test_id("apero-p0-red-3").click()
    expect(page.get_by_test_id("apero-total-0")).to_have_text("9")  # then the next tap as ever: (1 + 2) × 3
    expect(page.get_by_test_id("apero-p0-running")).to_have_text("9点")


def test_a_tap_redraws_only_what_it_changed(page):
    """The answer and the tap patch the page: the tapped card's buttons (its hand's and the
    table's, whose copies left change) and the totals; every other card button is the same
    element, untouched, and so are the result's and the totals' nodes."""
    open_apero(page)
    page.get_by_test_id("apero-p0-red-1").click()
    expect(page.get_by_test_id("apero-total-0")).to_have_text("1")
    page.evaluate(
        """() => {
          const ids = ['apero-p0-red-2', 'apero-p0-green-1', 'apero-result-0', 'apero-total-0', 'apero-totals-ranking-0'];
          window.keptNodes = ids.map((id) => document.querySelector(`[data-testid='${id}']`));
          window.changedCards = new Set();
          new MutationObserver((records) => {
            for (const record of records) {
              const el = record.target.nodeType === 1 ? record.target : record.target.parentElement;
              const card = el.closest('button.card');
              if (card) window.changedCards.add(card.dataset.testid);
            }
          }).observe(document.getElementById('panel-apero'), { subtree: true, childList: true, characterData: true, attributes: true });
        }"""
    )
    page.get_by_test_id("apero-p0-red-2").click()
    expect(page.get_by_test_id("apero-total-0")).to_have_text("3")
    expect(page.get_by_test_id("apero-p0-red-2")).to_contain_text("×1")
    assert page.evaluate(
        "() => window.keptNodes.every((el) => document.querySelector(`[data-testid='${el.dataset.testid}']`) === el)"
    )
    assert sorted(page.evaluate("() => [...window.changedCards]")) == ["apero-p0-red-2", "apero-table-red-2"]


#: The audit's game: four players, twelve cards each, two sets.
FOUR_BY_TWELVE = {
    "アキ": "red 1, red 2, red 3, green 2, green 3, purple -1, purple -2, purple -3, blue 1, blue 2, orange 2, black_green -2",
    "ベン": "red 1, red 2, orange 1, orange 3, green 1, green 2, blue 3, blue 2, purple -2, purple -3, black_green -3, black_green -1",
    "カイ": "red 2, red 3, orange 2, orange 2, green 1, green 3, blue 1, blue 1, purple -2, purple -1, black_green -2, black_green -3",
    "ダン": "red 1, red 1, orange 1, orange 3, green 2, green 2, blue 2, blue 3, purple -3, purple -3, black_green -2, black_green -2",
}
FOUR_BY_TWELVE_TOTALS = ["27", "25", "24", "29"]


def enter_four_by_twelve(page):
    page.get_by_test_id("apero-sets").select_option("2")
    for i, (name, cards) in enumerate(FOUR_BY_TWELVE.items()):
        enter_hand(
            page, i, [(color, int(value)) for color, value in (card.split() for card in cards.split(", "))], name
        )
    for i, total in enumerate(FOUR_BY_TWELVE_TOTALS):
        expect(page.get_by_test_id(f"apero-total-{i}")).to_have_text(total)


def test_which_card_to_take_is_in_the_bar_and_opens_the_advice_in_view(screen):
    open_apero(screen)
    enter_four_by_twelve(screen)
    advice = screen.get_by_test_id("apero-pick")
    expect(advice).not_to_have_attribute("open", "")
    button = screen.get_by_test_id("apero-totals-pick")
    expect(button).to_have_text("どれを取る？")
    in_view(screen, "apero-totals-pick")

    button.click()
    expect(advice).to_have_attribute("open", "")
    expect(screen.get_by_test_id("apero-pick-open")).to_be_focused()
    in_view(screen, "apero-pick-open")
    in_view(screen, "apero-pick-me")  # the advice's own boxes, not just its heading
    screen.get_by_test_id("apero-pick-me").select_option("3")  # ダン chooses
    screen.get_by_test_id("apero-table-blue-1").click()  # the last blue 1 of two sets
    best = screen.get_by_test_id("apero-totals-best")
    expect(best).to_have_text("ダンさんのおすすめ: 青1（+3点）")  # blue 2 × 3 = 6, with 1: (1 + 2) × 3 = 9


def test_a_finished_hand_folds_to_one_line_with_its_total(page):
    open_apero(page)
    enter_hand(page, 0, OFFICIAL_EXAMPLE, "アキ")
    expect(page.get_by_test_id("apero-total-0")).to_have_text("16")
    page.get_by_test_id("apero-add-player").click()  # アキ is done: her hand folds
    expect(page.get_by_test_id("apero-p1-name")).to_be_focused()  # the next name at once, no tap
    line = page.get_by_test_id("apero-p0-toggle")
    expect(line).to_have_text("アキ6枚16点")
    expect(line).to_have_attribute("aria-expanded", "false")
    expect(page.get_by_test_id("apero-p0-red-1")).to_be_hidden()
    assert page.get_by_test_id("apero-player-0").bounding_box()["height"] <= 50

    page.get_by_test_id("apero-p1-name").fill("ベン")
    page.get_by_test_id("apero-p1-blue-3").click()
    line.click()  # open アキ's hand again: ベン's, done, folds
    expect(page.get_by_test_id("apero-p0-red-1")).to_be_visible()
    expect(page.get_by_test_id("apero-p0-fold")).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_test_id("apero-p1-toggle")).to_have_text("ベン1枚3点")
    page.get_by_test_id("apero-p0-fold").click()  # and fold it by hand
    expect(line).to_be_focused()
    expect(line).to_have_attribute("aria-expanded", "false")

    page.reload()  # every hand folds but the last one that holds cards
    page.wait_for_selector("body[data-ready='true']")
    expect(page.get_by_test_id("apero-p0-toggle")).to_have_text("アキ6枚16点")
    expect(page.get_by_test_id("apero-p1-blue-3")).to_be_visible()


def test_a_refused_hand_stays_open_at_its_reason(page):
    open_apero(page)
    page.get_by_test_id("apero-sets").select_option("2")
    enter_hand(page, 0, [("red", 3), ("red", 3)], "アキ")
    page.get_by_test_id("apero-add-player").click()
    expect(page.get_by_test_id("apero-p0-toggle")).to_have_text("アキ2枚9点")
    page.get_by_test_id("apero-sets").select_option("1")  # two red 3s, one set: refused
    expect(page.get_by_test_id("apero-error-0")).to_contain_text("赤3")
    expect(page.get_by_test_id("apero-p0-red-3")).to_be_visible()


def test_the_four_player_twelve_card_game_is_shorter_on_a_phone(browser, base_url):
    """On the audit's phone (390x844), the audit's game: 4,866 px tall before the hands folded,
    the intro closed and the result tables tightened (the 「どれを取る？」 heading was 2,873 px down)."""
    tab = next(guarded_page(browser, base_url, SCREENS["phone"]))
    open_apero(tab)
    enter_four_by_twelve(tab)
    height = tab.evaluate("document.documentElement.scrollHeight")
    assert height <= 3_000, height
    for i in range(3):
        assert tab.get_by_test_id(f"apero-player-{i}").bounding_box()["height"] <= 50
    advice = tab.get_by_test_id("apero-pick-open").bounding_box()["y"] + tab.evaluate("scrollY")
    assert advice <= 1_400, advice


def test_the_intro_is_open_until_it_has_been_read(page):
    open_apero(page)
    intro = page.get_by_test_id("apero-intro")
    expect(intro).to_have_attribute("open", "")
    expect(intro).to_contain_text("赤・橙（オレンジ）・緑・青・紫・黒緑の6色")
    page.get_by_test_id("apero-p0-red-1").click()
    expect(intro).to_have_attribute("open", "")  # nothing moves under the finger
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    expect(intro).not_to_have_attribute("open", "")  # read: closed from now on
    expect(page.get_by_test_id("apero-intro-open")).to_have_text("使い方")
    page.get_by_test_id("apero-intro-open").click()
    expect(intro).to_have_attribute("open", "")


#: How a control looks: its marker (::before), border, cursor and focus ring.
LOOK = """(id) => {
  const el = document.querySelector(`[data-testid='${id}']`);
  const own = getComputedStyle(el);
  const marker = el.matches('summary') ? getComputedStyle(el, '::before') : getComputedStyle(el.querySelector('.chevron'));
  return {
    marker: marker.display !== 'none' && parseFloat(marker.width) > 0 && marker.borderRightWidth === '2px',
    border: own.borderTopWidth, cursor: own.cursor, outline: [own.outlineStyle, own.outlineWidth],
  };
}"""


def test_every_disclosure_looks_tappable(page):
    """A chevron, a button's border and a pointer; the keyboard's focus ring on each."""
    open_apero(page)
    enter_hand(page, 0, [("red", 1)], "アキ")
    page.get_by_test_id("apero-add-player").click()
    expect(page.get_by_test_id("apero-p0-toggle")).to_be_visible()
    for testid, before, key in [
        ("apero-intro-open", "apero-sets", "Shift+Tab"),
        ("apero-p0-toggle", "apero-sets", "Tab"),  # アキ's folded hand
        ("apero-pick-open", "apero-add-player", "Tab"),
    ]:
        page.get_by_test_id(before).focus()
        page.keyboard.press(key)
        expect(page.get_by_test_id(testid)).to_be_focused()
        look = page.evaluate(LOOK, testid)
        assert look == {"marker": True, "border": "1px", "cursor": "pointer", "outline": ["solid", "3px"]}, testid
