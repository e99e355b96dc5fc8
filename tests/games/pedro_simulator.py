"""A Pedro table for tests: deals and plays whole hands with a seeded RNG.

Follows docs/rules/pedro.md step by step: deal 9 each, one auction round from the dealer's
left, the high bidder names trump, everyone discards non-trumps, the dealer refills the
others to 6 then takes all remaining trumps (and non-trumps up to 6), a player left with
more than 6 trumps discards non-point trumps down to 6, then six tricks with random legal
cards, led first by the high bidder. Legal cards are picked by :func:`reference_may_play`,
the rulebook's follow rule written out again (not the scorer's ``may_play``); the tests
judge every trick, and every card the scorer allows, with these references.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from scoring_api.games.pedro.auction import PASS, run_auction
from scoring_api.games.pedro.cards import SUITS, TEAM_OF, Card, full_deck, is_trump, next_seat, points_of
from scoring_api.games.pedro.rules import Rules


@dataclass
class PlayedHand:
    dealer: str
    bidder: str
    bid: int
    trump: str
    holdings: dict[str, list[Card]]  # each seat's six (or more) cards when play starts
    tricks: list[tuple[str, list[Card]]]  # (leader, cards in play order)
    two_holder: str | None  # seat holding the 2 of trump when play starts


def _auction_calls(rng: random.Random, rules: Rules) -> list:
    calls, high = [], None
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


def deal_and_play(rng: random.Random, dealer: str, rules: Rules) -> PlayedHand | None:
    """One hand from shuffle to the sixth trick (None if the stock runs dry: redeal)."""
    deck = full_deck()
    rng.shuffle(deck)
    order = [next_seat(dealer, i + 1) for i in range(4)]  # dealer last
    hands = {seat: deck[i * 9 : (i + 1) * 9] for i, seat in enumerate(order)}
    stock = deck[36:]
    auction = run_auction(dealer, _auction_calls(rng, rules), rules)
    trump = rng.choice(SUITS)
    if not discard_and_refill(rng, hands, stock, order, trump):
        return None
    holdings = {seat: list(cards) for seat, cards in hands.items()}
    two = Card("2", trump)
    two_holder = next((seat for seat, cards in hands.items() if two in cards), None)
    tricks, leader = [], auction.seat
    for _ in range(6):
        played = []
        for i in range(4):
            seat = next_seat(leader, i)
            legal = [c for c in hands[seat] if reference_may_play(c, hands[seat], played[0] if played else None, trump)]
            card = rng.choice(legal)
            played.append(card)
        tricks.append((leader, played, {s: list(hands[s]) for s in hands}))
        for i, card in enumerate(played):
            hands[next_seat(leader, i)].remove(card)
        leader = reference_winner(trump, leader, played)
    return PlayedHand(dealer, auction.seat, auction.amount, trump, holdings, tricks, two_holder)


TRUMP_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "low", "4", "3", "2"]
PLAIN_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
SAME_COLOUR = {"H": "D", "D": "H", "S": "C", "C": "S"}


def discard_and_refill(
    rng: random.Random, hands: dict[str, list[Card]], stock: list[Card], order: list[str], trump: str
) -> bool:
    """After the trump is named (docs/rules/pedro.md): every non-trump is discarded, the
    three players in ``order`` before the dealer (its last seat) refill to 6 from
    ``stock``, the dealer takes every trump left in it and refills to 6, and a player over 6
    lets go of random non-point trumps. ``hands`` changes in place; False when the stock
    runs dry (the hand is dealt again)."""
    dealer = order[-1]
    for seat in order:
        hands[seat] = [c for c in hands[seat] if is_trump(c, trump)]
    for seat in order[:3]:
        while len(hands[seat]) < 6:
            if not stock:
                return False
            hands[seat].append(stock.pop())
    hands[dealer] += [c for c in stock if is_trump(c, trump)]
    stock = [c for c in stock if not is_trump(c, trump)]
    while len(hands[dealer]) < 6:
        if not stock:
            return False
        hands[dealer].append(stock.pop())
    for seat in order:
        while len(hands[seat]) > 6:
            spare = [c for c in hands[seat] if not points_of(c, trump)]
            hands[seat].remove(rng.choice(spare))
    return True


def reference_winner(trump: str, leader: str, played: list[Card]) -> str:
    """The rulebook's words, written out again: the highest trump (A K Q J 10 9 8 7 6 5
    Low-Pedro 4 3 2) wins, else the highest card of the led suit."""

    def trump_rank(card):
        if card.rank == "5" and card.suit == SAME_COLOUR[trump]:
            return TRUMP_ORDER.index("low")
        if card.suit == trump:
            return TRUMP_ORDER.index(card.rank)
        return None

    seats = [next_seat(leader, i) for i in range(4)]
    trumps = [(trump_rank(c), s) for c, s in zip(played, seats, strict=True) if trump_rank(c) is not None]
    if trumps:
        return min(trumps)[1]
    led = played[0].suit
    return min((PLAIN_ORDER.index(c.rank), s) for c, s in zip(played, seats, strict=True) if c.suit == led)[1]


def reference_may_play(card: Card, hand: list[Card], led: Card | None, trump: str) -> bool:
    """The rulebook's follow rule (docs/rules/pedro.md, "Tricks"), written out again: if
    trump is led, follow with trump if you can; if a plain suit is led, play that suit or a
    trump; only a player holding neither plays anything. The Low Pedro is a trump only."""

    def suit(c):
        low = c.rank == "5" and c.suit == SAME_COLOUR[trump]
        return trump if low else c.suit

    if led is None:
        return True
    led_suit = suit(led)
    if led_suit == trump:
        holds_trump = any(suit(c) == trump for c in hand)
        return suit(card) == trump or not holds_trump
    may_answer = [c for c in hand if suit(c) in (led_suit, trump)]
    return not may_answer or card in may_answer


def team(seat: str) -> str:
    return TEAM_OF[seat]
