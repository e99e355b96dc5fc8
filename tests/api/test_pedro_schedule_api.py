"""/api/v1/pedro/* with the rules option ``schedule`` (docs/rules/pedro.md, "Rule options",
Decisions 17 and 18): California Pedro's 16 points, its bids and its dealer, the bounds
said by the schedule, and the refusals that name it, in Japanese and English."""

import pytest

from scoring_api.tools import tool_definitions

A = "/api/v1/pedro"
CALIFORNIA = {"schedule": "california_16"}
CALIFORNIA_RULES = {
    "target": 100,
    "min_bid": 6,
    "max_bid": 16,
    "dealer_forced_bid": 6,
    "two_scored_by": "dealt",
    "bidder_out_margin": 7,
    "tie_rule": "extra_hand",
    "schedule": "california_16",
}
GUIDE_RULES = {key: value for key, value in CALIFORNIA_RULES.items() if key != "schedule"} | {
    "min_bid": 7,
    "max_bid": 14,
    "dealer_forced_bid": 7,
}


def post(client, path, body, lang="ja"):
    response = client.post(f"{A}{path}?lang={lang}", json=body)
    return response.status_code, response.get_json()


def hand_body(amount, ns, ew, rules=None, team="NS"):
    body = {
        "bid": {"team": team, "amount": amount},
        "scores_before": {"NS": 0, "EW": 0},
        "points": {"NS": ns, "EW": ew},
    }
    return {**body, "rules": rules} if rules is not None else body


# -- Answers --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "lang, explanation",
    [
        (
            "ja",
            "得点ルール: カリフォルニア・ピードロ（BGAの標準、16点）。NSは16を入札して16点を取ったので成功、16点を加えます。"
            "EWは取った0点を加えます。得点: NS 0 → 16、EW 0 → 0。ゲームは続きます。",
        ),
        (
            "en",
            "Schedule: California Pedro (BGA's default, 16 points). NS bid 16 and took 16: made, so it adds 16. "
            "EW adds the 0 it took. Scores: NS 0 -> 16, EW 0 -> 0. The game goes on.",
        ),
    ],
)
def test_a_bid_of_sixteen_settles_under_california(client, lang, explanation):
    status, answer = post(client, "/hand", hand_body(16, 16, 0, CALIFORNIA), lang)
    assert status == 200
    assert (answer["bid_made"], answer["scores_after"]) == (True, {"NS": 16, "EW": 0})
    assert answer["rules"] == CALIFORNIA_RULES and list(answer["rules"])[-1] == "schedule"
    assert answer["explanation"] == explanation


def test_the_default_schedule_reads_as_before_even_when_named(client):
    for rules in (None, {"schedule": "guide_14"}):
        status, answer = post(client, "/hand", hand_body(7, 7, 7, rules), "en")
        assert status == 200 and answer["rules"] == GUIDE_RULES
        assert answer["explanation"] == (
            "NS bid 7 and took 7: made, so it adds 7. EW adds the 7 it took. Scores: NS 0 -> 7, EW 0 -> 7. "
            "The game goes on."
        )


def test_a_jack_worth_three_in_a_whole_game(client):
    hands = [
        {
            "bid": {"team": "NS", "amount": 8},
            "trump": "S",
            "captured": {"NS": ["JS", "5S", "AS"], "EW": ["5C", "10S"]},
            "two_dealt_to": "NS",
        },
        {"bid": {"team": "EW", "amount": 16}, "points": {"NS": 0, "EW": 16}},
    ]
    status, answer = post(client, "/game", {"hands": hands, "rules": CALIFORNIA}, "en")
    assert status == 200
    first = answer["hands"][0]
    assert first["points"] == {"NS": 10, "EW": 6}
    assert [(c["card"], c["points"], c["name"]) for c in first["point_cards"]["NS"]] == [
        ("5S", 5, "pedro"),
        ("JS", 3, "jack"),
        ("AS", 1, "ace"),
        ("2S", 1, "two"),
    ]
    assert answer["scores"] == {"NS": 10, "EW": 22} and answer["rules"] == CALIFORNIA_RULES
    assert answer["explanation"] == (
        "Schedule: California Pedro (BGA's default, 16 points). After 2 hands: NS 10, EW 22 (target 100). "
        "The game goes on."
    )
    assert not answer["hands"][1]["explanation"].startswith("Schedule")  # said once, by the game


def test_a_trick_counts_the_jack_as_three(client):
    body = {"trump": "H", "leader": "N", "cards": ["JH", "5D", "AH", "2H"]}
    status, guide = post(client, "/trick", body, "en")
    assert status == 200 and guide["points"] == 8
    status, california = post(client, "/trick", {**body, "rules": CALIFORNIA}, "ja")
    assert status == 200 and california["points"] == 10
    assert california["explanation"].startswith("得点ルール: カリフォルニア・ピードロ（BGAの標準、16点）。切り札 ♥。")
    assert "得点カード: JH 5D AH 2H（10点）。" in california["explanation"]


@pytest.mark.parametrize(
    "lang, explanation",
    [
        (
            "ja",
            "得点ルール: カリフォルニア・ピードロ（BGAの標準、16点）。ディーラーはN。宣言: E パス、S パス、W パス、N 9。"
            "最初の3人がパスしたので、ディーラーのN（NS）は入札しなければならず、9を入札しました。"
            "Nが切り札を決め、最初にリードします。",
        ),
        (
            "en",
            "Schedule: California Pedro (BGA's default, 16 points). Dealer N. Calls: E pass, S pass, W pass, N 9. "
            "The first three passed, so the dealer N (NS) had to bid and bid 9; N names trump and leads first.",
        ),
    ],
)
def test_californias_dealer_bids_at_least_six(client, lang, explanation):
    status, answer = post(
        client, "/auction", {"dealer": "N", "calls": ["pass", "pass", "pass", 9], "rules": CALIFORNIA}, lang
    )
    assert status == 200
    assert (answer["seat"], answer["amount"], answer["forced"]) == ("N", 9, True)
    assert answer["explanation"] == explanation


def test_california_bids_from_six_to_sixteen(client):
    status, answer = post(client, "/auction", {"dealer": "N", "calls": [6, "pass", 16, "pass"], "rules": CALIFORNIA})
    assert status == 200 and (answer["seat"], answer["amount"]) == ("W", 16)


# -- Refusals that name the schedule --------------------------------------------------------


@pytest.mark.parametrize(
    "lang, message",
    [
        (
            "ja",
            "入札値16は14点ルール（ガイドの標準）では宣言できません。1ハンドの得点は最大14点です。"
            "カリフォルニア・ピードロ（BGAの標準、16点）で遊ぶなら、ルール設定の得点ルールで選んでください。",
        ),
        (
            "en",
            "A bid of 16 is impossible under the 14-point schedule (the guide's default): a hand holds at most 14 points. "
            "If the table plays California Pedro (BGA's default, 16 points), choose it as the rules' schedule.",
        ),
    ],
)
def test_a_bid_of_sixteen_under_the_guide_names_both_schedules(client, lang, message):
    status, answer = post(client, "/hand", hand_body(16, 16, 0), lang)
    assert status == 400
    assert answer["error"] == {"code": "bid_above_schedule", "message": message, "details": {"bid.amount": [message]}}
    status, answer = post(client, "/auction", {"dealer": "N", "calls": [7, "pass", 16, "pass"]}, lang)
    assert answer["error"]["details"] == {"calls[2]": [message]}


@pytest.mark.parametrize(
    "lang, ns, ew, rules, message",
    [
        (
            "ja",
            3,
            3,
            None,
            "NS 3点・EW 3点という分け方は14点ルール（ガイドの標準）ではありえません（得点カードは1、1、1、1、5、5点の6枚）。"
            "カリフォルニア・ピードロ（BGAの標準、16点）ならありえる分け方です。その遊び方なら、ルール設定の得点ルールで選んでください。",
        ),
        (
            "en",
            3,
            3,
            None,
            "NS 3 and EW 3 is not a possible split under the 14-point schedule (the guide's default), whose six point cards are "
            "worth 1, 1, 1, 1, 5, 5; it is one under California Pedro (BGA's default, 16 points). If the table plays "
            "that, choose it as the rules' schedule.",
        ),
        (
            "ja",
            2,
            2,
            CALIFORNIA,
            "NS 2点・EW 2点という分け方はカリフォルニア・ピードロ（BGAの標準、16点）ではありえません（得点カードは1、1、1、3、5、5点の6枚）。"
            "14点ルール（ガイドの標準）ならありえる分け方です。その遊び方なら、ルール設定の得点ルールで選んでください。",
        ),
        (
            "en",
            2,
            2,
            CALIFORNIA,
            "NS 2 and EW 2 is not a possible split under California Pedro (BGA's default, 16 points), whose six point "
            "cards are worth 1, 1, 1, 3, 5, 5; it is one under the 14-point schedule (the guide's default). If the table plays "
            "that, choose it as the rules' schedule.",
        ),
    ],
)
def test_a_split_of_the_other_schedule_is_refused_naming_both(client, lang, ns, ew, rules, message):
    status, answer = post(client, "/hand", hand_body(7, ns, ew, rules), lang)
    assert status == 400
    assert answer["error"] == {"code": "points_of_other_schedule", "message": message, "details": {"points": [message]}}


@pytest.mark.parametrize(
    "lang, message",
    [
        (
            "ja",
            "入札の最高値16は、14点ルール（ガイドの標準）の1ハンドの得点（最大14点）を超えています。"
            "カリフォルニア・ピードロ（BGAの標準、16点）で遊ぶなら、ルール設定の得点ルールで選んでください。",
        ),
        (
            "en",
            "The highest bid 16 is above the 14 points a hand holds under the 14-point schedule (the guide's default). If the table plays "
            "California Pedro (BGA's default, 16 points), choose it as the rules' schedule.",
        ),
    ],
)
def test_a_maximum_bid_above_the_schedule_is_refused_naming_it(client, lang, message):
    for path, body in (
        ("/hand", hand_body(7, 7, 7, {"max_bid": 16})),
        ("/trick", {"trump": "H", "leader": "N", "cards": ["AH", "KH", "QH", "JH"], "rules": {"max_bid": 16}}),
    ):
        status, answer = post(client, path, body, lang)
        assert status == 400
        assert answer["error"] == {
            "code": "option_above_schedule",
            "message": message,
            "details": {"rules.max_bid": [message]},
        }
    status, answer = post(client, "/hand", hand_body(7, 9, 7, {"max_bid": 16, **CALIFORNIA}), lang)
    assert status == 200 and answer["rules"]["max_bid"] == 16


@pytest.mark.parametrize(
    "lang, message",
    [
        (
            "ja",
            "最初の3人がパスしたので、ディーラーのNは6以上16以下で入札しなければなりません（入力された宣言: pass）。",
        ),
        ("en", "The first three passed, so the dealer N must bid at least 6, at most 16 (call given: pass)."),
    ],
)
def test_californias_dealer_may_not_pass_after_three_passes(client, lang, message):
    status, answer = post(client, "/auction", {"dealer": "N", "calls": ["pass"] * 4, "rules": CALIFORNIA}, lang)
    assert status == 400
    assert answer["error"] == {"code": "dealer_forced_at_least", "message": message, "details": {"calls[3]": [message]}}


# -- Bounds said by the schedule ------------------------------------------------------------


@pytest.mark.parametrize(
    "rules, lang, expected",
    [
        (None, "ja", "1以上14以下にしてください。"),
        (None, "en", "Must be from 1 to 14."),
        (CALIFORNIA, "ja", "1以上16以下にしてください。"),
        (CALIFORNIA, "en", "Must be from 1 to 16."),
    ],
)
def test_a_bid_beyond_every_schedule_is_refused_with_the_tables_bound(client, rules, lang, expected):
    status, answer = post(client, "/hand", hand_body(17, 7, 7, rules), lang)
    assert status == 400 and answer["error"]["details"] == {"bid.amount": [expected]}
    body = {"dealer": "N", "calls": [7, 17, "pass", "pass"], **({"rules": rules} if rules else {})}
    status, answer = post(client, "/auction", body, lang)
    assert status == 400 and answer["error"]["details"] == {"calls[1]": [expected]}
    status, answer = post(client, "/game", {"hands": [], "rules": {**(rules or {}), "min_bid": 0}}, lang)
    assert status == 400 and answer["error"]["details"] == {"rules.min_bid": [expected]}


@pytest.mark.parametrize(
    "rules, expected",
    [(None, "Enter a whole number from 0 to 14."), (CALIFORNIA, "Enter a whole number from 0 to 16.")],
)
def test_blank_points_say_the_tables_range(client, rules, expected):
    body = hand_body(7, None, 7, rules)
    status, answer = post(client, "/hand", body, "en")
    assert status == 400 and answer["error"]["details"] == {"points.NS": [expected]}


@pytest.mark.parametrize(
    "lang, expected",
    [("ja", "次のどれかにしてください: guide_14, california_16"), ("en", "Use one of these: guide_14, california_16.")],
)
def test_an_unknown_schedule_lists_the_schedules(client, lang, expected):
    status, answer = post(client, "/hand", hand_body(7, 7, 7, {"schedule": "california"}), lang)
    assert status == 400 and answer["error"]["details"] == {"rules.schedule": [expected]}


def test_the_tools_offer_the_schedule(client):
    for tool in tool_definitions():
        if tool["function"]["name"].startswith("pedro_"):
            schedule = tool["function"]["parameters"]["properties"]["rules"]["properties"]["schedule"]
            assert schedule["enum"] == ["guide_14", "california_16", None]
    body = {**hand_body(16, 0, 16, CALIFORNIA, team="EW")}
    response = client.post("/api/v1/tools/pedro_hand?lang=en", json=body)
    assert response.status_code == 200 and response.get_json()["scores_after"] == {"NS": 0, "EW": 16}
