"""The service's sentences read as players write (docs/development.md, "Texts"): English
says "1 hand" and "2 hands", never "hand(s)"; Japanese uses full-width brackets, puts no
ASCII space between Japanese words or between a number and its unit, and names people
with さん, but never a placeholder name (「プレイヤー1」) or one that already carries an
honorific (「ミカちゃん」)."""

import json
import re
from pathlib import Path

import pytest

from scoring_api.i18n import HONORIFICS, LANGS, PLACEHOLDER_NAME, SENTENCES, person, t

PEOPLE_JS = Path(__file__).resolve().parents[1] / "scoring_api" / "web" / "static" / "people.js"

JAPANESE = "\u3040-\u30ff\u4e00-\u9fff"
UNITS = "秒|バイト|段|回|行|列|点|枚|人|個|文字"


def test_no_english_sentence_says_s_in_brackets():
    found = [key for key, text in SENTENCES.items() if "(s)" in text["en"]]
    assert found == []


def test_japanese_sentences_use_full_width_brackets_and_no_stray_spaces():
    brackets = [key for key, text in SENTENCES.items() if re.search(r"[()]", text["ja"])]
    between_words = [
        key for key, text in SENTENCES.items() if re.search(f"[{JAPANESE}。、！？] +[{JAPANESE}]", text["ja"])
    ]
    number_and_unit = [key for key, text in SENTENCES.items() if re.search(rf"(\}}|[0-9]) +({UNITS})", text["ja"])]
    unit_before_number = [key for key, text in SENTENCES.items() if re.search(r"上限 \{", text["ja"])]
    assert (brackets, between_words, number_and_unit, unit_before_number) == ([], [], [], [])


@pytest.mark.parametrize(
    ("hands", "expected"),
    [(1, "After 1 hand: NS 7, EW 0 (target 100)."), (2, "After 2 hands: NS 7, EW 0 (target 100).")],
)
def test_a_count_takes_the_singular_for_one_and_the_plural_otherwise(hands, expected):
    assert t("pedro.game_summary", "en", hands=hands, ns=7, ew=0, target=100) == expected


def test_a_plural_form_may_carry_its_verb_or_give_the_noun_alone():
    assert t("fairy_black_box.players_remain", "en", left=1) == "1 player is still in."
    assert t("fairy_black_box.players_remain", "en", left=3) == "3 players are still in."
    assert t("applejack.place_fields", "en", fields_text="3, 4", fields=2) == "area on fields 3, 4"
    assert t("applejack.place_fields", "en", fields_text="3", fields=1) == "area on field 3"


@pytest.mark.parametrize(
    ("name", "ja"),
    [
        ("アキ", "アキさん"),
        ("Aki", "Akiさん"),
        ("プレイヤー1", "プレイヤー1"),
        ("プレイヤー12", "プレイヤー12"),
        ("Player 2", "Player 2"),
        ("P3", "P3"),
        ("ミカちゃん", "ミカちゃん"),
        ("ケンくん", "ケンくん"),
        ("田中様", "田中様"),
        ("ユキさん", "ユキさん"),
        ("プレイヤー", "プレイヤーさん"),
        ("Pia", "Piaさん"),
    ],
)
def test_people_are_named_with_san_unless_a_placeholder_or_already_honoured(name, ja):
    assert person(name, "ja") == ja
    assert person(name, "en") == name


def test_the_form_names_people_by_the_same_rule():
    """static/people.js keeps its own copy of the rule (the form names players offline too):
    the same placeholder pattern, case-blind, and the same honorifics, in the same order."""
    source = PEOPLE_JS.read_text(encoding="utf-8")
    placeholder = re.search(r"^const PLACEHOLDER = /(.*)/(\w*);$", source, re.MULTILINE)
    honorifics = re.search(r"^const HONORIFICS = (\[.*\]);$", source, re.MULTILINE)
    assert placeholder is not None and honorifics is not None
    assert placeholder.groups() == (f"^{PLACEHOLDER_NAME.pattern}$", "i")
    assert PLACEHOLDER_NAME.flags & re.IGNORECASE
    assert tuple(json.loads(honorifics.group(1).replace("'", '"'))) == HONORIFICS


def test_answers_name_people_the_same_way_in_every_sentence(client):
    cards = [{"color": color, "value": 1} for color in ("red", "orange", "green")]
    players = [
        {"name": name, "cards": [card]} for name, card in zip(("プレイヤー1", "ミカちゃん", "アキ"), cards, strict=True)
    ]
    body = client.post("/api/v1/apero/score", json={"players": players}).get_json()
    assert [p["explanation"] for p in body["players"]] == [
        "プレイヤー1の合計: 赤 1 = 1点",
        "ミカちゃんの合計: 橙 1 = 1点",
        "アキさんの合計: 緑 1 = 1点",
    ]
    assert body["explanation"] == "プレイヤー1、ミカちゃん、アキさんが1点で同点なので、勝利を分かち合います。"
    english = client.post("/api/v1/apero/score?lang=en", json={"players": players}).get_json()
    assert english["explanation"] == "プレイヤー1, ミカちゃん, アキ tie at 1 and share the win."


def test_a_refusal_names_the_last_player_standing_the_same_way(client):
    players = [{"name": "プレイヤー2", "treasure_count": 3}]
    body = client.post("/api/v1/fairy-black-box/next-player", json={"players": players}).get_json()
    assert body["error"]["message"].startswith("残っているのはプレイヤー2だけなので、ゲームは終了です。")


def test_every_sentence_formats_in_both_languages_with_its_own_placeholders():
    """Each sentence's placeholders (with the catalogue's own forms) fill from sample values."""
    samples = {"person": "アキ", "people": ["アキ", "ベン"]}
    for key, text in SENTENCES.items():
        for lang in LANGS:
            fields = dict(re.findall(r"\{(\w+)(?::([^{}]*))?\}", text[lang]))
            values = {field: samples.get(spec, 1) for field, spec in fields.items()}
            assert isinstance(t(key, lang, **values), str), key
