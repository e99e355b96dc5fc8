"""Pedro over HTTP: ``/api/v1/pedro/auction``, ``/trick``, ``/hand`` and ``/game``.

Explanations: every sentence is read from the catalogue once per language at import, with
positional placeholders (:func:`~scoring_api.i18n.positional`), and the sentences that go together are run
together into one template per case (:data:`HAND_TEXTS` and the like); a request picks its
case and fills it with one ``str.format``.
"""

from __future__ import annotations

from ..games.errors import RuleError
from ..games.pedro.auction import PASS, run_auction
from ..games.pedro.cards import CARD_TEXTS, IN_PLAY, OTHER_TEAM, SUITS, parse_cards, parse_suit
from ..games.pedro.game import play_game
from ..games.pedro.rules import TWO_SCORED_BY, Rules
from ..games.pedro.scoring import (
    POINT_CARDS,
    TWO_POINT_CARDS,
    TWOS,
    PointCard,
    Settlement,
    check_game_running,
    check_points,
    hand_points,
    settle,
)
from ..games.pedro.tricks import play_trick
from ..i18n import LANGS, LIST_SEPARATORS, positional, run_together, t
from ..operation import Operation, operation
from ..schemas import pedro as schemas

#: This game's operations, in the order they are listed (see scoring_api.operations).
OPERATIONS: list[Operation] = []

SUIT_SIGNS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}
#: ``、`` or ``, `` by language (:func:`scoring_api.i18n.join_list`'s separator).


def _rules(request: dict) -> Rules:
    return request["rules"].check()


def _display_facts(facts: dict, lang: str) -> dict:
    """Refusal facts shown in the player's language: the point values and the possible
    totals of an impossible split (``1、1、1、1、5、5``; ``0、5、10 点のどれか`` / ``one of 0, 5, 10``)."""
    if "possible" not in facts:
        return {}
    separator = LIST_SEPARATORS[lang]
    possible = facts["possible"]
    key = "pedro.impossible_points_many" if len(possible) > 1 else "pedro.impossible_points_one"
    return {
        "values": separator.join(map(str, facts["values"])),
        "possible": t(key, lang, totals=separator.join(map(str, possible))),
    }


# -- Auction --------------------------------------------------------------------------------

#: What fills an auction's explanation, in this order.
AUCTION_FACTS = ("dealer", "calls", "seat", "team", "amount")
#: ``AUCTION_TEXTS[forced][lang]``: the calls, then the high bid or the dealer's forced bid.
AUCTION_TEXTS = {
    forced: run_together(
        [
            positional("pedro.auction_calls", *AUCTION_FACTS),
            positional("pedro.auction_forced" if forced else "pedro.auction_high", *AUCTION_FACTS),
        ]
    )
    for forced in (False, True)
}
PASS_WORDS = {lang: t("pedro.pass", lang) for lang in LANGS}


def _calls_text(calls, lang: str) -> str:
    """``N 7、E パス、...``: each seat with its call."""
    passed = PASS_WORDS[lang]
    return LIST_SEPARATORS[lang].join([f"{seat} {passed if call == PASS else call}" for seat, call in calls])


@operation(
    OPERATIONS,
    operation_id="pedro_auction",
    method="POST",
    path="/pedro/auction",
    request=schemas.AuctionRequestSchema,
    response=schemas.AuctionResponseSchema,
    tag="pedro",
    summary="Check a Pedro auction and name the high bidder.",
    description=(
        "Call after a Pedro bidding round: give the dealer and the four calls in order from "
        'the dealer\'s left (an amount or "pass"). Checks each call (range, beats the high '
        "bid, dealer forced after three passes); returns the high bidder's seat, team and amount."
    ),
)
def auction(request: dict, lang: str) -> dict:
    rules = _rules(request)
    result = run_auction(request["dealer"], request["calls"], rules)
    explanation = AUCTION_TEXTS[result.forced][lang].format(
        request["dealer"], _calls_text(result.calls, lang), result.seat, result.team, result.amount
    )
    return {
        "seat": result.seat,
        "team": result.team,
        "amount": result.amount,
        "forced": result.forced,
        "calls": [{"seat": c.seat, "call": c.call} for c in result.calls],
        "rules": rules.as_dict(),
        "explanation": explanation,
    }


# -- Trick ----------------------------------------------------------------------------------

#: What fills a trick's explanation, in this order.
TRICK_FACTS = ("trump", "plays", "seat", "team", "card", "cards", "points")
#: The note on the 2 of trump by the rule that scores it (``trick_two_note`` with its
#: ``rule_text`` filled in: a sentence of the catalogue, no braces).
TWO_NOTES = {
    rule: {lang: t("pedro.trick_two_note", lang, rule_text=t(f"pedro.two_rule_{rule}", lang)) for lang in LANGS}
    for rule in TWO_SCORED_BY
}
#: ``TRICK_TEXTS[trumped, holds point cards, rule of the 2's note or None][lang]``: the
#: cards played, the winner, the point cards, the note on the 2 of trump.
TRICK_TEXTS = {
    (trumped, scored, two_rule): run_together(
        [
            positional("pedro.trick_plays", *TRICK_FACTS),
            positional("pedro.trick_trump_wins" if trumped else "pedro.trick_suit_wins", *TRICK_FACTS),
            positional("pedro.trick_points" if scored else "pedro.trick_no_points", *TRICK_FACTS),
            TWO_NOTES.get(two_rule),
        ]
    )
    for trumped in (False, True)
    for scored in (False, True)
    for two_rule in (None, *TWO_SCORED_BY)
}


@operation(
    OPERATIONS,
    operation_id="pedro_trick",
    method="POST",
    path="/pedro/trick",
    request=schemas.TrickRequestSchema,
    response=schemas.TrickResponseSchema,
    tag="pedro",
    summary="Decide who wins a Pedro trick and which point cards it holds.",
    description=(
        "Call when a Pedro trick is complete: give trump, the leader's seat and the four cards "
        "in play order. Returns the winning seat and team (highest trump, else highest of the "
        "led suit; the Low Pedro is a trump) and its point cards. With hands, checks the follow rule."
    ),
)
def trick(request: dict, lang: str) -> dict:
    rules = _rules(request)
    trump = parse_suit(request["trump"])
    cards = parse_cards(request["cards"], ("cards",))
    hands = request.get("hands")
    if hands is not None:
        hands = {seat: parse_cards(held, ("hands", seat)) for seat, held in hands.items()}
    result = play_trick(trump, request["leader"], cards, hands)
    point_cards = result.point_cards(trump)
    roles = IN_PLAY[trump]
    points = sum([roles[card].points for card in point_cards])
    plays = [(seat, CARD_TEXTS[card]) for seat, card in result.plays]
    point_texts = [CARD_TEXTS[card] for card in point_cards]
    two_rule = rules.two_scored_by if TWOS[trump] in point_cards else None
    explanation = TRICK_TEXTS[result.trumped, bool(point_cards), two_rule][lang].format(
        SUIT_SIGNS[trump],
        LIST_SEPARATORS[lang].join([f"{seat} {card}" for seat, card in plays]),
        result.winner,
        result.team,
        CARD_TEXTS[result.card],
        " ".join(point_texts),
        points,
    )
    return {
        "winner": result.winner,
        "team": result.team,
        "point_cards": point_texts,
        "points": points,
        "led_suit": result.led_suit,
        "trumped": result.trumped,
        "plays": [{"seat": seat, "card": card} for seat, card in plays],
        "explanation": explanation,
    }


# -- Hands and whole games ----------------------------------------------------------------

#: The fields naming the team that scores the 2 of trump, with the rule each goes with.
TWO_FIELDS = (("two_dealt_to", "dealt"), ("two_played_by", "played"))


def _check_bid(hand: dict, rules: Rules) -> None:
    """The bid lies between the minimum and the maximum bid (rules/pedro.md, "A hand",
    step 1); the rules are checked, so the dealer's forced bid lies between them too."""
    amount = hand["bid"]["amount"]
    if not rules.min_bid <= amount <= rules.max_bid:
        raise RuleError(
            "bid_outside_rules",
            ("bid", "amount"),
            amount=amount,
            min_bid=rules.min_bid,
            max_bid=rules.max_bid,
            forced=rules.dealer_forced_bid,
        )


def _hand_points(hand: dict, rules: Rules) -> tuple[dict[str, int], dict[str, list[PointCard]] | None]:
    """Points of one hand input, given directly or from the trump and the captured cards,
    with the point cards behind them (None when the points were given)."""
    points, trump, captured = hand.get("points"), hand.get("trump"), hand.get("captured")
    has_points = points is not None
    if (trump is None) != has_points or (captured is None) != has_points:  # points, or trump and captured
        raise RuleError("points_or_captured", ("points",))
    if "two_dealt_to" in hand or "two_played_by" in hand:
        _check_two_fields(hand, has_points, rules)
    if has_points:
        check_points(points)
        return points, None
    trump = parse_suit(trump)
    captured = {
        "NS": parse_cards(captured.get("NS", []), ("captured", "NS")),
        "EW": parse_cards(captured.get("EW", []), ("captured", "EW")),
    }
    two_team = hand.get("two_dealt_to") if rules.two_scored_by == "dealt" else hand.get("two_played_by")
    return hand_points(trump, captured, rules, two_team)


def _check_two_fields(hand: dict, has_points: bool, rules: Rules) -> None:
    """A team named for the 2 of trump goes with captured cards and the rule that scores it."""
    for key, rule in TWO_FIELDS:
        if hand.get(key) is not None and (has_points or rules.two_scored_by != rule):
            raise RuleError("two_field_for_rule", (key,), field=key, rule=rules.two_scored_by)


#: How a hand leaves the game: the key of its sentence after ``pedro.`` (rules/pedro.md,
#: "End of game"): a winner and the rule that decided, or the next hand.
OUTCOMES = (
    "win_bidder_goes_out",
    "win_target",
    "win_tie_bidder",
    "win_tie_higher",
    "win_extra_hand_made",
    "win_extra_hand_set",
    "next_normal",
    "next_bidder_goes_out",
    "next_extra_hand",
)
#: The outcomes of the extra hand, which decides the game (:func:`~scoring_api.games.pedro.scoring.settle`).
EXTRA_HAND_OUTCOMES = {True: "win_extra_hand_made", False: "win_extra_hand_set"}
#: The outcome by the next hand when nobody won, by the rule that decided when one did
#: (the tie rule's outcome depends on the table's tie rule: :func:`_outcome`).
NEXT_OUTCOMES = {
    "normal": "next_normal",
    "bidder_goes_out": "next_bidder_goes_out",
    "extra_hand": "next_extra_hand",
}
WIN_OUTCOMES = {"target": "win_target", "bidder_goes_out": "win_bidder_goes_out"}


def _outcome(decided_by: str | None, next_hand: str | None, made: bool, rules: Rules) -> str:
    """A hand's outcome (one of :data:`OUTCOMES`) from its settlement's ``decided_by``,
    ``next_hand`` and ``bid_made``."""
    if decided_by is None:
        return NEXT_OUTCOMES[next_hand]
    if decided_by == "extra_hand":
        return EXTRA_HAND_OUTCOMES[made]
    if decided_by == "tie_rule":
        return "win_tie_bidder" if rules.tie_rule == "bidder_wins" else "win_tie_higher"
    return WIN_OUTCOMES[decided_by]


#: What fills a settled hand's explanation (:data:`HAND_TEXTS`), in this order.
HAND_FACTS = (
    "bidder",
    "bid",
    "taken",
    "other",
    "other_taken",
    "ns_before",
    "ns_after",
    "ew_before",
    "ew_after",
    "margin",
    "winner",
    "target",
)


def _hand_texts(made: bool, going_out: bool, outcome: str) -> dict[str, str]:
    """A settled hand's explanation by language: the bid made or set, what the other team
    adds, the scores, the bidder-goes-out note when the hand was one (not for the extra
    hand, whose outcome says what it was), the outcome."""
    note = going_out and outcome not in EXTRA_HAND_OUTCOMES.values()
    return run_together(
        [
            positional("pedro.settle_made" if made else "pedro.settle_set", *HAND_FACTS),
            positional("pedro.settle_other", *HAND_FACTS, taken="other_taken"),
            positional("pedro.settle_scores", *HAND_FACTS),
            positional("pedro.going_out_hand", *HAND_FACTS) if note else None,
            positional(f"pedro.{outcome}", *HAND_FACTS),
        ]
    )


#: ``HAND_TEXTS[lang][bid made, bidder goes out, outcome]``: see :func:`_hand_texts`.
HAND_TEXTS = {
    lang: {
        (made, going_out, outcome): _hand_texts(made, going_out, outcome)[lang]
        for made in (True, False)
        for going_out in (True, False)
        for outcome in OUTCOMES
    }
    for lang in LANGS
}

#: What fills a whole game's explanation (:data:`GAME_TEXTS`), in this order.
GAME_FACTS = ("hands", "ns", "ew", "target", "winner", "margin")
#: ``GAME_TEXTS[lang][outcome of the last hand]``: the scores so far, then the outcome.
GAME_TEXTS = {
    lang: {
        outcome: run_together(
            [
                positional("pedro.game_summary", *GAME_FACTS),
                positional(f"pedro.{outcome}", *GAME_FACTS),
            ]
        )[lang]
        for outcome in OUTCOMES
    }
    for lang in LANGS
}


#: ``POINT_CARD_DATA[point card]``: every point card a hand can score, as data (each
#: answer gets copies).
POINT_CARD_DATA = {
    point_card: {
        "card": CARD_TEXTS[point_card.card],
        "points": point_card.points,
        "name": point_card.name,
        "reason": point_card.reason,
    }
    for trump in SUITS
    for point_card in (*POINT_CARDS[trump], *TWO_POINT_CARDS[trump].values())
}


def _point_cards(cards: dict[str, list[PointCard]]) -> dict:
    """Each team's point cards as data."""
    return {
        "NS": [dict(POINT_CARD_DATA[point_card]) for point_card in cards["NS"]],
        "EW": [dict(POINT_CARD_DATA[point_card]) for point_card in cards["EW"]],
    }


def _settlement(result: Settlement, cards: dict | None, rules: Rules, texts: dict) -> dict:
    """One settled hand as data: ``cards`` are its point cards (None: the points were
    given); ``texts`` is :data:`HAND_TEXTS` in the request's language."""
    bidder, bid, taken, made, deltas, before, after, going_out, over, winner, decided_by, next_hand = result
    other = OTHER_TEAM[bidder]
    explanation = texts[made, going_out, _outcome(decided_by, next_hand, made, rules)].format(
        bidder,
        bid,
        taken[bidder],
        other,
        taken[other],
        before["NS"],
        after["NS"],
        before["EW"],
        after["EW"],
        rules.bidder_out_margin,
        winner,
        rules.target,
    )
    return {
        "bid": {"team": bidder, "amount": bid},
        "points": taken,
        "point_cards": None if cards is None else _point_cards(cards),
        "bid_made": made,
        "deltas": deltas,
        "scores_before": before,
        "scores_after": after,
        "bidder_goes_out": going_out,
        "game_over": over,
        "winner": winner,
        "decided_by": decided_by,
        "next_hand": next_hand,
        "explanation": explanation,
    }


@operation(
    OPERATIONS,
    operation_id="pedro_hand",
    display_facts=_display_facts,
    method="POST",
    path="/pedro/hand",
    request=schemas.HandRequestSchema,
    response=schemas.HandResponseSchema,
    tag="pedro",
    summary="Settle one Pedro hand: bid made or set, new scores, game over.",
    description=(
        "Call to settle one Pedro hand: give the bid, the scores before and each team's points "
        "(or trump and the captured cards). Returns points (0-14) with their point cards, bid "
        "made or set, deltas, new scores, bidder-goes-out, game over and winner."
    ),
)
def hand(request: dict, lang: str) -> dict:
    rules = _rules(request)
    _check_bid(request, rules)
    before = request["scores_before"]
    check_game_running(before, rules, ("scores_before",))
    points, cards = _hand_points(request, rules)
    bid = request["bid"]
    result = settle(bid["team"], bid["amount"], before, points, rules)
    settlement = _settlement(result, cards, rules, HAND_TEXTS[lang])
    settlement["rules"] = rules.as_dict()
    return settlement


@operation(
    OPERATIONS,
    operation_id="pedro_game",
    display_facts=_display_facts,
    method="POST",
    path="/pedro/game",
    request=schemas.GameRequestSchema,
    response=schemas.GameResponseSchema,
    tag="pedro",
    summary="Score a whole Pedro game from its hands: ledger, winner, next hand.",
    description=(
        "Call to score a whole Pedro game: give every hand so far (bid plus points or captured "
        "cards), from 0-0. Returns the running ledger, the scores, the winner or null, and the "
        "next hand (normal, bidder goes out, or an extra hand after a tie)."
    ),
)
def game(request: dict, lang: str) -> dict:
    rules = _rules(request)
    inputs, cards = [], []  # every hand is read and checked before any is settled
    for index, entry in enumerate(request["hands"]):
        try:
            _check_bid(entry, rules)
            points, hand_cards = _hand_points(entry, rules)
        except RuleError as error:
            raise error.within("hands", index) from None
        bid = entry["bid"]
        inputs.append((bid["team"], bid["amount"], points))
        cards.append(hand_cards)
    ledger = play_game(inputs, rules)
    texts = HAND_TEXTS[lang]
    hands = [_settlement(result, hand_cards, rules, texts) for result, hand_cards in zip(ledger.hands, cards)]
    last = ledger.hands[-1] if hands else None
    outcome = _outcome(last.decided_by, last.next_hand, last.bid_made, rules) if last else "next_normal"
    scores = ledger.scores
    return {
        "hands": hands,
        "scores": scores,
        "winner": ledger.winner,
        "next_hand": ledger.next_hand,
        "rules": rules.as_dict(),
        "explanation": GAME_TEXTS[lang][outcome].format(
            len(hands),
            scores["NS"],
            scores["EW"],
            rules.target,
            ledger.winner,
            rules.bidder_out_margin,
        ),
    }
