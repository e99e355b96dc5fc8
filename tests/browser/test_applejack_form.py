"""Applejack in the browser: build an orchard on the hexes, harvest, see the areas, score."""

import re

from playwright.sync_api import expect

HIGHLIGHTED = re.compile(r"\bhl\b")


def open_advice(page):
    """Unfold どこに置く？ (a disclosure, folded until asked for)."""
    if page.get_by_test_id("aj-advice").get_attribute("open") is None:
        page.get_by_test_id("aj-advice-summary").click()
    expect(page.get_by_test_id("aj-advice-form")).to_be_visible()


def set_tree(page, field, apples, blossoms=0, hives=(), price=None):
    page.get_by_test_id(f"aj-field-{field}").click()
    page.get_by_test_id("aj-kind-tree").check()
    for variety, count in apples.items():
        page.get_by_test_id(f"aj-apples-{variety}").fill(str(count))
    if blossoms:
        page.get_by_test_id("aj-blossoms").fill(str(blossoms))
    for edge in hives:
        page.get_by_test_id(f"aj-hive-{edge}").check()
    if price is not None:
        page.get_by_test_id("aj-price").fill(str(price))


def build_small_orchard(page):
    """Fields 9 and 10 touch (red 2 + red 2), field 1 stands alone (red 1), field 5 is a pasture."""
    set_tree(page, 9, {"red": 2}, blossoms=1, hives=["e"], price=3)
    set_tree(page, 10, {"red": 2, "yellow": 1}, hives=["w"], price=2)
    set_tree(page, 1, {"red": 1}, hives=["se"], price=1)
    page.get_by_test_id("aj-field-5").click()
    page.get_by_test_id("aj-kind-pasture").check()


def test_harvest_highlights_each_area_and_pays_honey(page, open_game, shots, fits_phone):
    open_game("applejack")
    build_small_orchard(page)
    expect(page.get_by_test_id("aj-field-9")).to_have_attribute("aria-label", "畑9: 赤2、花1、巣箱（右）価格3")

    page.get_by_test_id("aj-variety").select_option("red")
    page.get_by_test_id("aj-die-1").check()
    page.get_by_test_id("aj-harvest-go").click()

    expect(page.get_by_test_id("aj-harvest-honey")).to_have_text("3")  # (2 + 2) - 1 = 3; 1 - 1 = 0
    area_of_9 = page.get_by_test_id("aj-field-9").get_attribute("data-area")
    assert area_of_9 is not None
    expect(page.get_by_test_id("aj-field-9")).to_have_class(HIGHLIGHTED)
    expect(page.get_by_test_id("aj-field-10")).to_have_attribute("data-area", area_of_9)
    expect(page.get_by_test_id("aj-field-1")).to_have_attribute("data-area", "1")
    assert page.get_by_test_id("aj-field-1").get_attribute("data-area") != area_of_9
    expect(page.get_by_test_id("aj-field-5")).not_to_have_class(HIGHLIGHTED)  # a pasture breaks areas
    expect(page.get_by_test_id("aj-harvest-result")).to_contain_text("リンゴ 4 − ダイス 1 = ハチミツ 3")
    fits_phone()
    page.screenshot(path=shots / "applejack-harvest.png", full_page=True)

    page.get_by_test_id("aj-supply").fill("5")
    page.get_by_test_id("aj-final-go").click()
    # final harvest at die 3: red 4 - 3 = 1, doubled 2; blossoms 1; supply 5 -> 8
    expect(page.get_by_test_id("aj-final-total")).to_have_text("8")
    expect(page.get_by_test_id("aj-final-crop_doubled")).to_contain_text("2")
    expect(page.get_by_test_id("aj-final-blossoms")).to_contain_text("1")
    fits_phone()
    page.screenshot(path=shots / "applejack.png", full_page=True)


def test_placement_and_blossoms(page, open_game):
    open_game("applejack")
    build_small_orchard(page)
    page.get_by_test_id("aj-times-2").check()
    page.get_by_test_id("aj-blossoms-go").click()
    expect(page.get_by_test_id("aj-blossoms-honey")).to_have_text("2")

    page.get_by_test_id("aj-field-10").click()
    page.get_by_test_id("aj-placement-go").click()
    # price 2 paid; its w beehive (2) meets field 9's e beehive (3): +2 -> net 0
    expect(page.get_by_test_id("aj-placement-result")).to_contain_text("ハチミツ +0")


def test_a_tile_without_its_price_is_asked_for_on_its_hex_when_the_price_matters(page, open_game):
    open_game("applejack")
    set_tree(page, 2, {"red": 1}, hives=["e"])  # beehives but no price yet
    page.get_by_test_id("aj-harvest-go").click()  # a harvest needs no price
    expect(page.get_by_test_id("aj-harvest-honey")).to_have_text("0")

    set_tree(page, 3, {"red": 1}, hives=["w"], price=2)
    page.get_by_test_id("aj-placement-go").click()  # its beehive faces field 2's: that price counts
    expect(page.get_by_test_id("aj-field-errors")).to_have_text("畑2のタイルの価格（巣箱の数字）はいくつですか？")
    expect(page.get_by_test_id("aj-field-2")).to_have_class(re.compile(r"\bhas-error\b"))
    expect(page.get_by_test_id("aj-editor")).to_contain_text("畑2")  # the tile to fix is open
    expect(page.get_by_test_id("aj-editor-error")).to_be_focused()
    expect(page.get_by_test_id("aj-price")).to_have_attribute("aria-invalid", "true")

    page.get_by_test_id("aj-price").fill("2")  # fixing the tile clears the marks
    expect(page.get_by_test_id("aj-field-errors")).to_have_count(0)
    expect(page.get_by_test_id("aj-editor-error")).to_have_count(0)
    expect(page.get_by_test_id("aj-price")).not_to_have_attribute("aria-invalid", "true")
    page.get_by_test_id("aj-field-3").click()
    page.get_by_test_id("aj-placement-go").click()  # price 2 paid, min(2, 2) back
    expect(page.get_by_test_id("aj-placement-result")).to_contain_text("ハチミツ +0")
    expect(page.get_by_test_id("aj-placement-result")).to_contain_text(
        "このタイルの巣箱2と畑2のタイルの巣箱2がつながる"
    )


def test_where_to_place_a_tile_ranks_the_fields_and_numbers_them_on_the_orchard(page, open_game, shots):
    open_game("applejack")
    set_tree(page, 9, {"red": 2}, hives=["e"], price=3)
    page.get_by_test_id("aj-supply").fill("10")
    open_advice(page)
    page.get_by_test_id("aj-taken-apples-red").fill("10")
    page.get_by_test_id("aj-taken-hive-e").uncheck()
    page.get_by_test_id("aj-taken-hive-w").check()
    page.get_by_test_id("aj-taken-price").fill("3")
    page.get_by_test_id("aj-advice-go").click()

    # On field 10 the red area grows to 12 apples (9 honey at die 3, doubled 18) and the west
    # beehive meets field 9's east one (+3, the price paid back): 18 + 10 honey held = 28.
    best = page.get_by_test_id("aj-advice-option-0")
    expect(best).to_contain_text("畑10")
    expect(best).to_contain_text("木の面（巣箱: 左）")
    expect(page.get_by_test_id("aj-advice-final-0")).to_have_text("28")
    expect(page.get_by_test_id("aj-field-10")).to_have_attribute("data-area", "1")
    expect(page.get_by_test_id("aj-advice-result")).to_contain_text("1. 畑10に木の面で置く")
    page.screenshot(path=shots / "applejack-advice.png", full_page=True)


def test_the_final_harvest_adds_up_the_varieties_by_name(page, open_game):
    open_game("applejack")
    set_tree(page, 1, {"red": 5, "seventh": 4})
    set_tree(page, 2, {"red": 2, "yellow": 7})
    set_tree(page, 9, {"light_green": 4})
    page.get_by_test_id("aj-supply").fill("0")
    page.get_by_test_id("aj-final-go").click()
    # die 3: red 5 + 2 = 7 -> 4; the other variety 4 -> 1; yellow 7 -> 4; light green 4 -> 1 (in the order met)
    expect(page.get_by_test_id("aj-final-total")).to_have_text("24")  # 10 doubled, 4 varieties: +4
    steps = page.get_by_test_id("aj-final-steps").locator("li")
    expect(steps.first).to_have_text("最後の収穫（全品種、ダイス3）: 赤4＋その他の品種1＋黄4＋黄緑1＝10")
    expect(steps.nth(1)).to_have_text("収穫を2倍: 10 × 2 = 20")
    expect(page.get_by_test_id("aj-final-variety_bonus")).to_contain_text("赤、その他の品種、黄、黄緑")

    page.get_by_test_id("lang-en").click()
    expect(steps.first).to_have_text(
        "Final harvest (every variety, die 3): red 4 + other variety 1 + yellow 4 + light green 1 = 10"
    )


def test_the_seventh_variety_is_called_the_other_variety_wherever_it_is_named(page, open_game):
    open_game("applejack")
    set_tree(page, 10, {"seventh": 3})
    expect(page.locator("label[for='aj-apples-seventh']")).to_have_text("その他の品種")
    expect(page.get_by_test_id("aj-field-10")).to_have_attribute("aria-label", "畑10: その他の品種3")
    expect(page.get_by_test_id("aj-variety").locator("option[value='seventh']")).to_have_text("その他の品種")
    page.get_by_test_id("aj-variety").select_option("seventh")
    page.get_by_test_id("aj-harvest-go").click()
    expect(page.get_by_test_id("aj-harvest-result")).to_contain_text("その他の品種の収穫（ダイス1）")
    assert "7番目" not in page.get_by_test_id("panel-applejack").inner_text()
    open_advice(page)
    expect(page.locator("label[for='aj-taken-apples-seventh']")).to_have_text("その他の品種")

    page.get_by_test_id("lang-en").click()
    expect(page.get_by_test_id("aj-field-10")).to_have_attribute(
        "aria-label", re.compile(r"^Field 10: other variety 3( · area 1)?$")
    )
    page.get_by_test_id("aj-field-10").click()
    expect(page.locator("label[for='aj-apples-seventh']")).to_have_text("other variety")


def test_beehives_are_hexagons_apples_are_circles(page, open_game):
    open_game("applejack")
    set_tree(page, 9, {"yellow": 2}, hives=["e", "w"], price=3)
    marks = page.locator("#aj-field-9 + g")  # what is drawn on the hex (hidden from screen readers)
    expect(marks).to_have_attribute("aria-hidden", "true")
    expect(marks.locator("circle.apple")).to_have_count(1)
    hives = marks.locator(".hive")
    expect(hives).to_have_count(2)
    assert hives.evaluate_all("els => els.map((el) => [el.tagName, el.getAttribute('points').split(' ').length])") == [
        ["polygon", 6],
        ["polygon", 6],
    ]
    expect(marks.locator("text.hive-n")).to_have_text(["3", "3"])
    # the hive's fill is not the yellow apple's
    fills = marks.evaluate("g => ['.apple', '.hive'].map((mark) => getComputedStyle(g.querySelector(mark)).fill)")
    assert fills == ["rgb(244, 208, 63)", "rgb(232, 163, 23)"], fills
    # named: the hex says which edges carry a beehive and its price; the legend names the mark
    expect(page.get_by_test_id("aj-field-9")).to_have_attribute("aria-label", "畑9: 黄2、巣箱（右・左）価格3")
    legend = page.get_by_test_id("aj-legend")
    expect(legend).to_have_attribute("aria-label", "果樹園の印")
    expect(page.get_by_test_id("aj-legend-hive")).to_have_text("巣箱（数字は価格）")
    assert page.get_by_test_id("aj-legend-hive").locator("polygon.hive").get_attribute("points").count(" ") == 5
