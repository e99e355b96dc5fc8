"""Fairy & Black Box (フェアリー＆ブラックボックス): final scores, setup, end and next turn.

Rules: ``docs/rules/fairy-black-box.md`` (seed 001, the Japanese rulebook). Sections
cited below by their heading there: *Components*, *Setup*, *Turn*, *Mood*, *Next
player*, *End of game*, *Final scoring*, *Decisions*.

The treasure card list (names, points, effects) is not in our sources, so there is no
card catalogue here: the caller states each treasure's name and points.  The only card
this module knows by name is 〈きらきら〉, because the tie-break names it.

Decisions where the rules are silent (*Decisions*; each repeated in the function that
applies it):

* Everyone eliminated (possible if one star card knocks out several fairies at once):
  nobody scores, there is no winner and ``decided_by`` is ``None``.
* A single survivor wins with whatever they hold (their score is the top score, so the
  win is ``decided_by == "score"``, even at 0 or below).
* A player still in the game cannot have mood 0 (*Mood*: at 0 the player is eliminated);
  an eliminated player's mood is not checked, because a treasure's effect may also chase a
  fairy out (the rulebook's overview) and an eliminated player's mood never matters.
* Ranks below first apply the winner's tie-breaks (score, then 〈きらきら〉, then mood);
  the rules only decide the winner.
"""

from __future__ import annotations

import unicodedata
from itertools import accumulate
from typing import NamedTuple

from .names import check_unique_names
from .rule_error import RuleError

# -- Components and player counts (rules: Components; Setup; End of game) ---------------

MIN_PLAYERS = 2
MAX_PLAYERS = 5
STAR_CARDS = 12
TREASURE_CARDS = 15
SET_ASIDE_STAR_CARDS = 2

#: The one treasure the rules name (*Final scoring*), as printed.
KIRAKIRA = "きらきら"
#: Its accepted spellings once folded (NFKC, case-folded, brackets removed): :func:`is_kirakira`.
KIRAKIRA_SPELLINGS = frozenset({"きらきら", "キラキラ", "kirakira"})
_BRACKETS = ("〈〉", "<>", "《》", "「」", "【】", "『』")
_CLOSING = {pair[0]: pair[1] for pair in _BRACKETS}  # opening -> closing (each pair is two characters)


def is_kirakira(treasure_name: str) -> bool:
    """Is this treasure 〈きらきら〉? Accepts きらきら, キラキラ and kirakira (any case),
    with or without brackets such as 〈〉 (*Final scoring*, the tie-break card).

    The name is compared folded: NFKC (half-width ｷﾗｷﾗ, full-width letters and ＜＞ become
    ordinary), case-folded, spaces trimmed, one pair of brackets removed (*Decisions*, 6).
    """
    folded = unicodedata.normalize("NFKC", treasure_name).casefold().strip()
    if len(folded) >= 2 and _CLOSING.get(folded[0]) == folded[-1]:
        folded = folded[1:-1].strip()
    return folded in KIRAKIRA_SPELLINGS


# -- Setup (rules: Setup; Turn; End of game) ---------------------------------------------


def check_player_count(players: int) -> None:
    """The game is for 2-5 players (*Setup*)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError("player_count", ("player",), players=players, low=MIN_PLAYERS, high=MAX_PLAYERS)


def starting_mood(players: int) -> int:
    """Every player's mood at the start: 4, or 3 with 4 or 5 players (*Setup*)."""
    check_player_count(players)
    return 3 if players >= 4 else 4


def star_runouts_to_end(players: int) -> int:
    """How many times the star deck runs out before the game ends after that turn: the
    second time with 3-5 players, the first time with 2 (*End of game*)."""
    check_player_count(players)
    return 1 if players == 2 else 2


class Setup(NamedTuple):
    players: int
    starting_mood: int
    star_runouts_to_end: int
    first_turn_names_opponent: bool  # *Turn* step 4: in a 2-player game, the start turn


def setup(players: int) -> Setup:
    """What a game of ``players`` starts with (*Setup*; *Turn* step 4; *End of game*)."""
    return Setup(
        players=players,
        starting_mood=starting_mood(players),
        star_runouts_to_end=star_runouts_to_end(players),
        first_turn_names_opponent=players == 2,
    )


# -- Final scoring (rules: Final scoring; Mood) ------------------------------------------


class Treasure(NamedTuple):
    name: str
    points: int


class Player(NamedTuple):
    """A player at the end of the game. The scoring below reads players and treasures by
    position, so plain ``(name, mood, eliminated, treasures)`` and ``(name, points)``
    tuples will do as well (the API passes those)."""

    name: str
    mood: int
    eliminated: bool
    treasures: tuple[Treasure, ...] = ()


def check_players(players: list[Player]) -> int | None:
    """Refuse a table the rules cannot produce (the error points at the first culprit);
    return the index of the player holding 〈きらきら〉 (None: nobody holds it).

    * names tell players apart, so each is used once;
    * a player still in has mood 1 or more (*Mood*: at 0 the player is eliminated);
    * an eliminated player holds no treasure (*Mood*: they discard all of them);
    * the hands hold at most the 15 treasure cards of the box, together;
    * 〈きらきら〉 is one card: one holder, one copy (*Final scoring*).
    """
    check_player_count(len(players))
    check_unique_names(player[0] for player in players)
    kirakira = []  # (player index, treasure index) of each 〈きらきら〉, in request order
    for p, (name, mood, eliminated, treasures) in enumerate(players):
        if eliminated:
            if treasures:
                raise RuleError(
                    "eliminated_with_treasures",
                    (("player", p), "treasure"),
                    name=name,
                    count=len(treasures),
                )
        elif mood == 0:
            raise RuleError("mood_zero_in_game", (("player", p), "mood"), name=name)
        kirakira += [(p, c) for c, (treasure, _) in enumerate(treasures) if is_kirakira(treasure)]
    held = list(accumulate(len(player[3]) for player in players))  # treasures in hands 0..p
    if held[-1] > TREASURE_CARDS:  # refused at the hand that passes the limit
        p = next(p for p, count in enumerate(held) if count > TREASURE_CARDS)
        raise RuleError("too_many_treasures", (("player", p), "treasure"), count=held[-1], limit=TREASURE_CARDS)
    if len(kirakira) > 1:  # the second copy is refused
        (holder, _), (p, c) = kirakira[:2]
        if holder == p:
            raise RuleError("kirakira_held_twice", (("player", p), ("treasure", c)), name=players[p][0])
        raise RuleError(
            "two_kirakira",
            (("player", p), ("treasure", c)),
            first=players[holder][0],
            second=players[p][0],
        )
    return kirakira[0][0] if kirakira else None


class PlayerScore(NamedTuple):
    name: str
    eliminated: bool
    mood: int
    treasures: tuple[Treasure, ...]
    score: int | None  # None: eliminated players do not score
    has_kirakira: bool
    rank: int | None = None


class GameScore(NamedTuple):
    """The final scoring. Each player's result is kept by column, in request order (the
    API reads the columns); :attr:`players` gives it as one :class:`PlayerScore` each."""

    table: tuple[Player, ...]  # the players as given
    scores: tuple[int | None, ...]  # by player: None for the eliminated, who do not score
    ranks: tuple[int | None, ...]  # by player: None for the eliminated, who have no rank
    kirakira_holder: int | None  # the index of the player holding 〈きらきら〉
    winners: tuple[str, ...]
    decided_by: str | None  # "score" | "kirakira" | "mood" | "shared" | None (no survivor)
    top_score: int | None
    tied: tuple[str, ...]  # the players at the top score, in request order
    top_mood: int | None  # the highest mood among them (used when mood decides or is tied)
    out: tuple[str, ...]  # the eliminated players, in request order

    @property
    def players(self) -> tuple[PlayerScore, ...]:
        columns = zip(self.table, self.scores, self.ranks, strict=True)
        return tuple(
            PlayerScore(name, eliminated, mood, treasures, score, p == self.kirakira_holder, rank)
            for p, ((name, mood, eliminated, treasures), score, rank) in enumerate(columns)
        )


def _decided_by(tied: int, winners: int, best: tuple[int, bool, int]) -> str:
    """The step of *Final scoring* that found the ``winners`` among the ``tied`` players
    (counts), from the winners' place in the order of :func:`score_game` (``best``):

    1. Highest score wins (``"score"``; a single survivor always wins this way).
    2. Tied: the tied player holding 〈きらきら〉 wins (``"kirakira"``).
    3. Otherwise the tied player with the highest mood wins (``"mood"``).
    4. Still tied: they share the win (``"shared"``).
    """
    if tied == 1:
        return "score"
    if not best[1]:  # the best key holds 〈きらきら〉
        return "kirakira"
    return "mood" if winners == 1 else "shared"


def score_game(players: list[Player]) -> GameScore:
    """Final scoring of a finished game (*Final scoring*), once :func:`check_players` passed.

    A player's score is the sum of the points of the treasures in hand; eliminated players
    do not score. The scoring players are ordered by the tie-breaks of :func:`_decided_by`:
    the higher score, then holding 〈きらきら〉, then the higher mood. The winners are the
    players first in that order; ranks: 1 + the number of scoring players strictly ahead,
    so rank 1 is exactly the winners. Eliminated players have no rank.

    *Decisions*, 1: with nobody left to score, there is no winner and ``decided_by`` is None.
    """
    holder = check_players(players)
    # each player's place in that order, smaller is better; None: eliminated
    keys = [
        None if eliminated else (-sum(points for _, points in treasures), p != holder, -mood)
        for p, (_, mood, eliminated, treasures) in enumerate(players)
    ]
    scoring = [key for key in keys if key is not None]
    best = min(scoring, default=None)
    scores: list[int | None] = []
    ranks: list[int | None] = []
    out: list[str] = []
    tied: list[str] = []
    winners: list[str] = []
    top_mood = None
    for (name, mood, _, _), key in zip(players, keys, strict=True):
        if key is None:
            scores.append(None)
            ranks.append(None)
            out.append(name)
            continue
        assert best is not None  # key is a scoring player's, so ``scoring`` is not empty
        scores.append(-key[0])
        ranks.append(1 + sum(other < key for other in scoring))  # 1 + the players strictly ahead
        if key[0] == best[0]:  # at the top score
            tied.append(name)
            top_mood = mood if top_mood is None else max(top_mood, mood)
            if key == best:
                winners.append(name)
    return GameScore(
        tuple(players),
        tuple(scores),
        tuple(ranks),
        holder,
        tuple(winners),
        _decided_by(len(tied), len(winners), best) if best else None,
        -best[0] if best else None,
        tuple(tied),
        top_mood,
        tuple(out),
    )


# -- End of the game (rules: End of game) ------------------------------------------------

#: The end conditions, in the rulebook's order (ゲームの終了 ①②③).
END_CONDITIONS = ("star_deck", "treasure_deck", "players_left")


class EndCheck(NamedTuple):
    players: int
    star_deck_runouts: int
    star_runouts_to_end: int
    treasure_deck_empty: bool
    treasure_discard_empty: bool
    players_left: int
    reasons: tuple[str, ...]  # the END_CONDITIONS met, in order

    @property
    def last_turn(self) -> bool:
        return bool(self.reasons)


def end_check(
    players: int,
    star_deck_runouts: int,
    treasure_deck_empty: bool,
    treasure_discard_empty: bool,
    players_left: int,
) -> EndCheck:
    """Is the current turn the last one, and why (*End of game*)?

    ``players`` is the count at the start (it fixes the star-deck rule even after
    eliminations); ``star_deck_runouts`` counts the times the star deck has run out so far,
    this turn included.  The game ends after this turn when

    1. ``star_deck``: the star deck has run out for the second time (3-5 players) or the
       first time (2 players);
    2. ``treasure_deck``: the treasure deck is empty and so is its discard;
    3. ``players_left``: one player is left (decision: none left ends it too).

    Counts the rules cannot reach are refused: more players left than started, or a star
    deck that ran out again after the game should have ended.
    """
    limit = star_runouts_to_end(players)
    if players_left > players:
        raise RuleError("players_left_above_count", ("players_left",), left=players_left, players=players)
    if star_deck_runouts > limit:
        raise RuleError(
            "star_deck_past_end",
            ("star_deck",),
            runouts=star_deck_runouts,
            limit=limit,
            players=players,
        )
    met = {
        "star_deck": star_deck_runouts == limit,
        "treasure_deck": treasure_deck_empty and treasure_discard_empty,
        "players_left": players_left <= 1,
    }
    return EndCheck(
        players,
        star_deck_runouts,
        limit,
        treasure_deck_empty,
        treasure_discard_empty,
        players_left,
        tuple(c for c in END_CONDITIONS if met[c]),
    )


# -- Next player after an elimination (rules: Next player) -------------------------------


class NextPlayer(NamedTuple):
    candidates: tuple[str, ...]  # one name, or the tied players (rock-paper-scissors)
    fewest_treasures: int

    @property
    def rock_paper_scissors(self) -> bool:
        return len(self.candidates) > 1


def next_player(remaining: list[tuple[str, int]]) -> NextPlayer:
    """Who takes the turn after the active player is eliminated (*Next player*): the player
    with the fewest treasure cards in hand; several tied settle it by rock-paper-scissors,
    so all of them are reported.

    ``remaining`` lists the players still in as ``(name, treasure count)``.  Refused: a
    name used twice, more than the 15 treasure cards in hands, and fewer than two players
    left (the game is over: *End of game*, one player left).
    """
    seen: set[str] = set()
    held = 0
    for p, (name, count) in enumerate(remaining):
        if name in seen:
            raise RuleError("duplicate_name", (("player", p), "name"), name=name)
        seen.add(name)
        held += count
        if held > TREASURE_CARDS:
            total = sum(c for _, c in remaining)
            raise RuleError(
                "too_many_treasures",
                (("player", p), "treasure"),
                count=total,
                limit=TREASURE_CARDS,
            )
    if len(remaining) < 2:
        raise RuleError("game_over", ("player",), names=tuple(name for name, _ in remaining))
    fewest = min(count for _, count in remaining)
    return NextPlayer(tuple(name for name, count in remaining if count == fewest), fewest)
