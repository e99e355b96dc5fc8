"""Applejack questions: a harvest (docs/rules/applejack.md, Harvest) or the final scoring
(Final scoring) of a small orchard.

An orchard has 3 to 6 tiles on fields that mostly touch (so areas form and break), each a
tree tile with one or two of two or three varieties (1-4 apples each) or, now and then,
a pasture; tiles of a final scoring may show blossoms. A tile is written as the form
writes it: 畑1: 木（赤2、花1） / field 1: tree (red 2, blossoms 1).
"""

from __future__ import annotations

import random

from ...games.applejack_orchard import FIELDS, touching
from ..terms import VARIETIES, word
from .draft import Draft

HARVEST = "applejack_harvest"
FINAL = "applejack_final_score"


def draft(rng: random.Random, lang: str) -> Draft:
    varieties = rng.sample(sorted(VARIETIES["en"]), rng.randint(2, 3))
    final = rng.random() < 0.5
    tiles = _tiles(rng, varieties, blossoms=final)
    orchard = {"tiles": tiles}
    if final:
        supply = rng.randint(5, 30)
        return Draft("number", _final_text(tiles, supply, lang), FINAL, {"orchard": orchard, "supply": supply})
    shown = [v for v in varieties if any(v in tile.get("apples", {}) for tile in tiles)]
    harvested = rng.sample(shown, 2 if len(shown) > 1 and rng.random() < 0.25 else 1)
    die = rng.randint(1, 3)
    arguments = {"orchard": orchard, "varieties": harvested, "die": die}
    return Draft("number", _harvest_text(tiles, harvested, die, lang), HARVEST, arguments)


def _tiles(rng: random.Random, varieties: list[str], blossoms: bool) -> list[dict]:
    fields, size = [rng.choice(FIELDS)], rng.randint(3, 6)
    while len(fields) < size:
        nearby = sorted({other for field in fields for other in touching(field)} - set(fields))
        fields.append(rng.choice(nearby if rng.random() < 0.8 else sorted(set(FIELDS) - set(fields))))
    tiles: list[dict] = []
    for field in sorted(fields):
        if tiles and rng.random() < 0.15:
            tiles.append({"field": field, "pasture": True})
            continue
        shown = rng.sample(varieties, rng.randint(1, 2))
        tile: dict = {"field": field, "apples": {v: rng.randint(1, 4) for v in varieties if v in shown}}
        count = rng.choice((0, 0, 1, 2)) if blossoms else 0
        if count:
            tile["blossoms"] = count
        tiles.append(tile)
    return tiles


def _orchard_text(tiles: list[dict], lang: str) -> str:
    names = VARIETIES[lang]
    described = []
    for tile in tiles:
        field = word("field", lang, n=tile["field"])
        if tile.get("pasture"):
            described.append(f"{field}: {word('pasture', lang)}")
            continue
        if lang == "ja":
            parts = [f"{names[v]}{n}" for v, n in tile["apples"].items()]
            parts += [f"{word('blossoms', lang)}{tile['blossoms']}"] if tile.get("blossoms") else []
            described.append(f"{field}: 木（{'、'.join(parts)}）")
        else:
            parts = [f"{names[v]} {n}" for v, n in tile["apples"].items()]
            parts += [f"{word('blossoms', lang)} {tile['blossoms']}"] if tile.get("blossoms") else []
            described.append(f"{field}: tree ({', '.join(parts)})")
    first = next(v for tile in tiles for v in tile.get("apples", {}))
    if lang == "ja":
        return (
            "果樹園の畑は上から3・4・5・4・3個の列に、左上から順に1〜19の番号がついています。"
            f"タイルは{'、'.join(described)}です（「{names[first]}2」は{names[first]}のリンゴ2個）。"
        )
    return (
        "The orchard's fields are numbered 1-19 in reading order, in rows of 3, 4, 5, 4 and 3 from the top. "
        f'The tiles: {"; ".join(described)} ("{names[first]} 2" is 2 {names[first]} apples).'
    )


def _harvest_text(tiles: list[dict], harvested: list[str], die: int, lang: str) -> str:
    game, orchard = word("applejack", lang), _orchard_text(tiles, lang)
    names = [VARIETIES[lang][v] for v in harvested]
    if lang == "ja":
        which = "、次に".join(names)
        return (
            f"{game}の{word('harvest', lang)}です。{orchard}{word('die', lang)}は{die}で、{which}を{word('harvest', lang)}します。"
            f"{word('honey', lang)}はいくつもらえますか？\n最後の行に「答え: <{word('honey', lang)}の数>」の形で書いてください。"
        )
    which = " and then ".join(names)
    return (
        f"{game} {word('harvest', lang)}: {orchard} The {word('die', lang)} shows {die} and I harvest {which}. "
        f'How much {word("honey", lang)} do I get?\nOn the last line write "Answer: <{word("honey", lang)}>".'
    )


def _final_text(tiles: list[dict], supply: int, lang: str) -> str:
    game, orchard = word("applejack", lang), _orchard_text(tiles, lang)
    if lang == "ja":
        return (
            f"{game}の{word('final', lang)}を計算してください。{orchard}{word('supply', lang)}は{supply}個です。"
            f"{word('final', lang)}はいくつですか？\n最後の行に「答え: <{word('final', lang)}>」の形で書いてください。"
        )
    return (
        f"Please do the {word('final', lang)} of my {game} orchard. {orchard} My {word('supply', lang)}: {supply}. "
        f'What is my final score?\nOn the last line write "Answer: <final score>".'
    )


#: The answer in each operation's result: a harvest's honey, a final scoring's total.
ANSWERS = {HARVEST: lambda result: result["honey"], FINAL: lambda result: result["total"]}
