"""Everything a game and its operations need besides their code, checked for every game in
the registry, and shown to catch what a new game forgets (docs/development.md, "Adding a
game"): a toy game registered with nothing else fails each check with the missing piece.

``missing(game)`` lists what one game module of ``scoring_api/operations/`` lacks:

- its operations, each tagged with the game's one spelling in code (the module's name),
  each under its path in URLs (``/fairy-black-box/...``);
- the OpenAPI tag, described, in the generated document;
- its sentences: ``scoring_api/messages/<game>.yaml``, one top-level section named after
  the game, every sentence in Japanese and English with the same placeholders;
- a tool per operation, named after it, in the OpenAI tools and the MCP server;
- its tab in the form: listed in ``TABS`` under the URL spelling (``fairy-black-box``),
  with its module ``static/<tab>.js`` and its texts ``static/text/<tab>.js``, the tab's
  label in both languages;
- a result card per operation in ``static/cards.js`` (the chat panel and the MCP Apps view);
- its rules documents ``docs/rules/<tab>.md`` and ``<tab>.ja.md``, offered by the rules tool.
"""

from __future__ import annotations

import ast
import re
import string
import types
from pathlib import Path

import pytest
import yaml

from scoring_api import rules_documents
from scoring_api.i18n import LANGS, SENTENCES
from scoring_api.mcp import mcp_tools
from scoring_api.openapi import TAGS, build_spec
from scoring_api.operations.operation import Operation, operation
from scoring_api.operations.registry import GAMES, OPERATIONS, REFERENCE
from scoring_api.schemas.apero import AperoScoreRequestSchema, AperoScoreResponseSchema
from scoring_api.tools import tool_definitions
from scoring_api.web import TABS

PACKAGE = Path(__file__).parents[1] / "scoring_api"
MESSAGES = PACKAGE / "messages"
RULES = PACKAGE.parent / "docs" / "rules"
STATIC = PACKAGE / "web" / "static"


def game_name(game: types.ModuleType) -> str:
    return game.__name__.rsplit(".", 1)[-1]


def url_name(game: types.ModuleType) -> str:
    return game_name(game).replace("_", "-")


def _placeholders(sentence: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(sentence) if name}


def missing(game: types.ModuleType, spec: dict, tools: set[str], mcp_names: set[str]) -> list[str]:
    name, tab = game_name(game), url_name(game)
    found: list[str] = [] if game in GAMES else ["listed in GAMES"]
    operations = getattr(game, "OPERATIONS", [])
    if not operations:
        found.append("operations")
    found += [f"tag of {op.operation_id}" for op in operations if op.tag != name]
    found += [f"path of {op.operation_id}" for op in operations if not op.path.startswith(f"/{tab}/")]
    if name not in TAGS or name not in {tag["name"] for tag in spec["tags"]}:
        found.append("OpenAPI tag")
    catalogue = MESSAGES / f"{name}.yaml"
    if not catalogue.exists():
        found.append(f"messages/{name}.yaml")
    elif list(yaml.safe_load(catalogue.read_text(encoding="utf-8"))) != [name]:
        found.append(f"one section {name} in messages/{name}.yaml")
    found += [f"tool {op.operation_id}" for op in operations if op.operation_id not in tools]
    found += [f"MCP tool {op.operation_id}" for op in operations if op.operation_id not in mcp_names]
    if tab not in TABS:
        found.append(f"form tab {tab}")
    if not (STATIC / f"{tab}.js").exists():
        found.append(f"static/{tab}.js")
    texts = STATIC / "text" / f"{tab}.js"
    if not texts.exists() or len(re.findall(rf"^\s*'{re.escape(tab)}\.tab': '.+',", texts.read_text(), re.M)) != 2:
        found.append(f"the tab's label in static/text/{tab}.js, ja and en")
    cards = (STATIC / "cards.js").read_text(encoding="utf-8")
    found += [
        f"result card of {op.operation_id}"
        for op in operations
        if not re.search(rf"^  {op.operation_id}: ", cards, re.M)
    ]
    found += [f"docs/rules/{tab}{suffix}" for suffix in (".md", ".ja.md") if not (RULES / f"{tab}{suffix}").exists()]
    if tab not in rules_documents.GAMES:
        found.append("the rules tool's game")
    return found


@pytest.fixture(scope="module")
def surfaces():
    spec = build_spec()
    tools = {tool["function"]["name"] for tool in tool_definitions()}
    return spec, tools, {tool.name for tool in mcp_tools()}


@pytest.mark.parametrize("game", GAMES, ids=game_name)
def test_every_game_has_everything_it_needs(game, surfaces):
    assert missing(game, *surfaces) == []


def test_a_game_registered_with_nothing_else_is_caught_at_each_piece(surfaces):
    toy = types.ModuleType("scoring_api.operations.toy")
    toy.OPERATIONS = []
    operation(
        toy.OPERATIONS,
        operation_id="toy_score",
        method="POST",
        path="/toys/score",
        request=AperoScoreRequestSchema,
        response=AperoScoreResponseSchema,
        tag="toy_game",
        summary="Score a toy.",
        description="Call to score a toy.",
    )(lambda request, lang: {})
    assert missing(toy, *surfaces) == [
        "listed in GAMES",
        "tag of toy_score",
        "path of toy_score",
        "OpenAPI tag",
        "messages/toy.yaml",
        "tool toy_score",
        "MCP tool toy_score",
        "form tab toy",
        "static/toy.js",
        "the tab's label in static/text/toy.js, ja and en",
        "result card of toy_score",
        "docs/rules/toy.md",
        "docs/rules/toy.ja.md",
        "the rules tool's game",
    ]


def test_the_registry_lists_every_game_module_once():
    modules = {path.stem for path in (PACKAGE / "operations").glob("*.py")} - {"__init__", "operation", "registry"}
    assert sorted(game_name(module) for module in (*GAMES, *REFERENCE)) == sorted(modules)
    assert [game_name(module) for module in REFERENCE] == ["rules"]  # not a game: no tab, no messages of a game
    assert len({op.operation_id for op in OPERATIONS}) == len(OPERATIONS)
    assert all(isinstance(op, Operation) for op in OPERATIONS)


def test_every_catalogue_sentence_is_in_both_languages_with_compatible_placeholders():
    """A translation may leave a value out where the language reads better without it
    (``pedro.two_field_for_rule`` in Japanese), never name one the other lacks both ways."""
    for key, sentence in SENTENCES.items():
        assert set(sentence) == set(LANGS), key
        ja, en = _placeholders(sentence["ja"]), _placeholders(sentence["en"])
        assert ja <= en or en <= ja, key


SECTIONS = {key.split(".")[0] for key in SENTENCES}
PREFIXES = {key.rsplit(".", n)[0] for key in SENTENCES for n in range(1, key.count(".") + 1)}


def unknown_keys(sources: dict[str, str]) -> dict[str, str]:
    """The string literals of ``sources`` (file -> text) that look like a sentence's key
    (dotted, starting with a section of the catalogue: ``"apero.total"``) and name none: not
    a key, nor a section, nor the start of keys (``"pedro.two_rule_" + rule``)."""
    found = {}
    for where, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and re.fullmatch(r"[a-z_]+(\.[a-z0-9_]+)+", node.value)
                and node.value.split(".")[0] in SECTIONS
            ):
                key = node.value
                if not (
                    key in SENTENCES
                    or key in PREFIXES
                    or (key.endswith("_") and any(k.startswith(key) for k in SENTENCES))
                ):
                    found[key] = where
    return found


def test_every_sentence_the_code_names_is_in_the_catalogue():
    sources = {str(path.relative_to(PACKAGE)): path.read_text(encoding="utf-8") for path in PACKAGE.rglob("*.py")}
    assert len(sources) > 50
    assert unknown_keys(sources) == {}


def test_a_misspelt_sentence_key_would_be_caught():
    code = 'explanation = t("apero.totl", lang)\nraise ApiError(400, "x", "errors.invalid_jsn")\nt("apero.total", lang)'
    assert unknown_keys({"toy.py": code}) == {"apero.totl": "toy.py", "errors.invalid_jsn": "toy.py"}
