"""Scripted models for the eval's tests: callable steps of tests/fake_openai.py that read
the question from the request and answer it as scripted (right or wrong, with or without
the tools, with the intended arguments or wrong ones).

A step finds its question by the text of the request's last user message, so the same
step serves the model alone, the model with tools and アイちゃん's upstream model."""

from __future__ import annotations

import copy
import json

from scoring_api.eval.answers import answer_line
from scoring_api.eval.question import Question
from scoring_api.eval.questions import answer_from
from scoring_api.tools import tool_definitions
from tests.fake_openai import calls, reply

PARAMETERS = {tool["function"]["name"]: tool["function"]["parameters"] for tool in tool_definitions()}


def strict_shape(node: dict, value):
    """REST-shaped arguments as a strict tool call writes them: every property present
    (null when left out), maps as lists of {key, value} pairs."""
    options = [node, *node.get("anyOf", [])]
    for option in options:
        items = option.get("items", {})
        if isinstance(value, dict) and set(items.get("properties", {})) == {"key", "value"}:
            return [{"key": key, "value": item} for key, item in value.items()]
    if isinstance(value, dict):
        properties = next((o["properties"] for o in options if "properties" in o), {})
        return {name: strict_shape(child, value.get(name)) for name, child in properties.items()}
    if isinstance(value, list):
        items = next((o["items"] for o in options if "items" in o), {})
        return [strict_shape(items, item) for item in value]
    return value


def strict_arguments(operation: str, arguments: dict) -> dict:
    return strict_shape(PARAMETERS[operation], arguments)


def wrong_arguments(question: Question) -> dict:
    """The intended arguments with one change that always changes the answer."""
    changed = copy.deepcopy(question.arguments)
    if question.operation in ("score_apero", "score_fairy_black_box"):
        for player in changed["players"]:
            player["name"] += "X"
    elif question.operation == "pedro_hand":
        changed["scores_before"]["NS"] += 1
    elif question.operation == "applejack_final_score":
        changed["supply"] += 1
    else:  # a harvest: 5 more apples of the first variety on an empty field (always more honey)
        used = {tile["field"] for tile in changed["orchard"]["tiles"]}
        empty = min(set(range(1, 20)) - used)
        changed["orchard"]["tiles"].append({"field": empty, "apples": {changed["varieties"][0]: 5}})
    return changed


def wrong_answer(question: Question):
    answer = question.answer
    if question.kind == "number":
        return answer + 1
    if question.kind == "scores":
        return {name: score + 1 for name, score in answer.items()}
    return [*answer, "Nobody"]


def _question(body: dict, questions: list[Question]) -> Question:
    asked = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
    return next(q for q in questions if q.text == asked)


def model(questions: list[Question], *, behaviour=lambda question: "right"):
    """A step that answers each question as ``behaviour(question)`` says:

    * ``right``: with tools offered, calls the intended tool (strict arguments), then
      answers from its result; without tools, answers right;
    * ``no_tools``: answers right at once, tools offered or not;
    * ``wrong``: answers wrong at once;
    * ``wrong_arguments``: calls the tool with :func:`wrong_arguments`, then answers from
      its result;
    * ``no_answer_line``: answers right, but not on an answer line;
    * ``keeps_calling``: calls the intended tool every round.
    """

    def step(body: dict) -> dict:
        question = _question(body, questions)
        how = behaviour(question)
        last = body["messages"][-1]
        if last["role"] == "tool" and how != "keeps_calling":
            called = max(i for i, m in enumerate(body["messages"]) if m["role"] == "assistant")
            result = json.loads(body["messages"][called + 1]["content"])  # the round's first result
            found = answer_from(question.operation, result)
            return reply("計算しました。\n" + answer_line(question.kind, found, question.lang))["message"]
        if how in ("right", "wrong_arguments", "keeps_calling") and body.get("tools"):
            arguments = question.arguments if how != "wrong_arguments" else wrong_arguments(question)
            return calls((question.operation, strict_arguments(question.operation, arguments)))["message"]
        if how == "wrong":
            return reply(answer_line(question.kind, wrong_answer(question), question.lang))["message"]
        if how == "no_answer_line":
            return reply(f"The answer is {question.answer}.")["message"]
        return reply("Here is my working.\n" + question.answer_line)["message"]

    return step
