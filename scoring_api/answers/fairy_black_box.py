"""Fairy & Black Box over HTTP: final score, setup, end check and next player.

``POST /api/v1/fairy-black-box/score``, ``GET /api/v1/fairy-black-box/setup``,
``POST /api/v1/fairy-black-box/end-check``, ``POST /api/v1/fairy-black-box/next-player``.
Rule refusals (:class:`RuleError`) become 400s in the operation registry.

The sentences are read from the catalogue once per language at import, with positional
placeholders (:func:`~scoring_api.i18n.positional`), those that go together run together into one template
per case; a request fills its case with ``str.format``.
"""

from __future__ import annotations

from operator import itemgetter

from ..games import fairy_black_box as fbb
from ..i18n import LANGS, LIST_SEPARATORS, positional, run_together, sentences, t
from ..operation import Operation, operation
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

#: This game's operations, in the order they are listed (see scoring_api.operations).
OPERATIONS: list[Operation] = []

TAG = "fairy_black_box"


# -- Final score ----------------------------------------------------------------------

#: A treasure of the request as the ``(name, points)`` pair the scoring reads (:class:`fbb.Treasure`).
TREASURE = itemgetter("name", "points")
#: A player's line: ``{0}`` the name (eliminated players and empty hands).
ELIMINATED_TEXTS = positional("fairy_black_box.player_eliminated", "name")
NO_TREASURE_TEXTS = positional("fairy_black_box.player_no_treasures", "name")


def _score_lines(lang: str) -> list[str]:
    """``player_score`` in ``lang`` for hands of 1, 2... 15 treasures (the box's treasures,
    the most a hand can hold once :func:`fbb.check_players` passed), with the hand's
    ``treasure_part`` sentences spelled out: ``{0}`` the name, ``{1}`` the score, then each
    treasure's name and points (``{2} {3} + {4} {5}``). Index 0 is unused: an empty hand
    has its own sentence."""
    lines = []
    for count in range(fbb.TREASURE_CARDS + 1):
        parts = " + ".join(
            t("fairy_black_box.treasure_part", lang, name=f"{{{2 + 2 * i}}}", points=f"{{{3 + 2 * i}}}")
            for i in range(count)
        )
        lines.append(t("fairy_black_box.player_score", lang, name="{0}", parts=parts, score="{1}"))
    return lines


#: ``SCORE_LINES[lang][treasure count]``: see :func:`_score_lines`.
SCORE_LINES = {lang: _score_lines(lang) for lang in LANGS}


def _players(game: fbb.GameScore, lang: str) -> list[dict]:
    """Each player's result, with the line that explains the score."""
    eliminated_text, no_treasures_text = ELIMINATED_TEXTS[lang], NO_TREASURE_TEXTS[lang]
    score_lines = SCORE_LINES[lang]
    holder = game.kirakira_holder
    results = []
    for p, (name, _mood, eliminated, treasures) in enumerate(game.table):
        score = game.scores[p]
        if eliminated:
            explanation = eliminated_text.format(name)
        elif not treasures:
            explanation = no_treasures_text.format(name)
        else:  # the name, the score, then each treasure's (name, points)
            explanation = score_lines[len(treasures)].format(*sum(treasures, (name, score)))
        results.append(
            {
                "name": name,
                "eliminated": eliminated,
                "score": score,
                "has_kirakira": p == holder,
                "rank": game.ranks[p],
                "explanation": explanation,
            }
        )
    return results


#: What fills a verdict (:data:`VERDICT_TEXTS`), in this order: the eliminated players,
#: the (first) winner, the top score, the players tied at it, their top mood, the winners.
VERDICT_FACTS = ("out", "name", "score", "tied", "mood", "winners")
#: How the winner was found: the sentences after the one naming the eliminated players.
VERDICT_STEPS = {
    "sole_survivor": [positional("fairy_black_box.winner_sole_survivor", *VERDICT_FACTS)],
    "score": [positional("fairy_black_box.winner_score", *VERDICT_FACTS)],
    **{
        decided_by: [
            positional("fairy_black_box.tied", *VERDICT_FACTS, names="tied"),
            positional(f"fairy_black_box.winner_{decided_by}", *VERDICT_FACTS, names="winners"),
        ]
        for decided_by in ("kirakira", "mood", "shared")
    },
}
ELIMINATED_PLAYERS = positional("fairy_black_box.eliminated_players", *VERDICT_FACTS, names="out")
#: ``VERDICT_TEXTS[anyone eliminated, step][lang]``: the steps of :func:`_verdict` run together.
VERDICT_TEXTS = {
    (anyone_out, step): run_together([ELIMINATED_PLAYERS, *said] if anyone_out else said)
    for anyone_out in (False, True)
    for step, said in VERDICT_STEPS.items()
}
NO_WINNER_TEXTS = positional("fairy_black_box.no_winner")


def _verdict(game: fbb.GameScore, lang: str) -> str:
    """Why these players won, step by step (rules: Final scoring): who was eliminated, then
    the sole survivor, the top score, or the tie and what broke it."""
    if game.decided_by is None:
        return NO_WINNER_TEXTS[lang]
    out = game.out
    step = "sole_survivor" if len(out) == len(game.table) - 1 else game.decided_by
    separator = LIST_SEPARATORS[lang]
    return VERDICT_TEXTS[bool(out), step][lang].format(
        separator.join(out),
        game.winners[0],
        game.top_score,
        separator.join(game.tied),
        game.top_mood,
        separator.join(game.winners),
    )


@operation(
    OPERATIONS,
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
    players = [  # fbb.Player, as plain tuples
        (p["name"], p["mood"], p["eliminated"], tuple(map(TREASURE, p["treasures"]))) for p in request["players"]
    ]
    game = fbb.score_game(players)
    return {
        "players": _players(game, lang),
        "winners": list(game.winners),
        "decided_by": game.decided_by,
        "explanation": _verdict(game, lang),
    }


# -- Setup ----------------------------------------------------------------------------

#: What fills the setup's explanation, in this order.
SETUP_FACTS = ("players", "mood", "stars", "treasures", "aside")
#: ``SETUP_TEXTS[two players][lang]``: the setup, then how the star deck ends the game.
SETUP_TEXTS = {
    two: run_together(
        [
            positional("fairy_black_box.setup", *SETUP_FACTS),
            positional("fairy_black_box.setup_end_two" if two else "fairy_black_box.setup_end_more", *SETUP_FACTS),
        ]
    )
    for two in (False, True)
}


@operation(
    OPERATIONS,
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
    explanation = SETUP_TEXTS[game.players == 2][lang].format(
        game.players, game.starting_mood, fbb.STAR_CARDS, fbb.TREASURE_CARDS, fbb.SET_ASIDE_STAR_CARDS
    )
    return {
        "players": game.players,
        "starting_mood": game.starting_mood,
        "star_cards": fbb.STAR_CARDS,
        "treasure_cards": fbb.TREASURE_CARDS,
        "set_aside_star_cards": fbb.SET_ASIDE_STAR_CARDS,
        "star_deck_runouts_to_end": game.star_runouts_to_end,
        "first_turn_names_opponent": game.first_turn_names_opponent,
        "explanation": explanation,
    }


# -- End check ------------------------------------------------------------------------

#: The end check's sentences by key: ``{0}`` the player count (star deck) or the players
#: left (players left); the others take nothing.
END_TEXTS = {
    key: positional(f"fairy_black_box.{key}", "count", players="count", left="count")
    for key in (
        "star_end_two",
        "star_end_more",
        "star_refresh",
        "star_not_yet_two",
        "star_not_yet_more",
        "treasure_left",
        "treasure_end",
        "treasure_refresh",
        "one_left",
        "none_left",
        "players_remain",
        "end_yes",
        "end_then",
        "end_no",
    )
}


def _star_text(check: fbb.EndCheck, lang: str) -> str:
    two = check.players == 2
    if check.star_deck_runouts == check.star_runouts_to_end:
        key = "star_end_two" if two else "star_end_more"
    elif check.star_deck_runouts == 1:
        key = "star_refresh"
    else:
        key = "star_not_yet_two" if two else "star_not_yet_more"
    return END_TEXTS[key][lang].format(check.players)


def _treasure_text(check: fbb.EndCheck, lang: str) -> str:
    if not check.treasure_deck_empty:
        return END_TEXTS["treasure_left"][lang]
    return END_TEXTS["treasure_end" if check.treasure_discard_empty else "treasure_refresh"][lang]


def _players_text(check: fbb.EndCheck, lang: str) -> str:
    if check.players_left == 1:
        return END_TEXTS["one_left"][lang]
    if check.players_left == 0:
        return END_TEXTS["none_left"][lang]
    return END_TEXTS["players_remain"][lang].format(check.players_left)


@operation(
    OPERATIONS,
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
        said = [END_TEXTS["end_yes"][lang], *(texts[c] for c in check.reasons), END_TEXTS["end_then"][lang]]
    else:
        said = [END_TEXTS["end_no"][lang], *texts.values()]
    return {
        "last_turn": check.last_turn,
        "reasons": list(check.reasons),
        "checks": [{"condition": c, "met": c in check.reasons, "explanation": texts[c]} for c in fbb.END_CONDITIONS],
        "explanation": sentences(said, lang),
    }


# -- Next player ----------------------------------------------------------------------

#: ``NEXT_TEXTS[rock-paper-scissors][lang]``: ``{0}`` the name(s), ``{1}`` their treasure count.
NEXT_TEXTS = {
    tied: positional(
        "fairy_black_box.next_tied" if tied else "fairy_black_box.next_one", "names", "count", name="names"
    )
    for tied in (False, True)
}


@operation(
    OPERATIONS,
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
    names = LIST_SEPARATORS[lang].join(found.candidates)  # one name when there is one candidate
    text = NEXT_TEXTS[found.rock_paper_scissors][lang].format(names, found.fewest_treasures)
    return {
        "next_players": list(found.candidates),
        "fewest_treasures": found.fewest_treasures,
        "rock_paper_scissors": found.rock_paper_scissors,
        "explanation": text,
    }
