"""The repository itself: a root that holds what docs/development.md lists, one licence and
one version everywhere, a README that says what the service is before any command, lock
files that pin everything, and the slow tests listed where the developers' guide says why.
"""

from __future__ import annotations

import json
import re
import subprocess
import tomllib
from pathlib import Path

import yaml

import scoring_api
from scoring_api.openapi import spec_yaml

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
DEVELOPMENT = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def git(*arguments: str) -> list[str]:
    done = subprocess.run(["git", *arguments], cwd=ROOT, capture_output=True, text=True, timeout=30, check=True)
    return done.stdout.splitlines()


def layout_roots() -> set[str]:
    """The root entries of the layout block: each line at the block's left edge names one
    (``.ci/run`` names ``.ci``, ``scoring_api/`` names ``scoring_api``)."""
    block = DEVELOPMENT.split("## Layout", 1)[1].split("```", 2)[1]
    return {line.split()[0].split("/")[0] for line in block.splitlines() if line and not line[0].isspace()}


def test_the_root_holds_only_what_the_layout_lists():
    """Tracked files only (``git ls-files``), so build output and caches do not count; a file
    deleted from the work tree but not yet from the index does not count either."""
    deleted = set(git("ls-files", "--deleted"))
    tracked = {path.split("/")[0] for path in git("ls-files") if path not in deleted}
    assert tracked - layout_roots() == set(), "listed in neither docs/development.md's layout nor .gitignore"
    assert {name for name in layout_roots() if not (ROOT / name).exists()} == set()


def test_wheels_and_installs_are_never_committed_or_copied_into_the_image():
    for ignore in (".gitignore", ".dockerignore"):
        assert "*.whl" in (ROOT / ignore).read_text().split(), ignore
    ignored = git(
        "check-ignore",
        "--no-index",  # the wheels may still be in the index until the removal is committed
        "tiktoken-0.14.0-cp311-cp311-manylinux_2_28_x86_64.whl",
        "tests/contract/node_modules/@redocly/cli/package.json",  # a file: the folder may not exist yet
    )
    assert ignored == [
        "tiktoken-0.14.0-cp311-cp311-manylinux_2_28_x86_64.whl",
        "tests/contract/node_modules/@redocly/cli/package.json",
    ]


def test_one_licence_mit_in_the_file_the_package_and_the_spec():
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8").splitlines()
    assert licence[:3] == ["MIT License", "", "Copyright (c) 2026 the scoring-api authors"]
    assert PYPROJECT["project"]["license"] == "MIT"
    assert PYPROJECT["project"]["license-files"] == ["LICENSE"]
    info = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))["info"]
    assert info["license"] == {"name": "MIT", "identifier": "MIT"}
    assert "contact" not in info and "example.com" not in spec_yaml().split("\nservers:")[0]


def test_one_version_in_the_package_the_metadata_and_the_changelog():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\]", changelog, re.MULTILINE)
    assert headings[0] == "Unreleased"
    assert headings[1] == PYPROJECT["project"]["version"] == scoring_api.__version__ == "0.1.0"
    assert yaml.safe_load(spec_yaml())["info"]["version"] == scoring_api.__version__


def test_the_readme_says_what_the_service_is_before_any_command():
    lines = README.splitlines()
    assert len(lines) <= 260
    opening = README.split("\n\n")[1]  # the paragraph under the title
    assert opening.startswith("Exact scores for four board games") and "```" not in opening
    serve, check = re.findall(r"```sh\n(.*?)```", README.split("## Run it", 1)[1], re.DOTALL)[:2]
    assert serve.startswith("apt-get update && apt-get install -y python3-venv && python3 -m venv .venv &&")
    assert "--require-hashes -r requirements/runtime.txt" in serve
    assert "--bind 127.0.0.1:8000 'scoring_api:create_app()'" in serve
    assert check == "bash .ci/run\n"


def pins(lock: str) -> dict[str, str]:
    text = (ROOT / "requirements" / lock).read_text(encoding="utf-8")
    found = dict(re.findall(r"^([a-z0-9][a-z0-9._-]*)==(\S+) \\$", text, re.MULTILINE))
    requirements = [line for line in text.splitlines() if line and not line.startswith((" ", "#"))]
    assert len(requirements) == len(found), "every requirement is pinned with ==, and hashed"
    assert text.count("--hash=sha256:") >= len(found)
    return found


def names(requirements: list[str]) -> set[str]:
    return {re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", r).group()).lower() for r in requirements}


def test_the_lock_files_pin_every_dependency_and_agree():
    runtime, dev = pins("runtime.txt"), pins("dev.txt")
    project = PYPROJECT["project"]
    assert names(project["dependencies"]) <= set(runtime)
    extras = project["optional-dependencies"]
    assert names(project["dependencies"] + extras["test"] + extras["dev"]) <= set(dev)
    assert {name: version for name, version in dev.items() if name in runtime} == runtime


def test_ci_and_the_image_install_the_locked_dependencies():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install --quiet --require-hashes -r requirements/dev.txt" in ci
    assert 'python -m pytest -m "slow or not slow"' in ci
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    lock = dockerfile.index("pip install --require-hashes -r requirements/runtime.txt")
    assert lock < dockerfile.index("COPY scoring_api") and "pip install --no-deps ." in dockerfile


def test_the_pinned_redocly_cli_runs_on_debian_12s_node():
    """Debian 12's ``nodejs`` is 18.19 (``apt-get install npm``); Redocly's CLI 2 needs 20.19."""
    folder = ROOT / "tests" / "contract"
    pinned = json.loads((folder / "package.json").read_text())["devDependencies"]["@redocly/cli"]
    locked = json.loads((folder / "package-lock.json").read_text())["packages"]["node_modules/@redocly/cli"]
    assert locked["version"] == pinned == "1.34.20"
    assert locked["engines"]["node"] == ">=18.17.0"


def slow_marks() -> set[str]:
    """Modules marked slow at the top, and single tests marked with a decorator."""
    marked = {"tests/browser/"}  # every test there (tests/browser/conftest.py marks them)
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        if re.search(r"^pytestmark = pytest\.mark\.slow\b", text, re.MULTILINE):
            marked.add(name)
        marked |= {
            f"{name}::{test}" for test in re.findall(r"^@pytest\.mark\.slow\b.*\n(?:@.*\n)*def (\w+)", text, re.M)
        }
    return marked


def test_every_slow_mark_is_listed_with_its_reason_in_the_developers_guide():
    section = DEVELOPMENT.split("## Tests and checks", 1)[1].split("\n## ", 1)[0]
    listed = {
        entry
        for row in re.findall(r"^ *\| (.+?) \|", section, re.MULTILINE)
        for entry in re.findall(r"`(tests/[^`]+)`", row)
    }
    assert listed == slow_marks()
    markers = PYPROJECT["tool"]["pytest"]["ini_options"]["markers"]
    assert [marker.split(":")[0] for marker in markers] == ["slow"]
    assert "--strict-markers" in PYPROJECT["tool"]["pytest"]["ini_options"]["addopts"].split()


def test_docs_and_code_cite_this_repository_only_and_no_tracker_numbers():
    """Docstrings, comments and docs point at files of this repository (never a folder
    beside it) and describe the code as it is: no issue numbers (CHANGELOG.md aside)."""
    outside = re.compile(r"\.\./shared|\bshared/(rules|api\.md|design\.md|seeds)")
    tracker = re.compile(r"\b[Ii]ssues? #?\d+|\(#\d+\)")
    found = []
    for path in git("ls-files"):
        if path == "CHANGELOG.md" or not path.endswith((".py", ".md", ".js", ".yaml", ".toml", ".html", ".css")):
            continue
        text = (ROOT / path).read_text(encoding="utf-8")
        found += [f"{path}: {m.group()}" for pattern in (outside, tracker) for m in pattern.finditer(text)]
    assert found == []
