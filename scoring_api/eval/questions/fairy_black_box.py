"""Fairy & Black Box questions: a final scoring with a tie at the top, and who wins
(docs/rules/fairy-black-box.md, Final scoring: 〈きらきら〉, then mood, then a shared win).

Three to five players; two of them share the highest score, and the question is written so
that each tie-break is met: one of the two holds 〈きらきら〉, or their moods differ, or
they are equal in everything and share the win. The others score less or were eliminated.
At most three treasures a hand (15 in all, the box's count). The treasures' names are not
in the question (the card list is not in our sources): only their points, and which one is
〈きらきら〉.
"""

from __future__ import annotations

import random

from ..terms import PLAYER_NAMES, word
from .draft import Draft

OPERATION = "score_fairy_black_box"
TIE_BREAKS = ("kirakira", "mood", "shared")


def draft(rng: random.Random, lang: str) -> Draft:
    names = list(PLAYER_NAMES[lang][: rng.randint(3, 5)])
    tied = rng.sample(names, 2)
    tie_break = rng.choice(TIE_BREAKS)
    top = rng.randint(5, 12)
    moods = {name: rng.randint(1, 5) for name in names}
    if tie_break == "shared":
        moods[tied[1]] = moods[tied[0]]
    elif tie_break == "mood":
        moods[tied[1]] = rng.choice([m for m in range(1, 6) if m != moods[tied[0]]])
    hands: dict[str, list[int] | None] = {}
    for name in names:
        if name in tied:
            hands[name] = _split(rng, top)
        else:
            hands[name] = None if rng.random() < 0.3 else _split(rng, rng.randint(0, top - 1))
    holders = [tied[0]] if tie_break == "kirakira" else [n for n in names if n not in tied and hands[n]]
    holder = rng.choice(holders) if holders and (tie_break == "kirakira" or rng.random() < 0.5) else None
    kirakira = rng.randrange(len(hands[holder] or [])) if holder is not None else None
    arguments = {"players": _players(names, hands, moods, holder, kirakira, lang)}
    return Draft("names", _text(names, hands, moods, holder, kirakira, lang), OPERATION, arguments)


def _split(rng: random.Random, score: int) -> list[int]:
    """``score`` as 1 to 3 treasures of at least 1 point each (none for 0)."""
    if score == 0:
        return []
    cuts = sorted(rng.sample(range(1, score), min(rng.randint(0, 2), score - 1)))
    return [b - a for a, b in zip([0, *cuts], [*cuts, score], strict=True)]


def _players(names, hands, moods, holder, kirakira, lang: str) -> list[dict]:
    players, number = [], 0
    for name in names:
        cards = hands[name]
        if cards is None:
            players.append({"name": name, "mood": 0, "eliminated": True, "treasures": []})
            continue
        treasures = []
        for index, points in enumerate(cards):
            number += 1
            special = name == holder and index == kirakira
            label = (
                word("kirakira", "ja") if special else (f"タカラモノ{number}" if lang == "ja" else f"treasure {number}")
            )
            treasures.append({"name": label, "points": points})
        players.append({"name": name, "mood": moods[name], "eliminated": False, "treasures": treasures})
    return players


def _text(names, hands, moods, holder, kirakira, lang: str) -> str:
    game, lines = word("fairy_black_box", lang), []
    for name in names:
        cards = hands[name]
        if cards is None:
            lines.append(
                f"{name}: {word('eliminated', lang)}。" if lang == "ja" else f"{name}: {word('eliminated', lang)}."
            )
            continue
        shown = [_card(points, name == holder and i == kirakira, lang) for i, points in enumerate(cards)]
        mood, treasures = word("mood", lang), word("treasures", lang)
        if lang == "ja":
            held = f"{treasures}は{'と'.join(shown)}" if shown else f"{treasures}なし"
            lines.append(f"{name}: {mood}{moods[name]}、{held}。")
        else:
            held = f"{treasures} of {_listed(shown)}" if shown else f"no {treasures}"
            lines.append(f"{name}: {mood} {moods[name]}, {held}.")
    if lang == "ja":
        return (
            f"{game}が終わりました。{''.join(lines)}勝ったのは誰ですか？\n"
            "最後の行に「答え: <勝者の名前>」の形で書いてください（勝利を分かち合うときは全員を「、」で区切って）。"
        )
    return (
        f"Our game of {game} is over. {' '.join(lines)} Who wins?\n"
        'On the last line write "Answer: <winner>" (if the win is shared, every winner, separated by ", ").'
    )


def _card(points: int, kirakira: bool, lang: str) -> str:
    if lang == "ja":
        return f"{word('kirakira', lang)}（{points}点）" if kirakira else f"{points}点"
    worth = f"{points} point{'' if points == 1 else 's'}"
    return f"{word('kirakira', lang)} ({worth})" if kirakira else worth


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _answer(result: dict) -> list[str]:
    """The winners, in the request's order."""
    return list(result["winners"])


ANSWERS = {OPERATION: _answer}
