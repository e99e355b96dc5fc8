"""The worst VALID request of every operation, timed in-process: the server CPU time a
request within the limits can cost (figures are printed; no test is timed).

    python benchmarks/worst_valid.py [--runs 7] [--only REGEX]

Every operation of the registry has at least one case (the script refuses to run
otherwise), each built at the schemas' limits and answered 200: for Apero all 10 sets
dealt to 20 players (long names, colours kept together) or held in one hand, and advice
with 20 players and 20 table cards of every face; for Pedro the four calls with every
option given, a trick checked against 13 cards a seat, a hand of 24 captured cards and a
game of ``MAX_HANDS`` hands (24 captured cards each, the six point cards among them, or
points given); for Applejack the full orchard of 19 tiles showing 7 varieties with all 30
board beehives and 30 board apples, and the tile to place beside 0-18 tiles; for Fairy &
Black Box 5 players holding the 15 treasures in a tie. Each case is timed as the server
runs it (the Flask test client: routing, the rate limiter, reading, scoring, writing) with
``time.process_time``, the best of ``--runs``; the case over the target (20 ms of CPU) is
flagged. Then each operation's worst case, in registry order.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring_api import create_app
from scoring_api.games import apero
from scoring_api.games.applejack_orchard import FIELDS, outer_edges
from scoring_api.operations.registry import OPERATIONS
from scoring_api.schemas.pedro import MAX_HANDS

#: The target: no valid request costs more server CPU than this (docs/performance.md).
TARGET_MS = 20.0

#: One Apero set (36 cards) as (colour, value) pairs.
APERO_SET = [
    (color, value) for color, values in apero.DECK.items() for value, copies in values.items() for _ in range(copies)
]
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
DECK = [rank + suit for suit in "HDCS" for rank in RANKS]
#: The six point cards with hearts trump: A J 10 of hearts, Pedro, Low Pedro, the 2.
POINT_CARDS = ["AH", "JH", "10H", "5H", "5D", "2H"]
VARIETIES = ["red", "yellow", "pink", "brown", "orange", "green", "gold"]
EDGES = ["e", "se", "sw", "w", "nw", "ne"]
ALL_RULES = {
    "target": 100,
    "min_bid": 7,
    "max_bid": 14,
    "dealer_forced_bid": 7,
    "two_scored_by": "dealt",
    "bidder_out_margin": 7,
    "tie_rule": "extra_hand",
}

#: One client sends every request here: the rate limit stays in the road, never reached.
UNLIMITED = "1000000 per minute"


def long_name(index: int) -> str:
    """A unique 40-character name that NFKC spells out four times longer (㍿ is 株式会社)."""
    return f"{index:02d}" + "㍿" * 38


# -- Apero -----------------------------------------------------------------------------


def apero_card(card: tuple[str, int]) -> dict:
    return {"color": card[0], "value": card[1]}


def apero_deal(cards: list[tuple[str, int]], players: int, together: bool) -> list[list[tuple[str, int]]]:
    """The cards dealt round the table, shuffled, or sorted so that each colour stays with
    few players (the most cards of one colour in one hand)."""
    if together:
        cards = sorted(cards)
        size = -(-len(cards) // players)
        return [cards[size * i : size * (i + 1)] for i in range(players)]
    random.Random(1).shuffle(cards)
    return [cards[i::players] for i in range(players)]


def apero_score(names: bool, together: bool) -> dict:
    hands = apero_deal(APERO_SET * 10, 20, together)
    players = [
        {"name": long_name(i) if names else f"P{i}", "cards": [apero_card(c) for c in hand]}
        for i, hand in enumerate(hands)
    ]
    return {"sets": 10, "players": players}


def apero_one_hand() -> dict:
    return {"sets": 10, "players": [{"name": long_name(0), "cards": [apero_card(c) for c in APERO_SET * 10]}]}


def apero_pick(together: bool) -> dict:
    """10 sets: 20 cards on the table, every one of the 18 faces among them; the other 340
    cards dealt to 20 players with long names."""
    cards = APERO_SET * 10
    faces = list(dict.fromkeys(cards))
    table = faces + faces[:2]
    for card in table:
        cards.remove(card)
    hands = apero_deal(cards, 20, together)
    players = [{"name": long_name(i), "cards": [apero_card(c) for c in hand]} for i, hand in enumerate(hands)]
    return {"sets": 10, "players": players, "me": long_name(0), "table": [apero_card(c) for c in table]}


# -- Pedro -----------------------------------------------------------------------------


def pedro_auction() -> dict:
    return {"dealer": "W", "calls": [7, 8, 9, 14], "rules": ALL_RULES}


def pedro_trick() -> dict:
    """Every card of the deck in the four hands (13 each); hearts led and followed."""
    hands = {seat: DECK[i::4] for i, seat in enumerate("NESW")}
    cards = [next(card for card in hands[seat] if card.endswith("H")) for seat in "NESW"]
    return {"trump": "H", "leader": "N", "cards": cards, "hands": hands, "rules": ALL_RULES}


def captured(rng: random.Random) -> dict:
    """24 cards, the six point cards among them: NS holds A J 10, EW the two fives and
    the 2 (dealt to NS)."""
    others = rng.sample([card for card in DECK if card not in POINT_CARDS], 18)
    return {"NS": POINT_CARDS[:3] + others[:9], "EW": POINT_CARDS[3:] + others[9:]}


def pedro_hand() -> dict:
    hand = {"bid": {"team": "NS", "amount": 14}, "trump": "H", "captured": captured(random.Random(2))}
    return hand | {"two_dealt_to": "NS", "scores_before": {"NS": 93, "EW": 94}, "rules": ALL_RULES}


def pedro_game(cards: bool) -> dict:
    """``MAX_HANDS`` hands, each bid 14 and set, the bid passing from team to team, so
    that both scores fall and the game never ends (NS 4 and EW 10 points a hand)."""
    rng = random.Random(2)
    hands = []
    for index in range(MAX_HANDS):
        hand: dict = {"bid": {"team": "EW" if index % 2 else "NS", "amount": 14}}
        if cards:
            hand |= {"trump": "H", "captured": captured(rng), "two_dealt_to": "NS"}
        else:
            hand["points"] = {"NS": 4, "EW": 10}
        hands.append(hand)
    return {"hands": hands, "rules": ALL_RULES}


# -- Applejack -------------------------------------------------------------------------


def tile(field: int, beehives: list[str] = EDGES) -> dict:
    """A tile at every limit: 7 varieties of 10 apples, 10 blossoms, beehives, price 10."""
    return {"field": field, "apples": dict.fromkeys(VARIETIES, 10), "blossoms": 10, "beehives": beehives, "price": 10}


def board() -> dict:
    """All 30 outer edges with a beehive; 30 board apples on the border fields."""
    border = [field for field in FIELDS if outer_edges(field)]
    beehives = [{"field": f, "edge": edge, "value": 10} for f in border for edge in outer_edges(f)]
    apples = [{"variety": VARIETIES[i % 7], "fields": [border[i % len(border)]]} for i in range(30)]
    return {"beehives": beehives, "apples": apples}


def orchard(fields: list[int]) -> dict:
    return {"tiles": [tile(field) for field in fields], "board": board()}


def printed_tile() -> dict:
    """The tile to place: 7 varieties, one beehive (6 distinct rotations)."""
    return {"apples": dict.fromkeys(VARIETIES, 10), "blossoms": 10, "beehives": ["e"], "price": 10}


def applejack_placements(placed: int) -> dict:
    fields = [field for field in FIELDS if field != 10][:placed]  # field 10 (the centre) last
    return {"orchard": orchard(fields), "tile": printed_tile(), "supply": 10_000}


# -- Fairy & Black Box -----------------------------------------------------------------


def fairy_score(spread: bool) -> dict:
    """5 players with long names, all tied on score and mood: 3 treasures each, or all 15
    in one hand (the others holding none)."""
    per_player = [3] * 5 if spread else [15, 0, 0, 0, 0]
    players = []
    for i, count in enumerate(per_player):
        treasures = [
            {"name": long_name(k), "points": 100 if spread else (100 if k % 2 else -100)} for k in range(count)
        ]
        players.append({"name": long_name(i), "mood": 20, "eliminated": False, "treasures": treasures})
    return {"players": players}


def fairy_next_player() -> dict:
    return {"players": [{"name": long_name(i), "treasure_count": 3} for i in range(4)]}


def fairy_end_check() -> dict:
    return {
        "players": 5,
        "star_deck_runouts": 2,
        "treasure_deck_empty": True,
        "treasure_discard_empty": True,
        "players_left": 1,
    }


class Case(NamedTuple):
    operation_id: str
    name: str
    target: str  # method and path below /api/v1 (a GET's query string included)
    build: Callable[[], dict | None]


ALL_FIELDS = list(FIELDS)
CASES = [
    Case("score_apero", "10 sets dealt to 20 players", "POST /apero/score", lambda: apero_score(False, False)),
    Case(
        "score_apero", "10 sets, 20 players, 40-character names", "POST /apero/score", lambda: apero_score(True, False)
    ),
    Case("score_apero", "10 sets, 20 players, colours together", "POST /apero/score", lambda: apero_score(True, True)),
    Case("score_apero", "one hand of all 10 sets (360 cards)", "POST /apero/score", apero_one_hand),
    Case("apero_pick", "10 sets, 20 players, 20 table cards", "POST /apero/pick", lambda: apero_pick(False)),
    Case("apero_pick", "20 players, colours together, 20 on table", "POST /apero/pick", lambda: apero_pick(True)),
    Case("pedro_auction", "four bids, every option", "POST /pedro/auction", pedro_auction),
    Case("pedro_trick", "13 cards a seat, followed", "POST /pedro/trick", pedro_trick),
    Case("pedro_hand", "24 captured cards, going out", "POST /pedro/hand", pedro_hand),
    Case("pedro_game", f"{MAX_HANDS} hands of 24 captured cards", "POST /pedro/game", lambda: pedro_game(True)),
    Case("pedro_game", f"{MAX_HANDS} hands of points", "POST /pedro/game", lambda: pedro_game(False)),
    Case(
        "applejack_harvest",
        "19 tiles, 7 varieties, full board",
        "POST /applejack/harvest",
        lambda: {"orchard": orchard(ALL_FIELDS), "varieties": VARIETIES[:2], "die": 1},
    ),
    Case(
        "applejack_placement",
        "the 19th tile, 6 beehives",
        "POST /applejack/placement",
        lambda: {"orchard": orchard(ALL_FIELDS[:9] + ALL_FIELDS[10:]), "tile": tile(10), "pay": True},
    ),
    Case(
        "applejack_blossoms",
        "19 tiles, full board",
        "POST /applejack/blossoms",
        lambda: {"orchard": orchard(ALL_FIELDS), "times": 2},
    ),
    Case(
        "applejack_final_score",
        "19 tiles, 7 varieties, full board",
        "POST /applejack/final",
        lambda: {"orchard": orchard(ALL_FIELDS), "supply": 10_000},
    ),
    Case("applejack_starting_honey", "4 players", "GET /applejack/starting-honey?players=4", lambda: None),
    *(
        Case(
            "applejack_placements",
            f"{placed} tiles placed, full board",
            "POST /applejack/placements",
            lambda placed=placed: applejack_placements(placed),
        )
        for placed in (0, 4, 6, 7, 8, 12, 18)
    ),
    Case(
        "score_fairy_black_box",
        "5 players, 3 treasures each, tied",
        "POST /fairy-black-box/score",
        lambda: fairy_score(True),
    ),
    Case(
        "score_fairy_black_box", "15 treasures in one hand", "POST /fairy-black-box/score", lambda: fairy_score(False)
    ),
    Case("fairy_black_box_setup", "5 players", "GET /fairy-black-box/setup?players=5", lambda: None),
    Case("fairy_black_box_end_check", "every condition met", "POST /fairy-black-box/end-check", fairy_end_check),
    Case("fairy_black_box_next_player", "4 players tied", "POST /fairy-black-box/next-player", fairy_next_player),
    Case("rules", "Pedro's whole document in Japanese", "GET /rules?game=pedro&language=ja", lambda: None),
    Case(
        "rules",
        "a section asked in the other language",
        "GET /rules?game=pedro&language=ja&section=Worked%20examples",
        lambda: None,
    ),
]


def cpu_ms(client, method: str, path: str, raw: bytes | None, runs: int) -> tuple[float, int]:
    """The best CPU time of ``runs`` requests, in ms, and the last status."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        if raw is None:
            response = client.open(path, method=method)
        else:
            response = client.open(path, method=method, data=raw, content_type="application/json")
        best = min(best, time.process_time() - start)
    return best * 1000, response.status_code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--only", default="", help="a regular expression: the cases whose operation or name match")
    args = parser.parse_args()
    missing = {op.operation_id for op in OPERATIONS} - {case.operation_id for case in CASES}
    if missing:
        print(f"no worst case for: {', '.join(sorted(missing))}")
        return 1
    client = create_app({"RATE_LIMIT": UNLIMITED}).test_client()
    print(f"{'operation':28} {'case':42} {'body':>7} {'CPU ms':>7}")
    worst: dict[str, tuple[float, str, int]] = {}
    for case in CASES:
        if not re.search(args.only, f"{case.operation_id} {case.name}"):
            continue
        method, path = case.target.split(" ")
        body = case.build()
        raw = None if body is None else json.dumps(body, ensure_ascii=False).encode()
        ms, status = cpu_ms(client, method, "/api/v1" + path, raw, args.runs)
        if status != 200:
            print(f"{case.operation_id} {case.name}: answered {status}, not 200")
            return 1
        size = 0 if raw is None else len(raw)
        flag = f"  over {TARGET_MS:g} ms" if ms > TARGET_MS else ""
        print(f"{case.operation_id:28} {case.name:42} {size:7} {ms:7.2f}{flag}")
        if ms > worst.get(case.operation_id, (-1.0, "", 0))[0]:
            worst[case.operation_id] = (ms, case.name, size)
    print(f"\nEach operation's worst valid request (CPU ms, best of {args.runs}; target {TARGET_MS:g} ms):")
    for op in OPERATIONS:
        if op.operation_id in worst:
            ms, name, size = worst[op.operation_id]
            flag = "  OVER" if ms > TARGET_MS else ""
            print(f"{op.method} {op.path:30} {name:42} {size:7} {ms:7.2f}{flag}")
    over = [op for op, (ms, _, _) in worst.items() if ms > TARGET_MS]
    print(f"over {TARGET_MS:g} ms: {', '.join(over) if over else 'none'}")
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
