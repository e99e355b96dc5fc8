"""Fairy & Black Box over HTTP: final score, setup, end check and next player.

``POST /api/v1/fairy-black-box/score``, ``GET /api/v1/fairy-black-box/setup``,
``POST /api/v1/fairy-black-box/end-check``, ``POST /api/v1/fairy-black-box/next-player``.
Applies the rules of ``docs/rules/fairy-black-box.md`` (:mod:`scoring_api.games.fairy_black_box`)
and explains each answer with the catalogue's sentences (``messages/fairy_black_box.yaml``).
"""

from __future__ import annotations

from ..games import fairy_black_box as fbb
from ..i18n import sentences, t
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
from .operation import Operation, operation

#: This game's operations, in the order they are listed (see scoring_api.operations).
OPERATIONS: list[Operation] = []

TAG = "fairy_black_box"


# -- Final score ----------------------------------------------------------------------


def _loaded_player(p: dict) -> fbb.Player:
    """A player of the request as the rules take it."""
    treasures = tuple(fbb.Treasure(c["name"], c["points"]) for c in p["treasures"])
    return fbb.Player(p["name"], p["mood"], p["eliminated"], treasures)


def _player(player: fbb.PlayerScore, lang: str) -> dict:
    return {
        "name": player.name,
        "eliminated": player.eliminated,
        "score": player.score,
        "has_kirakira": player.has_kirakira,
        "rank": player.rank,
        "explanation": _player_text(player, lang),
    }


def _player_text(player: fbb.PlayerScore, lang: str) -> str:
    """How the player scored: eliminated, no treasures, or each treasure's points added up."""
    if player.eliminated:
        return t("fairy_black_box.player_eliminated", lang, name=player.name)
    if not player.treasures:
        return t("fairy_black_box.player_no_treasures", lang, name=player.name)
    parts = " + ".join(
        t("fairy_black_box.treasure_part", lang, name=name, points=points) for name, points in player.treasures
    )
    return t("fairy_black_box.player_score", lang, name=player.name, parts=parts, score=player.score)


def _verdict(game: fbb.GameScore, lang: str) -> str:
    """Why these players won, step by step (rules: Final scoring): who was eliminated, then
    the sole survivor, the top score, or the tie and what broke it."""
    if game.decided_by is None:
        return t("fairy_black_box.no_winner", lang)
    said = []
    if game.out:
        said.append(t("fairy_black_box.eliminated_players", lang, names=game.out))
    winner, score = game.winners[0], game.top_score
    if len(game.out) == len(game.players) - 1:
        said.append(t("fairy_black_box.winner_sole_survivor", lang, name=winner, score=score))
    elif game.decided_by == "score":
        said.append(t("fairy_black_box.winner_score", lang, name=winner, score=score))
    else:  # a tie, broken by 〈きらきら〉 or the mood, or shared
        said.append(t("fairy_black_box.tied", lang, names=game.tied, score=score))
        said.append(
            t(f"fairy_black_box.winner_{game.decided_by}", lang, name=winner, mood=game.top_mood, names=game.winners)
        )
    return sentences(said, lang)


@operation(
    OPERATIONS,
    operation_id="score_fairy_black_box",
    method="POST",
    path="/fairy-black-box/score",
    request=FairyBlackBoxScoreRequestSchema,
    response=FairyBlackBoxScoreResponseSchema,
    tag=TAG,
    terms={"player": "players", "player.name": "name", "player.mood": "mood", "player.treasure": "treasures"},
    summary="Final scores and winner of a finished Fairy & Black Box game.",
    description=(
        "Call at game end: give every player's mood, eliminated flag and treasure cards (name, points). "
        "Survivors score the sum of their treasures; eliminated players score nothing. "
        "Ties go to the 〈きらきら〉 holder, then the higher mood, else the win is shared."
    ),
)
def score(request: dict, lang: str) -> dict:
    game = fbb.score_game([_loaded_player(p) for p in request["players"]])
    return {
        "players": [_player(player, lang) for player in game.players],
        "winners": list(game.winners),
        "decided_by": game.decided_by,
        "explanation": _verdict(game, lang),
    }


# -- Setup ----------------------------------------------------------------------------


@operation(
    OPERATIONS,
    operation_id="fairy_black_box_setup",
    method="GET",
    path="/fairy-black-box/setup",
    request=FairyBlackBoxSetupRequestSchema,
    response=FairyBlackBoxSetupResponseSchema,
    tag=TAG,
    terms={"player": "players"},  # the player count
    summary="Setup for a Fairy & Black Box game of 2-5 players: starting mood and decks.",
    description=(
        "Call at the start of a game: returns the starting mood (4, or 3 with 4-5 players), "
        "the cards to set aside and how many star-deck run-outs end the game (1 with 2 "
        "players, else 2)."
    ),
)
def setup(request: dict, lang: str) -> dict:
    game = fbb.setup(request["players"])
    aside = fbb.SET_ASIDE_STAR_CARDS
    said = [
        t(
            "fairy_black_box.setup",
            lang,
            players=game.players,
            mood=game.starting_mood,
            stars=fbb.STAR_CARDS,
            treasures=fbb.TREASURE_CARDS,
            aside=aside,
        ),
        t(
            "fairy_black_box.setup_end_two" if game.players == 2 else "fairy_black_box.setup_end_more",
            lang,
            aside=aside,
        ),
    ]
    return {
        "players": game.players,
        "starting_mood": game.starting_mood,
        "star_cards": fbb.STAR_CARDS,
        "treasure_cards": fbb.TREASURE_CARDS,
        "set_aside_star_cards": aside,
        "star_deck_runouts_to_end": game.star_runouts_to_end,
        "first_turn_names_opponent": game.first_turn_names_opponent,
        "explanation": sentences(said, lang),
    }


# -- End check ------------------------------------------------------------------------


def _star_text(check: fbb.EndCheck, lang: str) -> str:
    two = check.players == 2
    if check.star_deck_runouts == check.star_runouts_to_end:
        key = "star_end_two" if two else "star_end_more"
    elif check.star_deck_runouts == 1:
        key = "star_refresh"
    else:
        key = "star_not_yet_two" if two else "star_not_yet_more"
    return t(f"fairy_black_box.{key}", lang, players=check.players)


def _treasure_text(check: fbb.EndCheck, lang: str) -> str:
    if not check.treasure_deck_empty:
        key = "treasure_left"
    else:
        key = "treasure_end" if check.treasure_discard_empty else "treasure_refresh"
    return t(f"fairy_black_box.{key}", lang)


def _players_text(check: fbb.EndCheck, lang: str) -> str:
    if check.players_left == 1:
        key = "one_left"
    elif check.players_left == 0:
        key = "none_left"
    else:
        key = "players_remain"
    return t(f"fairy_black_box.{key}", lang, left=check.players_left)


@operation(
    OPERATIONS,
    operation_id="fairy_black_box_end_check",
    method="POST",
    path="/fairy-black-box/end-check",
    request=FairyBlackBoxEndCheckRequestSchema,
    response=FairyBlackBoxEndCheckResponseSchema,
    tag=TAG,
    terms={"player": "players", "players_left": "players_left", "star_deck": "star_deck_runouts"},
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
        said = [
            t("fairy_black_box.end_yes", lang),
            *(texts[c] for c in check.reasons),
            t("fairy_black_box.end_then", lang),
        ]
    else:
        said = [t("fairy_black_box.end_no", lang), *texts.values()]
    return {
        "last_turn": check.last_turn,
        "reasons": list(check.reasons),
        "checks": [{"condition": c, "met": c in check.reasons, "explanation": texts[c]} for c in fbb.END_CONDITIONS],
        "explanation": sentences(said, lang),
    }


# -- Next player ----------------------------------------------------------------------


@operation(
    OPERATIONS,
    operation_id="fairy_black_box_next_player",
    method="POST",
    path="/fairy-black-box/next-player",
    request=FairyBlackBoxNextPlayerRequestSchema,
    response=FairyBlackBoxNextPlayerResponseSchema,
    tag=TAG,
    terms={"player": "players", "player.name": "name", "player.treasure": "treasure_count"},
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
        explanation = t("fairy_black_box.next_tied", lang, names=found.candidates, count=found.fewest_treasures)
    else:
        explanation = t("fairy_black_box.next_one", lang, name=found.candidates[0], count=found.fewest_treasures)
    return {
        "next_players": list(found.candidates),
        "fewest_treasures": found.fewest_treasures,
        "rock_paper_scissors": found.rock_paper_scissors,
        "explanation": explanation,
    }
