"""The rules documents as an operation: ``GET /api/v1/rules``, the ``rules`` tool, and
アイちゃん answering a rules question through it with the decision's own text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scoring_api import rules_documents
from scoring_api.tools import call_tool, tool_names
from tests.fake_openai import calls

DOCS = Path(__file__).parents[2] / "docs" / "rules"


def decision(text: str, number: int) -> str:
    """The numbered decision's item in a Decisions section, up to the next item."""
    match = re.search(rf"^{number}\. (.+?)(?=^\d+\. |\Z)", text, re.M | re.S)
    assert match, f"no decision {number}"
    return match.group(1).strip()


def test_the_rest_endpoint_answers_a_section_in_the_language_asked(client):
    english = client.get("/api/v1/rules?game=pedro&section=Decisions&lang=en")
    assert english.status_code == 200
    body = english.get_json()
    assert (body["game"], body["language"], body["section"]) == ("pedro", "en", "Decisions")
    assert body["title"] == "Pedro (ピードロ)"
    assert body["text"].startswith("## Decisions\n\n1. **Follow rule: led suit or trump.**")
    assert "**The extra hand decides.**" in decision(body["text"], 3)
    assert "## Worked examples" not in body["text"]
    assert body["sections"][:2] == ["Cards and teams", "Auction"]
    # asked by its English heading, answered in Japanese (the headings match one for one)
    japanese = client.get("/api/v1/rules?game=pedro&section=decisions&language=ja").get_json()
    assert japanese["language"] == "ja"
    assert japanese["section"] == japanese["sections"][body["sections"].index("Decisions")]
    assert japanese["text"].startswith(f"## {japanese['section']}\n")
    numbers = re.compile(r"^(\d+)\. ", re.M)
    assert numbers.findall(japanese["text"]) == numbers.findall(body["text"])  # the same decisions


def test_the_whole_document_without_its_checking_marks(client):
    body = client.get("/api/v1/rules?game=apero&lang=ja").get_json()
    assert body["section"] is None and body["language"] == "ja"
    raw = (DOCS / "apero.ja.md").read_text(encoding="utf-8")
    assert "<!--" not in body["text"]
    assert body["text"] == re.sub(r"<!--.*?-->\n?", "", raw, flags=re.S)
    assert body["title"] == raw.splitlines()[0].removeprefix("# ")


def test_an_unknown_section_lists_the_headings_in_the_players_language(client):
    response = client.get("/api/v1/rules?game=fairy-black-box&section=Chess&lang=ja")
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == "unknown_section"
    headings = rules_documents.document("fairy-black-box", "ja").sections[1:]
    assert error["message"].startswith("「Chess」という節はありません。次のどれかを指定してください（")
    assert "、".join(s.heading for s in headings) in error["message"]
    assert list(error["details"]) == ["section"]
    english = client.get("/api/v1/rules?game=fairy-black-box&section=Chess&lang=en").get_json()["error"]
    assert english["message"].startswith('There is no section "Chess". Give one of: Components, Setup, Turn')


@pytest.mark.parametrize(
    ("query", "field"),
    [("game=chess", "game"), ("game=pedro&language=fr", "language"), ("game=pedro&section=" + "x" * 81, "section")],
)
def test_bad_queries_name_the_field(client, query, field):
    response = client.get(f"/api/v1/rules?{query}")
    assert response.status_code == 400
    assert list(response.get_json()["error"]["details"]) == [field]


def test_the_rules_tool_is_offered_and_strict():
    assert "rules" in tool_names()
    answer = call_tool("rules", {"game": "applejack", "language": None, "section": "Decisions"}, "en")
    assert answer["section"] == "Decisions" and answer["text"].startswith("## Decisions\n")


def test_every_document_exists_in_both_languages_with_matching_headings():
    for game in rules_documents.GAMES:
        english, japanese = (rules_documents.document(game, lang) for lang in ("en", "ja"))
        assert [s.level for s in english.sections] == [s.level for s in japanese.sections], game
        assert len(english.text) > 3000 and len(japanese.text) > 3000


def quote_decision_three(body):
    """The fake model reads the tool's answer and quotes Decision 3 from it."""
    [tool] = [m for m in body["messages"] if m["role"] == "tool"]
    section = json.loads(tool["content"])
    return {"role": "assistant", "content": f"判断3によると: {decision(section['text'], 3)}"}


def test_ai_chan_answers_a_rules_question_through_the_tool(chat_client, fake_model):
    asked = {"game": "pedro", "language": None, "section": "判断"}
    fake_model.play(calls(("rules", asked)), quote_decision_three)
    question = "ピードロで、両チームが同じハンドで100点を超えたらどうなるの？"
    response = chat_client.post("/api/v1/chat", json={"messages": [{"role": "user", "content": question}]})
    assert response.status_code == 200
    body = response.get_json()
    [call] = body["tool_calls"]
    assert call["name"] == "rules" and call["arguments"] == asked
    decisions = rules_documents.read("pedro", "ja", "Decisions")[1]
    assert decisions is not None
    assert call["result"]["text"] == decisions.text  # the chat's language: Japanese
    assert body["reply"] == f"判断3によると: {decision(decisions.text, 3)}"
    assert "ビッダー・ゴーズ・アウト" in body["reply"]
    first = fake_model.requests[0]
    assert "rules" in [tool["function"]["name"] for tool in first["tools"]]
    assert "まず rules ツールでそのゲームのルール文書を読みます" in first["messages"][0]["content"]
