"""``--mode ai-chan``: the questions go to a running service's /v1/chat/completions (here
the app on a werkzeug server in this process, its model the scripted fake); her tool
calls and rounds come from the answer's ``ai_chan`` field."""

from __future__ import annotations

import itertools
import threading

import pytest
from werkzeug.serving import make_server

from scoring_api.eval.endpoint import Endpoint
from scoring_api.eval.modes import Asking
from scoring_api.eval.prompts import SYSTEM
from scoring_api.eval.questions import generate
from scoring_api.eval.report import metrics
from scoring_api.eval.runner import run
from tests.conftest import make_chat_app
from tests.eval import scripted

SERVICE_KEY = "eval-client-key-0123456789-abcdef"
QUESTIONS = generate(4, 11)


@pytest.fixture(scope="module")
def service(fake_model):
    """The service, its chat locked with one client key."""
    app = make_chat_app(fake_model, CHAT_OPEN=False, API_KEYS=SERVICE_KEY, CHAT_TIMEOUT=5.0, CHAT_MAX_ROUNDS=3)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="eval-service", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/v1"
    server.shutdown()
    thread.join(timeout=5)
    server.server_close()


def ticking():
    readings = itertools.count()
    return lambda: next(readings) * 0.5


def test_ai_chan_answers_through_the_service_and_her_trace_is_graded(fake_model, service):
    behaviour = {"apero": "right", "applejack": "wrong_arguments", "fairy_black_box": "no_tools", "pedro": "wrong"}
    fake_model.play(scripted.model(QUESTIONS, behaviour=lambda q: behaviour[q.game]), forever=True)
    done = run(
        QUESTIONS, Endpoint(service, SERVICE_KEY, 10.0, retries=0), Asking("ai-chan", "ai-chan"), clock=ticking()
    )
    assert done.stopped is None
    assert [(o.correct, o.tool_calls, o.arguments_exact, o.rounds) for o in done.outcomes] == [
        (True, 1, True, 2),
        (False, 1, False, 2),
        (True, 0, False, 1),
        (False, 0, False, 1),
    ]
    assert metrics(done.outcomes) == {
        "questions": 4,
        "correct": 2,
        "correct_rate": 0.5,
        "formatted": 4,
        "formatted_rate": 1.0,
        "tool_called": 2,
        "tool_call_rate": 0.5,
        "arguments_exact": 1,
        "arguments_exact_rate": 0.5,
        "rounds": 6,
        "rounds_mean": 1.5,
        "tokens": {"prompt": 6, "completion": 6, "total": 12},  # the service's sum of the model's usage
        "tokens_mean": 3.0,
        "latency": {"mean": 0.5, "median": 0.5, "max": 0.5},
        "errors": 0,
    }
    first = fake_model.requests[0]
    assert first["messages"][1:] == [
        {"role": "system", "content": SYSTEM["ja"]},
        {"role": "user", "content": QUESTIONS[0].text},
    ]
    assert "アイちゃん" in first["messages"][0]["content"]  # her own prompt comes first


def test_english_questions_go_to_ai_chan_en(fake_model, service):
    question = generate(5, 11)[4]
    fake_model.play(scripted.model([question], behaviour=lambda q: "no_tools"), forever=True)
    done = run([question], Endpoint(service, SERVICE_KEY, 10.0, retries=0), Asking("ai-chan", "ai-chan"))
    assert done.outcomes[0].correct
    assert fake_model.requests[0]["messages"][1] == {"role": "system", "content": SYSTEM["en"]}


def test_without_the_services_key_the_run_stops_at_the_first_question(fake_model, service):
    fake_model.play(scripted.model(QUESTIONS), forever=True)
    done = run(QUESTIONS, Endpoint(service, None, 10.0, retries=0), Asking("ai-chan", "ai-chan"))
    assert (done.outcomes, done.stopped) == ([], "http_401")
    assert fake_model.requests == []
