"""/api/v1/applejack/*: the contract of docs/api.md, explanations, and clear 400s."""

import pytest

from scoring_api.i18n import LANGS, t

BASE = "/api/v1/applejack"


def error_of(response):
    assert response.status_code == 400, response.get_data(as_text=True)
    return response.get_json()["error"]


# -- Harvest --------------------------------------------------------------------------------

LIGHT_GREEN = {"tiles": [{"field": 1, "apples": {"light_green": 2}}, {"field": 3, "apples": {"light_green": 3}}]}


def test_harvest_rulebook_example_lists_each_area_with_its_fields(client):
    response = client.post(f"{BASE}/harvest", json={"orchard": LIGHT_GREEN, "varieties": ["light_green"], "die": 1})
    assert response.status_code == 200
    body = response.get_json()
    assert body["honey"] == 3
    (harvest,) = body["harvests"]
    assert (harvest["variety"], harvest["die"], harvest["honey"]) == ("light_green", 1, 3)
    assert [(a["fields"], a["board_apples"], a["apples"], a["honey"]) for a in harvest["areas"]] == [
        ([1], [], 2, 1),
        ([3], [], 3, 2),
    ]
    assert harvest["areas"][1]["explanation"] == "light_green・畑3のエリア: リンゴ 3 − ダイス 1 = ハチミツ 2"
    assert harvest["explanation"] == "light_greenの収穫（ダイス1）: エリア2個 → 1 + 2 = ハチミツ 3"
    assert body["explanation"] == "収穫の合計: 3 = ハチミツ 3"


def test_harvest_two_varieties_in_english(client):
    orchard = {
        "tiles": [
            {"field": 10, "apples": {"red": 1, "yellow": 2}},
            {"field": 11, "apples": {"red": 2}},
            {"field": 9, "pasture": True},
            {"field": 8, "apples": {"yellow": 1}},
        ],
        "board": {"apples": [{"variety": "yellow", "fields": [8]}]},
    }
    body = client.post(
        f"{BASE}/harvest?lang=en", json={"orchard": orchard, "varieties": ["red", "yellow"], "die": 2}
    ).get_json()
    red, yellow = body["harvests"]
    assert [(a["fields"], a["apples"], a["honey"]) for a in red["areas"]] == [([10, 11], 3, 1)]
    assert [(a["fields"], a["board_apples"], a["apples"], a["honey"]) for a in yellow["areas"]] == [
        ([8], [0], 2, 0),
        ([10], [], 2, 0),
    ]
    assert yellow["areas"][0]["explanation"] == (
        "yellow, area on field 8 with 1 board apple: 2 apples - die 2 <= 0 -> 0 honey"
    )
    assert body["honey"] == 1
    assert body["explanation"] == "Harvest total: 1 + 0 = 1 honey"


def test_harvest_of_a_variety_not_grown(client):
    body = client.post(
        f"{BASE}/harvest?lang=en", json={"orchard": {"tiles": []}, "varieties": ["pink"], "die": 3}
    ).get_json()
    assert body["honey"] == 0 and body["harvests"][0]["areas"] == []
    assert body["harvests"][0]["explanation"] == "pink harvest (die 3): no pink apples, so 0 honey"


# -- Placement ---------------------------------------------------------------------------------


def test_placement_lists_each_connection(client):
    orchard = {
        "tiles": [{"field": 10, "apples": {"red": 1}, "beehives": ["nw"], "price": 5}],
        "board": {"beehives": [{"field": 1, "edge": "w", "value": 2}]},
    }
    # field 5: se faces field 10 (beehive on its nw edge), ne faces the empty field 2
    tile = {"field": 5, "apples": {"pink": 2}, "beehives": ["se", "ne"], "price": 3}
    body = client.post(f"{BASE}/placement?lang=en", json={"orchard": orchard, "tile": tile, "pay": True}).get_json()
    assert body["connections"] == [
        {
            "edge": "se",
            "neighbour": "tile",
            "neighbour_field": 10,
            "own_value": 3,
            "other_value": 5,
            "honey": 3,
            "explanation": "lower right (se) edge: this tile's beehive 3 meets the beehive 5 of the tile on field 10 -> the lower, 3",
        }
    ]
    assert (body["beehive_honey"], body["cost"], body["pasture_bonus"], body["honey"]) == (3, 3, 0, 0)
    assert body["field"] == 5 and body["as_pasture"] is False
    assert body["explanation"] == "Tree side up on field 5: price -3, 1 beehive connection +3 -> change +0"


def test_placement_at_a_board_beehive(client):
    orchard = {"tiles": [], "board": {"beehives": [{"field": 1, "edge": "w", "value": 2}]}}
    tile = {"field": 1, "apples": {"red": 1}, "beehives": ["w"], "price": 4}
    body = client.post(f"{BASE}/placement", json={"orchard": orchard, "tile": tile, "pay": True}).get_json()
    (connection,) = body["connections"]
    assert (connection["neighbour"], connection["neighbour_field"], connection["honey"]) == ("board", None, 2)
    assert connection["explanation"] == "左の辺: このタイルの巣箱4とボードの巣箱2がつながる → 低い方の2"
    assert body["honey"] == -2


def test_placement_as_pasture(client):
    tile = {"field": 7, "apples": {"red": 3}, "beehives": ["w"], "price": 4}
    body = client.post(
        f"{BASE}/placement?lang=en", json={"orchard": {"tiles": []}, "tile": tile, "pay": False}
    ).get_json()
    assert body == {
        "field": 7,
        "as_pasture": True,
        "connections": [],
        "beehive_honey": 0,
        "cost": 0,
        "pasture_bonus": 2,
        "honey": 2,
        "explanation": "Pasture on field 7: +2 honey (a pasture has no beehives, so no connections)",
    }


# -- Blossoms, final, starting honey ----------------------------------------------------------


def test_blossoms_twice(client):
    orchard = {
        "tiles": [
            {"field": 1, "blossoms": 2},
            {"field": 2, "apples": {"red": 1}, "blossoms": 3},
            {"field": 3, "pasture": True},
        ]
    }
    body = client.post(f"{BASE}/blossoms", json={"orchard": orchard, "times": 2}).get_json()
    assert body == {"blossoms": 5, "times": 2, "honey": 10, "explanation": "花5個 × 2 = ハチミツ 10"}


RULEBOOK_FINAL = {
    "tiles": [
        {"field": 1, "apples": {"brown": 9}, "blossoms": 3},
        {"field": 3, "apples": {"light_green": 7}, "blossoms": 3},
        {"field": 8, "apples": {"red": 6}, "blossoms": 2},
        {"field": 12, "apples": {"pink": 6}, "blossoms": 2},
        {"field": 17, "apples": {"orange": 5}, "blossoms": 2},
        {"field": 19, "apples": {"yellow": 3}},
    ]
}


def test_final_rulebook_example(client):
    body = client.post(f"{BASE}/final?lang=en", json={"orchard": RULEBOOK_FINAL, "supply": 20}).get_json()
    assert [(h["variety"], h["die"], h["honey"]) for h in body["final_harvest"]] == [
        ("brown", 3, 6),
        ("light_green", 3, 4),
        ("red", 3, 3),
        ("pink", 3, 3),
        ("orange", 3, 2),
        ("yellow", 3, 0),
    ]
    assert (body["crop"], body["crop_doubled"], body["variety_bonus"]) == (18, 36, 11)
    assert body["profitable_varieties"] == ["brown", "light_green", "red", "pink", "orange"]
    assert (body["blossoms"], body["supply"], body["total"]) == (12, 20, 79)
    assert body["steps"] == [
        "1. Final harvest (every variety, die 3): 6 + 4 + 3 + 3 + 2 + 0 = 18",
        "2. The final harvest doubled: 18 × 2 = 36",
        "3. 5 variety(ies) yielded honey (brown, light_green, red, pink, orange) -> variety bonus +11 (4/5/6/7 varieties: 4/11/21/35)",
        "4. Last blossom scoring (once): 12 blossoms -> +12",
        "5. Honey in supply +20",
    ]
    assert body["explanation"] == "Total: 36 + 11 + 12 + 20 = 79 honey"


def test_final_of_an_empty_orchard(client):
    body = client.post(f"{BASE}/final", json={"orchard": {"tiles": []}, "supply": 7}).get_json()
    assert (body["final_harvest"], body["crop"], body["variety_bonus"], body["total"]) == ([], 0, 0, 7)
    assert body["steps"][0] == "1. 最後の収穫（全品種、ダイス3）: 0 = 0"
    assert body["steps"][2].startswith("3. ハチミツを得た品種0種類（なし）")


@pytest.mark.parametrize("players, honey", [(1, [14]), (2, [16, 20]), (3, [16, 19, 22]), (4, [16, 18, 20, 22])])
def test_starting_honey(client, players, honey):
    body = client.get(f"{BASE}/starting-honey?players={players}").get_json()
    assert body["honey"] == honey and body["players"] == players


def test_starting_honey_explained(client):
    assert client.get(f"{BASE}/starting-honey?players=3&lang=en").get_json()["explanation"] == (
        "3 players: seat 1: 16, seat 2: 19, seat 3: 22"
    )
    assert client.get(f"{BASE}/starting-honey?players=1").get_json()["explanation"] == "ソロ: 初期ハチミツ14個"


@pytest.mark.parametrize("query", ["players=0", "players=5", "players=two", ""])
def test_starting_honey_bad_players(client, query):
    error = error_of(client.get(f"{BASE}/starting-honey?{query}"))
    assert error["code"] == "invalid_input" and "players" in error["details"]


# -- Refusals: schema (invalid_input) -------------------------------------------------------


def harvest_body(tiles, **extra):
    return {"orchard": {"tiles": tiles, **extra}, "varieties": ["red"], "die": 1}


@pytest.mark.parametrize(
    "body, path",
    [
        (harvest_body([{"field": 0, "apples": {"red": 1}}]), "orchard.tiles[0].field"),
        (harvest_body([{"field": 20, "apples": {"red": 1}}]), "orchard.tiles[0].field"),
        (harvest_body([{"field": 1, "apples": {"red": -1}}]), "orchard.tiles[0].apples.red.value"),
        (harvest_body([{"field": 1, "apples": {"red": 11}}]), "orchard.tiles[0].apples.red.value"),
        (harvest_body([{"field": 1, "blossoms": -1}]), "orchard.tiles[0].blossoms"),
        (harvest_body([{"field": 1, "beehives": ["north"], "price": 1}]), "orchard.tiles[0].beehives[0]"),
        (harvest_body([{"field": 1, "price": -2}]), "orchard.tiles[0].price"),
        (harvest_body([{"field": 1, "pasture": 1}]), "orchard.tiles[0].pasture"),
        (harvest_body([{"field": 1, "apples": {f"v{i}": 1 for i in range(8)}}]), "orchard.tiles[0].apples"),
        (harvest_body([{"field": f} for f in [*list(range(1, 20)), 1]]), "orchard.tiles"),
        (
            harvest_body([], board={"beehives": [{"field": 1, "edge": "up", "value": 2}]}),
            "orchard.board.beehives[0].edge",
        ),
        (
            harvest_body([], board={"apples": [{"variety": "red", "fields": [1, 2, 4]}]}),
            "orchard.board.apples[0].fields",
        ),
        ({"orchard": {"tiles": []}, "varieties": ["red"], "die": 0}, "die"),
        ({"orchard": {"tiles": []}, "varieties": ["red"], "die": 4}, "die"),
        ({"orchard": {"tiles": []}, "varieties": [], "die": 1}, "varieties"),
        ({"orchard": {"tiles": []}, "varieties": ["a", "b", "c"], "die": 1}, "varieties"),
        ({"orchard": {"tiles": [], "extra": 1}, "varieties": ["red"], "die": 1}, "orchard.extra"),
    ],
)
def test_schema_refusals_name_the_field(client, body, path):
    error = error_of(client.post(f"{BASE}/harvest?lang=en", json=body))
    assert error["code"] == "invalid_input"
    assert path in error["details"], error["details"]


def test_other_schema_refusals(client):
    assert (
        error_of(client.post(f"{BASE}/blossoms", json={"orchard": {"tiles": []}, "times": 3}))["code"]
        == "invalid_input"
    )
    assert (
        error_of(client.post(f"{BASE}/final", json={"orchard": {"tiles": []}, "supply": -1}))["code"] == "invalid_input"
    )
    error = error_of(
        client.post(f"{BASE}/placement", json={"orchard": {"tiles": []}, "tile": {"field": 1}, "pay": "yes"})
    )
    assert list(error["details"]) == ["pay"]


# -- Refusals: rules (their own codes) --------------------------------------------------------


@pytest.mark.parametrize(
    "orchard, code, path, message",
    [
        (
            {"tiles": [{"field": 5, "apples": {"red": 1}}, {"field": 5}]},
            "field_used_twice",
            "orchard.tiles[1].field",
            "Field 5 holds two tiles; a field takes one tile.",
        ),
        (
            {"tiles": [{"field": 2, "pasture": True, "apples": {"red": 2}}]},
            "pasture_with_features",
            "orchard.tiles[0].apples",
            "The pasture on field 2 is given apples; a pasture shows nothing (no apples, blossoms, beehives or price).",
        ),
        (
            {"tiles": [], "board": {"beehives": [{"field": 10, "edge": "e", "value": 3}]}},
            "board_beehive_inner_edge",
            "orchard.board.beehives[0].edge",
            "The right (e) edge of field 10 is not on the board's rim; board beehives sit on outer edges (this field's outer edges: none).",
        ),
        (
            {"tiles": [], "board": {"apples": [{"variety": "red", "fields": [5]}]}},
            "board_apple_not_border",
            "orchard.board.apples[0].fields[0]",
            "Field 5 is not a border field; board apples lie on the rim, next to border fields.",
        ),
        (
            {"tiles": [], "board": {"apples": [{"variety": "red", "fields": [1, 3]}]}},
            "board_apple_fields_apart",
            "orchard.board.apples[0].fields",
            "Fields 1, 3 are given as touching a board apple, but they do not meet at the rim; an apple touches one border field or two neighbours meeting at the rim.",
        ),
        (
            {
                "tiles": [{"field": f, "apples": {f"v{f}": 1}} for f in range(1, 8)],
                "board": {"apples": [{"variety": "v8", "fields": [8]}]},
            },
            "too_many_varieties",
            "orchard.board.apples[0].variety",
            "8 apple varieties are named (v1, v2, v3, v4, v5, v6, v7, v8); the game has at most 7.",
        ),
    ],
)
def test_rule_refusals_in_english(client, orchard, code, path, message):
    body = {"orchard": orchard, "varieties": ["v1"], "die": 1}
    error = error_of(client.post(f"{BASE}/harvest?lang=en", json=body))
    assert error["code"] == code
    assert error["message"] == message
    assert error["details"] == {path: [message]}


def test_rule_refusals_in_japanese(client):
    orchard = {"tiles": [], "board": {"beehives": [{"field": 1, "edge": "e", "value": 3}]}}
    error = error_of(client.post(f"{BASE}/final", json={"orchard": orchard, "supply": 0}))
    assert error["message"] == (
        "畑1の右の辺はボードの外周ではありません。ボードの巣箱は外周の辺にあります"
        "（この畑の外周の辺: 左、左上、右上）。"
    )


def test_a_variety_name_that_cannot_be_shown_is_refused_not_a_crash(client):
    raw = '{"orchard": {"tiles": [{"field": 1, "apples": {"\\ud800": 1}}]}, "varieties": ["red"], "die": 1}'
    error = error_of(client.post(f"{BASE}/harvest?lang=en", data=raw, content_type="application/json"))
    assert error["code"] == "invalid_json"  # the shared reader refuses lone surrogates
    assert "lone surrogate" in error["message"]


@pytest.mark.parametrize(
    "tile, pay, code, path",
    [
        ({"field": 10, "apples": {"red": 1}, "beehives": ["e"], "price": 1}, True, "field_occupied", "tile.field"),
        ({"field": 11, "pasture": True}, True, "pasture_not_bought", "pay"),
        ({"field": 11, "apples": {"red": 1}}, True, "price_required", "tile.price"),
        ({"field": 11, "price": 2}, True, "beehives_required", "tile.beehives"),
        ({"field": 11, "beehives": ["e", "e"], "price": 2}, True, "beehive_edge_twice", "tile.beehives[1]"),
        (
            {"field": 11, "beehives": ["sw"], "price": 2},
            True,
            "neighbour_beehives_unknown",
            "orchard.tiles[1].beehives",
        ),
    ],
)
def test_placement_refusals(client, tile, pay, code, path):
    orchard = {
        "tiles": [
            {"field": 10, "apples": {"red": 2}, "beehives": ["e"], "price": 3},
            {"field": 15, "apples": {"red": 1}},
        ]
    }
    error = error_of(client.post(f"{BASE}/placement?lang=en", json={"orchard": orchard, "tile": tile, "pay": pay}))
    assert error["code"] == code and list(error["details"]) == [path]


def test_a_full_orchard_at_the_limits(client):
    tiles = [
        {
            "field": f,
            "apples": {f"v{f % 7}": 10},
            "blossoms": 10,
            "beehives": ["e", "se", "sw", "w", "nw", "ne"],
            "price": 10,
        }
        for f in range(1, 20)
    ]
    outer = [{"field": 1, "edge": e, "value": 10} for e in ("w", "nw", "ne")]
    apples = [{"variety": "v1", "fields": [1, 2]}] * 30
    body = client.post(
        f"{BASE}/final",
        json={"orchard": {"tiles": tiles, "board": {"beehives": outer, "apples": apples}}, "supply": 10_000},
    ).get_json()
    assert body["blossoms"] == 190 and len(body["profitable_varieties"]) == 7 and body["variety_bonus"] == 35
    assert body["total"] == body["crop_doubled"] + 35 + 190 + 10_000


# -- Sentences ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_area_sentences_name_the_place_of_the_area(client, lang):
    orchard = {
        "tiles": [{"field": 8, "apples": {"red": 2}}, {"field": 10, "apples": {"red": 1}}],
        "board": {"apples": [{"variety": "red", "fields": [8]}, {"variety": "red", "fields": [1, 2]}]},
    }
    body = client.post(f"{BASE}/harvest?lang={lang}", json={"orchard": orchard, "varieties": ["red"], "die": 1})
    places = [
        t("applejack.place_fields_board", lang, fields_text=8, fields=1, count=1),
        t("applejack.place_fields", lang, fields_text=10, fields=1),
        t("applejack.place_board_alone", lang, fields_text=t("text.list_separator", lang).join(["1", "2"]), fields=2),
    ]
    areas = body.get_json()["harvests"][0]["areas"]
    assert [(a["fields"], a["board_apples"], a["apples"], a["honey"]) for a in areas] == [
        ([8], [0], 3, 2),
        ([10], [], 1, 0),
        ([], [1], 1, 0),
    ]
    for area, place in zip(areas, places, strict=True):
        key = "applejack.area" if area["honey"] else "applejack.area_nothing"
        expected = t(key, lang, variety="red", place=place, apples=area["apples"], die=1, honey=area["honey"])
        assert area["explanation"] == expected
