"""Apero scorer speed: median time per hand, printed as figures (not a test).

    python benchmarks/apero_speed.py            # all cases
    python benchmarks/apero_speed.py --quick    # fewer repetitions

Cases: (a) one 12-card hand, (b) one hand holding a full 2-set deck (72 cards),
(c) the worst legal request at the sets cap: one hand holding all 10 sets (360 cards).
Each is timed on the pure scorer and through the HTTP stack (Flask test client, no
network). For scale it also times the plain sub-multiset DP of the tests on 36 cards of
one colour, the approach the fast algorithm replaces.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring_api import create_app
from scoring_api.games import apero
from scoring_api.schemas.apero import MAX_PLAYERS, MAX_SETS

#: One client sends every request here: the rate limit stays in the road, never reached.
UNLIMITED = "1000000 per minute"


def deck(sets: int) -> list[tuple[str, int]]:
    return [(c, v) for c in apero.COLORS for v, n in apero.DECK[c].items() for _ in range(n * sets)]


def median_ms(run, repeat: int) -> float:
    run()  # warm caches the way a running server has them
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeat = 20 if args.quick else 200
    rng = random.Random(2)
    hands12 = [rng.sample(deck(1), 12) for _ in range(50)]
    everything = deck(MAX_SETS)
    rng.shuffle(everything)
    dealt = [everything[i::MAX_PLAYERS] for i in range(MAX_PLAYERS)]
    cases = {
        "(a) 12-card hand, 1 set": (hands12, 1),
        "(b) full 2-set deck in one hand (72 cards)": ([deck(2)], 2),
        f"(c) all {MAX_SETS} sets in one hand ({36 * MAX_SETS} cards)": ([deck(MAX_SETS)], MAX_SETS),
    }
    games = {f"(c') {MAX_SETS} sets dealt to {MAX_PLAYERS} players (one request)": (dealt, MAX_SETS)}
    client = create_app({"RATE_LIMIT": UNLIMITED}).test_client()
    print(f"Apero scorer, median of {repeat} runs (Python {sys.version.split()[0]})")
    print(f"{'case':56} {'scorer ms':>10} {'HTTP ms':>10}")
    for label, (hands, sets) in cases.items():

        def score_all():
            for hand in hands:
                apero.score_game([("P", hand)], sets)

        bodies = [
            {"sets": sets, "players": [{"name": "P", "cards": [{"color": c, "value": v} for c, v in hand]}]}
            for hand in hands
        ]

        def post_all():
            for body in bodies:
                assert client.post("/api/v1/apero/score", json=body).status_code == 200

        n = len(hands)
        print(
            f"{label:56} {median_ms(score_all, repeat) / n:10.3f} {median_ms(post_all, max(5, repeat // 10)) / n:10.3f}"
        )

    for label, (hands, sets) in games.items():
        players = [(f"P{i}", hand) for i, hand in enumerate(hands)]
        body = {
            "sets": sets,
            "players": [{"name": name, "cards": [{"color": c, "value": v} for c, v in hand]} for name, hand in players],
        }
        scorer = median_ms(lambda: apero.score_game(players, sets), repeat)
        http = median_ms(lambda: client.post("/api/v1/apero/score", json=body), max(5, repeat // 10))
        print(f"{label:56} {scorer:10.3f} {http:10.3f}")

    from tests.games.apero_reference import best_worst

    values = [v for v, n in apero.DECK["purple"].items() for _ in range(n * 6)]
    start = time.perf_counter()
    best_worst(values)
    plain = time.perf_counter() - start
    fast = median_ms(lambda: apero.score_color("purple", values), repeat)
    print(f"36 purple cards: plain sub-multiset DP {plain * 1000:.0f} ms once, fast scorer {fast:.3f} ms")


if __name__ == "__main__":
    main()
