"""Field messages in the player's language, strict names and query integers, cheap refusals
of long invalid bodies, and Fairy & Black Box verdicts that match their facts."""

import importlib.util
import re
from pathlib import Path

import pytest
import yaml
from marshmallow import ValidationError, fields, validate

from scoring_api.error_shape import MAX_DETAILS
from scoring_api.games.pedro.cards import SUIT_SPELLINGS
from scoring_api.i18n import LANGS, SENTENCES
from scoring_api.openapi import spec_yaml
from scoring_api.operations.registry import OPERATIONS
from scoring_api.schemas.common import (
    NAME_PATTERN,
    PLAYER_NAME_PATTERN,
    ItemDict,
    ItemList,
    MaxProperties,
    NotBlank,
    Visible,
    same_name,
)
from scoring_api.schemas.localized import localized

ROOT = Path(__file__).resolve().parents[2]
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
ENGLISH_SENTENCE = re.compile(r"[A-Za-z]{2,}[ ,.]+[A-Za-z]{2,}")
JSON_WORDS = re.compile(r"\bnull\b|\btrue\b|\bfalse\b|\[\]|\{\}")


def card(color="red", value=1):
    return {"color": color, "value": value}


# -- 1. names: a final newline is refused -----------------------------------------------


@pytest.mark.parametrize("name", ["Aki\n", "\n", "Aki\r\n", "Aki\n\n"])
def test_a_name_ending_in_a_newline_is_refused(client, name):
    body = {"players": [{"name": name, "cards": [card()]}]}
    response = client.post("/api/v1/apero/score?lang=en", json=body)
    assert response.status_code == 400, name
    details = response.get_json()["error"]["details"]
    assert details == {"players[0].name": ["Contains a control or text-direction character."]}
    ja = client.post("/api/v1/apero/score", json=body).get_json()["error"]["details"]
    assert ja == {"players[0].name": ["制御文字や文字の向きを変える文字は使えません。"]}


def test_fairy_names_refuse_a_final_newline_too(client):
    player = {"name": "Ben\n", "mood": 2, "eliminated": False, "treasures": [{"name": "石\n", "points": 1}]}
    body = {"players": [{"name": "Aki", "mood": 2, "eliminated": False, "treasures": []}, player]}
    details = client.post("/api/v1/fairy-black-box/score?lang=en", json=body).get_json()["error"]["details"]
    assert set(details) == {"players[1].name", "players[1].treasures[0].name"}


def test_the_published_name_patterns_are_still_ecma_patterns():
    for pattern in (NAME_PATTERN, PLAYER_NAME_PATTERN):
        assert pattern.startswith("^[^") and pattern.endswith("]*$") and "\\Z" not in spec_yaml()
        assert "\\U" not in pattern and "\\u{" not in pattern  # read alike by ECMA (u) and Python
    spec = yaml.safe_load(spec_yaml())
    schemas = spec["components"]["schemas"]
    assert schemas["Player"]["properties"]["name"]["pattern"] == PLAYER_NAME_PATTERN
    assert schemas["AperoPickRequest"]["properties"]["me"]["pattern"] == PLAYER_NAME_PATTERN
    assert schemas["FairyBlackBoxTreasure"]["properties"]["name"]["pattern"] == NAME_PATTERN  # not a player


def _name_fields():
    """``(where, field)`` of every request field holding a name."""
    for op in OPERATIONS:
        for schema in _schemas(op.request_schema):
            for name, field in schema.load_fields.items():
                if name in ("name", "me") and isinstance(field, fields.String):
                    yield f"{op.operation_id}:{type(schema).__name__}.{name}", field


def test_every_player_name_field_is_the_shared_player_name():
    found = dict(_name_fields())
    players = {where for where in found if "Treasure" not in where}
    assert players == {
        "score_apero:PlayerSchema.name",
        "apero_pick:CollectorSchema.name",
        "apero_pick:AperoPickRequestSchema.me",
        "score_fairy_black_box:FairyBlackBoxPlayerSchema.name",
        "fairy_black_box_next_player:FairyBlackBoxRemainingPlayerSchema.name",
    }
    for where in players:
        assert same_name in found[where].post_load, where
        assert found[where].metadata["pattern"] == PLAYER_NAME_PATTERN, where


# -- 2. query integers: ASCII digits only -------------------------------------------------


@pytest.mark.parametrize("value", ["３", "٣", "３3", "-３", "²", "๓"])
@pytest.mark.parametrize(
    "url, field",
    [
        ("/api/v1/applejack/starting-honey", "players"),
        ("/api/v1/fairy-black-box/setup", "players"),
    ],
)
def test_non_ascii_digits_in_the_query_are_refused(client, url, field, value):
    for lang, message in (("en", "Not a whole number."), ("ja", "整数ではありません。")):
        response = client.get(f"{url}?players={value}&lang={lang}")
        assert response.status_code == 400
        assert response.get_json()["error"]["details"] == {field: [message]}


def test_ascii_digits_in_the_query_still_convert(client):
    assert client.get("/api/v1/applejack/starting-honey?players=3").get_json()["players"] == 3
    assert client.get("/api/v1/fairy-black-box/setup?players=4").get_json()["players"] == 4
    details = client.get("/api/v1/applejack/starting-honey?players=-1&lang=en").get_json()["error"]["details"]
    assert details == {"players": ["Must be from 1 to 4."]}


# -- 4. long invalid bodies: lengths first, details capped ---------------------------------


def test_a_long_list_of_empty_objects_is_one_length_reason(client):
    raw = '{"players":[' + ",".join(["{}"] * 21_840) + "]}"
    assert 64 * 1024 - 8 <= len(raw) <= 64 * 1024
    response = client.post("/api/v1/apero/score?lang=en", data=raw, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "code": "invalid_input",
        "message": "The input is invalid; details lists each field and the reason.",
        "details": {"players": ["Give between 1 and 20 items."]},
    }
    assert len(response.get_data()) < 1024


def test_many_bad_items_give_at_most_20_details_then_truncated(client):
    body = {"players": [{"name": "A", "cards": [{}] * 300}]}
    error = client.post("/api/v1/apero/score?lang=en", json=body).get_json()["error"]
    assert len(error["details"]) == MAX_DETAILS
    assert error["truncated"] is True
    assert list(error["details"])[:2] == ["players[0].cards[0].color", "players[0].cards[0].value"]
    assert all(v == ["This is required."] for v in error["details"].values())


def test_few_reasons_carry_no_truncated_member(client):
    error = client.post("/api/v1/apero/score?lang=en", json={"players": [{"name": "A", "cards": [{}]}]}).get_json()[
        "error"
    ]
    assert set(error) == {"code", "message", "details"}
    assert len(error["details"]) == 2


def test_many_unknown_keys_give_20_details(client):
    body = {f"k{i}": 0 for i in range(5000)}
    error = client.post("/api/v1/pedro/game?lang=en", json=body).get_json()["error"]
    assert len(error["details"]) == MAX_DETAILS and error["truncated"] is True
    assert all(v == ["This item cannot be used."] for k, v in error["details"].items() if k != "hands")


def _benchmark():
    spec = importlib.util.spec_from_file_location("invalid_bodies", ROOT / "benchmarks" / "invalid_bodies.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # every worst case of the benchmark, about 12 s (docs/development.md)
def test_every_worst_case_of_the_benchmark_answers_small(client):
    """Sizes only (no time is asserted: ``python benchmarks/invalid_bodies.py`` prints them)."""
    bench = _benchmark()
    seen = 0
    for op in OPERATIONS:
        if op.method != "POST":
            continue
        for name, document in bench.cases(op, 64 * 1024):
            raw = bench.encode(document)
            response = client.post(f"/api/v1{op.path}", data=raw, content_type="application/json")
            assert response.status_code in (400, 413), (op.operation_id, name)
            assert len(response.get_data()) < 16 * 1024, (op.operation_id, name)
            assert len(response.get_json()["error"]["details"]) <= MAX_DETAILS, (op.operation_id, name)
            seen += 1
    assert seen > 60


def _request_lists():
    for op in OPERATIONS:
        for schema in _schemas(op.request_schema):
            for name, field in schema.load_fields.items():
                if isinstance(field, fields.List):
                    yield op.operation_id, type(schema).__name__, name, field


def test_every_request_list_checks_its_length_first():
    found = list(_request_lists())
    assert len(found) > 10
    for where in found:
        field = where[-1]
        assert isinstance(field, ItemList), where[:3]
    assert sum(any(isinstance(v, validate.Length) for v in where[-1].validators) for where in found) >= len(found) - 1


def test_a_long_object_of_bad_values_is_one_size_reason(client):
    """An Applejack tile's apples beyond 7 varieties: the size is the reason, and no value
    of the 4,000 is read (they are all wrong and none is named)."""
    tile = {"field": 1, "apples": {f"v{i}": "?" for i in range(4000)}}
    body = {"orchard": {"tiles": [tile]}, "varieties": ["red"], "die": 1}
    error = client.post("/api/v1/applejack/harvest?lang=en", json=body).get_json()["error"]
    assert error["details"] == {"orchard.tiles[0].apples": ["Give at most 7 items."]}


def test_an_object_at_its_size_still_names_each_bad_value(client):
    tile = {"field": 1, "apples": {f"v{i}": "?" for i in range(7)} | {"v0": 1}}
    body = {"orchard": {"tiles": [tile]}, "varieties": ["red"], "die": 1}
    details = client.post("/api/v1/applejack/harvest?lang=en", json=body).get_json()["error"]["details"]
    assert list(details) == [f"orchard.tiles[0].apples.v{i}.value" for i in range(1, 7)]


def _request_dicts():
    for op in OPERATIONS:
        for schema in _schemas(op.request_schema):
            for name, field in schema.load_fields.items():
                if isinstance(field, fields.Dict):
                    yield op.operation_id, type(schema).__name__, name, field


def test_every_request_object_of_free_keys_checks_its_size_first():
    found = list(_request_dicts())
    assert len(found) >= 2  # Applejack's tile apples, in the orchard and the tile to place
    for where in found:
        assert isinstance(where[-1], ItemDict), where[:3]
        assert any(isinstance(v, MaxProperties) for v in where[-1].validators), where[:3]


def test_lists_still_publish_their_lengths():
    spec = yaml.safe_load(spec_yaml())
    players = spec["components"]["schemas"]["AperoScoreRequest"]["properties"]["players"]
    assert (players["type"], players["minItems"], players["maxItems"]) == ("array", 1, 20)


# -- 5./6. every field message, by key, in both languages, without JSON words ------------------


def _schemas(schema, seen=None):
    seen = set() if seen is None else seen
    if id(schema) in seen:
        return
    seen.add(id(schema))
    yield schema
    for field in schema.load_fields.values():
        for inner in _inner_fields(field):
            if isinstance(inner, fields.Nested):
                yield from _schemas(inner.schema, seen)


def _inner_fields(field):
    yield field
    for attr in ("inner", "value_field", "key_field"):
        inner = getattr(field, attr, None)
        if isinstance(inner, fields.Field):
            yield from _inner_fields(inner)


def _validator_messages(validator):
    """The messages a validator gives, by failing it every way it can fail."""
    tries = []
    if isinstance(validator, validate.Length):
        if validator.min is not None:
            tries.append("x" * max(validator.min - 1, 0) if validator.min else None)
        if validator.max is not None:
            tries.append("x" * (validator.max + 1))
        if validator.equal is not None:
            tries.append("x" * (validator.equal + 1))
    elif isinstance(validator, validate.Range):
        if validator.min is not None:
            tries.append(validator.min - 1)
        if validator.max is not None:
            tries.append(validator.max + 1)
    elif isinstance(validator, validate.OneOf):
        tries.append("no such choice")
    elif isinstance(validator, validate.Regexp):
        tries.append("\n")
    elif isinstance(validator, MaxProperties):
        tries.append({str(i): 0 for i in range(validator.maximum + 1)})
    elif isinstance(validator, Visible):
        tries.append("Aki\u200b")
    elif isinstance(validator, NotBlank):
        tries.append("\u3000")
    messages = []
    for value in tries:
        if value is None:
            continue
        try:
            validator(value)
        except ValidationError as error:
            messages += error.messages
    assert messages or not tries, validator
    return messages


def _all_messages(lang: str):
    """``(where, message, choices shown in it)`` of every field and schema message of every
    request schema of every operation (nested ones included), as the schemas localized for
    ``lang`` give them."""
    for op in OPERATIONS:
        for schema in _schemas(localized(op.request, lang)):
            where = f"{op.operation_id}:{type(schema).__name__}"
            for key, message in schema.error_messages.items():
                yield f"{where}:{key}", message, ""
            for name, declared in schema.load_fields.items():
                for field in _inner_fields(declared):
                    shown = ", ".join(
                        str(c) for v in field.validators if isinstance(v, validate.OneOf) for c in v.choices
                    )
                    for key, message in field.error_messages.items():
                        yield f"{where}.{name}:{key}", message.format(input="x"), shown
                    for validator in field.validators:
                        choices = ", ".join(map(str, getattr(validator, "choices", []) or []))
                        if not choices and isinstance(validator, validate.Regexp):
                            choices = shown or ", ".join(SUIT_SPELLINGS)
                        for message in _validator_messages(validator):
                            yield f"{where}.{name}:{type(validator).__name__}", message, choices


def _field_names():
    names = set()
    for op in OPERATIONS:
        for schema in _schemas(op.request_schema):
            names |= {field.data_key or name for name, field in schema.load_fields.items()}
    return names - {"NS", "EW", "N", "E", "S", "W"}  # team and seat names are what players say


def _without(message: str, choices: str) -> str:
    return message.replace(choices, "") if choices else message


def test_every_field_message_is_in_the_requested_language_without_json_words():
    names = re.compile(
        r"(?<![A-Za-z_])(" + "|".join(sorted(map(re.escape, _field_names()), key=len, reverse=True)) + r")(?![A-Za-z_])"
    )
    catalogue = {
        lang: {texts[lang] for key, texts in SENTENCES.items() if key.startswith("validation.")} for lang in LANGS
    }
    checked = 0
    for lang in LANGS:
        for where, message, choices in _all_messages(lang):
            bare = _without(message, choices)
            if lang == "ja":
                assert JAPANESE.search(message), (where, message)
                assert ENGLISH_SENTENCE.search(bare) is None, (where, message)
            else:
                assert ENGLISH_SENTENCE.search(message) and not JAPANESE.search(bare), (where, message)
            assert JSON_WORDS.search(bare) is None, (where, message)
            assert lang == "en" or names.search(bare) is None, (where, message)
            checked += 1
        assert checked > 300
    # every message a refusal can show comes from the catalogue: none is marshmallow's own
    english = {message for _, message, _ in _all_messages("en")}
    assert "Field may not be null." not in english and "Not a valid number." not in english
    assert any(message in catalogue["en"] for message in english)


def test_every_catalogue_field_message_is_free_of_json_words():
    for key, texts in SENTENCES.items():
        if key.startswith("validation."):
            for lang in LANGS:
                assert JSON_WORDS.search(texts[lang]) is None, (key, lang)
            assert JAPANESE.search(texts["ja"]) and not JAPANESE.search(texts["en"]), key


@pytest.mark.parametrize(
    "lang, expected",
    [
        ("ja", "0以上14以下の整数を入力してください。"),
        ("en", "Enter a whole number from 0 to 14."),
    ],
)
def test_blank_pedro_points_say_what_to_enter(client, lang, expected):
    body = {"bid": {"team": "NS", "amount": 7}, "scores_before": {"NS": 0, "EW": 0}, "points": {"NS": None, "EW": 7}}
    details = client.post(f"/api/v1/pedro/hand?lang={lang}", json=body).get_json()["error"]["details"]
    assert details == {"points.NS": [expected]}


@pytest.mark.parametrize(
    "lang, expected",
    [
        ("ja", "入札値（整数）を入れるか、パスなら「pass」と入力してください。"),
        ("en", 'Enter a bid (a whole number), or "pass" to pass.'),
    ],
)
def test_a_bad_pedro_call_is_in_the_requested_language(client, lang, expected):
    body = {"dealer": "N", "calls": ["pass", "pass", "maybe", "pass"]}
    details = client.post(f"/api/v1/pedro/auction?lang={lang}", json=body).get_json()["error"]["details"]
    assert details == {"calls[2]": [expected]}


@pytest.mark.parametrize("lang", LANGS)
def test_null_booleans_and_lists_say_what_to_enter(client, lang):
    body = {
        "players": [
            {"name": "Aki", "mood": 2, "eliminated": None, "treasures": None},
            {"name": "Ben", "mood": None, "eliminated": "yes", "treasures": []},
        ]
    }
    details = client.post(f"/api/v1/fairy-black-box/score?lang={lang}", json=body).get_json()["error"]["details"]
    expected = {
        "ja": {
            "players[0].eliminated": ["「はい」か「いいえ」で答えてください。"],
            "players[0].treasures": ["項目を入力してください（なしでもかまいません）。"],
            "players[1].mood": ["0以上20以下の整数を入力してください。"],
            "players[1].eliminated": ["「はい」か「いいえ」で答えてください。"],
        },
        "en": {
            "players[0].eliminated": ["Answer yes or no."],
            "players[0].treasures": ["Enter the items (or none)."],
            "players[1].mood": ["Enter a whole number from 0 to 20."],
            "players[1].eliminated": ["Answer yes or no."],
        },
    }[lang]
    assert details == expected


FAIRY_REFUSALS = (
    "player_count",
    "duplicate_name",
    "eliminated_with_treasures",
    "mood_zero_in_game",
    "too_many_treasures",
    "two_kirakira",
    "kirakira_held_twice",
    "players_left_above_count",
    "star_deck_past_end",
    "game_over",
)


@pytest.mark.parametrize("key", FAIRY_REFUSALS)
def test_fairy_refusals_name_no_json_words_or_fields(key):
    for lang in LANGS:
        assert JSON_WORDS.search(SENTENCES[f"fairy_black_box.{key}"][lang]) is None, (key, lang)
    # the Japanese text names no field (English may say "eliminated" and "mood" as words)
    assert not re.search(r"[A-Za-z_]{3,}", re.sub(r"\{[^{}]*\}", "", SENTENCES[f"fairy_black_box.{key}"]["ja"])), key


def test_a_player_at_mood_zero_is_told_what_to_do(client):
    body = {
        "players": [
            {"name": "Aki", "mood": 0, "eliminated": False, "treasures": []},
            {"name": "Ben", "mood": 2, "eliminated": False, "treasures": []},
        ]
    }
    ja = client.post("/api/v1/fairy-black-box/score", json=body).get_json()["error"]
    assert ja["code"] == "mood_zero_in_game"
    assert ja["message"].endswith("Akiさんを脱落したプレイヤーにして、タカラモノは入力しないでください。")
    en = client.post("/api/v1/fairy-black-box/score?lang=en", json=body).get_json()["error"]
    assert en["message"].endswith("Mark Aki as eliminated and enter no treasures.")


# -- 7. Fairy & Black Box verdicts agree with their facts ------------------------------------


def _p(name, mood, *points, kirakira=False, eliminated=False):
    treasures = [{"name": f"石{i}", "points": p} for i, p in enumerate(points)]
    if kirakira:
        treasures.append({"name": "きらきら", "points": 0})
    return {"name": name, "mood": mood, "eliminated": eliminated, "treasures": [] if eliminated else treasures}


VERDICT_CASES = {
    "score": [_p("Aki", 2, 5), _p("Ben", 2, 3, kirakira=True)],
    "kirakira": [_p("Aki", 3, 4), _p("Ben", 1, 4, kirakira=True)],
    "mood, holder outside the tie": [_p("Aki", 2, 4), _p("Ben", 3, 4), _p("Cho", 1, 1, kirakira=True)],
    "mood, nobody holds it": [_p("Aki", 2, 4), _p("Ben", 3, 4), _p("Cho", 1, 1)],
    "shared, holder outside the tie": [_p("Aki", 3, 4), _p("Ben", 3, 4), _p("Cho", 1, 2, kirakira=True)],
    "shared, nobody holds it": [_p("Aki", 3, 4), _p("Ben", 3, 4)],
    "shared, holder eliminated": [_p("Aki", 3, 4), _p("Ben", 3, 4), _p("Cho", 0, eliminated=True)],
    "sole survivor": [_p("Aki", 2, 1), _p("Ben", 0, eliminated=True)],
    "no winner": [_p("Aki", 0, eliminated=True), _p("Ben", 0, eliminated=True)],
}


@pytest.mark.parametrize("case", VERDICT_CASES)
def test_every_verdict_sentence_matches_the_structured_fields(client, case):
    body = {"players": VERDICT_CASES[case]}
    answers = {lang: client.post(f"/api/v1/fairy-black-box/score?lang={lang}", json=body).get_json() for lang in LANGS}
    ja, en = answers["ja"], answers["en"]
    assert ja["winners"] == en["winners"] and ja["decided_by"] == en["decided_by"]
    decided_by, winners = ja["decided_by"], ja["winners"]
    holders = [p["name"] for p in ja["players"] if p["has_kirakira"]]
    for lang, answer in answers.items():
        text = answer["explanation"]
        for name in winners:
            assert name in text, (case, lang, text)
        if decided_by == "kirakira":
            assert holders == winners
            assert (
                ("〈きらきら〉を持っている" + winners[0]) in text
                if lang == "ja"
                else f"{winners[0]} holds 〈きらきら〉" in text
            )
        if decided_by in ("mood", "shared"):
            tied_hold = set(holders) & set(winners)
            assert not tied_hold
            if lang == "ja":
                assert "同点のプレイヤーは誰も〈きらきら〉を持って" in text, text
                assert "〈きらきら〉を持つ人はいない" not in text and "〈きらきら〉を持つ人はおらず" not in text
            else:
                assert "Nobody tied holds 〈きらきら〉" in text, text
                assert "Nobody holds" not in text
        if decided_by is None:
            assert winners == [] and ("全員が脱落" in text if lang == "ja" else "Everyone was eliminated" in text)
        if lang == "ja":
            assert not re.search(r" [がはをの]", text), text  # no space before a particle
    expected = {
        "score": "score",
        "kirakira": "kirakira",
        "sole survivor": "score",
        "no winner": None,
    }.get(case, case.split(",")[0])
    assert decided_by == expected
    if "holder outside the tie" in case:
        assert holders == ["Cho"] and "Cho" not in winners


def test_a_validator_without_a_catalogue_message_is_refused_when_localized():
    from scoring_api.schemas.common import StrictSchema, integer

    class Odd(StrictSchema):
        number = integer(validate=validate.Predicate("bit_count"))

    with pytest.raises(ValueError, match="no catalogue message"):
        localized(Odd, "ja")


@pytest.mark.parametrize("lang, expected", [("ja", "この項目は使えません。"), ("en", "This item cannot be used.")])
def test_unknown_keys_are_refused_in_the_order_they_were_sent(client, lang, expected):
    body = {"zeta": 1, "players": [{"name": "A", "cards": [card()]}], "alpha": 2, "mid": 3}
    details = client.post(f"/api/v1/apero/score?lang={lang}", json=body).get_json()["error"]["details"]
    assert list(details.items()) == [("zeta", [expected]), ("alpha", [expected]), ("mid", [expected])]
