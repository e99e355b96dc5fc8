"""POST /api/v1/apero/score: the contract of docs/api.md and the rules' limits."""

import copy

import pytest

from scoring_api.i18n import t
from scoring_api.operations.registry import find_operation
from scoring_api.schemas.apero import MAX_PLAYERS, MAX_SETS
from tests.expression import evaluate

URL = "/api/v1/apero/score"


def card(color, value):
    return {"color": color, "value": value}


OFFICIAL = {
    "players": [
        {
            "name": "Aki",
            "cards": [
                card("red", 1),
                card("green", 2),
                card("green", 3),
                card("purple", -1),
                card("purple", -2),
                card("purple", -3),
            ],
        }
    ]
}


def test_official_example_over_http(client):
    response = client.post(URL, json=OFFICIAL)
    assert response.status_code == 200
    body = response.get_json()
    player = body["players"][0]
    assert player["total"] == 16
    assert [(c["color"], c["cards"], c["score"], c["expression"]) for c in player["colors"]] == [
        ("red", [1], 1, "1"),
        ("green", [2, 3], 6, "2 × 3"),
        ("purple", [-1, -2, -3], 9, "(-1 + -2) × -3"),
    ]
    assert body["winners"] == ["Aki"]
    assert body["sets"] == 1
    assert player["explanation"] == "Akiさんの合計: 赤 1 + 緑 6 + 紫 9 = 16点"
    assert player["colors"][2]["explanation"] == "紫: 3枚 → (-1 + -2) × -3 = 9"


def test_english_on_request(client):
    body = client.post(URL + "?lang=en", json=OFFICIAL).get_json()
    assert body["players"][0]["explanation"] == "Aki's total: red 1 + green 6 + purple 9 = 16"
    assert body["players"][0]["colors"][2]["label"] == "purple"
    assert body["explanation"] == "Aki wins (16)"


def test_japanese_colour_names_are_accepted(client):
    hand = [card("赤", 1), card("緑", 2), card("緑", 3), card("紫", -1), card("紫", -2), card("紫", -3)]
    body = client.post(URL, json={"players": [{"name": "ア", "cards": hand}]}).get_json()
    assert body["players"][0]["total"] == 16
    assert [c["color"] for c in body["players"][0]["colors"]] == ["red", "green", "purple"]
    other = [card("橙", 1), card("オレンジ", 1), card("青", 3), card("黒緑", -1)]
    body = client.post(URL, json={"players": [{"name": "B", "cards": other}]}).get_json()
    assert [(c["color"], c["score"]) for c in body["players"][0]["colors"]] == [
        ("orange", 2),
        ("blue", 3),
        ("black_green", -1),
    ]


@pytest.mark.parametrize(
    "lang, labels",
    [
        ("ja", ["赤", "橙", "緑", "青", "紫", "黒緑"]),
        ("en", ["red", "orange", "green", "blue", "purple", "black-green"]),
    ],
)
def test_every_colour_is_named_in_the_requested_language(client, lang, labels):
    hand = [card(color, value) for color, value in [("red", 1), ("orange", 1), ("green", 1), ("blue", 1)]]
    hand += [card("purple", -1), card("black_green", -1)]
    body = client.post(URL + f"?lang={lang}", json={"players": [{"name": "A", "cards": hand}]}).get_json()
    assert [c["label"] for c in body["players"][0]["colors"]] == labels


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_explanations_are_the_catalogue_sentences(client, lang):
    ben = {"name": "Ben", "cards": [card("blue", 3), card("black_green", -1)]}
    players = [OFFICIAL["players"][0], ben]
    body = client.post(URL + f"?lang={lang}", json={"players": players}).get_json()
    for player in body["players"]:
        for colour in player["colors"]:
            assert colour["explanation"] == t(
                "apero.color_single",
                lang,
                color_name=colour["label"],
                cards=len(colour["cards"]),
                expression=colour["expression"],
                score=colour["score"],
            )
        parts = " + ".join(f"{c['label']} {c['score']}" for c in player["colors"])
        assert player["explanation"] == t("apero.total", lang, name=player["name"], parts=parts, total=player["total"])
    assert body["explanation"] == t("apero.winners_one", lang, names="Aki", total=16)
    ben["cards"] = [
        card("blue", 1),
        card("blue", 2),
        card("blue", 3),
        card("orange", 2),
        card("orange", 3),
        card("red", 1),
    ]
    body = client.post(URL + f"?lang={lang}", json={"players": players}).get_json()
    assert [p["total"] for p in body["players"]] == [16, 16]
    assert (
        body["explanation"]
        == {
            "ja": "Akiさん、Benさんが16点で同点なので、勝利を分かち合います。",
            "en": "Aki, Ben tie at 16 and share the win.",
        }[lang]
    )


def test_several_players_and_a_shared_win(client):
    players = [
        {"name": "A", "cards": [card("red", 3)]},
        {"name": "B", "cards": [card("blue", 1), card("blue", 2)]},
        {"name": "C", "cards": [card("green", 2)]},
    ]
    body = client.post(URL + "?lang=en", json={"players": players}).get_json()
    assert [p["total"] for p in body["players"]] == [3, 3, 2]
    assert body["winners"] == ["A", "B"]
    assert body["explanation"] == "A, B tie at 3 and share the win."


def test_a_full_two_set_deck_in_one_hand(client):
    deck = [
        card(color, value)
        for color, values in {
            "red": [1, 1, 2, 2, 2, 3],
            "orange": [1, 1, 2, 2, 2, 3],
            "green": [1, 1, 2, 2, 2, 3],
            "blue": [1, 1, 2, 2, 2, 3],
            "purple": [-3, -3, -2, -2, -2, -1],
            "black_green": [-3, -3, -2, -2, -2, -1],
        }.items()
        for value in values * 2
    ]
    body = client.post(URL, json={"sets": 2, "players": [{"name": "All", "cards": deck}]}).get_json()
    colors = body["players"][0]["colors"]
    assert len(deck) == 72 and len(colors) == 6
    for colour in colors:
        value, used = evaluate(colour["expression"])
        assert value == colour["score"] and sorted(used) == sorted(colour["cards"])
    assert colors[0]["score"] == 2916  # (1+2)^4 × 3^2 × 2^2
    assert body["players"][0]["total"] == sum(c["score"] for c in colors)


def test_scores_beyond_2_to_the_53_are_also_given_as_exact_text(client):
    purple = [card("purple", v) for v, n in {-3: 20, -2: 30, -1: 10}.items() for _ in range(n)]
    body = client.post(URL, json={"sets": 10, "players": [{"name": "A", "cards": purple}]}).get_json()
    colour = body["players"][0]["colors"][0]
    assert colour["score"] == 215892499727278669824 > 2**53  # the group DP's value (tests/games)
    assert colour["score_text"] == "215892499727278669824"
    assert body["players"][0]["total_text"] == "215892499727278669824"


def test_answers_share_nothing_and_leave_the_loaded_request_alone():
    op = find_operation("score_apero")
    loaded = op.request_schema.load(OFFICIAL)
    before = copy.deepcopy(loaded)
    first = op.handler(loaded, "ja")
    first["players"][0]["colors"][0]["cards"].append(99)
    first["players"][0]["colors"][0]["label"] = "?"
    second = op.handler(loaded, "ja")
    assert second["players"][0]["colors"][0]["cards"] == [1]
    assert second["players"][0]["colors"][0]["label"] == "赤"
    assert loaded == before


# -- Bad input ---------------------------------------------------------------------------


def error_of(response):
    assert response.is_json, response.get_data(as_text=True)
    return response.get_json()["error"]


def test_too_many_copies_names_the_card_and_both_counts(client):
    players = [
        {"name": "A", "cards": [card("purple", -3), card("purple", -3)]},
        {"name": "B", "cards": [card("紫", -3)]},
    ]
    response = client.post(URL + "?lang=en", json={"players": players})
    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "too_many_copies"
    assert error["details"] == {
        "players[1].cards[0]": ["3 copies of purple -3 in the request, but 1 set holds only 2."]
    }
    ja = error_of(client.post(URL, json={"players": players}))
    assert ja["message"] == "紫-3が3枚ありますが、1セットには2枚しかありません。"
    assert client.post(URL, json={"sets": 2, "players": players}).status_code == 200


def test_value_the_colour_does_not_have(client):
    response = client.post(URL + "?lang=en", json={"players": [{"name": "A", "cards": [card("red", -2)]}]})
    error = error_of(response)
    assert response.status_code == 400 and error["code"] == "no_such_card"
    assert error["details"] == {"players[0].cards[0]": ["There is no red -2 card (red values: 1 2 3)."]}


@pytest.mark.parametrize(
    "body, path, reason",
    [
        ({"players": []}, "players", "Give between 1 and 20 items."),
        ({}, "players", "This is required."),
        ({"players": [{"name": "A", "cards": []}]}, "players[0].cards", "Give between 1 and 360 items."),
        ({"players": [{"name": "A", "cards": [card("pink", 1)]}]}, "players[0].cards[0].color", None),
        ({"players": [{"name": "A", "cards": [card("red", 4)]}]}, "players[0].cards[0].value", None),
        (
            {"players": [{"name": "A", "cards": [card("red", "1")]}]},
            "players[0].cards[0].value",
            "Not a whole number.",
        ),
        (
            {"players": [{"name": "A", "cards": [card("red", True)]}]},
            "players[0].cards[0].value",
            "Not a whole number.",
        ),
        (
            {"players": [{"name": "A", "cards": [card("red", 1.5)]}]},
            "players[0].cards[0].value",
            "Not a whole number.",
        ),
        ({"players": [{"name": "A", "cards": "red 1"}]}, "players[0].cards", "Enter a list of items."),
        ({"players": [{"name": 7, "cards": [card("red", 1)]}]}, "players[0].name", "Enter some text."),
        ({"players": [{"name": "", "cards": [card("red", 1)]}]}, "players[0].name", "Use between 1 and 40 characters."),
        (
            {"sets": 0, "players": [{"name": "A", "cards": [card("red", 1)]}]},
            "sets",
            "Must be from 1 to 10.",
        ),
        ({"sets": MAX_SETS + 1, "players": [{"name": "A", "cards": [card("red", 1)]}]}, "sets", None),
        (
            {"players": [{"name": "A", "cards": [card("red", 1)], "score": 3}]},
            "players[0].score",
            "This item cannot be used.",
        ),
        (
            {"players": [{"name": "A", "cards": [{"color": "red"}]}]},
            "players[0].cards[0].value",
            "This is required.",
        ),
    ],
)
def test_invalid_input_names_the_field(client, body, path, reason):
    response = client.post(URL + "?lang=en", json=body)
    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid_input"
    assert path in error["details"], error["details"]
    if reason:
        assert error["details"][path] == [reason]


def test_invalid_input_in_japanese(client):
    error = error_of(client.post(URL, json={"players": [{"name": "A", "cards": [card("red", "1")]}]}))
    assert error["message"] == "入力に誤りがあります。details に項目ごとの理由があります。"
    assert error["details"] == {"players[0].cards[0].value": ["整数ではありません。"]}


def test_duplicate_names_are_refused(client):
    players = [{"name": "A", "cards": [card("red", 1)]}, {"name": "A", "cards": [card("red", 2)]}]
    error = error_of(client.post(URL, json={"players": players}))
    assert error["code"] == "duplicate_name"
    assert list(error["details"]) == ["players[1].name"]


def test_caps_at_the_limit_succeed_and_beyond_fail(client):
    many = [{"name": f"P{i}", "cards": [card("red", 1)]} for i in range(MAX_PLAYERS)]
    assert client.post(URL, json={"sets": MAX_SETS, "players": many}).status_code == 200
    more = [*many, {"name": "extra", "cards": [card("red", 2)]}]
    response = client.post(URL, json={"sets": MAX_SETS, "players": more})
    assert response.status_code == 400 and "players" in error_of(response)["details"]
