"""Every documented limit (README, "Limits"): a request AT the limit succeeds, one beyond
it is refused with a 4xx naming the field, before any scoring work."""

import json

from scoring_api.schemas.apero import MAX_CARDS_PER_PLAYER, MAX_PLAYERS, MAX_SETS
from scoring_api.schemas.pedro import MAX_HANDS
from tests.fake_openai import reply

LIMIT = 64 * 1024


def post(client, url, body):
    return client.post(url, json=body)


def deck(sets):
    per_set = {
        "red": [1, 1, 2, 2, 2, 3],
        "orange": [1, 1, 2, 2, 2, 3],
        "green": [1, 1, 2, 2, 2, 3],
        "blue": [1, 1, 2, 2, 2, 3],
        "purple": [-3, -3, -2, -2, -2, -1],
        "black_green": [-3, -3, -2, -2, -2, -1],
    }
    return [{"color": c, "value": v} for c, values in per_set.items() for v in values * sets]


def test_body_size_at_and_beyond_the_limit(client):
    body = json.dumps({"players": [{"name": "A", "cards": [{"color": "red", "value": 1}]}]}).encode()
    exact = body + b" " * (LIMIT - len(body))
    assert len(exact) == LIMIT
    assert client.post("/api/v1/apero/score", data=exact, content_type="application/json").status_code == 200
    response = client.post("/api/v1/apero/score", data=exact + b" ", content_type="application/json")
    assert response.status_code == 413


def test_apero_cards_and_sets(client):
    everything = deck(MAX_SETS)
    assert len(everything) == MAX_CARDS_PER_PLAYER == 360
    ok = post(client, "/api/v1/apero/score", {"sets": MAX_SETS, "players": [{"name": "A", "cards": everything}]})
    assert ok.status_code == 200 and len(ok.get_json()["players"][0]["colors"]) == 6
    over = post(
        client,
        "/api/v1/apero/score",
        {"sets": MAX_SETS, "players": [{"name": "A", "cards": everything + everything[:1]}]},
    )
    assert over.status_code == 400 and "players[0].cards" in over.get_json()["error"]["details"]
    too_many_sets = post(
        client, "/api/v1/apero/score", {"sets": MAX_SETS + 1, "players": [{"name": "A", "cards": everything[:1]}]}
    )
    assert too_many_sets.status_code == 400 and "sets" in too_many_sets.get_json()["error"]["details"]


def test_apero_players(client):
    players = [{"name": f"P{i}", "cards": [{"color": "red", "value": 1}]} for i in range(MAX_PLAYERS)]
    assert post(client, "/api/v1/apero/score", {"sets": MAX_SETS, "players": players}).status_code == 200
    over = post(client, "/api/v1/apero/score", {"sets": MAX_SETS, "players": players + [players[0] | {"name": "X"}]})
    assert over.status_code == 400 and "players" in over.get_json()["error"]["details"]


def test_pedro_hands_per_game(client):
    hand = {"bid": {"team": "NS", "amount": 7}, "points": {"NS": 0, "EW": 0}}  # set every time
    ok = post(client, "/api/v1/pedro/game", {"hands": [hand] * MAX_HANDS})
    assert ok.status_code == 200 and ok.get_json()["scores"] == {"NS": -7 * MAX_HANDS, "EW": 0}
    over = post(client, "/api/v1/pedro/game", {"hands": [hand] * (MAX_HANDS + 1)})
    assert over.status_code == 400 and "hands" in over.get_json()["error"]["details"]


def test_orchard_tiles(client):
    tiles = [{"field": f, "apples": {"red": 1}} for f in range(1, 20)]
    ok = post(client, "/api/v1/applejack/harvest", {"orchard": {"tiles": tiles}, "varieties": ["red"], "die": 1})
    assert ok.status_code == 200 and ok.get_json()["harvests"][0]["areas"][0]["apples"] == 19
    over = post(
        client, "/api/v1/applejack/harvest", {"orchard": {"tiles": tiles + [tiles[0]]}, "varieties": ["red"], "die": 1}
    )
    assert over.status_code == 400 and "orchard.tiles" in over.get_json()["error"]["details"]


def test_chat_messages_and_their_length(chat_client, fake_model):
    fake_model.play(reply("はい"))
    many = [{"role": "user", "content": "x" * 4000}] * 30
    assert len(json.dumps({"messages": many})) > 120_000 > LIMIT  # the body limit bites first
    fits = [{"role": "user", "content": "x" * 4000}] + [{"role": "user", "content": "y"}] * 29
    assert post(chat_client, "/api/v1/chat", {"messages": fits}).status_code == 200
    assert len(fake_model.requests[0]["messages"]) == 31  # the system prompt + 30
    over = post(chat_client, "/api/v1/chat", {"messages": fits + [{"role": "user", "content": "z"}]})
    assert over.status_code == 400 and "messages" in over.get_json()["error"]["details"]
    long = post(chat_client, "/api/v1/chat", {"messages": [{"role": "user", "content": "x" * 4001}]})
    assert long.status_code == 400 and "messages[0].content" in long.get_json()["error"]["details"]
    assert post(chat_client, "/api/v1/chat", {"messages": many}).status_code == 413
