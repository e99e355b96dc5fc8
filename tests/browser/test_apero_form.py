"""Apero in the browser: tap cards, see each colour's expression, the totals and the winner."""

from playwright.sync_api import expect

OFFICIAL_EXAMPLE = [("red", 1), ("green", 2), ("green", 3), ("purple", -1), ("purple", -2), ("purple", -3)]


def enter_hand(page, player, cards, name=None):
    """Player ``player``'s name (when given) and cards, clicked on the form; a player after
    the first is added first."""
    if player:
        page.get_by_test_id("apero-add-player").click()
    if name is not None:
        page.get_by_test_id(f"apero-p{player}-name").fill(name)
    for color, value in cards:
        page.get_by_test_id(f"apero-p{player}-{color}-{value}").click()


def test_official_example_scores_16_by_clicking_cards(page, open_game, shots, fits_phone):
    open_game("apero")
    enter_hand(page, 0, OFFICIAL_EXAMPLE)

    expect(page.get_by_test_id("apero-total-0")).to_have_text("16")
    expect(page.get_by_test_id("apero-color-0-red")).to_contain_text("1")
    expect(page.get_by_test_id("apero-color-0-green")).to_contain_text("2 × 3")
    expect(page.get_by_test_id("apero-color-0-purple")).to_contain_text("(-1 + -2) × -3")
    expect(page.get_by_test_id("apero-color-0-purple")).to_contain_text("9")
    expect(page.get_by_test_id("apero-winner")).to_contain_text("16")
    expect(page.get_by_test_id("apero-p0-purple--2")).to_contain_text("×1")
    fits_phone()
    page.screenshot(path=shots / "apero.png", full_page=True)


def test_tapping_a_hand_card_removes_it_and_players_are_compared(page, open_game):
    open_game("apero")
    page.get_by_test_id("apero-p0-red-3").click()
    page.get_by_test_id("apero-p0-blue-2").click()
    expect(page.get_by_test_id("apero-total-0")).to_have_text("5")
    page.get_by_test_id("apero-p0-hand-1").click()  # the blue 2 (hand is in deck order)
    expect(page.get_by_test_id("apero-total-0")).to_have_text("3")

    page.get_by_test_id("apero-add-player").click()
    page.get_by_test_id("apero-p1-name").fill("Ben")
    page.get_by_test_id("apero-p1-orange-2").click()
    page.get_by_test_id("apero-p1-orange-2").click()
    expect(page.get_by_test_id("apero-total-1")).to_have_text("4")
    expect(page.get_by_test_id("apero-winner")).to_contain_text("Ben")


def test_a_card_beyond_the_sets_is_refused_at_the_card_with_a_set_to_add(page, open_game):
    open_game("apero")
    red_3 = page.get_by_test_id("apero-p0-red-3")
    expect(page.get_by_test_id("apero-p0-red-3-left")).to_have_text("残り1")  # one set holds a single red 3
    expect(page.get_by_test_id("apero-p0-red-2-left")).to_have_text("残り3")
    red_3.click()
    expect(page.get_by_test_id("apero-p0-red-3-left")).to_have_text("残り0")
    expect(red_3).to_have_attribute("aria-disabled", "true")
    red_3.click(force=True)  # aria-disabled: Playwright would wait for it to be enabled; a finger does not

    refused = page.get_by_test_id("apero-p0-refused")
    expect(refused).to_contain_text("赤3はもう残っていません（1セットで1枚）")
    expect(page.get_by_test_id("apero-total-0")).to_have_text("3")  # the second red 3 was not added
    expect(page.get_by_test_id("apero-p0-hand-1")).to_have_count(0)

    page.get_by_test_id("apero-p0-add-set").click()  # 「2セットにして赤3を追加」
    expect(page.get_by_test_id("apero-sets")).to_have_value("2")
    expect(page.get_by_test_id("apero-total-0")).to_have_text("9")  # 3 × 3
    expect(refused).to_have_count(0)
    expect(page.get_by_test_id("apero-p0-red-3-left")).to_have_text("残り0")


def test_a_hand_beyond_the_deck_after_fewer_sets_shows_the_error_next_to_the_cards(page, open_game):
    open_game("apero")
    page.get_by_test_id("apero-sets").select_option("2")
    page.get_by_test_id("apero-p0-red-3").click()
    page.get_by_test_id("apero-p0-red-3").click()
    expect(page.get_by_test_id("apero-total-0")).to_have_text("9")
    page.get_by_test_id("apero-sets").select_option("1")  # now the hand holds more than the deck

    error = page.get_by_test_id("apero-error-0")
    expect(error).to_be_visible()
    expect(error).to_contain_text("赤3")
    expect(page.get_by_test_id("apero-player-0").get_by_test_id("apero-error-0")).to_be_visible()

    page.get_by_test_id("apero-sets").select_option("2")
    expect(page.get_by_test_id("apero-total-0")).to_have_text("9")
    expect(error).to_have_count(0)


def test_two_players_side_by_side_on_a_wide_screen(page, open_game, shots):
    page.set_viewport_size({"width": 1000, "height": 800})
    open_game("apero")
    enter_hand(page, 0, OFFICIAL_EXAMPLE, "Aki")
    ben = [("orange", 1), ("orange", 1), ("blue", 2), ("blue", 3), ("black_green", -3), ("black_green", -2)]
    enter_hand(page, 1, ben, "Ben")

    expect(page.get_by_test_id("apero-total-0")).to_have_text("16")
    expect(page.get_by_test_id("apero-total-1")).to_have_text("14")  # 1 + 1, 2 × 3, -3 × -2
    expect(page.get_by_test_id("apero-winner")).to_contain_text("Aki")
    first = page.get_by_test_id("apero-player-0").bounding_box()
    second = page.get_by_test_id("apero-player-1").bounding_box()
    assert first["y"] == second["y"] and second["x"] > first["x"] + first["width"], "players sit side by side"
    page.screenshot(path=shots / "form.png", full_page=True)


def test_which_card_to_take_ranks_the_table_cards_for_the_chosen_player(page, open_game, shots, fits_phone):
    open_game("apero")
    enter_hand(page, 0, OFFICIAL_EXAMPLE, "Aki")
    enter_hand(page, 1, [("purple", -2)], "Ben")

    page.get_by_test_id("apero-pick-open").click()
    page.get_by_test_id("apero-table-green-1").click()
    page.get_by_test_id("apero-table-purple--3").click()

    # Aki: purple -1 -2 -3 (9) with -3 scores (-1 + -3) × (-2 + -3) = 20 (+11); green 2 3 (6) with 1: 9 (+3)
    expect(page.get_by_test_id("apero-pick-option-0")).to_contain_text("紫-3")
    expect(page.get_by_test_id("apero-pick-gain-0")).to_have_text("+11")
    expect(page.get_by_test_id("apero-pick-option-0")).to_contain_text("Ben +8")  # -2 becomes -2 × -3 = 6
    expect(page.get_by_test_id("apero-pick-option-1")).to_contain_text("緑1")
    expect(page.get_by_test_id("apero-pick-gain-1")).to_have_text("+3")
    best = page.get_by_test_id("apero-totals-best")  # in the bar at the bottom: in view while tapping
    expect(best).to_have_text("Akiのおすすめ: 紫-3（+11点）")
    box = best.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"], box

    page.get_by_test_id("apero-pick-me").select_option("1")  # now Ben chooses
    expect(page.get_by_test_id("apero-pick-gain-0")).to_have_text("+8")
    fits_phone()
    page.screenshot(path=shots / "apero-pick.png", full_page=True)


def test_a_table_card_beyond_the_deck_is_shown_at_the_table(page, open_game):
    open_game("apero")
    page.get_by_test_id("apero-p0-red-3").click()
    page.get_by_test_id("apero-pick-open").click()
    page.get_by_test_id("apero-table-red-3").click(force=True)  # one set holds a single red 3, in the hand
    expect(page.get_by_test_id("apero-table-refused")).to_contain_text("赤3はもう残っていません")
    expect(page.get_by_test_id("apero-table-card-0")).to_have_count(0)

    page.get_by_test_id("apero-sets").select_option("2")
    page.get_by_test_id("apero-table-red-3").click()
    page.get_by_test_id("apero-sets").select_option("1")  # now the deck is short: the service says where
    expect(page.get_by_test_id("apero-table-error")).to_contain_text("赤3")
