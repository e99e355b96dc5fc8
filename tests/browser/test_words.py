"""The form's words: one winner line in every game, one word per thing, さん as the service
gives it, and no label that breaks inside a word on a phone, at 100% and 150% text."""

import pytest
from playwright.sync_api import expect

from .conftest import PHONE
from .test_apero_form import OFFICIAL_EXAMPLE, enter_hand
from .test_applejack_form import open_advice, set_tree
from .test_fairy_black_box_form import fill
from .test_pedro_form import enter_points

# -- One winner line ------------------------------------------------------------------------


def test_pedro_announces_its_winner_as_every_game_does(page, open_game):
    """A team takes no さん: 「★ NSの勝ち（23点）」 (it said 「NSの勝ち！」)."""
    open_game("pedro")
    page.get_by_test_id("pedro-settings").locator("summary").click()
    page.get_by_test_id("pedro-rule-target").fill("20")
    page.get_by_test_id("pedro-rule-target").blur()
    expect(page.get_by_test_id("pedro-target")).to_have_text("目標20点")
    enter_points(page, "NS", 7, 14, 0)  # NS 14, EW 0
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("14")
    enter_points(page, "NS", 7, 9, 5)  # NS made 7 with 9: 23 of 20
    expect(page.get_by_test_id("pedro-winner")).to_have_text("★ NSの勝ち（23点）")
    page.get_by_test_id("pedro-share-copy").click()
    text = page.get_by_test_id("pedro-share-text").input_value()
    assert text.split("\n")[-1] == "★ NSの勝ち（23点）", text
    assert text.split("\n")[0] == "ピードロ（Pedro）（目標20点）", text

    page.get_by_test_id("lang-en").click()
    expect(page.get_by_test_id("pedro-winner")).to_have_text("★ NS wins (23 points)")


def score_orchard(page, red, supply, total):
    """The current player's orchard is one tree of `red` apples on field 10; final score."""
    set_tree(page, 10, {"red": red})
    page.get_by_test_id("aj-supply").fill(str(supply))
    page.get_by_test_id("aj-final-go").click()
    expect(page.get_by_test_id("aj-final-total")).to_have_text(str(total))


def test_applejack_announces_its_winner_by_name_and_points(page, open_game):
    """「★ ミカちゃんとプレイヤー2の勝ち（6点）」 (it said 「勝者（同点）: ...」, only in the copied
    text): an honorific already given and a placeholder take no さん; the final score in 点,
    as the form's 「ここで終われば28点」 and every other game's winner line."""
    open_game("applejack")
    page.get_by_test_id("aj-name").fill("ミカちゃん")
    score_orchard(page, 5, 2, 6)  # red 5 at die 3: 2, doubled 4, and 2 held
    expect(page.get_by_test_id("aj-winner")).to_have_count(0)  # one player scored: no winner yet
    page.get_by_test_id("aj-add-player").click()
    score_orchard(page, 5, 2, 6)
    winner = page.get_by_test_id("aj-winner")
    expect(winner).to_have_text("★ ミカちゃんとプレイヤー2の勝ち（6点）")
    expect(page.get_by_test_id("aj-final-result").get_by_test_id("aj-ranking-0")).to_have_text("★ミカちゃん6")

    page.get_by_test_id("aj-supply").fill("3")
    page.get_by_test_id("aj-final-go").click()
    expect(winner).to_have_text("★ プレイヤー2の勝ち（7点）")
    page.get_by_test_id("applejack-share-copy").click()
    expect(page.get_by_test_id("applejack-share-text")).to_have_value(
        "アップルジャックの最終得点\nプレイヤー2: 7\nミカちゃん: 6\n★ プレイヤー2の勝ち（7点）"
    )
    page.get_by_test_id("lang-en").click()
    expect(winner).to_have_text("★ Player 2 wins (7 points)")
    page.get_by_test_id("aj-supply").fill("2")
    page.get_by_test_id("aj-final-go").click()
    expect(winner).to_have_text("★ ミカちゃん and Player 2 share the win (6 points)")


def test_applejack_names_a_player_as_the_other_games_do(page, open_game):
    """「アキさんの果樹園」, 「アキさんの最終得点の内訳」, but 「プレイヤー1の...」."""
    open_game("applejack")
    score_orchard(page, 5, 2, 6)
    caption = page.get_by_test_id("aj-final-breakdown").locator("caption")
    expect(caption).to_have_text("プレイヤー1の最終得点の内訳")
    page.get_by_test_id("aj-name").fill("アキ")
    page.get_by_test_id("aj-final-go").click()
    expect(caption).to_have_text("アキさんの最終得点の内訳")
    # the breakdown's notes in full-width brackets: 「品種ボーナス（赤）」
    expect(page.get_by_test_id("aj-final-variety_bonus").locator("th")).to_have_text("品種ボーナス（赤）")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_test_id("aj-clear").click()
    assert asked == ["アキさんの果樹園のタイルをすべて消しますか？"]


def test_a_name_ending_in_an_honorific_takes_no_second_one(page, open_game):
    """「ミカちゃん」 stays 「ミカちゃん」 (never 「ミカちゃんさん」), in the form's words and the
    service's; 「アキ」 is 「アキさん」."""
    open_game("apero")
    enter_hand(page, 0, OFFICIAL_EXAMPLE, "ミカちゃん")
    expect(page.get_by_test_id("apero-winner")).to_have_text("★ ミカちゃんの勝ち（16点）")
    enter_hand(page, 1, [("blue", 3)], "タナカ先生")
    expect(page.get_by_test_id("apero-total-1")).to_have_text("3")
    page.get_by_test_id("apero-pick-open").click()
    page.get_by_test_id("apero-table-blue-2").click()
    expect(page.get_by_test_id("apero-totals-best")).to_contain_text("ミカちゃんのおすすめ")
    panel = page.get_by_test_id("panel-apero").inner_text()
    assert "ちゃんさん" not in panel and "先生さん" not in panel

    open_game("fairy-black-box")
    fill(page, 0, "ミカちゃん", 5)
    fill(page, 1, "アキ", 3)
    fill(page, 2, "", 1)
    page.get_by_test_id("fairy-black-box-score").click()
    expect(page.get_by_test_id("fairy-black-box-winner")).to_have_text("★ ミカちゃんの勝ち（5点）")
    result = page.get_by_test_id("fairy-black-box-result").inner_text()
    assert "ミカちゃんさん" not in result and "アキさん" in result, result


# -- One word per thing ----------------------------------------------------------------------


def test_orange_is_橙_in_applejack_as_in_apero(page, open_game):
    open_game("applejack")
    set_tree(page, 12, {"orange": 6})
    expect(page.get_by_test_id("aj-editor")).to_contain_text("橙")
    page.keyboard.press("Escape")
    page.get_by_test_id("aj-variety").select_option("orange")
    expect(page.get_by_test_id("aj-variety").locator("option:checked")).to_have_text("橙")
    page.get_by_test_id("aj-die-3").check()
    page.get_by_test_id("aj-harvest-go").click()
    expect(page.get_by_test_id("aj-harvest-honey")).to_have_text("3")  # 6 apples at die 3
    expect(page.get_by_test_id("aj-harvest-result")).to_contain_text("橙")
    expect(page.get_by_test_id("aj-field-12")).to_have_attribute("aria-label", "畑12: 橙6 · エリア1")
    assert "オレンジ" not in page.get_by_test_id("panel-applejack").inner_text()


def test_bidder_goes_out_is_explained_once_where_a_player_first_meets_it(page, open_game):
    """The introduction is never folded: it is where the term first appears, glossed; the rule
    options (opened), the warning and the ledger's badge use it unglossed."""
    open_game("pedro")
    page.get_by_test_id("pedro-settings").locator("summary").click()
    page.get_by_test_id("pedro-rule-target").fill("20")
    page.get_by_test_id("pedro-rule-target").blur()
    enter_points(page, "NS", 7, 14, 0)
    enter_points(page, "EW", 7, 0, 14)
    expect(page.get_by_test_id("pedro-warning")).to_contain_text("次のハンドはビッダー・ゴーズ・アウトです")
    text = page.get_by_test_id("panel-pedro").inner_text()
    gloss = "ビッダー・ゴーズ・アウト（入札チームが入札を達成すれば、その場で勝ち）"
    assert text.count(gloss) == 1
    assert text.index("ビッダー・ゴーズ・アウト") == text.index(gloss)
    assert text.index(gloss) < text.index("ビッダー・ゴーズ・アウトの条件（目標点までの残り点数）")
    own = text.replace(page.get_by_test_id("pedro-explanation").inner_text(), "")
    assert own.count("入札を達成すれば") == 1, own


# -- No label breaks inside a word ------------------------------------------------------------

#: Each visible button, tab, label, summary, legend and link-button of the panel `testid`,
#: the tabs, and Applejack's 「ここで終われば28点」: where its text breaks onto a new line
#: inside one text node (a break between two elements is the layout's), and the breaks that
#: fall inside a phrase. A break may fall after a space or punctuation (、。・：）」...), before
#: an opening bracket or ＆, after a particle (を, に, が, は, の, で, と, から...), or before a word
#: that starts with a kanji, katakana, Latin letter or digit; the words are the browser's
#: (Intl.Segmenter, ICU's Japanese dictionary). So 「取ったカードを|すべて|消す」 may break
#: where shown, 「ゴキゲンは4か|ら」 and 「ここで終|われば」 may not.
BREAKS = """(testid) => {
  const root = document.querySelector(`[data-testid='${testid}']`);
  const range = document.createRange();
  const words = new Intl.Segmenter('ja', { granularity: 'word' });
  const PARTICLES = new Set(['を', 'に', 'が', 'は', 'の', 'で', 'と', 'も', 'へ', 'や', 'から', 'まで', 'より']);
  /** The offsets in `node` where a new line starts. */
  function starts(node) {
    const out = [];
    let prev = null;
    for (let i = 0; i < node.data.length; i++) {
      const code = node.data.charCodeAt(i);
      if ((code >= 0xdc00 && code <= 0xdfff) || /\\s|\\u200b/.test(node.data[i])) continue;
      range.setStart(node, i);
      range.setEnd(node, i + (code >= 0xd800 && code <= 0xdbff ? 2 : 1));
      const box = [...range.getClientRects()].find((r) => r.width > 0 || r.height > 0);
      if (!box) continue;
      if (prev && box.top >= prev.bottom - 1) out.push(i);
      prev = box;
    }
    return out;
  }
  /** The offsets where a line may start: between phrases, as said above. */
  function phraseStarts(text) {
    const ok = new Set();
    const parts = [...words.segment(text)];
    for (let k = 1; k < parts.length; k++) {
      const before = parts[k - 1].segment;
      const after = parts[k].segment;
      if (/[\\s\\u200b、。，．・：:）」』】？！…]$/.test(before) || PARTICLES.has(before)
        || /^[（「『【(＆\\p{Script=Han}\\p{Script=Katakana}A-Za-z0-9０-９]/u.test(after) && !/^ー/.test(after)) {
        let i = parts[k].index;
        while (/\\s|\\u200b/.test(text[i] ?? '')) i += 1;  // a line starts after the space
        ok.add(i);
      }
    }
    return ok;
  }
  const found = [];
  const sel = 'button, [role=tab], label, summary, legend, a.button-link, .aj-if-ended';
  for (const el of new Set([...root.querySelectorAll(sel), ...document.querySelectorAll('[role=tab]')])) {
    if (!el.checkVisibility()) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const breaks = [];
    const bad = [];
    for (let node; (node = walker.nextNode());) {
      if (!node.data.trim() || !node.parentElement.checkVisibility()) continue;
      const here = starts(node);
      if (!here.length) continue;
      const phrases = phraseStarts(node.data);
      for (const i of here) {
        const at = `${node.data.slice(0, i)}|${node.data.slice(i)}`;
        breaks.push(at);
        if (!phrases.has(i)) bad.push(at);
      }
    }
    found.push({ testid: el.dataset.testid || el.id || '', text: el.textContent.trim(), breaks, bad });
  }
  return found;
}"""


def show_labels(page, game):
    """The tab with the labels players look for in view: Apero's 「取ったカードをすべて消す」 and
    「どれを取る？」, Pedro's 「新しいゲーム」, Applejack's 「次の畑」, 「前と同じタイル」 and
    「ここで終われば28点」; every tab's 「BG Statsに記録」. Returns the named labels' test ids."""
    if game == "apero":
        enter_hand(page, 0, OFFICIAL_EXAMPLE)
        page.get_by_test_id("apero-pick-open").click()
        page.get_by_test_id("apero-table-blue-3").click()
        expect(page.get_by_test_id("apero-totals-best")).to_be_visible()
        return ["apero-p0-clear", "apero-pick-open", "apero-totals-pick"]
    if game == "pedro":
        page.get_by_test_id("pedro-settings").locator("summary").click()
        enter_points(page, "NS", 7, 9, 5)
        expect(page.get_by_test_id("pedro-new-game")).to_be_visible()
        return ["pedro-new-game"]
    if game == "applejack":
        set_tree(page, 9, {"red": 2}, hives=["e"], price=3)
        page.get_by_test_id("aj-supply").fill("10")
        page.keyboard.press("Escape")
        open_advice(page)
        page.get_by_test_id("aj-taken-apples-red").fill("10")
        page.get_by_test_id("aj-taken-hive-e").uncheck()
        page.get_by_test_id("aj-taken-hive-w").check()
        page.get_by_test_id("aj-taken-price").fill("3")
        page.get_by_test_id("aj-advice-go").click()
        expect(page.get_by_test_id("aj-advice-final-0")).to_have_text("28")
        page.get_by_test_id("aj-field-9").click()
        page.get_by_test_id("aj-next-field").click()
        expect(page.get_by_test_id("aj-same-tile")).to_be_visible()
        return ["aj-next-field", "aj-same-tile", "aj-advice-final-0"]
    return []


#: The named labels, each on one line: 「ここで終われば28点」 is the advice figure's group.
ONE_LINE = """(testid) => {
  let el = document.querySelector(`[data-testid='${testid}']`);
  if (el.closest('.aj-if-ended')) el = el.closest('.aj-if-ended');
  const label = el.id === 'aj-same-tile' ? el.firstChild : el;  // its tile's description below
  const range = document.createRange();
  range.selectNodeContents(label);
  // a line is the boxes that overlap it from top to bottom (the figure is larger than its words)
  const boxes = [...range.getClientRects()].filter((r) => r.width > 1).sort((a, b) => a.top - b.top);
  let lines = 0;
  let bottom = -Infinity;
  for (const box of boxes) {
    if (box.top >= bottom - 1) lines += 1;
    bottom = box.top >= bottom - 1 ? box.bottom : Math.max(bottom, box.bottom);
  }
  return { text: label.textContent, lines };
}"""


@pytest.mark.parametrize("size", ["100%", "150%"])
@pytest.mark.parametrize("game", ["apero", "pedro", "applejack", "fairy-black-box", "chat"])
def test_no_label_breaks_inside_a_word_on_a_phone(page, open_game, fits_phone, game, size):
    """Before (2026-12-06): at 150% text 6 labels broke inside a word (「ビッダー・ゴーズ・
    アウトにな|る…」, 「…目標点|に到達したとき」, 「その他の品|種」, 「…絵の数|字）」,
    「ゴキゲンは4か|ら」, 「…運営者か|ら…」) and the advice's 「28点（ここで終|われば）」; at
    100% 4 (「オレン|ジ」 among them)."""
    assert page.viewport_size == PHONE
    open_game(game)
    page.evaluate(f"document.documentElement.style.fontSize = '{size}'")
    named = show_labels(page, game)
    found = page.evaluate(BREAKS, f"panel-{game}")
    assert len(found) > 5
    assert [(f["text"], f["bad"]) for f in found if f["bad"]] == []
    record = page.get_by_test_id(f"{game}-bgstats")
    for testid in named + ([f"{game}-bgstats"] if record.count() else []):
        one = page.evaluate(ONE_LINE, testid)
        assert one["lines"] == 1, (testid, one)
    fits_phone()
