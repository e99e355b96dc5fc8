"""How many hands a whole Pedro game takes: many random games, seeded, played with the
service's own rules, for each target (figures are printed; no test is timed).

    python benchmarks/pedro_games.py [--games 20000] [--targets 1-100] [--seed 27] [--jobs N]
                                     [--rule min_bid=6 ...]

Each hand is dealt and played as docs/rules/pedro.md has it, with the functions of
``scoring_api/games/pedro``: a shuffled deck, 9 cards each, one auction round of random but
legal calls from the dealer's left (checked by ``run_auction``; the dealer bids the forced
amount after three passes), the high bidder names the suit it holds most trumps of, every
non-trump is discarded, the dealer refills the others to 6 and takes every remaining
trump (a deal that runs the stock dry is dealt again), a player over 6 cards lets go of
non-point trumps, then six tricks of random cards that ``may_play`` allows, won as
``winning_play`` says. The hand's points come from ``hand_points`` (the 2 of trump to the
team dealt it), and ``settle`` moves the scores and ends the game (target, bidder goes
out, the extra hand). The deal passes to the left after every hand.

The players look at neither the score nor their cards when they bid, so a hand's outcome
does not depend on the target: every target replays the same hands of each game, and a
game's length grows with the target in one run. The bidding team makes its bid in 44% of
the hands, less often than players who bid on their cards, so the games run long: the
lengths are on the generous side.

Printed per target: the median, the 99th and 99.99th percentiles (nearest rank) and the
maximum of the hands per game, then the largest of each over the targets, and whether
each target's 99.99th percentile fits ``MAX_HANDS``. The defaults (every target the
schema allows) take several minutes: one game's hands are dealt once, then settled again
for each target. Figures: docs/rules/pedro.md, "Decisions", 16.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring_api.games.pedro.auction import PASS, run_auction
from scoring_api.games.pedro.cards import (
    SEATS,
    SUITS,
    TEAM_OF,
    Card,
    full_deck,
    is_trump,
    next_seat,
    seats_from,
    two_of_trump,
)
from scoring_api.games.pedro.rules import Rules
from scoring_api.games.pedro.scoring import hand_points, settle
from scoring_api.games.pedro.tricks import may_play, winning_play
from scoring_api.schemas.pedro import MAX_HANDS, MAX_TARGET
from tests.games.pedro_simulator import discard_and_refill  # the deal, as the rules' tests play it

#: A played hand as settlement takes it: (bidding team, bid, each team's points).
Outcome = tuple[str, int, dict[str, int]]


def auction_calls(rng: random.Random, rules: Rules) -> list[int | str]:
    """Four legal calls from the dealer's left: each of the first three bids (40%) a
    random amount up to 2 above the lowest it may bid, or passes; the dealer bids the same
    way after a bid, and the forced amount after three passes."""
    calls: list[int | str] = []
    high: int | None = None
    for index in range(4):
        if index == 3 and high is None:
            calls.append(rules.dealer_forced_bid)
            break
        lowest = rules.min_bid if high is None else high + 1
        if lowest <= rules.max_bid and rng.random() < 0.4:
            high = rng.randint(lowest, min(rules.max_bid, lowest + 2))
            calls.append(high)
        else:
            calls.append(PASS)
    return calls


def deal(rng: random.Random, dealer: str, rules: Rules) -> Outcome | None:
    """One hand from the shuffle to the sixth trick; None when the stock runs dry before
    play (the same dealer deals again)."""
    deck = full_deck()
    rng.shuffle(deck)
    order = seats_from(next_seat(dealer))  # the dealer last
    hands = {seat: deck[i * 9 : (i + 1) * 9] for i, seat in enumerate(order)}
    stock = deck[36:]
    auction = run_auction(dealer, auction_calls(rng, rules), rules)
    trumps_held = {suit: sum(is_trump(card, suit) for card in hands[auction.seat]) for suit in SUITS}
    trump = rng.choice([suit for suit in SUITS if trumps_held[suit] == max(trumps_held.values())])
    if not discard_and_refill(rng, hands, stock, order, trump):
        return None
    two: Card = two_of_trump(trump)
    two_team = next((TEAM_OF[seat] for seat, cards in hands.items() if two in cards), None)
    captured: dict[str, list[Card]] = {"NS": [], "EW": []}
    leader = auction.seat
    for _ in range(6):
        plays: list[tuple[str, Card]] = []
        for seat in seats_from(leader):
            led = plays[0][1] if plays else None
            card = rng.choice([c for c in hands[seat] if may_play(c, hands[seat], led, trump)])
            hands[seat].remove(card)
            plays.append((seat, card))
        leader = winning_play(plays, trump)[0]
        captured[TEAM_OF[leader]] += [card for _, card in plays]
    points = hand_points(trump, captured, rules, two_team).points
    return auction.team, auction.amount, points


def game_lengths(seed: int, games: range, targets: list[int], rules: Rules) -> dict[int, list[int]]:
    """Hands per game for each target, for the games numbered ``games`` (game ``g`` draws
    its deals from ``random.Random(f"{seed}-{g}")``, whatever the other games)."""
    lengths: dict[int, list[int]] = {target: [] for target in targets}
    table = {target: replace(rules, target=target).check() for target in targets}
    for number in games:
        rng = random.Random(f"{seed}-{number}")
        dealer = rng.choice(SEATS)
        outcomes: list[Outcome] = []
        for target in targets:
            scores = {"NS": 0, "EW": 0}
            played = 0
            while True:
                while played >= len(outcomes):
                    outcome = deal(rng, dealer, rules)
                    if outcome is not None:
                        outcomes.append(outcome)
                        dealer = next_seat(dealer)
                team, bid, points = outcomes[played]
                result = settle(team, bid, scores, points, table[target])
                played += 1
                if result.game_over:
                    break
                scores = result.scores_after
            lengths[target].append(played)
    return lengths


def percentile(sorted_values: list[int], share: float) -> int:
    """Nearest rank: the smallest value at or above ``share`` of the values."""
    return sorted_values[max(0, math.ceil(share * len(sorted_values)) - 1)]


def parse_targets(text: str) -> list[int]:
    """``1-100``, ``50,62,100`` or ``100-1000/100`` (a step)."""
    targets: list[int] = []
    for part in text.split(","):
        span, _, step = part.partition("/")
        low, _, high = span.partition("-")
        targets += range(int(low), int(high or low) + 1, int(step or 1))
    return sorted(set(targets))


def parse_rule(text: str) -> tuple[str, int | str]:
    name, _, value = text.partition("=")
    return name, int(value) if value.lstrip("-").isdigit() else value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--targets", default=f"1-{MAX_TARGET}", help="e.g. 1-100, 50,62,100 or 100-1000/100")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes sharing the games")
    parser.add_argument("--rule", action="append", default=[], help="a rules option, e.g. min_bid=6")
    parser.add_argument("--all", action="store_true", help="print every target (default: a selection)")
    args = parser.parse_args()
    rules = Rules(**dict(map(parse_rule, args.rule))).check()
    targets = parse_targets(args.targets)
    chunks = [range(start, args.games, args.jobs) for start in range(args.jobs)]
    lengths: dict[int, list[int]] = {target: [] for target in targets}
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(game_lengths, [args.seed] * args.jobs, chunks, [targets] * args.jobs, [rules] * args.jobs):
            for target, values in part.items():
                lengths[target] += values
    options = ", ".join(f"{k}={v}" for k, v in rules.as_dict().items() if k != "target")
    print(f"{args.games} games per target, seed {args.seed}; rules: {options}; MAX_HANDS = {MAX_HANDS}")
    print(f"{'target':>6} {'median':>7} {'p99':>5} {'p99.99':>7} {'max':>5}")
    shown = set(targets) if args.all or len(targets) <= 40 else {t for t in targets if t % 10 == 0 or t in (1, 62)}
    rows = []
    for target in targets:
        values = sorted(lengths[target])
        row = (target, statistics.median(values), percentile(values, 0.99), percentile(values, 0.9999), values[-1])
        rows.append(row)
        if target in shown or target == targets[-1]:
            print(f"{row[0]:6} {row[1]:7g} {row[2]:5} {row[3]:7} {row[4]:5}")
    for column, label in ((3, "p99.99"), (4, "max")):
        top = max(rows, key=lambda row: (row[column], row[0]))
        print(f"largest {label} over targets {targets[0]}-{targets[-1]}: {top[column]} hands (target {top[0]})")
    over = [row[0] for row in rows if row[3] > MAX_HANDS]
    if over:
        print(f"p99.99 over MAX_HANDS ({MAX_HANDS}) for {len(over)} targets, from {over[0]}")
    else:
        print(f"every target's p99.99 fits MAX_HANDS ({MAX_HANDS})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
