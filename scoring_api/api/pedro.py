"""Pedro over HTTP: ``/api/v1/pedro/auction``, ``/trick``, ``/hand`` and ``/game``."""

from __future__ import annotations

from ..games.errors import RuleError
from ..games.pedro.auction import PASS, run_auction
from ..games.pedro.cards import IN_PLAY, OTHER_TEAM, TEAMS, Card, parse_cards, parse_suit
from ..games.pedro.game import play_game
from ..games.pedro.rules import Rules
from ..games.pedro.scoring import (
    HandPoints,
    Settlement,
    check_game_running,
    check_points,
    hand_points,
    settle,
)
from ..games.pedro.tricks import play_trick
from ..i18n import join_list, sentences, t
from ..schemas import pedro as schemas
from .operations import operation

SUIT_SIGNS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}


def _rules(request: dict) -> Rules:
    return request["rules"].check()


def _calls_text(calls, lang: str) -> str:
    """``N 7、E パス、...``: each seat with its call."""
    passed = t("pedro.pass", lang)
    return join_list([f"{seat} {passed if call == PASS else call}" for seat, call in calls], lang)


@operation(
    operation_id="pedro_auction",
    method="POST",
    path="/pedro/auction",
    request=schemas.AuctionRequestSchema,
    response=schemas.AuctionResponseSchema,
    tag="pedro",
    summary="Check a Pedro auction and name the high bidder.",
    description=(
        "Call after a Pedro bidding round: give the dealer and the four calls in order from "
        "the dealer's left (an amount or \"pass\"). Checks each call (range, beats the high "
        "bid, dealer forced after three passes); returns the high bidder's seat, team and amount."
    ),
)
def auction(request: dict, lang: str) -> dict:
    rules = _rules(request)
    result = run_auction(request["dealer"], request["calls"], rules)
    listed = _calls_text(result.calls, lang)
    key = "pedro.auction_forced" if result.forced else "pedro.auction_high"
    explanation = sentences([
        t("pedro.auction_calls", lang, dealer=request["dealer"], calls=listed),
        t(key, lang, seat=result.seat, team=result.team, amount=result.amount),
    ], lang)
    return {
        "seat": result.seat,
        "team": result.team,
        "amount": result.amount,
        "forced": result.forced,
        "calls": [{"seat": c.seat, "call": c.call} for c in result.calls],
        "rules": rules.as_dict(),
        "explanation": explanation,
    }


@operation(
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
    points = sum(roles[card].points for card in point_cards)
    plays = [(seat, str(card)) for seat, card in result.plays]
    point_texts = [str(card) for card in point_cards]
    key = "pedro.trick_trump_wins" if result.trumped else "pedro.trick_suit_wins"
    parts = [
        t("pedro.trick_plays", lang, trump=SUIT_SIGNS[trump],
          plays=join_list([f"{seat} {card}" for seat, card in plays], lang)),
        t(key, lang, seat=result.winner, team=result.team, card=str(result.card)),
        t("pedro.trick_points", lang, cards=" ".join(point_texts), points=points)
        if point_cards else t("pedro.trick_no_points", lang),
    ]
    if Card("2", trump) in point_cards:
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


def _hand_points(hand: dict, rules: Rules) -> HandPoints:
    """Points of one hand input: given directly, or from the captured cards."""
    points, trump, captured = hand.get("points"), hand.get("trump"), hand.get("captured")
    given = (points is not None, trump is not None, captured is not None)
    if given not in ((True, False, False), (False, True, True)):
        raise RuleError("points_or_captured", ("points",))
    has_points = given[0]
    for key, rule in (("two_dealt_to", "dealt"), ("two_played_by", "played")):
        if hand.get(key) is not None and (has_points or rules.two_scored_by != rule):
            raise RuleError("two_field_for_rule", (key,), field=key, rule=rules.two_scored_by)
    if has_points:
        check_points(points)
        return HandPoints(dict(points), {})
    trump = parse_suit(trump)
    captured = {team: parse_cards(captured.get(team, []), ("captured", team)) for team in TEAMS}
    two_team = hand.get("two_dealt_to") if rules.two_scored_by == "dealt" else hand.get("two_played_by")
    return hand_points(trump, captured, rules, two_team)


def _check_bid(hand: dict, rules: Rules) -> None:
    amount = hand["bid"]["amount"]
    lowest = min(rules.min_bid, rules.dealer_forced_bid)
    if not lowest <= amount <= rules.max_bid:
        raise RuleError(
            "bid_outside_rules", ("bid", "amount"), amount=amount,
            min_bid=rules.min_bid, max_bid=rules.max_bid, forced=rules.dealer_forced_bid,
        )


def _explain(result: Settlement, rules: Rules, lang: str) -> str:
    bidder, other = result.bid_team, OTHER_TEAM[result.bid_team]
    key = "pedro.settle_made" if result.bid_made else "pedro.settle_set"
    before, after = result.scores_before, result.scores_after
    parts = [
        t(key, lang, bidder=bidder, bid=result.bid, taken=result.points[bidder]),
        t("pedro.settle_other", lang, other=other, taken=result.points[other]),
        t("pedro.settle_scores", lang, ns_before=before["NS"], ns_after=after["NS"],
          ew_before=before["EW"], ew_after=after["EW"]),
    ]
    if result.bidder_goes_out:
        parts.append(t("pedro.going_out_hand", lang, margin=rules.bidder_out_margin))
    parts.append(_outcome(result, rules, lang))
    return sentences(parts, lang)


_WIN_KEYS = {"bidder_goes_out": "pedro.win_bidder_goes_out", "target": "pedro.win_target"}


def _outcome(result: Settlement, rules: Rules, lang: str) -> str:
    if result.winner:
        if result.decided_by == "tie_rule":
            key = "pedro.win_tie_bidder" if rules.tie_rule == "bidder_wins" else "pedro.win_tie_higher"
        else:
            key = _WIN_KEYS[result.decided_by]
        return t(key, lang, winner=result.winner, target=rules.target)
    return t(f"pedro.next_{result.next_hand}", lang, margin=rules.bidder_out_margin)


def _point_cards(points: HandPoints) -> dict | None:
    """Each team's point cards as data (None when the points were given, not the cards)."""
    if not points.cards:
        return None
    return {
        team: [
            {"card": str(p.card), "points": p.points, "name": p.name, "reason": p.reason}
            for p in points.cards[team]
        ]
        for team in TEAMS
    }


def _settlement(result: Settlement, points: HandPoints, rules: Rules, lang: str) -> dict:
    return {
        "bid": {"team": result.bid_team, "amount": result.bid},
        "points": result.points,
        "point_cards": _point_cards(points),
        "bid_made": result.bid_made,
        "deltas": result.deltas,
        "scores_before": result.scores_before,
        "scores_after": result.scores_after,
        "bidder_goes_out": result.bidder_goes_out,
        "game_over": result.game_over,
        "winner": result.winner,
        "decided_by": result.decided_by,
        "next_hand": result.next_hand,
        "explanation": _explain(result, rules, lang),
    }


@operation(
    operation_id="pedro_hand",
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
    check_game_running(request["scores_before"], rules, ("scores_before",))
    points = _hand_points(request, rules)
    result = settle(request["bid"]["team"], request["bid"]["amount"], request["scores_before"], points.points, rules)
    settlement = _settlement(result, points, rules, lang)
    settlement["rules"] = rules.as_dict()
    return settlement


@operation(
    operation_id="pedro_game",
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
    inputs, points = [], []
    for index, entry in enumerate(request["hands"]):
        try:
            _check_bid(entry, rules)
            hand_result = _hand_points(entry, rules)
        except RuleError as error:
            raise error.within("hands", index) from None
        points.append(hand_result)
        inputs.append((entry["bid"]["team"], entry["bid"]["amount"], hand_result.points))
    ledger = play_game(inputs, rules)
    summary = t("pedro.game_summary", lang, hands=len(ledger.hands), ns=ledger.scores["NS"],
                ew=ledger.scores["EW"], target=rules.target)
    outcome = _outcome(ledger.hands[-1], rules, lang) if ledger.hands else t("pedro.next_normal", lang)
    return {
        "hands": [_settlement(r, p, rules, lang) for r, p in zip(ledger.hands, points)],
        "scores": ledger.scores,
        "winner": ledger.winner,
        "next_hand": ledger.next_hand,
        "rules": rules.as_dict(),
        "explanation": sentences([summary, outcome], lang),
    }
