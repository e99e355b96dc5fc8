"""Fairy & Black Box in the browser: moods, eliminations, treasures, 〈きらきら〉 and the ranking."""

from playwright.sync_api import expect


def test_kirakira_breaks_the_tie_and_the_ranking_says_so(page, open_game, shots, fits_phone):
    open_game("fairy-black-box")
    expect(page.get_by_test_id("fairy-black-box-setup")).to_contain_text("3")

    page.get_by_test_id("fairy-black-box-p0-name").fill("Aki")
    page.get_by_test_id("fairy-black-box-p0-mood").fill("2")
    page.get_by_test_id("fairy-black-box-p0-t0-points").fill("3")
    page.get_by_test_id("fairy-black-box-p0-t0-kira").check()
    page.get_by_test_id("fairy-black-box-p0-add-treasure").click()
    page.get_by_test_id("fairy-black-box-p0-t1-points").fill("2")

    page.get_by_test_id("fairy-black-box-p1-name").fill("Ben")
    page.get_by_test_id("fairy-black-box-p1-mood").fill("4")
    page.get_by_test_id("fairy-black-box-p1-t0-points").fill("5")

    page.get_by_test_id("fairy-black-box-p2-name").fill("Chie")
    page.get_by_test_id("fairy-black-box-p2-out").check()
    page.get_by_test_id("fairy-black-box-score").click()

    expect(page.get_by_test_id("fairy-black-box-winner")).to_contain_text("Aki")
    expect(page.get_by_test_id("fairy-black-box-decided")).to_contain_text("〈きらきら〉")
    expect(page.get_by_test_id("fairy-black-box-score-0")).to_have_text("5")
    expect(page.get_by_test_id("fairy-black-box-score-1")).to_have_text("5")
    expect(page.get_by_test_id("fairy-black-box-score-2")).to_have_text("脱落")
    rows = page.get_by_test_id("fairy-black-box-ranking").locator("tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Aki")
    expect(rows.nth(1)).to_contain_text("Ben")
    expect(page.get_by_test_id("fairy-black-box-explanation")).to_contain_text("きらきら")
    fits_phone()
    page.screenshot(path=shots / "fairy-black-box.png", full_page=True)


def test_a_duplicate_name_is_shown_at_that_players_name(page, open_game):
    open_game("fairy-black-box")
    for player in range(3):
        page.get_by_test_id(f"fairy-black-box-p{player}-name").fill("Aki")
        page.get_by_test_id(f"fairy-black-box-p{player}-t0-points").fill("1")
    page.get_by_test_id("fairy-black-box-score").click()
    expect(page.get_by_test_id("fairy-black-box-p1-name-error")).to_be_visible()
    expect(page.get_by_test_id("fairy-black-box-result")).to_have_count(0)


def fill(page, player, name, *points):
    if name:
        page.get_by_test_id(f"fairy-black-box-p{player}-name").fill(name)
    for k, value in enumerate(points):
        if k:
            page.get_by_test_id(f"fairy-black-box-p{player}-add-treasure").click()
        page.get_by_test_id(f"fairy-black-box-p{player}-t{k}-points").fill(str(value))


def test_the_winner_is_announced_by_name_and_points(page, open_game):
    open_game("fairy-black-box")
    fill(page, 0, "アキ", 20, 14)
    fill(page, 1, "ベン", 30)
    fill(page, 2, "チエ", 3)
    page.get_by_test_id("fairy-black-box-score").click()
    winner = page.get_by_test_id("fairy-black-box-winner")
    expect(winner).to_have_text("★ アキさんの勝ち（34点）")

    page.get_by_test_id("fairy-black-box-p1-add-treasure").click()
    page.get_by_test_id("fairy-black-box-p1-t1-points").fill("4")  # ベン 34 too, the same mood: shared
    page.get_by_test_id("fairy-black-box-score").click()
    expect(winner).to_have_text("★ アキさんとベンさんの勝ち（34点）")
    expect(page.get_by_test_id("fairy-black-box-decided")).to_contain_text("勝利を分かち合う")

    page.get_by_test_id("lang-en").click()
    expect(winner).to_have_text("★ アキ and ベン share the win (34 points)")
    page.get_by_test_id("fairy-black-box-p1-t1-points").fill("3")
    page.get_by_test_id("fairy-black-box-score").click()
    expect(winner).to_have_text("★ アキ wins (34 points)")


def test_a_placeholder_name_takes_no_san(page, open_game):
    """Players left unnamed go by 「プレイヤー1」: no さん, in the form's words or the service's."""
    open_game("fairy-black-box")
    fill(page, 0, None, 1)
    fill(page, 1, None, 0)
    fill(page, 2, None, -2)
    page.get_by_test_id("fairy-black-box-score").click()
    expect(page.get_by_test_id("fairy-black-box-winner")).to_have_text("★ プレイヤー1の勝ち（1点）")
    explanations = page.get_by_test_id("fairy-black-box-result").locator(".explanations li")
    expect(explanations.nth(0)).to_have_text("プレイヤー1: タカラモノ（1枚目） 1 = 1点")
    expect(page.get_by_test_id("fairy-black-box-result")).not_to_contain_text("さん")

    page.get_by_test_id("fairy-black-box-p1-mood").fill("0")  # at 0 but not out: the service refuses
    page.get_by_test_id("fairy-black-box-score").click()
    expect(page.get_by_test_id("fairy-black-box-p1-mood-error")).to_contain_text("プレイヤー2はゴキゲンが0ですが")
    expect(page.get_by_test_id("panel-fairy-black-box")).not_to_contain_text("プレイヤー2さん")
    page.get_by_test_id("lang-en").click()
    page.get_by_test_id("fairy-black-box-p1-mood").fill("3")
    page.get_by_test_id("fairy-black-box-score").click()
    expect(page.get_by_test_id("fairy-black-box-winner")).to_have_text("★ Player 1 wins (1 point)")
