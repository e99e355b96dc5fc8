"""The games' words the questions use, in Japanese and English, spelt as the form spells
them (``scoring_api/web/static/text/``; tests/eval/test_questions.py checks each against
it). Apero's colours come from the message catalogue itself (``apero.colors``).

Applejack's varieties are named by colour (docs/rules/applejack.md, Tiles): the ids are
the form's, the words its labels.
"""

from __future__ import annotations

from ..i18n import t

#: Words by language: the game's names and the terms of its questions.
TERMS: dict[str, dict[str, str]] = {
    "ja": {
        "apero": "アペロ",
        "pedro": "ピードロ",
        "applejack": "アップルジャック",
        "fairy_black_box": "フェアリー＆ブラックボックス",
        "bid": "入札",
        "field": "畑{n}",
        "pasture": "牧草地",
        "blossoms": "花",
        "die": "ダイス",
        "honey": "ハチミツ",
        "harvest": "収穫",
        "final": "最終得点",
        "supply": "手持ちのハチミツ",
        "mood": "ゴキゲン",
        "eliminated": "脱落",
        "treasures": "タカラモノ",
        "kirakira": "〈きらきら〉",
    },
    "en": {
        "apero": "Apero",
        "pedro": "Pedro",
        "applejack": "Applejack",
        "fairy_black_box": "Fairy & Black Box",
        "bid": "bid",
        "field": "field {n}",
        "pasture": "pasture",
        "blossoms": "blossoms",
        "die": "die",
        "honey": "honey",
        "harvest": "harvest",
        "final": "final scoring",
        "supply": "honey in supply",
        "mood": "mood",
        "eliminated": "eliminated",
        "treasures": "treasures",
        "kirakira": "〈きらきら〉 kirakira",
    },
}

#: Applejack's varieties: the form's ids and their words (the seventh has no colour name).
VARIETIES: dict[str, dict[str, str]] = {
    "ja": {
        "red": "赤",
        "light_green": "黄緑",
        "yellow": "黄",
        "orange": "橙",
        "pink": "ピンク",
        "brown": "茶",
    },
    "en": {
        "red": "red",
        "light_green": "light green",
        "yellow": "yellow",
        "orange": "orange",
        "pink": "pink",
        "brown": "brown",
    },
}

#: Other words a player (or a model) may use for a variety: Apero's 橙 is the form's word
#: for orange in both games, and 「オレンジ」 its everyday gloss.
VARIETY_SYNONYMS: dict[str, str] = {"オレンジ": "orange"}

#: The players' names of the questions, as players at a table of that language are called.
PLAYER_NAMES: dict[str, tuple[str, ...]] = {
    "ja": ("ハル", "ミオ", "ソラ", "リン", "ユウ"),
    "en": ("Aki", "Ben", "Cleo", "Dan", "Eve"),
}


def word(name: str, lang: str, **values: object) -> str:
    """The term ``name`` in ``lang`` (``field`` takes ``n``)."""
    return TERMS[lang][name].format_map(values)


def apero_card(color: str, value: int, lang: str) -> str:
    """An Apero card as the form names it: 赤1 / red 1 (the catalogue's colour names)."""
    name = t(f"apero.colors.{color}", lang)
    return f"{name}{value}" if lang == "ja" else f"{name} {value}"
