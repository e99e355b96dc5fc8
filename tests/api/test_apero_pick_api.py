"""POST /api/v1/apero/pick: which table card to take, explained in the player's language."""

from __future__ import annotations

import pytest

URL = "/api/v1/apero/pick"


def card(color, value):
    return {"color": color, "value": value}


BODY = {
    "players": [
        {"name": "Aki", "cards": [card("purple", -1), card("purple", -2), card("red", 1)]},
        {"name": "Ben", "cards": [card("green", 2), card("紫", -3)]},
    ],
    "me": "Aki",
    "table": [card("purple", -3), card("green", 3), card("red", 2), card("green", 1), card("green", 1)],
}


def test_the_options_best_first_with_what_each_denies(client):
    answer = client.post(URL, json=BODY).get_json()
    assert answer["best"] == card("purple", -3)
    assert [(o["card"]["color"], o["card"]["value"], o["gain"]) for o in answer["options"]] == [
        ("purple", -3, 7),
        ("green", 3, 3),
        ("red", 2, 2),
        ("green", 1, 1),
    ]
    first = answer["options"][0]
    assert first == {
        "card": card("purple", -3),
        "label": "紫",
        "gain": 7,
        "score": 9,
        "expression": "(-1 + -2) × -3",
        "gains": [{"name": "Ben", "gain": 12}],
        "explanation": "紫-3を取ると+7点（紫: (-1 + -2) × -3 = 9）。見送ると、Benさんがこれを取って得点を12点増やすかもしれません。",
    }
    assert answer["explanation"] == "Akiさんには紫-3（+7点）がいちばん得です。"


def test_english_and_a_card_that_helps_nobody_else(client):
    body = {**BODY, "table": [card("blue", 3)]}
    answer = client.post(f"{URL}?lang=en", json=body).get_json()
    [option] = answer["options"]
    assert (
        option["explanation"]
        == "Taking blue 3: +3 for you (blue: 3 = 3). If you leave it, Ben could take it and score 3 more."
    )
    body["players"][1] = {"name": "Ben", "cards": []}
    alone = client.post(f"{URL}?lang=en", json={**body, "players": [BODY["players"][0]]}).get_json()
    assert alone["options"][0]["gains"] == []
    assert alone["options"][0]["explanation"] == "Taking blue 3: +3 for you (blue: 3 = 3)."
    assert alone["explanation"] == "The best card for Aki: blue 3 (+3)."


def test_at_the_start_nobody_holds_a_card(client):
    body = {
        "players": [{"name": "Aki", "cards": []}, {"name": "Ben", "cards": []}],
        "me": "Ben",
        "table": [card("purple", -1)],
    }
    [option] = client.post(URL, json=body).get_json()["options"]
    assert (option["gain"], option["gains"]) == (-1, [{"name": "Aki", "gain": -1}])
    assert option["explanation"] == "紫-1を取ると-1点（紫: -1 = -1）。"  # it gives nobody anything


@pytest.mark.parametrize(
    "change, path, code",
    [
        ({"me": "Cho"}, "me", "unknown_me"),
        ({"table": [card("green", 3), card("green", 3)]}, "table[1]", "too_many_copies"),
        ({"table": [card("red", -2)]}, "table[0]", "no_such_card"),
        ({"table": []}, "table", "invalid_input"),
        ({"table": [card("red", 1)] * 21}, "table", "invalid_input"),
    ],
)
def test_refusals_name_the_field(client, change, path, code):
    error = client.post(f"{URL}?lang=en", json={**BODY, **change}).get_json()["error"]
    assert error["code"] == code and list(error["details"]) == [path]


def test_unknown_me_lists_the_players_in_japanese(client):
    error = client.post(URL, json={**BODY, "me": "Cho"}).get_json()["error"]
    assert error["message"] == "「Cho」というプレイヤーはいません。次の名前から選んでください: Aki、Ben"


def test_it_is_a_tool_too(client):
    result = client.post("/api/v1/tools/apero_pick", json=BODY).get_json()
    assert result["best"] == card("purple", -3)
