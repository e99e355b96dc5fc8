"""The largest VALID request of each heavy operation, timed in-process: the server time a
request within the limits can cost (figures are printed; no test is timed).

    python benchmarks/worst_valid.py [--runs 5]

Each request is built at the schemas' limits and must be answered 200: Apero with all 10
sets dealt to 20 players and with one player holding all 10 sets, Apero advice with 20
players and 20 table cards at 10 sets, a Pedro game of 200
hands each with 24 captured cards (and one with points given), an Applejack orchard of 19
tiles with 7 varieties, Fairy & Black Box with 5 players holding the 15 treasures. It
prints the best of ``--runs`` runs through the WSGI app (Flask test client), in ms.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring_api import create_app
from scoring_api.games import apero

#: One Apero set (36 cards) as (colour, value) pairs.
APERO_SET = [
    (color, value) for color, values in apero.DECK.items() for value, copies in values.items() for _ in range(copies)
]
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
DECK = [rank + suit for suit in "HDCS" for rank in RANKS]


#: One client sends every request here: the rate limit stays in the road, never reached.
UNLIMITED = "1000000 per minute"


def apero_dealt() -> dict:
    cards = APERO_SET * 10
    random.Random(1).shuffle(cards)
    players = [{"name": f"P{i}", "cards": [{"color": c, "value": v} for c, v in cards[i::20]]} for i in range(20)]
    return {"sets": 10, "players": players}


def apero_pick() -> dict:
    """10 sets: 20 players holding 17 cards each, 20 cards on the table."""
    cards = APERO_SET * 10
    random.Random(3).shuffle(cards)
    players = [
        {"name": f"P{i}", "cards": [{"color": c, "value": v} for c, v in cards[17 * i : 17 * (i + 1)]]}
        for i in range(20)
    ]
    table = [{"color": c, "value": v} for c, v in cards[340:360]]
    return {"sets": 10, "players": players, "me": "P0", "table": table}


def apero_one_hand() -> dict:
    return {"sets": 10, "players": [{"name": "A", "cards": [{"color": c, "value": v} for c, v in APERO_SET * 10]}]}


def pedro_game(captured: bool) -> dict:
    rng = random.Random(2)
    hands = []
    for index in range(200):
        hand: dict = {"bid": {"team": "NS" if index % 2 else "EW", "amount": 14}}  # set: nobody nears the target
        if captured:
            cards = rng.sample(DECK, 24)
            hand |= {"trump": "H", "captured": {"NS": cards[:12], "EW": cards[12:]}, "two_dealt_to": "NS"}
        else:
            hand["points"] = {"NS": 4, "EW": 0}
        hands.append(hand)
    return {"hands": hands}


def applejack_final() -> dict:
    varieties = ["red", "yellow", "pink", "brown", "orange", "green", "gold"]
    tiles = [
        {
            "field": field,
            "apples": {varieties[(field + k) % 7]: 10 for k in range(2)},
            "blossoms": 10,
            "beehives": ["e", "w"],
            "price": 10,
        }
        for field in range(1, 20)
    ]
    return {"orchard": {"tiles": tiles}, "supply": 10000}


def applejack_placements() -> dict:
    """18 tiles placed, the 19th to place with one beehive (6 rotations), enough honey."""
    orchard = applejack_final()["orchard"]
    orchard["tiles"] = orchard["tiles"][:18]
    return {
        "orchard": orchard,
        "tile": {"apples": {"red": 10}, "blossoms": 2, "beehives": ["e"], "price": 3},
        "supply": 100,
    }


def applejack_placements_empty() -> dict:
    """An empty orchard: all 19 fields, 6 rotations and the pasture."""
    return {"orchard": {"tiles": []}, "tile": {"apples": {"red": 10}, "beehives": ["e"], "price": 3}, "supply": 100}


def fairy_score() -> dict:
    players = [
        {
            "name": f"P{i}",
            "mood": 5,
            "eliminated": False,
            "treasures": [{"name": f"t{i}{k}", "points": 100} for k in range(3)],
        }
        for i in range(5)
    ]
    return {"players": players}


CASES = {
    "apero: 10 sets dealt to 20 players": ("/api/v1/apero/score", apero_dealt),
    "apero: one hand of all 10 sets (360 cards)": ("/api/v1/apero/score", apero_one_hand),
    "apero pick: 10 sets, 20 players, 20 table cards": ("/api/v1/apero/pick", apero_pick),
    "pedro game: 200 hands of 24 captured cards": ("/api/v1/pedro/game", lambda: pedro_game(True)),
    "pedro game: 200 hands of points": ("/api/v1/pedro/game", lambda: pedro_game(False)),
    "applejack final: 19 tiles, 7 varieties": ("/api/v1/applejack/final", applejack_final),
    "applejack placements: 18 tiles placed, the 19th": ("/api/v1/applejack/placements", applejack_placements),
    "applejack placements: an empty orchard": ("/api/v1/applejack/placements", applejack_placements_empty),
    "fairy score: 5 players, 15 treasures": ("/api/v1/fairy-black-box/score", fairy_score),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    client = create_app({"RATE_LIMIT": UNLIMITED}).test_client()
    print(f"{'request':48} {'body':>8} {'ms':>8} {'status':>6}")
    worst = (0.0, "")
    for name, (path, build) in CASES.items():
        raw = json.dumps(build(), ensure_ascii=False).encode()
        best = float("inf")
        for _ in range(args.runs):
            start = time.perf_counter()
            response = client.post(path, data=raw, content_type="application/json")
            best = min(best, time.perf_counter() - start)
        if response.status_code != 200:
            print(f"{name}: {response.status_code} {response.get_data(as_text=True)[:300]}")
            return 1
        print(f"{name:48} {len(raw):8} {best * 1000:8.2f} {response.status_code:6}")
        worst = max(worst, (best * 1000, name))
    print(f"worst valid request: {worst[0]:.2f} ms ({worst[1]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
