"""Settings are checked when the app is created: a bad one refuses to start, naming it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from scoring_api import SettingsError, create_app
from scoring_api.settings import SETTINGS


@pytest.mark.parametrize(
    ("variable", "value", "reason"),
    [
        ("SCORING_MAX_CONTENT_LENGTH", "abc", "whole number of bytes from 64 to 1048576"),
        ("SCORING_MAX_CONTENT_LENGTH", "null", "whole number of bytes"),
        ("SCORING_MAX_CONTENT_LENGTH", "1e9", "whole number of bytes"),
        ("SCORING_MAX_CONTENT_LENGTH", "true", "whole number of bytes"),
        ("SCORING_MAX_CONTENT_LENGTH", "10", "whole number of bytes"),
        ("SCORING_CHAT_TIMEOUT", "abc", "number of seconds from 1 to 300"),
        ("SCORING_CHAT_TIMEOUT", "0", "number of seconds"),
        ("SCORING_CHAT_DEADLINE", "1e400", "number of seconds"),
        ("SCORING_CHAT_MAX_ROUNDS", "0", "whole number from 1 to 20"),
        ("SCORING_CHAT_MAX_RETRIES", "-1", "whole number from 0 to 5"),
        ("SCORING_CHAT_MAX_TOKENS", "2.5", "whole number from 16 to 32768"),
        ("SCORING_CHAT_MAX_TOOL_CALLS", "0", "whole number from 1 to 64"),
        ("SCORING_CHAT_TOOL_RESULT_LIMIT", "10", "whole number of bytes"),
        ("SCORING_CHAT_MAX_BODY_BYTES", "65535", "whole number of bytes from 65536 to 67108864"),
        ("SCORING_CHAT_MAX_BODY_BYTES", "67108865", "whole number of bytes from 65536 to 67108864"),
        ("SCORING_CHAT_MAX_BODY_BYTES", "8MB", "whole number of bytes"),
        ("SCORING_CHAT_VISION", "yes", "must be true or false"),
        ("SCORING_CHAT_VISION", "1", "must be true or false"),
        ("SCORING_PUBLIC_URL", "http://scores.example", "absolute https URL"),
        ("SCORING_PUBLIC_URL", "scores.example", "absolute https URL"),
        ("SCORING_PROMPTS_DIR", "/nonexistent", "folder that holds system.md"),
        ("OPENAI_BASE_URL", "localhost:11434", "absolute http or https URL"),
        ("OPENAI_MODEL", " gpt ", "without surrounding spaces"),
        ("SCORING_MCP_LANG", "fr", "must be one of ja, en"),
        ("SCORING_WRONG_KEY_RATE_LIMIT", "lots", "must be a rate such as 600 per minute"),
        ("SCORING_MCP_RATE_LIMIT", "lots", "must be a rate such as 600 per minute"),
        ("SCORING_MCP_RATE_LIMIT", "600", "must be a rate such as 600 per minute"),
        ("SCORING_MCP_RATE_LIMIT", "", "must be a rate such as 600 per minute"),
        ("SCORING_API_KEYS", "sk-test-9f8e7d6c5b4a", "must be keys of 24 to 200 printable characters"),
        ("SCORING_API_KEYS", "x" * 32, "must be keys hard to guess: key 1 has fewer than 10 different characters"),
        ("SCORING_MCP_ALLOWED_HOSTS", "https://scores.example", "must be host names such as scores.example"),
        ("SCORING_MCP_ALLOWED_HOSTS", "scores.example/mcp", "must be host names"),
        ("SCORING_MCP_ALLOWED_HOSTS", "*", "must be host names"),
        ("SCORING_MCP_ALLOWED_HOSTS", "*.example", "must be host names"),
        ("SCORING_MCP_ALLOWED_HOSTS", "scores.example:99999", "must be host names"),
        ("SCORING_MCP_ALLOWED_HOSTS", "scores.example,", "must be host names"),
        ("SCORING_MCP_ALLOWED_HOSTS", "scores.example, mcp.example", "must be host names"),
        ("SCORING_MCP_ALLOWED_HOSTS", "::1", "must be host names"),
        ("SCORING_MCP_ALLOWED_HOSTS", "8080", "must be host names"),
        ("SCORING_MCP_ALLOWED_ORIGINS", "app.example.org", "must be origins such as https://app.example.org"),
        ("SCORING_MCP_ALLOWED_ORIGINS", "https://app.example.org/", "must be origins"),
        ("SCORING_MCP_ALLOWED_ORIGINS", "*", "must be origins"),
    ],
)
def test_a_bad_setting_refuses_to_start_naming_the_variable(monkeypatch, variable, value, reason):
    monkeypatch.setenv(variable, value)
    with pytest.raises(SettingsError) as refused:
        create_app()
    assert str(refused.value).startswith(f"{variable}=")
    assert reason in str(refused.value)


def test_an_unknown_scoring_variable_is_refused(monkeypatch):
    monkeypatch.setenv("SCORING_MAX_CONTENT_LENGHT", "1000")  # a typo
    with pytest.raises(SettingsError, match=r"^SCORING_MAX_CONTENT_LENGHT: no such setting"):
        create_app()


def test_good_settings_are_taken(monkeypatch):
    monkeypatch.setenv("SCORING_MAX_CONTENT_LENGTH", "2048")
    monkeypatch.setenv("SCORING_CHAT_DEADLINE", "12.5")
    monkeypatch.setenv("SCORING_PUBLIC_URL", "https://scores.example/")
    monkeypatch.setenv("SCORING_CHAT_VISION", "true")
    monkeypatch.setenv("SCORING_CHAT_MAX_BODY_BYTES", "65536")
    monkeypatch.setenv("OPENAI_API_KEY", "")  # empty means not set
    app = create_app()
    assert app.config["MAX_CONTENT_LENGTH"] == 2048
    assert (app.config["CHAT_VISION"], app.config["CHAT_MAX_BODY_BYTES"]) == (True, 65536)
    assert app.config["CHAT_DEADLINE"] == 12.5
    assert app.config["OPENAI_API_KEY"] is None
    assert (
        app.test_client()
        .post("/api/v1/apero/score", data=b"[" + b" " * 3000 + b"]", content_type="application/json")
        .status_code
        == 413
    )


def test_the_chat_takes_no_photo_and_8_mib_bodies_unless_told():
    app = create_app()
    assert (app.config["CHAT_VISION"], app.config["CHAT_MAX_BODY_BYTES"]) == (False, 8 * 1024 * 1024)


def test_a_mapping_is_checked_too():
    with pytest.raises(SettingsError, match=r"^CHAT_MAX_ROUNDS|^SCORING_CHAT_MAX_ROUNDS=0"):
        create_app({"CHAT_MAX_ROUNDS": 0})


def test_gunicorn_refuses_to_start_with_the_message(tmp_path):
    """What an operator sees: gunicorn exits and its log names the variable."""
    result = subprocess.run(
        [sys.executable, "-m", "gunicorn", "--bind", "127.0.0.1:0", "scoring_api:create_app()"],
        env={"PATH": "/usr/bin:/bin", "SCORING_CHAT_TIMEOUT": "abc"},
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert result.returncode != 0
    assert "SCORING_CHAT_TIMEOUT='abc': must be a number of seconds from 1 to 300" in result.stderr


def test_every_setting_is_in_the_readme_table():
    from pathlib import Path

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    for name in SETTINGS:
        assert f"| `SCORING_{name}` |" in readme, name
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_MODEL"):
        assert f"| `{name}` |" in readme, name
