"""POST /api/v1/applejack/placements: where to place a tile, ranked by the final score."""

from __future__ import annotations

import pytest

URL = "/api/v1/applejack/placements"
BODY = {
    "orchard": {
        "tiles": [
            {"field": 1, "apples": {"red": 3}, "blossoms": 1, "beehives": ["e"], "price": 2},
            {"field": 2, "apples": {"red": 2}, "beehives": ["w", "e"], "price": 1},
        ]
    },
    "tile": {"apples": {"red": 2}, "beehives": ["w"], "price": 3},
    "supply": 5,
}


def test_every_option_best_first_and_the_top_three_explained(client):
    answer = client.post(URL, json=BODY).get_json()
    assert len(answer["options"]) == 17 * 7
    assert (
        answer["best"]
        == answer["options"][0]
        == {
            "field": 3,
            "rotation": 0,
            "beehives": [],
            "pay": False,
            "honey_now": 2,
            "final_if_now": 12,
        }
    )
    tree = next(o for o in answer["options"] if o["field"] == 3 and o["pay"] and o["rotation"] == 0)
    assert (tree["beehives"], tree["honey_now"], tree["final_if_now"]) == (["w"], -2, 12)
    assert answer["explanation"] == (
        "1. 畑3に牧草地の面で置く: いまハチミツ+2、ここで終われば12点。"
        "2. 畑4に牧草地の面で置く: いまハチミツ+2、ここで終われば12点。"
        "3. 畑5に牧草地の面で置く: いまハチミツ+2、ここで終われば12点。"
    )


def test_the_tree_side_is_explained_with_its_beehives_in_english(client):
    body = {**BODY, "orchard": {"tiles": []}, "tile": {"apples": {"red": 10}, "beehives": ["e", "w"], "price": 0}}
    answer = client.post(f"{URL}?lang=en", json=body).get_json()
    assert answer["best"]["pay"] is True
    assert answer["explanation"].startswith(f"1. Field {answer['best']['field']}, tree side up (beehives: ")
    assert "right (e)" in answer["explanation"] or "lower right (se)" in answer["explanation"]


@pytest.mark.parametrize(
    "change, path",
    [
        ({"tile": {"apples": {"red": 2}, "beehives": ["w"]}}, "tile.price"),
        ({"tile": {"apples": {"red": 2}, "beehives": [], "price": 2}}, "tile.beehives"),
        ({"tile": {"beehives": ["w"], "price": 2, "field": 3}}, "tile.field"),
        ({"supply": -1}, "supply"),
    ],
)
def test_a_tile_as_printed_is_required(client, change, path):
    error = client.post(f"{URL}?lang=en", json={**BODY, **change}).get_json()["error"]
    assert error["code"] == "invalid_input" and list(error["details"]) == [path]


def test_a_neighbour_without_its_beehives_is_refused_as_for_a_placement(client):
    body = {**BODY, "orchard": {"tiles": [{"field": 2, "apples": {"red": 2}}]}}
    error = client.post(URL, json=body).get_json()["error"]
    assert error["code"] == "neighbour_beehives_unknown"
    assert list(error["details"]) == ["orchard.tiles[0].beehives"]


def test_a_beehive_edge_given_twice_is_refused_at_the_tile(client):
    body = {**BODY, "tile": {"beehives": ["e", "w", "e"], "price": 1}}
    error = client.post(f"{URL}?lang=en", json=body).get_json()["error"]
    assert error == {
        "code": "printed_beehive_edge_twice",
        "message": "The tile taken lists a beehive on its right (e) edge twice.",
        "details": {"tile.beehives[2]": ["The tile taken lists a beehive on its right (e) edge twice."]},
    }
