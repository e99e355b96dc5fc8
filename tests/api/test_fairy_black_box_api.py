"""Fairy & Black Box over HTTP: score, setup, end-check and next-player (docs/api.md)."""

import pytest

from scoring_api.i18n import LANGS, t

BASE = "/api/v1/fairy-black-box"
SCORE = BASE + "/score"
SETUP = BASE + "/setup"
END = BASE + "/end-check"
NEXT = BASE + "/next-player"


def treasure(name, points):
    return {"name": name, "points": points}


def player(name, mood, *treasures, eliminated=False):
    return {"name": name, "mood": mood, "eliminated": eliminated, "treasures": list(treasures)}


def out(name, mood=0):
    return player(name, mood, eliminated=True)


def error_of(response):
    assert response.status_code == 400, response.get_data(as_text=True)
    return response.get_json()["error"]


# -- Final score -----------------------------------------------------------------------


def test_plain_win_in_japanese_by_default(client):
    body = {
        "players": [
            player("Aki", 1, treasure("ほしのかけら", 3), treasure("ふしぎな石", 4)),
            player("Ben", 4, treasure("きらきら", 2)),
            player("Cho", 2),
        ]
    }
    response = client.post(SCORE, json=body)
    assert response.status_code == 200
    result = response.get_json()
    assert result == {
        "players": [
            {
                "name": "Aki",
                "eliminated": False,
                "score": 7,
                "has_kirakira": False,
                "rank": 1,
                "explanation": "Akiさん: ほしのかけら 3 + ふしぎな石 4 = 7点",
            },
            {
                "name": "Ben",
                "eliminated": False,
                "score": 2,
                "has_kirakira": True,
                "rank": 2,
                "explanation": "Benさん: きらきら 2 = 2点",
            },
            {
                "name": "Cho",
                "eliminated": False,
                "score": 0,
                "has_kirakira": False,
                "rank": 3,
                "explanation": "Choさん: タカラモノなし = 0点",
            },
        ],
        "winners": ["Aki"],
        "decided_by": "score",
        "explanation": "Akiさんが7点で最高得点となり、勝利です。",
    }


def test_plain_win_in_english(client):
    body = {"players": [player("Aki", 1, treasure("stone", 3), treasure("wing", 4)), player("Ben", 4)]}
    result = client.post(SCORE + "?lang=en", json=body).get_json()
    assert result["players"][0]["explanation"] == "Aki: stone 3 + wing 4 = 7"
    assert result["players"][1]["explanation"] == "Ben: no treasures = 0"
    assert result["explanation"] == "Aki wins with the highest score, 7."


def test_tie_broken_by_kirakira_with_brackets_and_katakana(client):
    body = {
        "players": [
            player("Aki", 4, treasure("はね", 5)),
            player("Ben", 1, treasure("〈キラキラ〉", 2), treasure("石", 3)),
        ]
    }
    result = client.post(SCORE, json=body).get_json()
    assert [p["score"] for p in result["players"]] == [5, 5]
    assert [p["has_kirakira"] for p in result["players"]] == [False, True]
    assert result["winners"] == ["Ben"] and result["decided_by"] == "kirakira"
    assert (
        result["explanation"]
        == "Akiさん、Benさんが5点で同点です。同点のうち〈きらきら〉を持っているBenさんの勝利です。"
    )
    en = client.post(SCORE + "?lang=en", json=body).get_json()
    assert en["explanation"] == "Aki, Ben tie at 5. Ben holds 〈きらきら〉 and wins."


def test_tie_broken_by_mood(client):
    body = {"players": [player("Aki", 2, treasure("石", 4)), player("Ben", 3, treasure("羽", 4))]}
    result = client.post(SCORE + "?lang=en", json=body).get_json()
    assert result["winners"] == ["Ben"] and result["decided_by"] == "mood"
    assert [p["rank"] for p in result["players"]] == [2, 1]
    assert result["explanation"] == (
        "Aki, Ben tie at 4. Nobody tied holds 〈きらきら〉, so the one with the highest mood, Ben (mood 3), wins."
    )
    ja = client.post(SCORE, json=body).get_json()
    assert ja["explanation"] == (
        "Akiさん、Benさんが4点で同点です。同点のプレイヤーは誰も〈きらきら〉を持っていないので、ゴキゲンが最も高いBenさん（ゴキゲン3）の勝利です。"
    )


def test_shared_win(client):
    body = {
        "players": [
            player("Aki", 3, treasure("石", 4)),
            player("Ben", 3, treasure("石", 1), treasure("羽", 3)),
            player("Cho", 1, treasure("羽", 4)),
        ]
    }
    result = client.post(SCORE + "?lang=en", json=body).get_json()
    assert result["winners"] == ["Aki", "Ben"] and result["decided_by"] == "shared"
    assert [p["rank"] for p in result["players"]] == [1, 1, 3]
    assert result["explanation"] == (
        "Aki, Ben, Cho tie at 4. Nobody tied holds 〈きらきら〉 and Aki, Ben share the highest "
        "mood, 3, so they share the win."
    )


def test_eliminated_player_scores_null_and_cannot_win(client):
    body = {
        "players": [
            out("Aki"),
            player("Ben", 2, treasure("のろい", -3)),
            player("Cho", 1, treasure("のろい", -2), treasure("石", 1)),
        ]
    }
    result = client.post(SCORE, json=body).get_json()
    assert [(p["name"], p["score"], p["rank"], p["eliminated"]) for p in result["players"]] == [
        ("Aki", None, None, True),
        ("Ben", -3, 2, False),
        ("Cho", -1, 1, False),
    ]
    assert result["winners"] == ["Cho"] and result["decided_by"] == "score"
    assert result["players"][0]["explanation"] == (
        "Akiさんは脱落したので得点しません（脱落したプレイヤーはタカラモノカードをすべて捨て札にしています）。"
    )
    assert result["players"][2]["explanation"] == "Choさん: のろい -2 + 石 1 = -1点"
    assert (
        result["explanation"]
        == "Akiさんは脱落したので得点計算に加わりません。Choさんが-1点で最高得点となり、勝利です。"
    )


def test_single_survivor_wins(client):
    body = {"players": [out("Aki"), player("Ben", 1, treasure("石", 2)), out("Cho", mood=1)]}
    result = client.post(SCORE + "?lang=en", json=body).get_json()
    assert result["winners"] == ["Ben"] and result["decided_by"] == "score"
    assert [p["score"] for p in result["players"]] == [None, 2, None]
    assert result["explanation"] == (
        "Aki, Cho: eliminated, so not scored. Ben is the only player not eliminated and wins (2)."
    )


def test_everyone_eliminated_has_no_winner(client):
    result = client.post(SCORE + "?lang=en", json={"players": [out("Aki"), out("Ben")]}).get_json()
    assert result["winners"] == [] and result["decided_by"] is None
    assert [p["score"] for p in result["players"]] == [None, None]
    assert result["explanation"] == "Everyone was eliminated, so nobody scores and nobody wins."


# -- Final score: bad input ------------------------------------------------------------


def test_eliminated_player_with_treasures_is_refused_with_the_reason(client):
    body = {"players": [player("Aki", 1), player("Ben", 0, treasure("石", 3), eliminated=True)]}
    error = error_of(client.post(SCORE + "?lang=en", json=body))
    assert error["code"] == "eliminated_with_treasures"
    message = (
        "Ben is eliminated: an eliminated player discards all their treasure cards, so holds "
        "none (1 given). Enter no treasures for an eliminated player."
    )
    assert error["message"] == message
    assert error["details"] == {"players[1].treasures": [message]}
    ja = error_of(client.post(SCORE, json=body))
    assert "タカラモノカードをすべて捨て札にする" in ja["message"]


def test_two_kirakira_holders_are_refused(client):
    body = {
        "players": [
            player("Aki", 1, treasure("きらきら", 2)),
            player("Ben", 2, treasure("石", 1), treasure("kirakira", 2)),
        ]
    }
    error = error_of(client.post(SCORE + "?lang=en", json=body))
    assert error["code"] == "two_kirakira"
    assert error["details"] == {
        "players[1].treasures[1]": ["There is only one 〈きらきら〉 card, but both Aki and Ben hold it."]
    }
    assert error_of(client.post(SCORE, json=body))["message"] == (
        "〈きらきら〉は1枚しかありませんが、AkiさんとBenさんの両方が持っています。"
    )


def test_mood_zero_while_in_the_game_is_refused(client):
    error = error_of(client.post(SCORE, json={"players": [player("Aki", 1), player("Ben", 0)]}))
    assert error["code"] == "mood_zero_in_game"
    assert list(error["details"]) == ["players[1].mood"]


def test_duplicate_names_are_refused(client):
    error = error_of(client.post(SCORE, json={"players": [player("Aki", 1), player("Aki", 2)]}))
    assert error["code"] == "duplicate_name" and list(error["details"]) == ["players[1].name"]


def test_more_than_fifteen_treasures_in_all_hands_is_refused(client):
    eight = [treasure("石", 1)] * 8
    body = {"players": [player("Aki", 1, *eight), player("Ben", 1, *eight)]}
    error = error_of(client.post(SCORE + "?lang=en", json=body))
    assert error["code"] == "too_many_treasures"
    assert error["details"] == {
        "players[1].treasures": ["The hands hold 16 treasure cards in all, but the game has only 15."]
    }


@pytest.mark.parametrize(
    "players, path, reason",
    [
        (
            [player("Aki", -1), player("Ben", 1)],
            "players[0].mood",
            "Must be from 0 to 20.",
        ),
        ([player("Aki", 21), player("Ben", 1)], "players[0].mood", None),
        ([player("Aki", 1)], "players", "Give between 2 and 5 items."),
        ([player(f"P{i}", 1) for i in range(6)], "players", "Give between 2 and 5 items."),
        (
            [player("Aki", 1, *[treasure("石", 1)] * 16), player("Ben", 1)],
            "players[0].treasures",
            "Give at most 15 items.",
        ),
        (
            [player("Aki", 1, treasure("石", 101)), player("Ben", 1)],
            "players[0].treasures[0].points",
            "Must be from -100 to 100.",
        ),
        ([player("Aki", 1, treasure("", 1)), player("Ben", 1)], "players[0].treasures[0].name", None),
        ([player("A" * 41, 1), player("Ben", 1)], "players[0].name", "Use between 1 and 40 characters."),
        ([{**player("Aki", 1), "score": 3}, player("Ben", 1)], "players[0].score", "This item cannot be used."),
        (
            [player("Aki", 1, {"name": "石", "points": 1, "effect": "x"}), player("Ben", 1)],
            "players[0].treasures[0].effect",
            "This item cannot be used.",
        ),
        ([{**player("Aki", 1), "eliminated": 1}, player("Ben", 1)], "players[0].eliminated", "Answer yes or no."),
        (
            [{"name": "Aki", "mood": 1, "treasures": []}, player("Ben", 1)],
            "players[0].eliminated",
            "This is required.",
        ),
        ([player("Aki", "3"), player("Ben", 1)], "players[0].mood", "Not a whole number."),
    ],
)
def test_invalid_input_names_the_field(client, players, path, reason):
    error = error_of(client.post(SCORE + "?lang=en", json={"players": players}))
    assert error["code"] == "invalid_input"
    assert path in error["details"], error["details"]
    if reason:
        assert error["details"][path] == [reason]


def test_unknown_top_level_field_and_japanese_validation_message(client):
    error = error_of(client.post(SCORE, json={"players": [player("Aki", -1), player("B", 1)], "round": 1}))
    assert error["message"] == "入力に誤りがあります。details に項目ごとの理由があります。"
    assert error["details"] == {
        "round": ["この項目は使えません。"],
        "players[0].mood": ["0以上20以下にしてください。"],
    }


# -- Setup -----------------------------------------------------------------------------


@pytest.mark.parametrize("players, mood, runouts", [(2, 4, 1), (3, 4, 2), (4, 3, 2), (5, 3, 2)])
def test_setup_moods(client, players, mood, runouts):
    response = client.get(f"{SETUP}?players={players}")
    assert response.status_code == 200
    result = response.get_json()
    assert result["players"] == players and result["starting_mood"] == mood
    assert result["star_deck_runouts_to_end"] == runouts
    assert result["first_turn_names_opponent"] is (players == 2)
    assert (result["star_cards"], result["treasure_cards"], result["set_aside_star_cards"]) == (12, 15, 2)


def test_setup_explanations(client):
    ja = client.get(SETUP + "?players=4").get_json()["explanation"]
    assert ja.startswith("4人プレイ: ゴキゲンは全員3から始めます")
    assert ja.endswith("2回目に尽きた手番でゲーム終了です。")
    en = client.get(SETUP + "?players=2&lang=en").get_json()["explanation"]
    assert en == (
        "2 players: everyone starts at mood 4 (4 with 2-3 players, 3 with 4-5). Shuffle the 12 "
        "star cards and the 15 treasure cards into two decks, and set the top 2 star cards aside "
        "face down. The game ends after the turn the star deck first runs out. The start "
        "player's first turn must name the opponent as the next player."
    )


@pytest.mark.parametrize("query", ["players=1", "players=6", "players=three", "", "players=3&round=1"])
def test_setup_refuses_bad_queries(client, query):
    error = error_of(client.get(f"{SETUP}?{query}&lang=en"))
    assert error["code"] == "invalid_input"
    assert set(error["details"]) & {"players", "round"}


def test_setup_refusal_names_the_range(client):
    error = error_of(client.get(SETUP + "?players=6&lang=en"))
    assert error["details"] == {"players": ["Must be from 2 to 5."]}


# -- End check -------------------------------------------------------------------------


def end_body(players, runouts, deck_empty=False, discard_empty=False, left=None):
    return {
        "players": players,
        "star_deck_runouts": runouts,
        "treasure_deck_empty": deck_empty,
        "treasure_discard_empty": discard_empty,
        "players_left": players if left is None else left,
    }


def test_two_players_end_on_the_first_star_runout_three_on_the_second(client):
    two = client.post(END + "?lang=en", json=end_body(2, 1)).get_json()
    assert two["last_turn"] is True and two["reasons"] == ["star_deck"]
    assert two["explanation"] == (
        "This is the last turn. 2 players: the star deck has run out for the first time, so the "
        "game ends after this turn. Then the players still in score the treasure cards in their hands."
    )
    three = client.post(END + "?lang=en", json=end_body(3, 1)).get_json()
    assert three["last_turn"] is False and three["reasons"] == []
    assert three["checks"][0] == {
        "condition": "star_deck",
        "met": False,
        "explanation": (
            "The star deck has run out once: after resolving that card, shuffle the star discards "
            "with the two set-aside cards into a new deck and set two aside again. The game ends "
            "after the turn it runs out the second time."
        ),
    }
    assert three["explanation"].startswith("The game goes on: no end condition is met. ")
    later = client.post(END, json=end_body(3, 2)).get_json()
    assert later["reasons"] == ["star_deck"]
    assert (
        later["checks"][0]["explanation"]
        == "3人プレイで、ホシカードの山札が2回目に尽きました。この手番でゲーム終了です。"
    )


def test_treasure_deck_and_discard_both_empty(client):
    both = client.post(END, json=end_body(4, 0, True, True)).get_json()
    assert both["reasons"] == ["treasure_deck"]
    refresh = client.post(END + "?lang=en", json=end_body(4, 0, True, False)).get_json()
    assert refresh["last_turn"] is False
    assert refresh["checks"][1]["explanation"] == (
        "The treasure deck is empty but its discard is not: shuffle the discard into a new deck."
    )


def test_every_reason_is_listed(client):
    result = client.post(END, json=end_body(5, 2, True, True, left=1)).get_json()
    assert result["reasons"] == ["star_deck", "treasure_deck", "players_left"]
    assert [c["met"] for c in result["checks"]] == [True, True, True]
    assert "1人だけ" in result["checks"][2]["explanation"]


def test_end_check_refusals(client):
    past = error_of(client.post(END + "?lang=en", json=end_body(2, 2)))
    assert past["code"] == "star_deck_past_end" and list(past["details"]) == ["star_deck_runouts"]
    more = error_of(client.post(END, json=end_body(3, 0, left=4)))
    assert more["code"] == "players_left_above_count" and list(more["details"]) == ["players_left"]
    shape = error_of(client.post(END, json={**end_body(3, 0), "treasure_deck_empty": "no"}))
    assert shape["code"] == "invalid_input" and list(shape["details"]) == ["treasure_deck_empty"]


# -- Next player -----------------------------------------------------------------------


def test_next_player_with_a_tie(client):
    body = {
        "players": [
            {"name": "Aki", "treasure_count": 2},
            {"name": "Ben", "treasure_count": 1},
            {"name": "Cho", "treasure_count": 1},
        ]
    }
    result = client.post(NEXT, json=body).get_json()
    assert result == {
        "next_players": ["Ben", "Cho"],
        "fewest_treasures": 1,
        "rock_paper_scissors": True,
        "explanation": "Benさん、Choさんがタカラモノカード1枚で最も少ないので、じゃんけんで次の手番プレイヤーを決めます。",
    }


def test_next_player_single(client):
    body = {"players": [{"name": "Aki", "treasure_count": 0}, {"name": "Ben", "treasure_count": 3}]}
    result = client.post(NEXT + "?lang=en", json=body).get_json()
    assert result["next_players"] == ["Aki"] and result["rock_paper_scissors"] is False
    assert result["explanation"] == "Aki holds the fewest treasure cards (0) and takes the next turn."


def test_next_player_refusals(client):
    alone = error_of(client.post(NEXT + "?lang=en", json={"players": [{"name": "Aki", "treasure_count": 2}]}))
    assert alone["code"] == "game_over"
    assert alone["message"] == "Only Aki is left, so the game is over: there is no next turn. Score the game."
    five = [{"name": f"P{i}", "treasure_count": 0} for i in range(5)]
    assert error_of(client.post(NEXT, json={"players": five}))["code"] == "invalid_input"
    unknown = error_of(client.post(NEXT, json={"players": [{"name": "A", "treasures": 1}]}))
    assert set(unknown["details"]) == {"players[0].treasures", "players[0].treasure_count"}


# -- Sentences ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_full_hand_is_explained_treasure_by_treasure(client, lang):
    hand = [(f"t{i}", i - 3) for i in range(15)]  # the box's 15 treasures
    body = {"players": [player("Aki", 2, *(treasure(n, p) for n, p in hand)), player("Ben", 1)]}
    result = client.post(SCORE + f"?lang={lang}", json=body).get_json()
    parts = " + ".join(t("fairy_black_box.treasure_part", lang, name=n, points=p) for n, p in hand)
    score = sum(p for _, p in hand)
    expected = t("fairy_black_box.player_score", lang, name="Aki", parts=parts, score=score)
    assert result["players"][0]["explanation"] == expected


def test_names_are_shown_as_given_even_with_braces(client):
    body = {
        "players": [
            player("{0}", 2, treasure("{name}", 3), treasure("%s", 1)),
            player("{1}}", 1, treasure("{", 4)),
            out("{names}"),
        ]
    }
    result = client.post(SCORE + "?lang=en", json=body).get_json()
    assert [p["explanation"] for p in result["players"]] == [
        "{0}: {name} 3 + %s 1 = 4",
        "{1}}: { 4 = 4",
        "{names} was eliminated and does not score (an eliminated player has discarded all treasure cards).",
    ]
    assert result["explanation"] == (
        "{names}: eliminated, so not scored. {0}, {1}} tie at 4. "
        "Nobody tied holds 〈きらきら〉, so the one with the highest mood, {0} (mood 2), wins."
    )
