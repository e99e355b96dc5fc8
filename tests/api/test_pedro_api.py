"""/api/v1/pedro/*: the contract of docs/api.md, explanations and refusals."""

import pytest

from scoring_api.i18n import LANGS, join_list, sentences, t

A = "/api/v1/pedro"


def post(client, path, body, lang=None):
    response = client.post(A + path + (f"?lang={lang}" if lang else ""), json=body)
    return response.status_code, response.get_json()


DEFAULT_RULES = {
    "target": 100,
    "min_bid": 7,
    "max_bid": 14,
    "dealer_forced_bid": 7,
    "two_scored_by": "dealt",
    "bidder_out_margin": 7,
    "tie_rule": "extra_hand",
}


# -- /auction -----------------------------------------------------------------------------


def test_auction(client):
    status, body = post(client, "/auction", {"dealer": "W", "calls": [7, "pass", 9, "pass"]})
    assert status == 200
    assert {k: body[k] for k in ("seat", "team", "amount", "forced")} == {
        "seat": "S",
        "team": "NS",
        "amount": 9,
        "forced": False,
    }
    assert body["rules"] == DEFAULT_RULES
    assert body["explanation"] == (
        "ディーラーはW。宣言: N 7、E パス、S 9、W パス。最高入札はS（NS）の9。Sが切り札を決め、最初にリードします。"
    )


def test_auction_forced_dealer_in_english(client):
    status, body = post(client, "/auction", {"dealer": "N", "calls": ["pass", "pass", "PASS", 7]}, "en")
    assert status == 200 and (body["seat"], body["forced"]) == ("N", True)
    assert body["explanation"].endswith("the dealer N (NS) must bid 7; N names trump and leads first.")


@pytest.mark.parametrize("calls", [[], [7], [7, "pass", "pass"], [7, "pass", "pass", "pass", "pass"], ["pass"] * 40])
@pytest.mark.parametrize(
    "lang, message",
    [
        ("ja", "宣言（入札かパス）は、ディーラーの左隣から1周、4人分を入力してください（入力された数: {}）。"),
        ("en", "Enter one round of four calls (a bid or a pass each), starting at the dealer's left ({} given)."),
    ],
)
def test_the_auction_is_exactly_four_calls(client, calls, lang, message):
    status, answer = post(client, "/auction", {"dealer": "W", "calls": calls}, lang)
    assert status == 400
    expected = message.format(len(calls))
    assert answer["error"] == {"code": "call_count", "message": expected, "details": {"calls": [expected]}}


@pytest.mark.parametrize(
    "body, code, path",
    [
        ({"dealer": "W", "calls": [8, 7, "pass", "pass"]}, "bid_too_low", "calls[1]"),
        ({"dealer": "W", "calls": ["pass", "pass", "pass", "pass"]}, "dealer_forced", "calls[3]"),
        ({"dealer": "W", "calls": [7, "pass", "pass"]}, "call_count", "calls"),
        ({"dealer": "W", "calls": [6, "pass", "pass", "pass"]}, "bid_out_of_range", "calls[0]"),
        (
            {"dealer": "W", "calls": [7, "pass", "pass", "pass"], "rules": {"min_bid": 9, "max_bid": 8}},
            "min_above_max",
            "rules.min_bid",
        ),
        ({"dealer": "X", "calls": [7, "pass", "pass", "pass"]}, "invalid_input", "dealer"),
        ({"dealer": "W", "calls": [7, "fold", "pass", "pass"]}, "invalid_input", "calls[1]"),
        ({"dealer": "W", "calls": [7, 99, "pass", "pass"]}, "invalid_input", "calls[1]"),
        (
            {"dealer": "W", "calls": [7, "pass", "pass", "pass"], "rules": {"tie_rule": "coin"}},
            "invalid_input",
            "rules.tie_rule",
        ),
    ],
)
def test_auction_refusals_say_where_and_why(client, body, code, path):
    status, answer = post(client, "/auction", body)
    assert status == 400
    assert answer["error"]["code"] == code
    assert path in answer["error"]["details"], answer


# -- /trick -------------------------------------------------------------------------------


def test_trick(client):
    status, body = post(client, "/trick", {"trump": "H", "leader": "N", "cards": ["10H", "5♦", "AS", "2h"]})
    assert status == 200
    assert (body["winner"], body["team"], body["point_cards"], body["points"]) == ("N", "NS", ["10H", "5D", "2H"], 7)
    assert body["plays"] == [
        {"seat": "N", "card": "10H"},
        {"seat": "E", "card": "5D"},
        {"seat": "S", "card": "AS"},
        {"seat": "W", "card": "2H"},
    ]
    assert "配られた" in body["explanation"]  # the 2's point goes to the team dealt it


def test_trick_with_hands_checks_the_follow_rule(client):
    hands = {"N": ["9C"], "E": ["2C", "KD"], "S": ["QS"], "W": ["7S"]}
    status, body = post(
        client, "/trick", {"trump": "♥", "leader": "N", "cards": ["9C", "KD", "QS", "7S"], "hands": hands}, "en"
    )
    assert status == 400 and body["error"]["code"] == "must_follow"
    assert body["error"]["details"] == {
        "cards[1]": [
            "E may not play KD: 9C was led (trump H), and a player holding a card of the led suit "
            "or a trump (the Low Pedro included) must play one of them (playable: 2C)."
        ]
    }


@pytest.mark.parametrize(
    "lang, message",
    [
        (
            "ja",
            "Eは3Cを出せません。リードはKD（切り札はH）なので、リードと同じスートか切り札"
            "（ロー・ペドロを含む）を持っていれば、そのどちらかを出す必要があります（出せるカード: AH）。",
        ),
        (
            "en",
            "E may not play 3C: KD was led (trump H), and a player holding a card of the led suit "
            "or a trump (the Low Pedro included) must play one of them (playable: AH).",
        ),
    ],
)
def test_a_player_void_in_the_led_suit_who_holds_a_trump_must_trump(client, lang, message):
    hands = {"N": ["KD"], "E": ["AH", "3C"], "S": ["2D"], "W": ["4D"]}
    status, body = post(
        client, "/trick", {"trump": "H", "leader": "N", "cards": ["KD", "3C", "2D", "4D"], "hands": hands}, lang
    )
    assert status == 400 and body["error"]["code"] == "must_follow"
    assert body["error"] == {"code": "must_follow", "message": message, "details": {"cards[1]": [message]}}
    status, body = post(
        client, "/trick", {"trump": "H", "leader": "N", "cards": ["KD", "AH", "2D", "4D"], "hands": hands}, lang
    )
    assert (status, body["winner"], body["trumped"]) == (200, "E", True)


def test_the_low_pedro_is_a_trump_a_void_player_must_play(client):
    hands = {"N": ["KS"], "E": ["5D", "3C"], "S": ["2S"], "W": ["4S"]}
    status, body = post(
        client, "/trick", {"trump": "H", "leader": "N", "cards": ["KS", "3C", "2S", "4S"], "hands": hands}, "en"
    )
    assert status == 400 and body["error"]["code"] == "must_follow"
    assert body["error"]["details"]["cards[1]"][0].endswith("must play one of them (playable: 5D).")
    status, body = post(
        client, "/trick", {"trump": "H", "leader": "N", "cards": ["KS", "5D", "2S", "4S"], "hands": hands}, "en"
    )
    assert (status, body["winner"], body["point_cards"], body["points"]) == (200, "E", ["5D"], 5)


@pytest.mark.parametrize(
    "cards, code, path",
    [(["10H", "1H", "AS", "2H"], "bad_card", "cards[1]"), (["10H", "10H", "AS", "2H"], "duplicate_card", "cards[1]")],
)
def test_trick_bad_cards_are_named(client, cards, code, path):
    status, body = post(client, "/trick", {"trump": "H", "leader": "N", "cards": cards}, "en")
    assert status == 400 and body["error"]["code"] == code and path in body["error"]["details"]
    if code == "bad_card":
        assert '"1H" is not a card' in body["error"]["message"]


@pytest.mark.parametrize("text", [" AH", "AH\n", "AH ", "\nAH", "A H", "ＡH", "A♥\ufe0f"])
def test_a_card_with_anything_around_it_is_refused_naming_the_field(client, text):
    body = {"trump": "H", "leader": "N", "cards": [text, "KH", "QH", "JH"]}
    status, answer = post(client, "/trick", body, "en")
    assert status == 400 and answer["error"]["code"] == "bad_card"
    assert answer["error"]["details"] == {"cards[0]": [answer["error"]["message"]]}
    assert answer["error"]["message"].startswith(f'"{text}" is not a card')
    body = {"trump": "H", "leader": "N", "cards": ["AS", "KH", "QH", "JH"], "hands": {"N": ["AS"], "E": ["2C", text]}}
    status, answer = post(client, "/trick", body)
    assert (status, answer["error"]["code"], list(answer["error"]["details"])) == (400, "bad_card", ["hands.E[1]"])
    assert answer["error"]["message"].startswith(f"「{text}」はカードとして読めません。")
    body = {
        "bid": {"team": "NS", "amount": 7},
        "scores_before": {"NS": 0, "EW": 0},
        "trump": "H",
        "captured": {"NS": ["AH"], "EW": ["KH", "QH", text]},
    }
    status, answer = post(client, "/hand", body)
    assert (status, answer["error"]["code"], list(answer["error"]["details"])) == (400, "bad_card", ["captured.EW[2]"])


def test_every_documented_card_spelling_is_accepted(client):
    ranks = ["A", "a", "K", "k", "Q", "q", "J", "j", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    suits = {"H": "Hh♥♡", "D": "Dd♦♢", "C": "Cc♣♧", "S": "Ss♠♤"}
    spellings = [
        (rank + text, rank.upper() + suit) for rank in ranks for suit, texts in suits.items() for text in texts
    ]
    assert len(spellings) == 272
    rules = {"two_scored_by": "captured"}
    for text, card in spellings:
        body = {
            "bid": {"team": "NS", "amount": 7},
            "scores_before": {"NS": 0, "EW": 0},
            "trump": "H",
            "captured": {"NS": [text], "EW": []},
            "rules": rules,
        }
        status, answer = post(client, "/hand", body)
        assert status == 200, (text, answer)
        points = {"AH": 1, "JH": 1, "10H": 1, "5H": 5, "5D": 5, "2H": 1}.get(card, 0)
        assert answer["points"] == {"NS": points, "EW": 0}, text


# -- trump spellings (a pattern, not an enum) ---------------------------------------------


@pytest.mark.parametrize("trump", list("HDCShdcs♥♡♦♢♣♧♠♤"))
def test_every_trump_spelling_is_accepted(client, trump):
    status, body = post(client, "/trick", {"trump": trump, "leader": "N", "cards": ["9C", "AD", "KC", "QC"]})
    assert status == 200, body


@pytest.mark.parametrize("trump", ["", " H", "H ", "H\n", "HH", "hearts", "♥\ufe0f", "Ｈ", "X", "1"])
@pytest.mark.parametrize(
    "lang, message",
    [
        ("en", "Use one of these: H, D, C, S, h, d, c, s, ♥, ♡, ♦, ♢, ♣, ♧, ♠, ♤."),
        ("ja", "次のどれかにしてください: H, D, C, S, h, d, c, s, ♥, ♡, ♦, ♢, ♣, ♧, ♠, ♤"),
    ],
)
def test_a_bad_trump_is_refused_in_the_players_language(client, trump, lang, message):
    status, body = post(client, "/trick", {"trump": trump, "leader": "N", "cards": ["9C", "AD", "KC", "QC"]}, lang)
    assert status == 400 and body["error"]["code"] == "invalid_input"
    assert body["error"]["details"] == {"trump": [message]}
    hand = {
        "bid": {"team": "NS", "amount": 7},
        "scores_before": {"NS": 0, "EW": 0},
        "trump": trump,
        "captured": {"NS": []},
    }
    status, body = post(client, "/hand", hand, lang)
    assert status == 400 and body["error"]["details"] == {"trump": [message]}


@pytest.mark.parametrize(
    "lang, message",
    [
        ("en", "Choose one of: H, D, C, S, h, d, c, s, ♥, ♡, ♦, ♢, ♣, ♧, ♠, ♤."),
        ("ja", "次のどれかを選んでください: H, D, C, S, h, d, c, s, ♥, ♡, ♦, ♢, ♣, ♧, ♠, ♤"),
    ],
)
def test_a_missing_trump_says_which_to_choose(client, lang, message):
    status, body = post(client, "/trick", {"trump": None, "leader": "N", "cards": ["9C", "AD", "KC", "QC"]}, lang)
    assert status == 400 and body["error"]["details"] == {"trump": [message]}


def test_a_bad_card_says_exactly_how_to_write_one(client):
    _, body = post(client, "/trick", {"trump": "H", "leader": "N", "cards": ["AH\n", "KH", "QH", "JH"]}, "en")
    assert body["error"]["message"] == (
        '"AH\n" is not a card: write a rank (A K Q J 10 9-2, letters in either case) then a suit '
        "(H D C S in either case, or ♥♡ ♦♢ ♣♧ ♠♤), with no spaces, e.g. 10H, 5♦, as."
    )
    _status, body = post(client, "/trick", {"trump": "H", "leader": "N", "cards": [" AH", "KH", "QH", "JH"]})
    assert body["error"]["message"] == (
        "「 AH」はカードとして読めません。ランク（A K Q J 10 9〜2、英字は大文字・小文字どちらでも）に続けて"
        "スート（H D C S、大文字・小文字どちらでも、または ♥♡ ♦♢ ♣♧ ♠♤）を、空白を入れずに書いてください（例: 10H、5♦、as）。"
    )


def test_the_spec_describes_spellings_with_patterns_and_the_calls_as_four(client):
    import yaml

    from scoring_api.games.pedro.cards import CARD_PATTERN, SUIT_PATTERN

    spec = yaml.safe_load(client.get("/openapi.yaml").data)
    schemas = spec["components"]["schemas"]
    for name in ("TrickRequest", "HandRequest", "HandInput"):
        trump = schemas[name]["properties"]["trump"]
        assert trump["type"] == "string" and trump["pattern"] == SUIT_PATTERN == "^[HDCShdcs♥♡♦♢♣♧♠♤]$"
        assert "enum" not in trump
    assert schemas["TrickRequest"]["properties"]["cards"]["items"]["pattern"] == CARD_PATTERN

    def enums(node):
        if isinstance(node, dict):
            if "enum" in node:
                yield node["enum"]
            for value in node.values():
                yield from enums(value)
        elif isinstance(node, list):
            for value in node:
                yield from enums(value)

    for values in enums(spec):  # client generators name enum members by their text, case folded
        texts = [str(value).casefold() for value in values]
        assert len(texts) == len(set(texts)), values
    calls = schemas["AuctionRequest"]["properties"]["calls"]
    assert (calls["minItems"], calls["maxItems"]) == (4, 4)


# -- /hand --------------------------------------------------------------------------------


def test_hand_from_points(client):
    status, body = post(
        client,
        "/hand",
        {
            "bid": {"team": "NS", "amount": 9},
            "scores_before": {"NS": 0, "EW": 0},
            "points": {"NS": 9, "EW": 5},
        },
    )
    assert status == 200
    assert (body["bid_made"], body["deltas"], body["scores_after"]) == (True, {"NS": 9, "EW": 5}, {"NS": 9, "EW": 5})
    assert (body["game_over"], body["winner"], body["bidder_goes_out"], body["point_cards"]) == (
        False,
        None,
        False,
        None,
    )
    assert body["explanation"] == (
        "NSは9を入札して9点を取ったので成功、9点を加えます。EWは取った5点を加えます。"
        "得点: NS 0 → 9、EW 0 → 5。ゲームは続きます。"
    )


def test_hand_from_captured_cards(client):
    status, body = post(
        client,
        "/hand",
        {
            "bid": {"team": "NS", "amount": 12},
            "scores_before": {"NS": 8, "EW": 30},
            "trump": "S",
            "captured": {"NS": ["AS", "JS", "3C"], "EW": ["5S", "5C", "2S", "10S"]},
            "two_dealt_to": "NS",
        },
        "en",
    )
    assert status == 200
    assert body["points"] == {"NS": 3, "EW": 11}
    assert [p["card"] for p in body["point_cards"]["NS"]] == ["AS", "JS", "2S"]
    assert body["point_cards"]["NS"][2] == {"card": "2S", "points": 1, "name": "two", "reason": "dealt"}
    assert body["scores_after"] == {"NS": -4, "EW": 41}
    assert body["explanation"].startswith("NS bid 12 but took only 3: set, so it loses 12.")


def test_hand_bidder_goes_out_wins(client):
    status, body = post(
        client,
        "/hand",
        {
            "bid": {"team": "EW", "amount": 7},
            "scores_before": {"NS": 98, "EW": 96},
            "points": {"NS": 7, "EW": 7},
        },
        "en",
    )
    assert status == 200
    assert (body["bidder_goes_out"], body["winner"], body["decided_by"], body["game_over"]) == (
        True,
        "EW",
        "bidder_goes_out",
        True,
    )
    assert "EW made its bid, so it goes out and wins at once." in body["explanation"]


@pytest.mark.parametrize(
    "lang, outcome",
    [
        (
            "ja",
            "両チームが目標に到達した後の追加ハンドで、入札チームが入札に失敗したので、相手チームのNSの勝利です。",
        ),
        (
            "en",
            "In the extra hand after both teams reached the target, the bidding team was set, so the other team, NS, wins.",
        ),
    ],
)
def test_the_extra_hand_decides_a_set_bidder_loses(client, lang, outcome):
    status, body = post(
        client,
        "/hand",
        {
            "bid": {"team": "EW", "amount": 8},
            "scores_before": {"NS": 100, "EW": 110},
            "points": {"NS": 7, "EW": 7},
        },
        lang,
    )
    assert status == 200
    assert body["scores_after"] == {"NS": 107, "EW": 102} and body["bid_made"] is False
    assert (body["game_over"], body["winner"], body["decided_by"], body["next_hand"]) == (
        True,
        "NS",
        "extra_hand",
        None,
    )
    assert body["explanation"].endswith(outcome)
    assert ("ビッダー・ゴーズ・アウトでした" not in body["explanation"]) and ("within" not in body["explanation"])


def test_the_extra_hand_decides_a_bidder_that_makes_it_wins(client):
    status, body = post(
        client,
        "/hand",
        {
            "bid": {"team": "NS", "amount": 7},
            "scores_before": {"NS": 104, "EW": 100},
            "points": {"NS": 7, "EW": 7},
        },
    )
    assert status == 200
    assert (body["scores_after"], body["winner"], body["decided_by"], body["next_hand"]) == (
        {"NS": 111, "EW": 107},
        "NS",
        "extra_hand",
        None,
    )
    assert body["explanation"] == (
        "NSは7を入札して7点を取ったので成功、7点を加えます。EWは取った7点を加えます。"
        "得点: NS 104 → 111、EW 100 → 107。"
        "両チームが目標に到達した後の追加ハンドで、入札チームのNSが入札を達成したのでNSの勝利です。"
    )


def test_hand_under_other_table_rules_echoes_them(client):
    rules = {"target": 50, "two_scored_by": "played", "tie_rule": "higher_score"}
    status, body = post(
        client,
        "/hand",
        {
            "bid": {"team": "NS", "amount": 7},
            "scores_before": {"NS": 44, "EW": 40},
            "trump": "H",
            "captured": {"NS": ["AH", "5H", "2H"], "EW": []},
            "two_played_by": "EW",
            "rules": rules,
        },
    )
    assert status == 200
    assert body["points"] == {"NS": 6, "EW": 1}
    assert body["rules"] == {**DEFAULT_RULES, **rules}
    assert body["scores_after"] == {"NS": 44 - 7, "EW": 41}


@pytest.mark.parametrize(
    "extra, code, path",
    [
        ({"points": {"NS": 10, "EW": 7}}, "too_many_points", "points"),
        ({"points": {"NS": 9, "EW": 6}}, "points_of_other_schedule", "points"),
        ({}, "points_or_captured", "points"),
        ({"points": {"NS": 7, "EW": 7}, "trump": "H", "captured": {"NS": []}}, "points_or_captured", "points"),
        ({"trump": "H", "captured": {"NS": ["AH"], "EW": ["AH"]}}, "captured_twice", "captured.EW[0]"),
        ({"trump": "H", "captured": {"NS": ["2H"]}}, "two_owner_missing", "two_dealt_to"),
        ({"trump": "H", "captured": {"NS": ["AH"]}, "two_played_by": "NS"}, "two_field_for_rule", "two_played_by"),
        ({"trump": "H", "captured": {"NS": ["ZH"]}}, "bad_card", "captured.NS[0]"),
        ({"points": {"NS": 7, "EW": -1}}, "invalid_input", "points.EW"),
    ],
)
def test_hand_refusals(client, extra, code, path):
    body = {"bid": {"team": "NS", "amount": 7}, "scores_before": {"NS": 0, "EW": 0}, **extra}
    status, answer = post(client, "/hand", body)
    assert status == 400 and answer["error"]["code"] == code
    assert path in answer["error"]["details"], answer


@pytest.mark.parametrize(
    "lang, message",
    [
        (
            "ja",
            "NS 4点・EW 9点という分け方はありえません。得点カードは1、1、1、1、5、5点の6枚なので、"
            "NSが4点のとき、EWは0、5、10点のどれかです。",
        ),
        (
            "en",
            "NS 4 and EW 9 is not a possible split: the six point cards are worth 1, 1, 1, 1, 5, 5, "
            "so with NS at 4, EW can only have one of 0, 5, 10.",
        ),
    ],
)
def test_impossible_point_splits_are_refused_with_the_possible_totals(client, lang, message):
    body = {"bid": {"team": "NS", "amount": 7}, "scores_before": {"NS": 0, "EW": 0}, "points": {"NS": 4, "EW": 9}}
    status, answer = post(client, "/hand", body, lang)
    assert status == 400
    assert answer["error"] == {"code": "impossible_points", "message": message, "details": {"points": [message]}}
    hands = [hand("NS", 7, 7, 7), hand("EW", 7, 4, 9)]
    status, answer = post(client, "/game", {"hands": hands}, lang)
    assert status == 400 and answer["error"]["code"] == "impossible_points"
    assert answer["error"]["details"] == {"hands[1].points": [message]}
    status, answer = post(client, "/hand", {**body, "points": {"NS": 8, "EW": 4}}, "en")
    assert answer["error"]["message"].endswith("with NS at 8, EW can only have one of 0, 1, 5, 6.")
    status, answer = post(client, "/hand", {**body, "points": {"NS": 4, "EW": 10}})
    assert status == 200 and answer["scores_after"] == {"NS": -7, "EW": 10}


def test_hand_unknown_team_and_finished_game(client):
    status, answer = post(
        client,
        "/hand",
        {"bid": {"team": "NE", "amount": 7}, "scores_before": {"NS": 0, "EW": 0}, "points": {"NS": 7, "EW": 7}},
    )
    assert status == 400 and "bid.team" in answer["error"]["details"]
    status, answer = post(
        client,
        "/hand",
        {"bid": {"team": "NS", "amount": 7}, "scores_before": {"NS": 100, "EW": 0}, "points": {"NS": 7, "EW": 7}},
    )
    assert status == 400 and answer["error"]["code"] == "game_already_over"
    status, answer = post(
        client,
        "/hand",
        {"bid": {"team": "NS", "amount": 5}, "scores_before": {"NS": 0, "EW": 0}, "points": {"NS": 7, "EW": 7}},
    )
    assert status == 400 and answer["error"]["code"] == "bid_outside_rules"


# -- /game --------------------------------------------------------------------------------


def hand(team, amount, ns, ew):
    return {"bid": {"team": team, "amount": amount}, "points": {"NS": ns, "EW": ew}}


def test_game_ledger_and_next_hand(client):
    hands = [hand("NS", 7, 14, 0), hand("EW", 8, 2, 12), hand("NS", 10, 4, 10)]
    status, body = post(client, "/game", {"hands": hands}, "en")
    assert status == 200
    assert [h["scores_after"] for h in body["hands"]] == [
        {"NS": 14, "EW": 0},
        {"NS": 16, "EW": 12},
        {"NS": 6, "EW": 22},
    ]
    assert [h["bid_made"] for h in body["hands"]] == [True, True, False]
    assert (body["scores"], body["winner"], body["next_hand"]) == ({"NS": 6, "EW": 22}, None, "normal")
    assert body["explanation"] == "After 3 hands: NS 6, EW 22 (target 100). The game goes on."


def test_game_reaching_bidder_goes_out_then_won(client):
    rules = {"target": 50}
    hands = [
        hand("NS", 7, 14, 0),
        hand("EW", 7, 1, 13),
        hand("NS", 8, 13, 1),
        hand("EW", 7, 2, 12),
        hand("NS", 7, 10, 4),
        hand("EW", 7, 4, 10),
        hand("EW", 7, 1, 7),
    ]
    status, body = post(client, "/game", {"rules": rules, "hands": hands})
    assert status == 200
    assert [h["scores_after"]["NS"] for h in body["hands"]] == [14, 15, 28, 30, 40, 44, 45]
    assert body["scores"] == {"NS": 45, "EW": 47}
    assert body["next_hand"] == "bidder_goes_out" and body["winner"] is None
    status, body = post(client, "/game", {"rules": rules, "hands": [*hands, hand("EW", 7, 7, 7)]}, "en")
    assert (body["winner"], body["next_hand"], body["hands"][-1]["decided_by"]) == ("EW", None, "bidder_goes_out")
    status, answer = post(
        client, "/game", {"rules": rules, "hands": [*hands, hand("EW", 7, 7, 7), hand("NS", 7, 7, 7)]}, "en"
    )
    assert status == 400 and answer["error"]["code"] == "hand_after_game_over"
    assert answer["error"]["details"] == {
        "hands[8]": ["The game ended after hand 8 with EW winning, so hand 9 cannot follow."]
    }


def test_game_both_teams_past_the_target_then_the_extra_hand_decides(client):
    hands = [hand("NS", 7, 14, 0)] * 6 + [hand("EW", 7, 0, 14)] * 6  # 84 / 84
    hands += [hand("NS", 7, 11, 3), hand("NS", 7, 0, 5), hand("NS", 7, 7, 0), hand("EW", 7, 6, 8)]  # 101 / 100
    status, body = post(client, "/game", {"hands": hands}, "en")
    assert (status, body["scores"], body["winner"], body["next_hand"]) == (
        200,
        {"NS": 101, "EW": 100},
        None,
        "extra_hand",
    )
    status, body = post(client, "/game", {"hands": [*hands, hand("EW", 8, 7, 7)]}, "en")
    assert status == 200
    assert (body["scores"], body["winner"], body["next_hand"]) == ({"NS": 108, "EW": 92}, "NS", None)
    assert (body["hands"][-1]["decided_by"], body["hands"][-1]["game_over"]) == ("extra_hand", True)
    assert body["explanation"] == (
        "After 17 hands: NS 108, EW 92 (target 100). In the extra hand after both teams reached the target, "
        "the bidding team was set, so the other team, NS, wins."
    )
    status, answer = post(client, "/game", {"hands": [*hands, hand("EW", 8, 7, 7), hand("NS", 7, 7, 7)]}, "en")
    assert status == 400 and answer["error"]["code"] == "hand_after_game_over"
    assert list(answer["error"]["details"]) == ["hands[17]"]


def test_game_errors_point_into_the_hand(client):
    status, answer = post(
        client,
        "/game",
        {
            "hands": [
                hand("NS", 7, 7, 7),
                {"bid": {"team": "NS", "amount": 7}, "trump": "H", "captured": {"NS": ["AH", "AH"]}},
            ]
        },
    )
    assert status == 400 and list(answer["error"]["details"]) == ["hands[1].captured.NS[1]"]


def test_game_with_no_hands_yet(client):
    status, body = post(client, "/game", {"hands": []})
    assert status == 200 and body["scores"] == {"NS": 0, "EW": 0} and body["next_hand"] == "normal"


# -- Explanations say what the catalogue says ------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "dealer, calls, seat, team, amount, high",
    [
        ("W", [7, "pass", 9, "pass"], "S", "NS", 9, "pedro.auction_high"),
        ("N", ["pass", "pass", "pass", 7], "N", "NS", 7, "pedro.auction_forced"),
        ("E", [8, 9, "pass", 12], "E", "EW", 12, "pedro.auction_high"),
    ],
)
def test_an_auctions_explanation_is_its_calls_then_the_high_bid(client, lang, dealer, calls, seat, team, amount, high):
    status, body = post(client, "/auction", {"dealer": dealer, "calls": calls}, lang)
    assert status == 200 and (body["seat"], body["team"], body["amount"]) == (seat, team, amount)
    assert [said["seat"] for said in body["calls"]] == {"W": list("NESW"), "N": list("ESWN"), "E": list("SWNE")}[dealer]
    said = [f"{c['seat']} {t('pedro.pass', lang) if c['call'] == 'pass' else c['call']}" for c in body["calls"]]
    facts = {"dealer": dealer, "calls": join_list(said, lang), "seat": seat, "team": team, "amount": amount}
    assert body["explanation"] == sentences([t("pedro.auction_calls", lang, **facts), t(high, lang, **facts)], lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("two_scored_by", ["dealt", "captured", "played"])
@pytest.mark.parametrize(
    "trump, leader, cards, winner, team, card, wins, point_cards, points",
    [
        ("H", "N", ["10H", "5♦", "AS", "2h"], "N", "NS", "10H", "pedro.trick_trump_wins", ["10H", "5D", "2H"], 7),
        ("♠", "E", ["5C", "4S", "AC", "3S"], "E", "EW", "5C", "pedro.trick_trump_wins", ["5C"], 5),
        ("H", "N", ["KH", "3S", "4S", "6S"], "N", "NS", "KH", "pedro.trick_trump_wins", [], 0),
        ("H", "S", ["9C", "AD", "KC", "QC"], "N", "NS", "KC", "pedro.trick_suit_wins", [], 0),
    ],
)
def test_a_tricks_explanation_is_the_plays_the_winner_the_points_and_the_twos_note(
    client, lang, two_scored_by, trump, leader, cards, winner, team, card, wins, point_cards, points
):
    body = {"trump": trump, "leader": leader, "cards": cards, "rules": {"two_scored_by": two_scored_by}}
    status, answer = post(client, "/trick", body, lang)
    assert status == 200
    assert (answer["winner"], answer["team"]) == (winner, team)
    assert (answer["point_cards"], answer["points"]) == (point_cards, points)
    sign = {"H": "♥", "♠": "♠"}[trump]
    plays = join_list([f"{play['seat']} {play['card']}" for play in answer["plays"]], lang)
    parts = [
        t("pedro.trick_plays", lang, trump=sign, plays=plays),
        t(wins, lang, seat=winner, team=team, card=card),
        t("pedro.trick_points", lang, cards=" ".join(point_cards), points=points)
        if point_cards
        else t("pedro.trick_no_points", lang),
    ]
    if "2H" in point_cards:
        parts.append(t("pedro.trick_two_note", lang, rule_text=t(f"pedro.two_rule_{two_scored_by}", lang)))
    assert answer["explanation"] == sentences(parts, lang)


#: One hand of every kind: bid team, bid, scores before (NS, EW), points, scores after,
#: winner, bidder goes out, how the hand leaves the game, rules.
HANDS = [
    ("NS", 9, (0, 0), (9, 5), (9, 5), None, False, "next_normal", {}),
    ("EW", 10, (15, 20), (8, 6), (23, 10), None, False, "next_normal", {}),
    ("NS", 7, (86, 90), (7, 5), (93, 95), None, False, "next_bidder_goes_out", {}),
    ("NS", 9, (95, 94), (8, 1), (86, 95), None, True, "next_normal", {}),
    ("EW", 7, (95, 92), (6, 8), (101, 100), None, False, "next_extra_hand", {}),
    ("NS", 7, (90, 50), (10, 4), (100, 54), "NS", False, "win_target", {}),
    ("NS", 9, (95, 94), (6, 8), (86, 102), "EW", True, "win_target", {}),
    ("EW", 7, (98, 96), (7, 7), (105, 103), "EW", True, "win_bidder_goes_out", {}),
    ("NS", 7, (81, 85), (8, 6), (89, 91), "NS", True, "win_bidder_goes_out", {"bidder_out_margin": 20}),
    ("EW", 7, (95, 92), (6, 8), (101, 100), "EW", False, "win_tie_bidder", {"tie_rule": "bidder_wins"}),
    ("EW", 7, (95, 92), (6, 8), (101, 100), "NS", False, "win_tie_higher", {"tie_rule": "higher_score"}),
    ("NS", 7, (104, 100), (7, 7), (111, 107), "NS", True, "win_extra_hand_made", {}),
    ("EW", 8, (100, 110), (7, 7), (107, 102), "NS", True, "win_extra_hand_set", {}),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("bidder, bid, before, points, after, winner, going_out, outcome, rules", HANDS)
def test_a_settled_hands_explanation_says_what_the_catalogue_says(
    client, lang, bidder, bid, before, points, after, winner, going_out, outcome, rules
):
    """The bid made or set, what the other team adds, the scores, the bidder-goes-out note
    (not for the extra hand, whose outcome says what it was), how the hand leaves the game."""
    before, points, after = ({"NS": ns, "EW": ew} for ns, ew in (before, points, after))
    request = {"bid": {"team": bidder, "amount": bid}, "scores_before": before, "points": points, "rules": rules}
    status, body = post(client, "/hand", request, lang)
    assert status == 200
    assert (body["scores_after"], body["winner"], body["bidder_goes_out"]) == (after, winner, going_out)
    other = "EW" if bidder == "NS" else "NS"
    settled = {**DEFAULT_RULES, **rules}
    facts = {
        "bidder": bidder,
        "bid": bid,
        "taken": points[bidder],
        "other": other,
        "other_taken": points[other],
        "ns_before": before["NS"],
        "ns_after": after["NS"],
        "ew_before": before["EW"],
        "ew_after": after["EW"],
        "margin": settled["bidder_out_margin"],
        "winner": winner,
        "target": settled["target"],
    }
    noted = going_out and not outcome.startswith("win_extra_hand")
    expected = sentences(
        [
            t("pedro.settle_made" if points[bidder] >= bid else "pedro.settle_set", lang, **facts),
            t("pedro.settle_other", lang, **facts),
            t("pedro.settle_scores", lang, **facts),
            t("pedro.going_out_hand", lang, **facts) if noted else "",
            t(f"pedro.{outcome}", lang, **facts),
        ],
        lang,
    )
    assert body["explanation"] == expected


TIED = [hand("NS", 7, 14, 0)] * 6 + [hand("EW", 7, 0, 14)] * 6  # 84 / 84
TIED += [hand("NS", 7, 11, 3), hand("NS", 7, 0, 5), hand("NS", 7, 7, 0), hand("EW", 7, 6, 8)]  # 101 / 100


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "hands, rules, scores, winner, outcome",
    [
        ([], {}, {"NS": 0, "EW": 0}, None, "next_normal"),
        ([hand("NS", 7, 14, 0)] * 8, {}, {"NS": 112, "EW": 0}, "NS", "win_target"),
        ([hand("NS", 7, 14, 0)] * 4, {"target": 62}, {"NS": 56, "EW": 0}, None, "next_normal"),
        (
            [*TIED[:12], hand("NS", 7, 9, 5), hand("EW", 7, 0, 10)],
            {},
            {"NS": 93, "EW": 99},
            None,
            "next_bidder_goes_out",
        ),
        (TIED, {}, {"NS": 101, "EW": 100}, None, "next_extra_hand"),
        (TIED, {"tie_rule": "bidder_wins"}, {"NS": 101, "EW": 100}, "EW", "win_tie_bidder"),
        (TIED, {"tie_rule": "higher_score"}, {"NS": 101, "EW": 100}, "NS", "win_tie_higher"),
        ([*TIED, hand("NS", 7, 7, 7)], {}, {"NS": 108, "EW": 107}, "NS", "win_extra_hand_made"),
    ],
)
def test_a_games_explanation_is_the_scores_then_how_its_last_hand_left_it(
    client, lang, hands, rules, scores, winner, outcome
):
    status, body = post(client, "/game", {"hands": hands, "rules": rules}, lang)
    assert status == 200 and (body["scores"], body["winner"]) == (scores, winner)
    settled = {**DEFAULT_RULES, **rules}
    facts = {"hands": len(hands), "ns": scores["NS"], "ew": scores["EW"], "target": settled["target"]}
    facts.update(winner=winner, margin=settled["bidder_out_margin"])
    assert body["explanation"] == sentences(
        [t("pedro.game_summary", lang, **facts), t(f"pedro.{outcome}", lang, **facts)], lang
    )


@pytest.mark.parametrize(
    "before, bid, points, after",
    [
        (
            {"NS": -100_000, "EW": 0},
            14,
            {"NS": 0, "EW": 14},
            {"NS": -100_014, "EW": 14},
        ),  # set back below the input bound
        ({"NS": 99_995, "EW": 99_995}, 7, {"NS": 7, "EW": 7}, None),  # both past the target: the tie rule decides
    ],
)
def test_scores_after_may_pass_the_bound_of_scores_before_and_the_spec_says_so(client, before, bid, points, after):
    import yaml
    from jsonschema import Draft202012Validator

    status, body = post(
        client, "/hand", {"bid": {"team": "NS", "amount": bid}, "scores_before": before, "points": points}
    )
    assert status == 200, body
    if after is not None:
        assert body["scores_after"] == after
    spec = yaml.safe_load(client.get("/openapi.yaml").data)
    response = spec["paths"]["/api/v1/pedro/hand"]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    validator = Draft202012Validator({**response, "components": spec["components"]})
    assert not list(validator.iter_errors(body))
