"""The eval's questions: seeded, answered exactly by the service, written in the form's words,
and kept in JSONL files that read back as written (or are refused with the line at fault)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scoring_api.eval import question as question_module
from scoring_api.eval.question import QuestionFileError, read_questions, to_line, write_questions
from scoring_api.eval.questions import answer_from, answer_of, generate, run_intended
from scoring_api.games.apero import COLORS
from scoring_api.operations.registry import find_operation

TEXT = Path(__file__).parents[2] / "scoring_api" / "web" / "static" / "text"


def form_words(tab: str) -> dict[str, dict[str, str]]:
    """The form's texts of one game (``text/<tab>.js``): {lang: {key: text}}, invisible
    break hints removed."""
    source = (TEXT / f"{tab}.js").read_text(encoding="utf-8")
    found = {}
    for lang, block in re.findall(r"\n  (ja|en): \{\n(.*?)\n  \},", source, re.S):
        pairs = re.findall(r"'([^']+)': '((?:[^'\\]|\\.)*)'", block)
        found[lang] = {key: value.replace("\\u200b", "").replace("\\'", "'") for key, value in pairs}
    assert set(found) == {"ja", "en"}
    return found


QUESTIONS = generate(120, 1)


def test_a_seed_gives_the_same_questions_and_a_longer_set_begins_with_the_shorter():
    assert generate(12, 7) == generate(12, 7)
    assert generate(12, 7)[:5] == generate(5, 7)
    assert generate(12, 7) != generate(12, 8)
    assert [q.id for q in generate(6, 7)] == [
        "0001-apero-ja",
        "0002-applejack-ja",
        "0003-fairy_black_box-ja",
        "0004-pedro-ja",
        "0005-apero-en",
        "0006-applejack-en",
    ]


def test_seed_7_asks_these_questions_with_these_answers():
    questions = generate(8, 7)
    assert [q.answer for q in questions] == [
        {"ハル": 11},
        56,
        ["ミオ"],
        {"NS": 33, "EW": 73},
        {"Aki": 12, "Ben": 12, "Cleo": 5},
        49,
        ["Eve"],
        {"NS": -1, "EW": -1},
    ]
    assert questions[3].text == (
        "ピードロの得点を計算してください（標準ルール、目標100点）。このハンドの前の得点はNSが42点、EWが62点でした。"
        "NSが9で入札し、このハンドで取った点はNSが3点、EWが11点です。ハンドのあとの得点はそれぞれ何点ですか？\n"
        "最後の行に「答え: NS <得点>、EW <得点>」の形で書いてください。"
    )
    assert questions[3].arguments == {
        "bid": {"team": "NS", "amount": 9},
        "points": {"NS": 3, "EW": 11},
        "scores_before": {"NS": 42, "EW": 62},
    }
    assert questions[3].answer_line == "答え: NS 33、EW 73"
    assert questions[7].text == (
        "Please settle a hand of Pedro (standard rules, target 100). Before this hand the scores were NS 8 and "
        "EW -8. NS won the bid with 9; in the hand NS took 7 points and EW 7. What is each team's score after "
        'the hand?\nOn the last line write "Answer: NS <score>, EW <score>".'
    )
    assert questions[4].answer_line == "Answer: Aki 12, Ben 12, Cleo 5"
    assert questions[2].answer_line == "答え: ミオ"


def test_the_games_and_languages_asked_for_are_the_ones_generated():
    questions = generate(6, 3, games=("pedro", "apero"), langs=("en",))
    assert [(q.game, q.lang) for q in questions] == [("pedro", "en"), ("apero", "en")] * 3
    with pytest.raises(ValueError):
        generate(0, 3)
    with pytest.raises(ValueError):
        generate(1001, 3)


def test_every_answer_is_what_the_rest_endpoint_answers_for_the_intended_arguments(client):
    assert {q.operation for q in QUESTIONS} == {
        "score_apero",
        "pedro_hand",
        "applejack_harvest",
        "applejack_final_score",
        "score_fairy_black_box",
    }
    for question in QUESTIONS:
        path = "/api/v1" + find_operation(question.operation).path
        response = client.post(f"{path}?lang={question.lang}", json=question.arguments)
        assert response.status_code == 200, (question.id, response.get_json())
        assert answer_from(question.operation, response.get_json()) == question.answer, question.id


def test_every_fairy_black_box_question_is_a_tie_and_each_tie_break_is_met():
    decided = [
        run_intended(q.operation, q.arguments, "en")["decided_by"] for q in QUESTIONS if q.game == "fairy_black_box"
    ]
    assert len(decided) == 30
    assert set(decided) == {"kirakira", "mood", "shared"}


def test_the_texts_name_apero_cards_as_the_form_does():
    words = form_words("apero")
    for question in (q for q in QUESTIONS if q.game == "apero"):
        form = words[question.lang]
        assert form["apero.tab"] in question.text
        for player in question.arguments["players"]:
            assert player["name"] in question.text
            for card in player["cards"]:
                name = form["apero.cardName"].format(color=form[f"apero.color.{card['color']}"], value=card["value"])
                assert name in question.text, (question.id, name)
    assert {
        card["color"] for q in QUESTIONS if q.game == "apero" for p in q.arguments["players"] for card in p["cards"]
    } == set(COLORS)


def test_the_texts_use_pedros_words():
    words = form_words("pedro")
    for question in (q for q in QUESTIONS if q.game == "pedro"):
        text = question.text.casefold()
        for key in ("pedro.tab", "pedro.bid"):
            assert words[question.lang][key].casefold() in text, (question.id, key)
        assert "NS" in question.text and "EW" in question.text


def test_the_texts_describe_applejack_orchards_in_the_forms_words():
    words = form_words("applejack")
    seen = set()
    for question in (q for q in QUESTIONS if q.game == "applejack"):
        form, text = words[question.lang], question.text.casefold()
        harvest = question.operation == "applejack_harvest"
        keys = ["aj.die", "aj.harvest", "aj.honey"] if harvest else ["aj.final", "aj.supply"]
        assert form["aj.title"].split("（")[0].casefold() in text
        for key in keys:
            assert form[key].casefold() in text, (question.id, key)
        for tile in question.arguments["orchard"]["tiles"]:
            assert form["aj.fieldN"].format(n=tile["field"]).casefold() in text
            if tile.get("pasture"):
                assert form["aj.pasture"].casefold() in text
                seen.add("pasture")
            for variety, count in tile.get("apples", {}).items():
                assert form["aj.tile.apples"].format(variety=form[f"aj.variety.{variety}"], n=count).casefold() in text
            if tile.get("blossoms"):
                assert form["aj.tile.blossoms"].format(n=tile["blossoms"]).casefold() in text
                seen.add("blossoms")
        for variety in question.arguments.get("varieties", []):
            assert form[f"aj.variety.{variety}"].casefold() in text
    assert seen == {"pasture", "blossoms"}


def test_the_texts_use_fairy_and_black_boxs_words():
    words = form_words("fairy-black-box")
    seen = set()
    for question in (q for q in QUESTIONS if q.game == "fairy_black_box"):
        form, text = words[question.lang], question.text.casefold()
        assert form["fairy-black-box.tab"].casefold() in text
        assert form["fairy-black-box.mood"].casefold() in text
        assert form["fairy-black-box.treasures"].casefold() in text
        for player in question.arguments["players"]:
            if player["eliminated"]:
                assert f"{player['name']}: {form['fairy-black-box.eliminated']}".casefold() in text
                seen.add("eliminated")
            if any(t["name"] == "〈きらきら〉" for t in player["treasures"]):
                assert form["fairy-black-box.kirakira"].casefold() in text
                seen.add("kirakira")
    assert seen == {"eliminated", "kirakira"}


def test_a_question_set_reads_back_as_written(tmp_path):
    path = tmp_path / "questions.jsonl"
    write_questions(QUESTIONS[:20], path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 20
    assert json.loads(lines[3]) == {
        "id": "0004-pedro-ja",
        "game": "pedro",
        "lang": "ja",
        "kind": "scores",
        "text": QUESTIONS[3].text,
        "operation": "pedro_hand",
        "arguments": QUESTIONS[3].arguments,
        "answer": QUESTIONS[3].answer,
    }
    assert read_questions(path, answer_of) == QUESTIONS[:20]


def written(tmp_path, *documents) -> Path:
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in documents), encoding="utf-8")
    return path


def refusal(path: Path) -> str:
    with pytest.raises(QuestionFileError) as refused:
        read_questions(path, answer_of)
    return str(refused.value)


def test_a_file_whose_answer_is_not_the_services_is_refused_at_its_line(tmp_path):
    good = json.loads(to_line(QUESTIONS[3]))
    wrong = {**json.loads(to_line(QUESTIONS[7])), "answer": {"NS": 1, "EW": 2}}
    message = refusal(written(tmp_path, good, wrong))
    assert message.endswith(":2: the answer {'NS': 1, 'EW': 2} is not pedro_hand's ({'NS': 51, 'EW': 28})")


def test_a_file_with_bad_lines_is_refused_with_the_line_and_the_reason(tmp_path):
    good = json.loads(to_line(QUESTIONS[0]))
    assert refusal(written(tmp_path, good, good)).endswith(":2: the id '0001-apero-ja' is used twice")
    assert refusal(written(tmp_path, {**good, "kind": "colour"})).endswith(
        ":1: {'kind': ['Must be one of: number, scores, names.']}"
    )
    assert refusal(written(tmp_path, {**good, "answer": 3})).endswith(
        ":1: {'answer': ['An object of names and integers.']}"
    )
    assert refusal(written(tmp_path, {**good, "extra": 1})).endswith(":1: {'extra': ['Unknown field.']}")
    refused = {**good, "arguments": {"players": []}}
    assert "score_apero refuses the arguments" in refusal(written(tmp_path, refused))
    path = tmp_path / "broken.jsonl"
    path.write_text('{"id": "a", "id": "b"}\n', encoding="utf-8")
    assert ":1: not a JSON line" in refusal(path)
    path.write_bytes(b"[" * (question_module.MAX_LINE_BYTES + 1))
    assert refusal(path).endswith(":1: the line is longer than 65536 bytes")


def test_a_file_of_more_questions_than_the_bound_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(question_module, "MAX_QUESTIONS", 2)
    lines = [{**json.loads(to_line(QUESTIONS[3])), "id": f"q{i}"} for i in range(3)]
    assert refusal(written(tmp_path, *lines)).endswith(": more than 2 questions")
