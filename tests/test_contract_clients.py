"""Tools that read openapi.yaml accept it: a Python client generates from it without
errors, and Redocly's recommended lint finds no error.

Both run for real (nothing skipped): openapi-python-client is in the ``test`` extra (and
the lock file requirements/dev.txt), and Redocly's CLI is pinned in tests/contract/package.json
and its package-lock.json, installed there by ``.ci/run`` (``npm ci --prefix tests/contract``).
The tests never install anything themselves (docs/development.md, "Tests and checks").
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "openapi.yaml"

pytestmark = pytest.mark.slow  # two external tools, a few seconds each (docs/development.md)

#: Redocly's CLI as tests/contract/package-lock.json pins it (1.34: Node.js 18.17 or later).
REDOCLY = ROOT / "tests" / "contract" / "node_modules" / ".bin" / "redocly"


def _generator() -> list[str]:
    found = shutil.which(
        "openapi-python-client", path=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")
    )
    assert found, "openapi-python-client is missing: pip install -r requirements/dev.txt"
    return [found]


def test_openapi_python_client_generates_a_client(tmp_path):
    """``openapi-python-client generate --path openapi.yaml``, no options: it succeeds,
    writes a module per operation, and warns about nothing but the YAML document's own
    response (it parses JSON, text and bytes responses only; application/yaml is what
    ``GET /openapi.yaml`` serves)."""
    done = subprocess.run(
        [*_generator(), "generate", "--path", str(SPEC)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    package = tmp_path / "board-game-scoring-api-client" / "board_game_scoring_api_client"
    assert (package / "api" / "apero" / "score_apero.py").is_file(), output
    assert (package / "api" / "fairy_black_box" / "fairy_black_box_next_player.py").is_file()
    assert (package / "api" / "assistant" / "chat.py").is_file()
    warned = [line for line in output.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert warned == ["WARNING parsing GET /openapi.yaml within service."], output
    assert "Unsupported content_type application/yaml" in output


def _redocly() -> Path:
    """The pinned Redocly CLI; missing, the test fails with the command that installs it."""
    if not REDOCLY.exists():
        pytest.fail(
            f"Redocly's CLI is not installed ({REDOCLY}): run `npm ci --prefix tests/contract` "
            "(Node.js 18.17 or later; .ci/run does it)",
            pytrace=False,
        )
    return REDOCLY


def test_redocly_recommended_lint_has_no_errors(tmp_path):
    """``redocly lint openapi.yaml`` with its built-in recommended rules: 0 errors
    (warnings are allowed, and counted in the failure message if errors appear)."""
    redocly = _redocly()
    done = subprocess.run(
        [str(redocly), "lint", str(SPEC), "--format=json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"},
    )
    report = json.loads(done.stdout[done.stdout.index("{") :])
    errors = [p for p in report["problems"] if p["severity"] == "error"]
    assert report["totals"]["errors"] == 0 and not errors, json.dumps(errors[:5], indent=1, ensure_ascii=False)
    assert done.returncode == 0, done.stderr
