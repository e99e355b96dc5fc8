"""An installed copy (``pip install .``, not editable) is whole: prompts, rules documents, messages, the form."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds and installs the package (docs/development.md)

ROOT = Path(__file__).parents[1]

PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
import scoring_api
assert scoring_api.__file__.startswith(sys.argv[1]), scoring_api.__file__
app = scoring_api.create_app()
prompts = app.extensions["prompts"]
client = app.test_client()
documents = [client.get(f"/api/v1/rules?game={game}&language={lang}") for game in ("apero", "applejack", "fairy-black-box", "pedro") for lang in ("ja", "en")]
print([r.status_code for r in documents], all(len(r.get_json()["text"]) > 3000 for r in documents))
print("rules" in prompts.system and "アイちゃん" in prompts.system)
print(client.get("/").status_code, client.get("/assets/icon.svg").status_code)
"""


def test_a_non_editable_install_finds_its_prompts_from_any_directory(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(".git", "tests", "test-results", "__pycache__", "*.egg-info", "build", ".venv"),
    )
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(source)],
        check=True,
        capture_output=True,
        timeout=180,
    )
    shutil.rmtree(source)  # nothing may be read from the source tree
    assert (target / "bin" / "scoring-mcp").is_file()  # the MCP server's console script
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = subprocess.run(
        [sys.executable, "-I", "-c", PROBE, str(target)],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [str([200] * 8) + " True", "True", "200 200"]
    # every file the form serves is installed (its scripts, catalogue, styles and icons)
    static = Path("scoring_api") / "web" / "static"
    served = {path.relative_to(ROOT / static) for path in (ROOT / static).rglob("*") if path.is_file()}
    installed = {path.relative_to(target / static) for path in (target / static).rglob("*") if path.is_file()}
    assert served - installed == set()
