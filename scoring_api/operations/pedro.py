"""Pedro over HTTP: ``/api/v1/pedro/auction``, ``/trick``, ``/hand`` and ``/game``.

Each handler calls the rules (``scoring_api/games/pedro``, docs/rules/pedro.md) and builds
the answer; its explanation is made for the request from the sentences of
``messages/pedro.yaml``, filled with named placeholders and run together.
"""

from __future__ import annotations

from ..games.pedro.auction import PASS, run_auction
from ..games.pedro.cards import OTHER_TEAM, TEAMS, parse_cards, parse_suit, two_of_trump
from ..games.pedro.game import game_outcome, hand_outcome, score_game
from ..games.pedro.hand import HandInput, TeamPointCards, settle_hand
from ..games.pedro.rules import Rules
from ..games.pedro.schedules import DEFAULT_SCHEDULE
from ..games.pedro.scoring import Settlement
from ..games.pedro.tricks import play_trick
from ..i18n import join_list, sentences, t
from ..schemas import pedro as schemas
from .operation import Operation, operation

#: This game's operations, in the order they are listed (see scoring_api.operations).
OPERATIONS: list[Operation] = []

#: Trump as shown in a trick's explanation.
SUIT_SIGNS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}

#: How the requests name the rules' terms: every request's rules options...
RULES_TERMS = {"option": "rules"}
#: ...and one hand's: its bid (the amount), its points or captured cards, the team
#: scoring the 2 of trump.
HAND_TERMS = {
    "bid": ("bid", "amount"),
    "points": "points",
    "captured": "captured",
    "captured.card": (),  # a team's captured cards are the list at its key
    "two_dealt_to": "two_dealt_to",
    "two_played_by": "two_played_by",
}


def _rules(request: dict) -> Rules:
    return request["rules"].check()


def _display_facts(facts: dict, lang: str) -> dict:
    """A refusal's facts in the player's language: the point schedules named
    (``14点ルール（ガイドの標準）``), a bid option named (``入札の最高値``), the point values
    (``1、1、1、1、5、5``) and the EW totals possible (``0、5、10 点のどれか`` / ``one of 0, 5, 10``)."""
    shown = {key: t(f"pedro.schedule_{facts[key]}", lang) for key in ("schedule", "other") if key in facts}
    if "option" in facts:
        shown["option_name"] = t(f"pedro.option_{facts['option']}", lang)
    if "values" in facts:
        shown["values"] = join_list(facts["values"], lang)
    if "possible" in facts:
        possible = facts["possible"]
        key = "pedro.impossible_points_many" if len(possible) > 1 else "pedro.impossible_points_one"
        shown["possible"] = t(key, lang, totals=join_list(possible, lang))
    return shown


def _schedule_note(rules: Rules, lang: str) -> str:
    """The schedule the answer was worked out with, said when it is not the default (""
    for the default: its answers read as they did before schedules)."""
    if rules.schedule == DEFAULT_SCHEDULE:
        return ""
    return t("pedro.schedule_note", lang, schedule=t(f"pedro.schedule_{rules.schedule}", lang))


# -- Auction --------------------------------------------------------------------------------


@operation(
    OPERATIONS,
    operation_id="pedro_auction",
    display_facts=_display_facts,
    method="POST",
    path="/pedro/auction",
    request=schemas.AuctionRequestSchema,
    response=schemas.AuctionResponseSchema,
    tag="pedro",
    terms={**RULES_TERMS, "call": "calls"},
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
    passed = t("pedro.pass", lang)
    calls = join_list([f"{seat} {passed if call == PASS else call}" for seat, call in result.calls], lang)
    facts = {
        "dealer": request["dealer"],
        "calls": calls,
        "seat": result.seat,
        "team": result.team,
        "amount": result.amount,
    }
    forced = "pedro.auction_forced_at_least" if rules.point_schedule.dealer_may_bid_more else "pedro.auction_forced"
    high = forced if result.forced else "pedro.auction_high"
    explanation = sentences(
        [_schedule_note(rules, lang), t("pedro.auction_calls", lang, **facts), t(high, lang, **facts)], lang
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


@operation(
    OPERATIONS,
    operation_id="pedro_trick",
    display_facts=_display_facts,
    method="POST",
    path="/pedro/trick",
    request=schemas.TrickRequestSchema,
    response=schemas.TrickResponseSchema,
    tag="pedro",
    terms={**RULES_TERMS, "play": "cards", "seat": "hands", "seat.card": ()},  # hands: cards by seat
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
    cards = parse_cards(request["cards"], term="play")
    hands = request.get("hands")
    if hands is not None:
        hands = {seat: parse_cards(held, (("seat", seat),)) for seat, held in hands.items()}
    result = play_trick(trump, request["leader"], cards, hands)
    point_cards = result.point_cards(trump)
    points = result.points(trump, rules.point_schedule)
    plays = [(seat, str(card)) for seat, card in result.plays]
    point_texts = [str(card) for card in point_cards]
    facts = {"seat": result.winner, "team": result.team, "card": str(result.card)}
    parts = [
        _schedule_note(rules, lang),
        t("pedro.trick_plays", lang, trump=SUIT_SIGNS[trump], plays=join_list([f"{s} {c}" for s, c in plays], lang)),
        t("pedro.trick_trump_wins" if result.trumped else "pedro.trick_suit_wins", lang, **facts),
        t("pedro.trick_points", lang, cards=" ".join(point_texts), points=points)
        if point_cards
        else t("pedro.trick_no_points", lang),
    ]
    if two_of_trump(trump) in point_cards:  # who scores the 2 depends on the rules
        rule_text = t(f"pedro.two_rule_{rules.two_scored_by}", lang)
        parts.append(t("pedro.trick_two_note", lang, rule_text=rule_text))
    return {
        "winner": result.winner,
        "team": result.team,
        "point_cards": point_texts,
        "points": points,
        "led_suit": result.led_suit,
        "trumped": result.trumped,
        "plays": [{"seat": seat, "card": card} for seat, card in plays],
        "explanation": sentences(parts, lang),
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


def _point_cards(cards: TeamPointCards) -> dict:
    """Each team's point cards as data."""
    return {
        team: [
            {"card": str(scored.card), "points": scored.points, "name": scored.name, "reason": scored.reason}
            for scored in cards[team]
        ]
        for team in TEAMS
    }


def _settlement(
    result: Settlement, cards: TeamPointCards | None, rules: Rules, lang: str, schedule_note: str = ""
) -> dict:
    """One settled hand as data; ``cards`` are its point cards (None: the points were given).

    The explanation: ``schedule_note`` (a hand alone says its schedule when not the
    default), the bid made or set, what the other team adds, the scores, the
    bidder-goes-out note when the hand was one (not for the extra hand, whose outcome says
    what it was), then how the hand leaves the game."""
    bidder, taken, before, after = result.bid_team, result.points, result.scores_before, result.scores_after
    other = OTHER_TEAM[bidder]
    facts = {
        "bidder": bidder,
        "bid": result.bid,
        "taken": taken[bidder],
        "other": other,
        "other_taken": taken[other],
        "ns_before": before["NS"],
        "ns_after": after["NS"],
        "ew_before": before["EW"],
        "ew_after": after["EW"],
        "margin": rules.bidder_out_margin,
        "winner": result.winner,
        "target": rules.target,
    }
    going_out_note = result.bidder_goes_out and result.decided_by != "extra_hand"
    parts = [
        schedule_note,
        t("pedro.settle_made" if result.bid_made else "pedro.settle_set", lang, **facts),
        t("pedro.settle_other", lang, **facts),
        t("pedro.settle_scores", lang, **facts),
        t("pedro.going_out_hand", lang, **facts) if going_out_note else "",
        t(f"pedro.{hand_outcome(result, rules)}", lang, **facts),
    ]
    return {
        "bid": {"team": bidder, "amount": result.bid},
        "points": taken,
        "point_cards": None if cards is None else _point_cards(cards),
        "bid_made": result.bid_made,
        "deltas": result.deltas,
        "scores_before": before,
        "scores_after": after,
        "bidder_goes_out": result.bidder_goes_out,
        "game_over": result.game_over,
        "winner": result.winner,
        "decided_by": result.decided_by,
        "next_hand": result.next_hand,
        "explanation": sentences(parts, lang),
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
    terms={**RULES_TERMS, **HAND_TERMS, "score": "scores_before"},
    summary="Settle one Pedro hand: bid made or set, new scores, game over.",
    description=(
        "Call to settle one Pedro hand: give the bid, the scores before and each team's points "
        "(or trump and the captured cards). Returns points (0-14; 0-16 in california_16) with their "
        "point cards, bid made or set, deltas, new scores, bidder-goes-out, game over and winner."
    ),
)
def hand(request: dict, lang: str) -> dict:
    rules = _rules(request)
    result, cards = settle_hand(_hand_input(request), request["scores_before"], rules)
    return {**_settlement(result, cards, rules, lang, _schedule_note(rules, lang)), "rules": rules.as_dict()}


@operation(
    OPERATIONS,
    operation_id="pedro_game",
    display_facts=_display_facts,
    method="POST",
    path="/pedro/game",
    request=schemas.GameRequestSchema,
    response=schemas.GameResponseSchema,
    tag="pedro",
    terms={**RULES_TERMS, "hand": "hands", **{f"hand.{term}": name for term, name in HAND_TERMS.items()}},
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
    scores = ledger.scores
    facts = {
        "hands": len(ledger.hands),
        "ns": scores["NS"],
        "ew": scores["EW"],
        "target": rules.target,
        "winner": ledger.winner,
        "margin": rules.bidder_out_margin,
    }
    summary = t("pedro.game_summary", lang, **facts)
    outcome = t(f"pedro.{game_outcome(ledger, rules)}", lang, **facts)
    return {
        "hands": [
            _settlement(result, hand_cards, rules, lang) for result, hand_cards in zip(ledger.hands, cards, strict=True)
        ],
        "scores": scores,
        "winner": ledger.winner,
        "next_hand": ledger.next_hand,
        "rules": rules.as_dict(),
        "explanation": sentences([_schedule_note(rules, lang), summary, outcome], lang),
    }
