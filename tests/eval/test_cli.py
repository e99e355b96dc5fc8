"""``scoring-eval``: options checked before anything is asked, question files written and
read back, the report on the terminal and as JSON, and the key never shown."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from scoring_api.eval.cli import main
from scoring_api.eval.question import read_questions
from scoring_api.eval.questions import answer_of, generate
from tests.eval import scripted
from tests.fake_openai import status

ROOT = Path(__file__).parents[2]
KEY = "sk-cli-secret-9z8y7x6w5v"


def refused(capsys, *argv) -> str:
    with pytest.raises(SystemExit) as stopped:
        main(list(argv))
    assert stopped.value.code == 2
    return capsys.readouterr().err.splitlines()[-1]


def test_the_console_script_is_declared():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts["scoring-eval"] == "scoring_api.eval.cli:main"


def test_questions_are_written_only_when_no_mode_is_given(tmp_path, capsys):
    path = tmp_path / "q.jsonl"
    argv = [
        "--write-questions",
        str(path),
        "--count",
        "6",
        "--seed",
        "3",
        "--lang",
        "en",
        "--games",
        "pedro,fairy-black-box",
    ]
    assert main(argv) == 0
    assert capsys.readouterr().err == f"scoring-eval: wrote 6 questions to {path}\n"
    written = read_questions(path, answer_of)
    assert written == generate(6, 3, ("pedro", "fairy_black_box"), ("en",))
    assert [q.id for q in written][:2] == ["0001-pedro-en", "0002-fairy_black_box-en"]


def test_python_dash_m_runs_the_same_command(tmp_path):
    path = tmp_path / "q.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "scoring_api.eval", "--write-questions", str(path), "--count", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (0, "")
    assert len(path.read_text(encoding="utf-8").splitlines()) == 2


def test_a_run_prints_the_table_and_writes_the_report_without_the_key(fake_model, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("EVAL_MODEL_KEY", KEY)
    questions = tmp_path / "q.jsonl"
    out = tmp_path / "report.json"
    assert main(["--write-questions", str(questions), "--count", "4", "--seed", "9"]) == 0
    fake_model.play(scripted.model(read_questions(questions, answer_of)), forever=True)
    argv = [
        "--mode",
        "tools",
        "--base-url",
        fake_model.base_url,
        "--model",
        "fake-model",
        "--key-env",
        "EVAL_MODEL_KEY",
    ]
    assert main([*argv, "--questions", str(questions), "--out", str(out), "--max-rounds", "3", "--timeout", "5"]) == 0
    shown = capsys.readouterr()
    assert shown.out.splitlines()[0].split() == [
        "game",
        "questions",
        "right",
        "answer",
        "line",
        "tool",
        "called",
        "args",
        "exact",
        "rounds/q",
        "tokens/q",
        "latency",
        "max",
        "errors",
    ]
    assert shown.out.splitlines()[-1].split()[:9] == ["all", "4", "4/4", "100%", "4/4", "100%", "4/4", "100%", "4/4"]
    assert [line.split(": ")[1] for line in shown.err.splitlines()] == ["wrote 4 questions to " + str(questions)] + [
        "right"
    ] * 4
    report = json.loads(out.read_text(encoding="utf-8"))
    assert {
        key: report[key] for key in ("mode", "model", "endpoint", "source", "bounds", "temperature", "stopped")
    } == {
        "mode": "tools",
        "model": "fake-model",
        "endpoint": fake_model.base_url,
        "source": {"file": str(questions)},
        "bounds": {"max_rounds": 3, "max_tokens": 1024, "timeout": 5.0, "retries": 2},
        "temperature": None,
        "stopped": None,
    }
    assert report["overall"]["correct"] == 4 and report["overall"]["arguments_exact_rate"] == 1.0
    assert list(report["games"]) == ["apero", "applejack", "fairy_black_box", "pedro"]
    assert len(report["results"]) == 4
    for text in (shown.out, shown.err, out.read_text(encoding="utf-8")):
        assert KEY not in text
    assert fake_model.headers[0]["authorization"] == f"Bearer {KEY}"


def test_a_refused_key_stops_the_run_with_exit_status_1_and_names_the_variable(
    fake_model, tmp_path, capsys, monkeypatch
):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    fake_model.play(status(401), forever=True)
    out = tmp_path / "report.json"
    argv = ["--mode", "model", "--base-url", fake_model.base_url, "--model", "m", "--count", "3", "--quiet"]
    assert main([*argv, "--retries", "0", "--out", str(out)]) == 1
    shown = capsys.readouterr()
    assert shown.err == (
        "scoring-eval: stopped after 0 questions: the endpoint refused the key (HTTP 401): check OPENAI_API_KEY\n"
    )
    assert json.loads(out.read_text(encoding="utf-8"))["stopped"] == "http_401"
    assert KEY not in shown.out + shown.err


def test_bad_options_are_refused_before_anything_is_asked(capsys, monkeypatch, tmp_path, fake_model):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    fake_model.play()
    assert refused(capsys, "--mode", "tools", "--model", "m") == (
        "scoring-eval: error: the environment variable OPENAI_API_KEY holds no key (--key-env names another)"
    )
    assert (
        refused(capsys, "--mode", "tools")
        == "scoring-eval: error: --mode tools needs --model (the model's name at the endpoint)"
    )
    assert refused(capsys, "--mode", "ai-chan") == (
        "scoring-eval: error: --mode ai-chan needs --service-url (the running service, e.g. http://127.0.0.1:8000)"
    )
    assert refused(capsys) == (
        "scoring-eval: error: give --mode to run the eval, or --write-questions to write the questions only"
    )
    assert refused(capsys, "--mode", "model", "--questions", "q.jsonl", "--seed", "2") == (
        "scoring-eval: error: --seed is for generating questions; --questions reads them as written"
    )
    assert refused(capsys, "--count", "1001") == "scoring-eval: error: argument --count: 1001 is not between 1 and 1000"
    assert refused(capsys, "--count", "x") == "scoring-eval: error: argument --count: 'x' is not a number"
    assert (
        refused(capsys, "--timeout", "0.5") == "scoring-eval: error: argument --timeout: 0.5 is not between 1 and 300"
    )
    assert (
        refused(capsys, "--max-rounds", "21")
        == "scoring-eval: error: argument --max-rounds: 21 is not between 1 and 20"
    )
    assert refused(capsys, "--games", "apero,chess") == (
        "scoring-eval: error: argument --games: unknown game 'chess': choose from apero, applejack, fairy_black_box, pedro"
    )
    assert refused(capsys, "--base-url", "ftp://example.org") == (
        "scoring-eval: error: argument --base-url: 'ftp://example.org' is not an http(s) URL"
    )
    assert (
        refused(capsys, "--key-env", "A B")
        == "scoring-eval: error: argument --key-env: 'A B' is not an environment variable's name"
    )
    assert refused(capsys, "--lang", "fr").startswith("scoring-eval: error: argument --lang: invalid choice: 'fr'")
    assert fake_model.requests == []


def test_a_bad_question_file_exits_with_status_2_and_the_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    path = tmp_path / "q.jsonl"
    path.write_text("not json\n", encoding="utf-8")
    assert main(["--mode", "model", "--model", "m", "--questions", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"scoring-eval: {path}:1: not a JSON line")
    assert main(["--mode", "model", "--model", "m", "--questions", str(tmp_path / "missing.jsonl")]) == 2
    assert "No such file or directory" in capsys.readouterr().err
