"""Pedro in the browser: a running game, hand by hand, with its ledger, warnings and winner."""

from playwright.sync_api import expect


def enter_points(page, team, amount, ns, ew):
    page.get_by_test_id(f"pedro-team-{team}").check()
    page.get_by_test_id("pedro-amount").select_option(str(amount))
    page.get_by_test_id("pedro-points-NS").fill(str(ns))
    page.get_by_test_id("pedro-points-EW").fill(str(ew))
    page.get_by_test_id("pedro-add").click()


def test_three_hands_fill_the_ledger(page, open_game, shots, fits_phone):
    open_game("pedro")
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("0")

    enter_points(page, "NS", 7, 9, 5)  # made: 9 / 5
    expect(page.get_by_test_id("pedro-ledger-row-0")).to_be_visible()
    enter_points(page, "EW", 10, 8, 6)  # EW set: 17 / -5
    expect(page.get_by_test_id("pedro-ledger-row-1")).to_be_visible()

    # Third hand by ticking the point cards: trump hearts, NS took A, Pedro and Low Pedro.
    page.get_by_test_id("pedro-team-NS").check()
    page.get_by_test_id("pedro-amount").select_option("8")
    page.get_by_test_id("pedro-mode-cards").check()
    page.get_by_test_id("pedro-trump").select_option("H")
    for card, team in [("A", "NS"), ("J", "EW"), ("10", "EW"), ("pedro", "NS"), ("low", "NS"), ("two", "EW")]:
        page.get_by_test_id(f"pedro-card-{card}-{team}").check()
    page.get_by_test_id("pedro-add").click()

    ledger = page.get_by_test_id("pedro-ledger")
    expect(ledger.locator("tbody")).to_have_count(3)
    expect(page.get_by_test_id("pedro-ledger-0-NS")).to_contain_text("9")
    expect(page.get_by_test_id("pedro-ledger-1-EW")).to_contain_text("-10")
    expect(page.get_by_test_id("pedro-ledger-1-EW")).to_contain_text("-5")
    expect(page.get_by_test_id("pedro-ledger-2-NS")).to_contain_text("+11")
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("28")
    expect(page.get_by_test_id("pedro-score-EW")).to_have_text("-2")
    expect(page.get_by_test_id("pedro-ledger-row-1")).to_contain_text("失敗")
    fits_phone()
    page.screenshot(path=shots / "pedro.png", full_page=True)

    # The running game survives a reload; undo takes the last hand back.
    page.reload()
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("28")
    page.get_by_test_id("pedro-undo").click()
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("17")


def test_rule_options_bidder_goes_out_warning_and_winner(page, open_game):
    open_game("pedro")
    page.get_by_test_id("pedro-settings").locator("summary").click()
    target = page.get_by_test_id("pedro-rule-target")
    target.fill("20")
    target.press("Enter")
    target.blur()
    expect(page.get_by_test_id("pedro-status")).to_contain_text("20")

    enter_points(page, "NS", 7, 14, 0)
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("14")
    enter_points(page, "EW", 7, 0, 14)
    expect(page.get_by_test_id("pedro-warning")).to_contain_text("ビッダー・ゴーズ・アウト")

    enter_points(page, "EW", 7, 7, 7)
    expect(page.get_by_test_id("pedro-winner")).to_contain_text("EW")
    expect(page.get_by_test_id("pedro-ledger-row-2")).to_contain_text("ビッダー・ゴーズ・アウト")
    expect(page.get_by_test_id("pedro-add")).to_be_disabled()


def test_impossible_points_are_shown_at_the_inputs_and_not_recorded(page, open_game):
    open_game("pedro")
    enter_points(page, "NS", 7, 9, 9)
    expect(page.get_by_test_id("pedro-points-error")).to_contain_text("14")
    expect(page.get_by_test_id("pedro-ledger")).to_have_count(0)

    page.get_by_test_id("pedro-settings").locator("summary").click()
    page.get_by_test_id("pedro-rule-min_bid").fill("9")
    page.get_by_test_id("pedro-rule-min_bid").blur()
    expect(page.get_by_test_id("pedro-rule-dealer_forced_bid-error")).to_be_visible()


def test_california_pedro_settles_sixteen_points_with_a_jack_worth_three(page, open_game):
    """BGA's default schedule: bids 6-16, the jack of trump 3 points, 16 points a hand."""
    open_game("pedro")
    page.get_by_test_id("pedro-settings").locator("summary").click()
    page.get_by_test_id("pedro-rule-schedule").select_option("california_16")
    expect(page.get_by_test_id("pedro-rule-min_bid")).to_have_value("6")
    expect(page.get_by_test_id("pedro-rule-max_bid")).to_have_value("16")
    expect(page.get_by_test_id("pedro-amount").locator("option")).to_have_count(11)  # 6 to 16

    enter_points(page, "NS", 6, 3, 13)  # NS took only the jack: 3 points, set; a split the 14-point rule lacks
    expect(page.get_by_test_id("pedro-ledger-0-NS")).to_contain_text("-6")
    expect(page.get_by_test_id("pedro-ledger-0-EW")).to_contain_text("13")

    page.get_by_test_id("pedro-team-EW").check()
    page.get_by_test_id("pedro-amount").select_option("16")
    page.get_by_test_id("pedro-mode-cards").check()
    page.get_by_test_id("pedro-trump").select_option("S")
    expect(page.get_by_test_id("pedro-card-J")).to_contain_text("3点")
    for card, team in [("A", "EW"), ("J", "EW"), ("10", "EW"), ("pedro", "EW"), ("low", "EW"), ("two", "EW")]:
        page.get_by_test_id(f"pedro-card-{card}-{team}").check()
    page.get_by_test_id("pedro-add").click()

    expect(page.get_by_test_id("pedro-ledger-1-EW")).to_contain_text("+16")
    expect(page.get_by_test_id("pedro-score-EW")).to_have_text("29")
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("-6")
    expect(page.get_by_test_id("pedro-ledger-row-1")).to_contain_text("成功")
    expect(page.get_by_test_id("pedro-explanation")).to_contain_text(
        "得点ルール: カリフォルニア・ピードロ（BGAの標準、16点）"
    )

    # Back to the 14-point rule, the game is checked again: its first hand's bid of 6 is below 7.
    page.get_by_test_id("pedro-rule-schedule").select_option("guide_14")
    expect(page.get_by_test_id("pedro-error")).to_contain_text("ハンド1: 入札値6はこのルールでは宣言できません（7〜14")
    expect(page.get_by_test_id("pedro-rule-min_bid")).to_have_value("7")
