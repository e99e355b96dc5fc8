"""Pedro in the browser: a running game, hand by hand, with its ledger, warnings and winner;
the bid in one tap, a blank points box never taken for 0, the ledger newest first."""

import re

from playwright.sync_api import expect


def enter_points(page, team, amount, ns, ew):
    """One hand: the bidding team, the bid's button, both points typed, 「ハンドを記録」."""
    page.get_by_test_id(f"pedro-team-{team}").check()
    page.get_by_test_id(f"pedro-bid-{amount}").check()
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
    page.get_by_test_id("pedro-bid-8").check()
    page.get_by_test_id("pedro-mode-cards").check()
    page.get_by_test_id("pedro-trump").select_option("H")
    for card, team in [("A", "NS"), ("J", "EW"), ("10", "EW"), ("pedro", "NS"), ("low", "NS"), ("two", "EW")]:
        page.get_by_test_id(f"pedro-card-{card}-{team}").check()
    page.get_by_test_id("pedro-add").click()

    ledger = page.get_by_test_id("pedro-ledger")
    expect(ledger.locator("tbody")).to_have_count(3)
    # The newest hand first, each on one line: number, bid, made or set, both teams' change and score.
    order = ledger.locator("tbody").evaluate_all("(rows) => rows.map((row) => row.dataset.testid)")
    assert order == ["pedro-ledger-row-2", "pedro-ledger-row-1", "pedro-ledger-row-0"]
    expect(ledger.locator("tr.line").nth(0)).to_have_text("▸ 3 NS 8 成功 +11 → 28 +3 → -2", use_inner_text=True)
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
    expect(page.get_by_test_id("pedro-ledger-row-2").locator(".badge")).to_have_text("ビッダー・ゴーズ・アウト")
    # The game is done: its entry collapses to a line and the undo button.
    expect(page.get_by_test_id("pedro-add")).to_have_count(0)
    expect(page.get_by_test_id("pedro-game-over")).to_have_text(
        "ゲームは終わりました。新しいゲームを始めるか、最後のハンドを取り消してください。"
    )
    page.get_by_test_id("pedro-undo").click()
    expect(page.get_by_test_id("pedro-add")).to_be_enabled()
    expect(page.get_by_test_id("pedro-winner")).to_have_count(0)


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
    expect(page.get_by_test_id("pedro-amount").locator("label")).to_have_text([str(a) for a in range(6, 17)])

    enter_points(page, "NS", 6, 3, 13)  # NS took only the jack: 3 points, set; a split the 14-point rule lacks
    expect(page.get_by_test_id("pedro-ledger-0-NS")).to_contain_text("-6")
    expect(page.get_by_test_id("pedro-ledger-0-EW")).to_contain_text("13")

    page.get_by_test_id("pedro-team-EW").check()
    page.get_by_test_id("pedro-bid-16").check()
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


def game_calls(page) -> list[dict]:
    """The bodies of every POST /pedro/game the page sends from now on."""
    calls: list[dict] = []
    page.on("request", lambda r: calls.append(r.post_data_json) if "/pedro/game" in r.url else None)
    return calls


def test_one_blank_box_offers_the_remaining_points_and_records_nothing_until_confirmed(page, open_game):
    """The audit: a blank box recorded as 0 turned a 62/63 tie into a win. Now a blank box is
    never 0: the hand's remaining points are offered, and nothing is sent until confirmed."""
    open_game("pedro")
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("0")
    calls = game_calls(page)
    page.get_by_test_id("pedro-team-EW").check()
    page.get_by_test_id("pedro-bid-9").check()
    page.get_by_test_id("pedro-points-EW").fill("9")
    question = page.get_by_test_id("pedro-points-question")
    expect(question).to_have_text("NSは5点ですか？ はい、5点で記録")
    fill = page.get_by_test_id("pedro-points-fill")
    expect(fill).to_have_attribute("data-points", "5")

    page.get_by_test_id("pedro-add").click()  # 記録 with NS blank: asked again, nothing recorded
    expect(question).to_be_focused()
    expect(question).to_have_class(re.compile("field-error"))
    page.get_by_test_id("pedro-points-EW").fill("15")  # more than a hand holds: no offer, what is needed
    expect(question).to_have_text("「EWの点」は0から14までの整数です。「NSの点」も入れてください。")
    expect(fill).to_have_count(0)
    page.get_by_test_id("pedro-points-EW").fill("9")
    assert calls == []
    expect(page.get_by_test_id("pedro-ledger")).to_have_count(0)

    fill.click()  # one tap: NS 5 confirmed and the hand recorded
    expect(page.get_by_test_id("pedro-ledger-0-NS")).to_have_text("+5 → 5")
    expect(page.get_by_test_id("pedro-ledger-0-EW")).to_have_text("+9 → 9")
    assert [hand["points"] for hand in calls[-1]["hands"]] == [{"NS": 5, "EW": 9}]
    expect(page.get_by_test_id("pedro-points-NS")).to_have_value("")  # ready for hand 2, nothing guessed
    expect(page.get_by_test_id("pedro-points-question")).to_have_count(0)

    # Points typed in both boxes are recorded as typed: a hand may leave a point card unplayed.
    enter_points(page, "NS", 7, 8, 5)
    expect(page.get_by_test_id("pedro-ledger-1-NS")).to_have_text("+8 → 13")
    expect(page.get_by_test_id("pedro-ledger-1-EW")).to_have_text("+5 → 14")

    # Both blank: both are asked for, and nothing is sent.
    sent = len(calls)
    page.get_by_test_id("pedro-bid-7").check()
    page.get_by_test_id("pedro-add").click()
    expect(question).to_have_text(
        "「NSの点」と「EWの点」が両方とも空欄です。このハンドで各チームは何点取りましたか？（0点なら0と入れてください）"
    )
    expect(question).to_be_focused()
    assert len(calls) == sent


def test_the_offer_follows_the_schedule_and_the_language(page, open_game):
    """California Pedro's hand holds 16 points; English says 1 point, 13 points."""
    open_game("pedro")
    page.get_by_test_id("pedro-settings").locator("summary").click()
    page.get_by_test_id("pedro-rule-schedule").select_option("california_16")
    expect(page.get_by_test_id("pedro-rule-max_bid")).to_have_value("16")
    page.get_by_test_id("pedro-points-NS").fill("3")
    expect(page.get_by_test_id("pedro-points-question")).to_have_text("EWは13点ですか？ はい、13点で記録")
    page.get_by_test_id("lang-en").click()
    expect(page.get_by_test_id("pedro-points-question")).to_have_text("Did EW take 13 points? Yes, record 13 points")
    page.get_by_test_id("pedro-points-NS").fill("15")
    expect(page.get_by_test_id("pedro-points-question")).to_have_text("Did EW take 1 point? Yes, record 1 point")
    page.get_by_test_id("pedro-points-NS").fill("17")
    expect(page.get_by_test_id("pedro-points-question")).to_have_text(
        '"NS points" takes a whole number from 0 to 16. Enter "EW points" too.'
    )
    page.get_by_test_id("lang-ja").click()


def test_the_bid_is_one_tap_and_never_assumed(page, open_game):
    open_game("pedro")
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("0")
    bids = page.get_by_test_id("pedro-amount")
    expect(bids.locator("label")).to_have_text([str(a) for a in range(7, 15)])  # the rules' 7 to 14
    expect(bids.locator("input:checked")).to_have_count(0)
    calls = game_calls(page)
    page.get_by_test_id("pedro-points-NS").fill("9")
    page.get_by_test_id("pedro-points-EW").fill("5")
    page.get_by_test_id("pedro-add").click()
    ask = page.get_by_test_id("pedro-bid-question")
    expect(ask).to_have_text("入札値を選んでください。")
    expect(ask).to_be_focused()
    assert calls == []
    page.get_by_test_id("pedro-bid-10").click()  # a tap on the button
    expect(page.get_by_test_id("pedro-bid-10")).to_be_checked()
    expect(ask).to_have_count(0)
    page.get_by_test_id("pedro-add").click()
    expect(page.get_by_test_id("pedro-ledger-0-NS")).to_have_text("-10 → -10")
    assert [hand["bid"] for hand in calls[-1]["hands"]] == [{"team": "NS", "amount": 10}]
    expect(bids.locator("input:checked")).to_have_count(0)  # the next hand's bid is chosen afresh


def test_each_line_explains_its_hand_on_a_tap(page, open_game):
    open_game("pedro")
    enter_points(page, "NS", 7, 9, 5)
    enter_points(page, "EW", 8, 4, 10)
    expect(page.get_by_test_id("pedro-ledger-row-1")).to_be_visible()
    first = page.get_by_test_id("pedro-ledger-expl-0")
    expect(first).to_be_hidden()
    expect(page.get_by_test_id("pedro-ledger-expl-1")).to_be_hidden()

    page.get_by_test_id("pedro-ledger-row-0").locator("td.bid-cell").click()  # a tap anywhere on the line
    expect(first).to_be_visible()
    expect(first).to_have_text(
        "NSは7を入札して9点を取ったので成功、9点を加えます。EWは取った5点を加えます。得点: NS 0 → 9、EW 0 → 5。ゲームは続きます。"
    )
    toggle = page.get_by_test_id("pedro-ledger-toggle-0")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(toggle).to_have_accessible_name("ハンド1")  # the row header: the button says it opens (aria-expanded)

    enter_points(page, "NS", 7, 8, 6)  # a new hand: the line opened stays open
    expect(page.get_by_test_id("pedro-ledger-row-2")).to_be_visible()
    expect(first).to_be_visible()
    toggle.focus()
    toggle.press("Enter")  # the disclosure from the keyboard
    expect(first).to_be_hidden()
    expect(toggle).to_have_attribute("aria-expanded", "false")


def test_new_game_beside_the_result_asks_then_keeps_the_rules(page, open_game):
    open_game("pedro")
    page.get_by_test_id("pedro-settings").locator("summary").click()
    target = page.get_by_test_id("pedro-rule-target")
    target.fill("62")
    target.blur()
    expect(page.get_by_test_id("pedro-target")).to_have_text("目標62点")
    expect(page.get_by_test_id("pedro-new-game")).to_have_count(0)  # nothing to clear yet
    enter_points(page, "NS", 7, 9, 5)
    new_game = page.get_by_test_id("pedro-new-game")
    expect(page.get_by_test_id("pedro-status")).to_contain_text("新しいゲーム")

    page.once("dialog", lambda dialog: dialog.dismiss())
    new_game.click()
    expect(page.get_by_test_id("pedro-ledger-row-0")).to_be_visible()
    messages = []
    page.once("dialog", lambda dialog: (messages.append(dialog.message), dialog.accept()))
    new_game.click()
    expect(page.get_by_test_id("pedro-ledger")).to_have_count(0)
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("0")
    assert messages == ["記録したハンドをすべて消して新しいゲームを始めますか？"]
    expect(page.get_by_test_id("pedro-target")).to_have_text("目標62点")
    expect(page.get_by_test_id("pedro-rule-target")).to_have_value("62")
