"""Every documented limit (docs/api.md, "Limits"): a request AT the limit succeeds, one beyond
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
    over = post(client, "/api/v1/apero/score", {"sets": MAX_SETS, "players": [*players, players[0] | {"name": "X"}]})
    assert over.status_code == 400 and "players" in over.get_json()["error"]["details"]


def test_pedro_hands_per_game(client):
    hand = {"bid": {"team": "NS", "amount": 7}, "points": {"NS": 0, "EW": 0}}  # set every time
    ok = post(client, "/api/v1/pedro/game", {"hands": [hand] * MAX_HANDS})
    assert ok.status_code == 200 and ok.get_json()["scores"] == {"NS": -7 * MAX_HANDS, "EW": 0}
    over = post(client, "/api/v1/pedro/game", {"hands": [hand] * (MAX_HANDS + 1)})
    assert over.status_code == 400 and "hands" in over.get_json()["error"]["details"]


def test_pedro_target_and_margin(client):
    hand = {"bid": {"team": "NS", "amount": 7}, "points": {"NS": 0, "EW": 0}}
    ok = post(
        client, "/api/v1/pedro/game?lang=en", {"hands": [hand], "rules": {"target": 100, "bidder_out_margin": 100}}
    )
    assert ok.status_code == 200 and ok.get_json()["explanation"] == (
        "After 1 hand: NS -7, EW 0 (target 100). The game goes on."
    )
    over = post(
        client, "/api/v1/pedro/game?lang=en", {"hands": [hand], "rules": {"target": 101, "bidder_out_margin": 101}}
    )
    assert over.status_code == 400 and over.get_json()["error"]["details"] == {
        "rules.target": ["Must be from 1 to 100."],
        "rules.bidder_out_margin": ["Must be from 0 to 100."],
    }


def test_orchard_tiles(client):
    tiles = [{"field": f, "apples": {"red": 1}} for f in range(1, 20)]
    ok = post(client, "/api/v1/applejack/harvest", {"orchard": {"tiles": tiles}, "varieties": ["red"], "die": 1})
    assert ok.status_code == 200 and ok.get_json()["harvests"][0]["areas"][0]["apples"] == 19
    over = post(
        client, "/api/v1/applejack/harvest", {"orchard": {"tiles": [*tiles, tiles[0]]}, "varieties": ["red"], "die": 1}
    )
    assert over.status_code == 400 and "orchard.tiles" in over.get_json()["error"]["details"]


def test_player_names_count_40_characters_as_sent(client):
    """The limit is on the name as sent (the published ``maxLength``); the name is then read
    as players read it, trimmed, or longer when NFKC spells a sign out (docs/rules/README.md)."""

    def score(name):
        return post(
            client,
            "/api/v1/apero/score?lang=en",
            {"players": [{"name": name, "cards": [{"color": "red", "value": 1}]}]},
        )

    assert score("x" * 40).get_json()["winners"] == ["x" * 40]
    assert score("Aki" + " " * 37).get_json()["winners"] == ["Aki"]
    assert score("㍿" * 40).get_json()["winners"] == ["株式会社" * 40]
    for over in ("x" * 41, "Aki" + " " * 38):
        refused = score(over)
        assert refused.status_code == 400
        assert refused.get_json()["error"]["details"] == {"players[0].name": ["Use between 1 and 40 characters."]}


def test_apple_varieties_on_a_tile(client):
    """At most 7 varieties on a tile; beyond, the size is the one reason, values unread."""
    varieties = ["red", "yellow", "pink", "brown", "orange", "green", "gold"]
    tile = {"field": 10, "apples": dict.fromkeys(varieties, 1)}
    ok = post(client, "/api/v1/applejack/harvest", {"orchard": {"tiles": [tile]}, "varieties": ["red"], "die": 1})
    assert ok.status_code == 200, ok.get_json()
    tile["apples"]["silver"] = "not a number"
    over = post(
        client, "/api/v1/applejack/harvest?lang=en", {"orchard": {"tiles": [tile]}, "varieties": ["red"], "die": 1}
    )
    assert over.get_json()["error"]["details"] == {"orchard.tiles[0].apples": ["Give at most 7 items."]}


def test_chat_messages_and_their_length(chat_client, fake_model):
    fake_model.play(reply("はい"))
    many = [{"role": "user", "content": "x" * 4000}] * 30
    assert len(json.dumps({"messages": many})) > 120_000 > LIMIT  # the body limit bites first (no photos)
    assert post(chat_client, "/api/v1/chat", {"messages": many}).status_code == 413
    fits = [{"role": "user", "content": "x" * 4000}] + [{"role": "user", "content": "y"}] * 29
    assert post(chat_client, "/api/v1/chat", {"messages": fits}).status_code == 200
    assert len(fake_model.requests[0]["messages"]) == 31  # the system prompt + 30
    over = post(chat_client, "/api/v1/chat", {"messages": [*fits, {"role": "user", "content": "z"}]})
    assert over.status_code == 400 and "messages" in over.get_json()["error"]["details"]
    long = post(chat_client, "/api/v1/chat", {"messages": [{"role": "user", "content": "x" * 4001}]})
    assert long.status_code == 400 and "messages[0].content" in long.get_json()["error"]["details"]
