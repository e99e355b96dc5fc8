"""The dependency rule (docs/development.md): ``api -> operations -> schemas -> games``;
the tools, the assistant, MCP and OpenAPI read the registry; MCP and OpenAPI need nothing
of the assistant; nothing imports ``api`` but the app factory, and the games import
nothing of the service."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "scoring_api"


def imported_modules(path: Path) -> set[str]:
    """The absolute names of the modules ``path`` imports (relative imports resolved)."""
    package = ".".join(path.relative_to(PACKAGE.parent).parent.parts)
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def sources(folder: Path = PACKAGE):
    return sorted(folder.rglob("*.py"))


def test_only_the_app_factory_imports_the_http_layer():
    importers = [
        str(path.relative_to(PACKAGE.parent))
        for path in sources()
        if "api" not in path.relative_to(PACKAGE).parts[:1]
        and any(name == "scoring_api.api" or name.startswith("scoring_api.api.") for name in imported_modules(path))
    ]
    assert importers == ["scoring_api/__init__.py"]


def test_the_games_import_nothing_of_the_service_nor_of_the_web():
    for path in sources(PACKAGE / "games"):
        outside = {
            name
            for name in imported_modules(path)
            if name.startswith("scoring_api.") and not name.startswith("scoring_api.games")
        }
        libraries = {name.split(".")[0] for name in imported_modules(path)} & {
            "flask",
            "marshmallow",
            "yaml",
            "werkzeug",
        }
        assert not outside and not libraries, (path, outside, libraries)


def _starts(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == package or name.startswith(f"{package}.") for package in packages)


def test_schemas_and_operations_do_not_import_the_surfaces():
    surfaces = (
        "scoring_api.api",
        "scoring_api.assistant",
        "scoring_api.tools",
        "scoring_api.mcp",
        "scoring_api.openapi",
        "scoring_api.web",
    )
    checked = [path for folder in ("schemas", "operations") for path in sources(PACKAGE / folder)]
    assert len(checked) >= 12
    for path in checked:
        assert not [n for n in imported_modules(path) if _starts(n, surfaces)], path


def test_mcp_openapi_and_the_tools_need_nothing_of_the_assistant():
    for name in ("mcp.py", "openapi.py", "tools.py", "tool_arguments.py"):
        imported = imported_modules(PACKAGE / name)
        assert not [n for n in imported if _starts(n, ("scoring_api.assistant", "scoring_api.api"))], name


def test_listing_the_tools_loads_neither_flask_views_nor_the_openai_sdk():
    script = (
        "import sys\n"
        "from scoring_api.tools import tool_definitions\n"
        "import scoring_api.mcp\n"
        "from scoring_api.operations.registry import OPERATIONS\n"
        "assert len(tool_definitions()) == len(OPERATIONS) >= 14\n"
        "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in ('flask', 'werkzeug', 'openai')"
        " or m == 'scoring_api.api' or m.startswith(('scoring_api.api.', 'scoring_api.assistant')))))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""
