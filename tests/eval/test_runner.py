"""Runs against the scripted model (tests/fake_openai.py through the real openai client):
every figure comes out as scripted."""

from __future__ import annotations

import io
import itertools
import json

import pytest

from scoring_api.eval import runner
from scoring_api.eval.endpoint import MAX_RESPONSE_BYTES, Endpoint
from scoring_api.eval.modes import Asking
from scoring_api.eval.progress import Progress
from scoring_api.eval.prompts import SYSTEM
from scoring_api.eval.questions import generate, run_intended
from scoring_api.eval.report import document, metrics, table
from scoring_api.eval.runner import run
from scoring_api.tools import tool_definitions
from tests.eval import scripted
from tests.fake_openai import calls, garbage, raw, raw_message, sleep, status

KEY = "sk-eval-test-5a4b3c2d1e"
QUESTIONS = generate(8, 4)  # two of each game, ja then en


def ticking(seconds: float = 0.5):
    """A clock that moves ``seconds`` at each reading: each question takes exactly that."""
    readings = itertools.count()
    return lambda: next(readings) * seconds


def asked(fake_model, mode: str, behaviour=lambda q: "right", questions=QUESTIONS, **options):
    fake_model.play(scripted.model(questions, behaviour=behaviour), forever=True)
    endpoint = Endpoint(fake_model.base_url, KEY, options.pop("timeout", 5.0), retries=0)
    return run(questions, endpoint, Asking(mode, "fake-model", **options), clock=ticking())


def figures(questions, correct, formatted, called, exact, rounds, errors=0) -> dict:
    """The expected metrics of ``questions`` questions; the fake reports 1 prompt and 1
    completion token a request, and each question takes 0.5 s on the ticking clock."""
    return {
        "questions": questions,
        "correct": correct,
        "correct_rate": correct / questions,
        "formatted": formatted,
        "formatted_rate": formatted / questions,
        "tool_called": called,
        "tool_call_rate": called / questions,
        "arguments_exact": exact,
        "arguments_exact_rate": exact / called if called else None,
        "rounds": rounds,
        "rounds_mean": rounds / questions,
        "tokens": {"prompt": rounds, "completion": rounds, "total": 2 * rounds},
        "tokens_mean": 2 * rounds / questions,
        "latency": {"mean": 0.5, "median": 0.5, "max": 0.5},
        "errors": errors,
    }


def test_right_wrong_without_tools_and_with_wrong_arguments_each_counted_as_scripted(fake_model):
    behaviour = {
        "apero": "right",  # calls the tool with the intended arguments, answers from its result
        "applejack": "no_tools",  # answers right without calling a tool
        "fairy_black_box": "wrong_arguments",  # calls with wrong arguments, answers from that result
        "pedro": "wrong",  # answers wrong without calling a tool
    }
    done = asked(fake_model, "tools", lambda q: behaviour[q.game])
    report = document(done.outcomes, {"mode": "tools"})
    assert report["games"] == {
        "apero": figures(2, correct=2, formatted=2, called=2, exact=2, rounds=4),
        "applejack": figures(2, correct=2, formatted=2, called=0, exact=0, rounds=2),
        "fairy_black_box": figures(2, correct=0, formatted=2, called=2, exact=0, rounds=4),
        "pedro": figures(2, correct=0, formatted=2, called=0, exact=0, rounds=2),
    }
    assert report["overall"] == figures(8, correct=4, formatted=8, called=4, exact=2, rounds=12)
    assert report["stopped"] is None
    first = report["results"][0]
    assert first == {
        "id": "0001-apero-ja",
        "game": "apero",
        "lang": "ja",
        "operation": "score_apero",
        "expected": QUESTIONS[0].answer,
        "answer": QUESTIONS[0].answer,
        "last_line": QUESTIONS[0].answer_line,
        "correct": True,
        "tool_calls": 1,
        "arguments_exact": True,
        "rounds": 2,
        "tokens": {"prompt": 2, "completion": 2, "total": 4},
        "latency": 0.5,
        "error": None,
    }
    assert table(report).splitlines() == [
        "game             questions     right  answer line  tool called  args exact  rounds/q  tokens/q  latency     max  errors",
        "---------------  ---------  --------  -----------  -----------  ----------  --------  --------  -------  ------  ------",
        "apero                    2  2/2 100%     2/2 100%     2/2 100%    2/2 100%      2.00         4   0.50 s  0.50 s       0",
        "applejack                2  2/2 100%     2/2 100%       0/2 0%           -      1.00         2   0.50 s  0.50 s       0",
        "fairy_black_box          2    0/2 0%     2/2 100%     2/2 100%      0/2 0%      2.00         4   0.50 s  0.50 s       0",
        "pedro                    2    0/2 0%     2/2 100%       0/2 0%           -      1.00         2   0.50 s  0.50 s       0",
        "all                      8   4/8 50%     8/8 100%      4/8 50%     2/4 50%      1.50         3   0.50 s  0.50 s       0",
    ]


def test_the_model_alone_gets_the_prompt_and_the_question_and_no_tools(fake_model):
    done = asked(fake_model, "model", max_tokens=300, temperature=0.0)
    assert metrics(done.outcomes) == figures(8, correct=8, formatted=8, called=0, exact=0, rounds=8)
    assert len(fake_model.requests) == 8
    body = fake_model.requests[4]
    assert body == {
        "model": "fake-model",
        "messages": [
            {"role": "system", "content": SYSTEM["en"]},
            {"role": "user", "content": QUESTIONS[4].text},
        ],
        "max_tokens": 300,
        "temperature": 0.0,
    }
    assert fake_model.headers[0]["authorization"] == f"Bearer {KEY}"


def test_with_tools_each_call_runs_through_the_registry_and_its_result_goes_back(fake_model):
    done = asked(fake_model, "tools")
    assert metrics(done.outcomes) == figures(8, correct=8, formatted=8, called=8, exact=8, rounds=16)
    first, second = fake_model.requests[:2]
    assert first["tools"] == tool_definitions()
    assert "temperature" not in first
    call, result = second["messages"][2:]
    assert call["tool_calls"][0]["function"]["name"] == "score_apero"
    assert result["role"] == "tool" and result["tool_call_id"] == "call_0"
    expected = run_intended("score_apero", QUESTIONS[0].arguments, "ja")
    assert json.loads(result["content"]) == expected


def test_a_model_that_keeps_calling_tools_stops_at_the_rounds_bound(fake_model):
    done = asked(fake_model, "tools", lambda q: "keeps_calling", questions=QUESTIONS[:2], max_rounds=3)
    assert metrics(done.outcomes) == figures(2, correct=0, formatted=0, called=2, exact=2, rounds=6, errors=2)
    assert [o.error for o in done.outcomes] == ["too_many_rounds"] * 2
    assert [o.tool_calls for o in done.outcomes] == [3, 3]


def test_calls_over_the_rounds_limit_are_answered_with_an_error_not_run(fake_model):
    question = QUESTIONS[3]
    many = calls(*[(question.operation, question.arguments)] * 10)
    fake_model.play(many, scripted.model([question]))
    done = run([question], Endpoint(fake_model.base_url, KEY, 5.0, retries=0), Asking("tools", "m", max_tool_calls=8))
    assert done.outcomes[0].tool_calls == 10 and done.outcomes[0].correct
    results = [json.loads(m["content"]) for m in fake_model.requests[1]["messages"] if m["role"] == "tool"]
    assert [r.get("error", {}).get("code") for r in results] == [None] * 8 + ["too_many_tool_calls"] * 2


def test_a_reply_without_the_answer_line_is_not_an_answer(fake_model):
    done = asked(fake_model, "model", lambda q: "no_answer_line")
    assert metrics(done.outcomes) == figures(8, correct=0, formatted=0, called=0, exact=0, rounds=8)
    assert done.outcomes[0].last_line.startswith("The answer is {")


@pytest.mark.parametrize(
    ("step", "error"),
    [
        (status(500), "http_500"),
        (status(429), "http_429"),
        (garbage(), "bad_response"),
        (raw_message("just text"), "model_bad_response"),
        (raw(b"[" + b" " * MAX_RESPONSE_BYTES + b"]"), "too_large"),
        (sleep(3), "timeout"),
    ],
)
def test_a_failed_request_is_the_questions_error_and_the_run_goes_on(fake_model, step, error):
    fake_model.play(step, scripted.model(QUESTIONS[:2]))
    endpoint = Endpoint(fake_model.base_url, KEY, 0.5, retries=0)
    done = run(QUESTIONS[:2], endpoint, Asking("model", "m"), clock=ticking())
    assert [o.error for o in done.outcomes] == [error, None]
    assert [o.correct for o in done.outcomes] == [False, True]
    assert metrics(done.outcomes)["errors"] == 1
    assert done.stopped is None


@pytest.mark.parametrize("code", [401, 403, 404])
def test_a_refused_key_or_unknown_model_stops_the_run(fake_model, code):
    fake_model.play(status(code), forever=True)
    done = run(QUESTIONS, Endpoint(fake_model.base_url, KEY, 5.0, retries=0), Asking("tools", "m"))
    assert (done.outcomes, done.stopped) == ([], f"http_{code}")
    assert len(fake_model.requests) == 1


def test_without_a_key_no_authorization_header_is_sent(fake_model):
    fake_model.play(scripted.model(QUESTIONS[:1]), forever=True)
    run(QUESTIONS[:1], Endpoint(fake_model.base_url, None, 5.0, retries=0), Asking("model", "m"))
    assert "authorization" not in fake_model.headers[0]


def test_progress_is_a_line_per_question_off_a_terminal(fake_model):
    fake_model.play(
        scripted.model(QUESTIONS[:2], behaviour=lambda q: "right" if q.game == "apero" else "wrong"), forever=True
    )
    stream = io.StringIO()
    run(QUESTIONS[:2], Endpoint(fake_model.base_url, KEY, 5.0, retries=0), Asking("model", "m"), Progress(2, stream))
    assert stream.getvalue() == "[1/2] 0001-apero-ja: right\n[2/2] 0002-applejack-ja: wrong\n"


def test_progress_on_a_terminal_is_one_bar_redrawn(fake_model):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    fake_model.play(scripted.model(QUESTIONS[:2]), forever=True)
    stream = Terminal()
    run(QUESTIONS[:2], Endpoint(fake_model.base_url, KEY, 5.0, retries=0), Asking("model", "m"), Progress(2, stream))
    drawn = stream.getvalue()
    assert drawn.count("\r") == 2 and drawn.endswith("\n") and drawn.count("\n") == 1
    assert "[" + "#" * 30 + "] 2/2 right 2 applejack ja" in drawn


def test_ctrl_c_stops_the_run_and_keeps_what_was_graded(fake_model, monkeypatch):
    asked_so_far = []

    def ask(endpoint, asking, question):
        if asked_so_far:
            raise KeyboardInterrupt
        asked_so_far.append(question)
        return real_ask(endpoint, asking, question)

    real_ask = runner.ask
    monkeypatch.setattr(runner, "ask", ask)
    fake_model.play(scripted.model(QUESTIONS), forever=True)
    done = run(QUESTIONS, Endpoint(fake_model.base_url, KEY, 5.0, retries=0), Asking("model", "m"))
    assert ([o.question.id for o in done.outcomes], done.stopped) == (["0001-apero-ja"], "interrupted")
