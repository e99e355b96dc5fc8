"""Pedro over HTTP: ``/api/v1/pedro/auction``, ``/trick``, ``/hand`` and ``/game``.

Explanations: every sentence is read from the catalogue once per language at import, with
positional placeholders (:func:`~scoring_api.i18n.positional`), and the sentences that go together are run
together into one template per case (:data:`HAND_TEXTS` and the like); a request picks its
case and fills it with one ``str.format``.
"""

from __future__ import annotations

from ..games.pedro.auction import PASS, run_auction
from ..games.pedro.cards import OTHER_TEAM, parse_cards, parse_suit, two_of_trump
from ..games.pedro.game import EXTRA_HAND_OUTCOMES, OUTCOMES, game_outcome, hand_outcome, score_game
from ..games.pedro.hand import HandInput, settle_hand
from ..games.pedro.rules import TWO_SCORED_BY, Rules
from ..games.pedro.scoring import PointCard, Settlement
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
    points = result.points(trump)
    plays = [(seat, str(card)) for seat, card in result.plays]
    point_texts = [str(card) for card in point_cards]
    two_rule = rules.two_scored_by if two_of_trump(trump) in point_cards else None
    explanation = TRICK_TEXTS[result.trumped, bool(point_cards), two_rule][lang].format(
        SUIT_SIGNS[trump],
        LIST_SEPARATORS[lang].join([f"{seat} {card}" for seat, card in plays]),
        result.winner,
        result.team,
        str(result.card),
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


def _hand_input(entry: dict) -> HandInput:
    """One hand of a request as the rules take it."""
    bid = entry["bid"]
    return HandInput(
        bid["team"],
        bid["amount"],
        entry.get("points"),
        entry.get("trump"),
        entry.get("captured"),
        entry.get("two_dealt_to"),
        entry.get("two_played_by"),
    )


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


def _point_cards(cards: dict[str, list[PointCard]]) -> dict:
    """Each team's point cards as data."""
    return {
        team: [
            {"card": str(scored.card), "points": scored.points, "name": scored.name, "reason": scored.reason}
            for scored in cards[team]
        ]
        for team in ("NS", "EW")
    }


def _settlement(result: Settlement, cards: dict | None, rules: Rules, texts: dict) -> dict:
    """One settled hand as data: ``cards`` are its point cards (None: the points were
    given); ``texts`` is :data:`HAND_TEXTS` in the request's language."""
    bidder, bid, taken, made, deltas, before, after, going_out, over, winner, decided_by, next_hand = result
    other = OTHER_TEAM[bidder]
    explanation = texts[made, going_out, hand_outcome(result, rules)].format(
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
    result, cards = settle_hand(_hand_input(request), request["scores_before"], rules)
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
    ledger, cards = score_game([_hand_input(entry) for entry in request["hands"]], rules)
    texts = HAND_TEXTS[lang]
    hands = [_settlement(result, hand_cards, rules, texts) for result, hand_cards in zip(ledger.hands, cards)]
    outcome = game_outcome(ledger, rules)
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
