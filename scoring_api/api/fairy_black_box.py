"""Fairy & Black Box over HTTP: final score, setup, end check and next player.

``POST /api/v1/fairy-black-box/score``, ``GET /api/v1/fairy-black-box/setup``,
``POST /api/v1/fairy-black-box/end-check``, ``POST /api/v1/fairy-black-box/next-player``.
Rule refusals (:class:`RuleError`) become 400s in the operation registry.
"""

from __future__ import annotations

from ..games import fairy_black_box as fbb
from ..i18n import join_list, sentences, t
from ..schemas.fairy_black_box import (
    FairyBlackBoxEndCheckRequestSchema,
    FairyBlackBoxEndCheckResponseSchema,
    FairyBlackBoxNextPlayerRequestSchema,
    FairyBlackBoxNextPlayerResponseSchema,
    FairyBlackBoxScoreRequestSchema,
    FairyBlackBoxScoreResponseSchema,
    FairyBlackBoxSetupRequestSchema,
    FairyBlackBoxSetupResponseSchema,
)
from .operations import operation

TAG = "fairy_black_box"


# -- Final score ----------------------------------------------------------------------


def _player_explanation(player: fbb.PlayerScore, lang: str) -> str:
    if player.eliminated:
        return t("fairy_black_box.player_eliminated", lang, name=player.name)
    if not player.treasures:
        return t("fairy_black_box.player_no_treasures", lang, name=player.name)
    parts = " + ".join([
        t("fairy_black_box.treasure_part", lang, name=treasure.name, points=treasure.points)
        for treasure in player.treasures
    ])
    return t("fairy_black_box.player_score", lang, name=player.name, parts=parts, score=player.score)


def _verdict(game: fbb.GameScore, lang: str) -> str:
    """Why these players won, step by step (rules: Final scoring)."""
    if game.decided_by is None:
        return t("fairy_black_box.no_winner", lang)
    said = []
    out = [p.name for p in game.players if p.eliminated]
    if out:
        said.append(t("fairy_black_box.eliminated_players", lang, names=join_list(out, lang)))
    survivors = [p for p in game.players if not p.eliminated]
    winner = game.winners[0]
    if len(survivors) == 1:
        said.append(t("fairy_black_box.winner_sole_survivor", lang, name=winner, score=game.top_score))
    elif game.decided_by == "score":
        said.append(t("fairy_black_box.winner_score", lang, name=winner, score=game.top_score))
    else:
        said.append(t("fairy_black_box.tied", lang, names=join_list(game.tied, lang), score=game.top_score))
        if game.decided_by == "kirakira":
            said.append(t("fairy_black_box.winner_kirakira", lang, name=winner))
        elif game.decided_by == "mood":
            said.append(t("fairy_black_box.winner_mood", lang, name=winner, mood=game.top_mood))
        else:
            said.append(
                t("fairy_black_box.winner_shared", lang, names=join_list(game.winners, lang), mood=game.top_mood)
            )
    return sentences(said, lang)


@operation(
    operation_id="score_fairy_black_box",
    method="POST",
    path="/fairy-black-box/score",
    request=FairyBlackBoxScoreRequestSchema,
    response=FairyBlackBoxScoreResponseSchema,
    tag=TAG,
    summary="Final scores and winner of a finished Fairy & Black Box game.",
    description=(
        "Call at game end: give every player's mood, eliminated flag and treasure cards (name, points). "
        "Survivors score the sum of their treasures; eliminated players score nothing. "
        "Ties go to the 〈きらきら〉 holder, then the higher mood, else the win is shared."
    ),
)
def score(request: dict, lang: str) -> dict:
    players = [
        fbb.Player(
            name=p["name"],
            mood=p["mood"],
            eliminated=p["eliminated"],
            treasures=tuple([fbb.Treasure(c["name"], c["points"]) for c in p["treasures"]]),
        )
        for p in request["players"]
    ]
    game = fbb.score_game(players)
    return {
        "players": [
            {
                "name": p.name,
                "eliminated": p.eliminated,
                "score": p.score,
                "has_kirakira": p.has_kirakira,
                "rank": p.rank,
                "explanation": _player_explanation(p, lang),
            }
            for p in game.players
        ],
        "winners": list(game.winners),
        "decided_by": game.decided_by,
        "explanation": _verdict(game, lang),
    }


# -- Setup ----------------------------------------------------------------------------


@operation(
    operation_id="fairy_black_box_setup",
    method="GET",
    path="/fairy-black-box/setup",
    request=FairyBlackBoxSetupRequestSchema,
    response=FairyBlackBoxSetupResponseSchema,
    tag=TAG,
    summary="Setup for a Fairy & Black Box game of 2-5 players: starting mood and decks.",
    description=(
        "Call at the start of a game: returns the starting mood (4, or 3 with 4-5 players), "
        "the cards to set aside and how many star-deck run-outs end the game (1 with 2 "
        "players, else 2)."
    ),
)
def setup(request: dict, lang: str) -> dict:
    game = fbb.setup(request["players"])
    facts = {
        "players": game.players,
        "mood": game.starting_mood,
        "stars": fbb.STAR_CARDS,
        "treasures": fbb.TREASURE_CARDS,
        "aside": fbb.SET_ASIDE_STAR_CARDS,
    }
    end = "fairy_black_box.setup_end_two" if game.players == 2 else "fairy_black_box.setup_end_more"
    return {
        "players": game.players,
        "starting_mood": game.starting_mood,
        "star_cards": fbb.STAR_CARDS,
        "treasure_cards": fbb.TREASURE_CARDS,
        "set_aside_star_cards": fbb.SET_ASIDE_STAR_CARDS,
        "star_deck_runouts_to_end": game.star_runouts_to_end,
        "first_turn_names_opponent": game.first_turn_names_opponent,
        "explanation": sentences([t("fairy_black_box.setup", lang, **facts), t(end, lang, **facts)], lang),
    }


# -- End check ------------------------------------------------------------------------


def _star_text(check: fbb.EndCheck, lang: str) -> str:
    two = check.players == 2
    if check.star_deck_runouts == check.star_runouts_to_end:
        key = "fairy_black_box.star_end_two" if two else "fairy_black_box.star_end_more"
        return t(key, lang, players=check.players)
    if check.star_deck_runouts == 1:
        return t("fairy_black_box.star_refresh", lang)
    key = "fairy_black_box.star_not_yet_two" if two else "fairy_black_box.star_not_yet_more"
    return t(key, lang, players=check.players)


def _treasure_text(check: fbb.EndCheck, lang: str) -> str:
    if not check.treasure_deck_empty:
        return t("fairy_black_box.treasure_left", lang)
    key = "fairy_black_box.treasure_end" if check.treasure_discard_empty else "fairy_black_box.treasure_refresh"
    return t(key, lang)


def _players_text(check: fbb.EndCheck, lang: str) -> str:
    if check.players_left == 1:
        return t("fairy_black_box.one_left", lang)
    if check.players_left == 0:
        return t("fairy_black_box.none_left", lang)
    return t("fairy_black_box.players_remain", lang, left=check.players_left)


@operation(
    operation_id="fairy_black_box_end_check",
    method="POST",
    path="/fairy-black-box/end-check",
    request=FairyBlackBoxEndCheckRequestSchema,
    response=FairyBlackBoxEndCheckResponseSchema,
    tag=TAG,
    summary="Is this the last turn of Fairy & Black Box? Lists every end condition met.",
    description=(
        "Call at the end of a turn with the player count, star-deck run-outs so far, whether "
        "the treasure deck and its discard are empty, and players left. Ends on the 2nd "
        "star run-out (1st with 2 players), no treasures left, or one player left."
    ),
)
def end_check(request: dict, lang: str) -> dict:
    check = fbb.end_check(
        request["players"],
        request["star_deck_runouts"],
        request["treasure_deck_empty"],
        request["treasure_discard_empty"],
        request["players_left"],
    )
    texts = {
        "star_deck": _star_text(check, lang),
        "treasure_deck": _treasure_text(check, lang),
        "players_left": _players_text(check, lang),
    }
    if check.last_turn:
        said = [t("fairy_black_box.end_yes", lang), *(texts[c] for c in check.reasons), t("fairy_black_box.end_then", lang)]
    else:
        said = [t("fairy_black_box.end_no", lang), *texts.values()]
    return {
        "last_turn": check.last_turn,
        "reasons": list(check.reasons),
        "checks": [
            {"condition": c, "met": c in check.reasons, "explanation": texts[c]}
            for c in fbb.END_CONDITIONS
        ],
        "explanation": sentences(said, lang),
    }


# -- Next player ----------------------------------------------------------------------


@operation(
    operation_id="fairy_black_box_next_player",
    method="POST",
    path="/fairy-black-box/next-player",
    request=FairyBlackBoxNextPlayerRequestSchema,
    response=FairyBlackBoxNextPlayerResponseSchema,
    tag=TAG,
    summary="Who plays next in Fairy & Black Box after the active player is eliminated.",
    description=(
        "Call when the active player is eliminated: give the players still in with their treasure card counts. The one holding the "
        "fewest plays next; if several tie, all are returned and they settle it by "
        "rock-paper-scissors."
    ),
)
def next_player(request: dict, lang: str) -> dict:
    found = fbb.next_player([(p["name"], p["treasure_count"]) for p in request["players"]])
    if found.rock_paper_scissors:
        text = t("fairy_black_box.next_tied", lang, names=join_list(found.candidates, lang), count=found.fewest_treasures)
    else:
        text = t("fairy_black_box.next_one", lang, name=found.candidates[0], count=found.fewest_treasures)
    return {
        "next_players": list(found.candidates),
        "fewest_treasures": found.fewest_treasures,
        "rock_paper_scissors": found.rock_paper_scissors,
        "explanation": text,
    }
