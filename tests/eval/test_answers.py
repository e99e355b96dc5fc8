"""The answer line: written in the question's form, read strictly."""

from __future__ import annotations

import pytest

from scoring_api.eval.answers import MAX_LINE, answer_line, last_line, parse, same


def test_the_answer_line_of_each_kind_in_each_language():
    assert answer_line("number", 34, "ja") == "答え: 34"
    assert answer_line("number", -3, "en") == "Answer: -3"
    assert answer_line("scores", {"ハル": 16, "ミオ": 9}, "ja") == "答え: ハル 16、ミオ 9"
    assert answer_line("scores", {"NS": 49, "EW": -5}, "en") == "Answer: NS 49, EW -5"
    assert answer_line("names", ["Aki", "Ben"], "en") == "Answer: Aki, Ben"
    assert answer_line("names", ["ハル"], "ja") == "答え: ハル"


@pytest.mark.parametrize(
    ("kind", "reply", "read"),
    [
        ("number", "Working: 3 + 4 = 7\nAnswer: 7", 7),
        ("number", "計算します。\n\n答え: 16\n\n", 16),
        ("number", "答え：１６", 16),  # full-width colon and digits (NFKC)
        ("number", "**Answer: 12**", 12),  # Markdown emphasis around the line
        ("number", "answer:-4", -4),
        ("number", "Answer: −4", -4),  # the minus sign
        ("number", "Answer: 16 points", None),  # no units
        ("number", "Answer: 16\nThanks!", None),  # not the last line
        ("number", "The answer is 16.", None),
        ("number", "Answer: sixteen", None),
        ("number", "", None),
        ("scores", "Answer: Aki 16, Ben 9", {"Aki": 16, "Ben": 9}),
        ("scores", "答え: ハル 16、ミオ -9", {"ハル": 16, "ミオ": -9}),
        ("scores", "Answer: Ａｋｉ 16,Ben 9", {"Aki": 16, "Ben": 9}),
        ("scores", "Answer: Aki 16, Aki 9", None),  # a name twice
        ("scores", "Answer: Aki16, Ben 9", None),  # no space
        ("scores", "Answer: Aki 16,, Ben 9", None),
        ("scores", "Answer: Aki: 16", None),
        ("scores", "Answer:", None),
        ("names", "Answer: Aki", ["Aki"]),
        ("names", "答え: ハル、ミオ", ["ハル", "ミオ"]),
        ("names", "Answer: Aki, Aki", None),
        ("names", "Answer: ", None),
    ],
)
def test_a_reply_is_read_strictly(kind, reply, read):
    assert parse(kind, reply) == read


def test_the_last_line_is_read_only_within_its_bound():
    assert last_line("x\n  **Answer: 5**  \n") == "Answer: 5"
    assert last_line("Answer: " + "1" * (MAX_LINE - 8)) == "Answer: " + "1" * (MAX_LINE - 8)
    assert last_line("Answer: " + "1" * (MAX_LINE - 7)) is None
    assert last_line("\n \n") is None


def test_answers_are_the_same_in_any_order_and_as_players_names_are_read():
    assert same("names", ["Ben", "Aki"], ["Aki", "Ben"])
    assert not same("names", ["Aki"], ["Aki", "Ben"])
    assert same("scores", {"EW": 5, "NS": 49}, {"NS": 49, "EW": 5})
    assert not same("scores", {"NS": 49}, {"NS": 49, "EW": 5})
    assert same("scores", parse("scores", "Answer: Ａｋｉ 3"), {"Aki": 3})
    assert same("number", 7, 7)
    assert not same("number", None, 7)
    assert not same("number", 8, 7)
