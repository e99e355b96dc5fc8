"""The rules documents, in English and Japanese, say the same thing, and their worked
examples are what the API answers.

For every game in docs/rules (each ``<game>.md`` but README.md) and for the index: the
Japanese ``<game>.ja.md`` exists and links back; both files have the same sequence of
heading levels; the Decisions (「判断」) keep the same numbers; the worked examples carry the
same ``<!-- example: id -->`` markers in the same order; every id has its request in
tests/rules_examples/<game>.yaml, which answers 200 with the values it expects; and every
number an example expects is written in that example's text, in both languages.
"""

from __future__ import annotations

import re
import unicodedata
from itertools import zip_longest
from pathlib import Path

import pytest
import yaml

from scoring_api import create_app

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
EXAMPLES = Path(__file__).parent / "rules_examples"
GAMES = sorted(path.stem for path in RULES.glob("*.md") if not path.stem.endswith(".ja") and path.stem != "README")

#: Sections whose Japanese name is fixed, so that one test reads both languages.
SECTIONS = {"## Decisions": "## 判断", "## Worked examples": "## 計算例"}
MARKER = re.compile(r"^<!-- example: ([a-z0-9][a-z0-9-]*) -->$")
HEADING = re.compile(r"^(#{1,6}) +(.+?) *#*$")
ENTRY_KEYS = {"id", "method", "path", "body", "query", "expect"}


# -- Reading the documents ------------------------------------------------------------------


def _japanese(name: str) -> str:
    return name[: -len(".md")] + ".ja.md"


def _read(name: str) -> str:
    return (RULES / name).read_text(encoding="utf-8")


def _pair(name: str) -> tuple[str, str]:
    """The English document ``name`` and its Japanese twin, which must exist."""
    assert (RULES / _japanese(name)).exists(), f"docs/rules/{name} has no Japanese twin {_japanese(name)}"
    return _read(name), _read(_japanese(name))


def _lines(text: str) -> list[str]:
    """The document's lines outside fenced code blocks (a fence's lines become blank)."""
    kept, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            kept.append("")
        else:
            kept.append("" if fenced else line)
    return kept


def _headings(text: str) -> list[tuple[str, str]]:
    """Every heading as (its hashes, its text)."""
    return [(m.group(1), m.group(2)) for line in _lines(text) if (m := HEADING.match(line))]


def _section(text: str, heading: str) -> list[str]:
    """The lines of the section under ``heading`` (e.g. ``## Decisions``), up to the next
    heading of its level or higher; [] without such a section."""
    level = heading.index(" ")
    lines = _lines(text)
    if heading not in lines:
        return []
    inside = lines[lines.index(heading) + 1 :]
    for index, line in enumerate(inside):
        m = HEADING.match(line)
        if m and len(m.group(1)) <= level:
            return inside[:index]
    return inside


def _decisions(text: str, heading: str) -> list[tuple[int, bool]]:
    """The Decisions list: each item's number, and whether it opens with a bold sentence."""
    items = [re.match(r"(\d+)\. +(.*)", line) for line in _section(text, heading)]
    return [(int(m.group(1)), m.group(2).startswith("**")) for m in items if m]


def _examples(text: str) -> list[tuple[str, str]]:
    """Each example as (its id, its text: from its marker to the next marker or heading)."""
    found: list[tuple[str, list[str]]] = []
    for line in _lines(text):
        if m := MARKER.match(line.strip()):
            found.append((m.group(1), []))
        elif HEADING.match(line):
            found.append(("", []))
        elif found:
            found[-1][1].append(line)
    return [(name, "\n".join(lines)) for name, lines in found if name]


def _language_line(text: str) -> str:
    """The first line after the title (the first line, in a document without one)."""
    lines = [line for line in _lines(text) if line.strip()]
    return lines[1] if lines[0].startswith("# ") else lines[0]


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation and symbols dropped (full-width
    ones too), spaces to hyphens."""
    kept = (
        c
        for c in heading.lower()
        if c in " -" or unicodedata.category(c)[0] in "LMN" or unicodedata.category(c) == "Pc"
    )
    return "".join(kept).replace(" ", "-")


def _anchors(text: str) -> set[str]:
    """Every heading's anchor, a repeated one numbered as GitHub does (``-1``, ``-2``)."""
    seen: dict[str, int] = {}
    anchors = set()
    for _, heading in _headings(text):
        slug = _slug(re.sub(r"`|\[([^\]]*)\]\([^)]*\)", r"\1", heading))
        anchors.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return anchors


# -- The API's answers ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def api():
    return create_app({"TESTING": True}).test_client()


def _entries(game: str) -> list[dict]:
    path = EXAMPLES / f"{game}.yaml"
    assert path.exists(), f"tests/rules_examples/{game}.yaml is missing"
    entries = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(entries, list), f"tests/rules_examples/{game}.yaml: a list of examples"
    return entries


def _at(answer, dotted: str):
    """The value at a dotted path: keys of objects, indices (negative too) of lists."""
    value = answer
    for step in str(dotted).split("."):
        value = value[int(step)] if isinstance(value, list) else value[step]
    return value


#: Small numbers as English prose writes them ("the first run-out", "two players").
WORDS = {
    1: ("one", "once", "first"),
    2: ("two", "twice", "second"),
    3: ("three", "third"),
    4: ("four", "fourth"),
    5: ("five", "fifth"),
    6: ("six", "sixth"),
}


def _spelled(number: int | float) -> re.Pattern[str]:
    """A number as a text may write it: 1234 or 1,234; a minus sign as - or −; 1 to 6 also
    in English words; never a part of a longer number, and a positive one never after a
    minus sign or a hyphen."""
    digits = {f"{abs(number)}", f"{abs(number):,}"}
    body = "|".join(re.escape(d) for d in sorted(digits, key=len, reverse=True))
    sign = "[-−]" if number < 0 else ""
    before = r"(?<![0-9.,])" if number < 0 else r"(?<![0-9.,\-−])"
    words = "|".join(WORDS.get(int(number), ()) if number == int(number) else ())
    spelled = rf"{before}{sign}(?:{body})(?![0-9]|[.,][0-9])"
    return re.compile(rf"{spelled}|(?i:\b(?:{words})\b)" if words else spelled)


def _numbers(entry: dict) -> list[int | float]:
    """The numbers an example expects (its strings, booleans and nulls are checked against
    the answer only)."""
    values = [check["value"] for check in entry["expect"]]
    return [value for value in values if isinstance(value, int | float) and not isinstance(value, bool)]


# -- The checks -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", [*(f"{game}.md" for game in GAMES), "README.md"])
def test_each_document_has_its_twin_and_links_to_it(name):
    english, japanese = _pair(name)
    line = _language_line(english)
    assert line.startswith("日本語") and f"({_japanese(name)})" in line, (
        f"docs/rules/{name}: the line after the title links 日本語: {_japanese(name)}, not {line!r}"
    )
    line = _language_line(japanese)
    assert line.startswith("English") and f"({name})" in line, (
        f"docs/rules/{_japanese(name)}: the line after the title links English: {name}, not {line!r}"
    )


@pytest.mark.parametrize("name", [*(f"{game}.md" for game in GAMES), "README.md"])
def test_both_languages_have_the_same_headings(name):
    english, japanese = _pair(name)
    ours, theirs = _headings(english), _headings(japanese)
    side_by_side = "\n".join(
        f"  {' '.join(one):40} | {' '.join(other)}" for one, other in zip_longest(ours, theirs, fillvalue=("", "-"))
    )
    assert len(ours) == len(theirs), (
        f"docs/rules/{name} has {len(ours)} headings, {_japanese(name)} {len(theirs)}:\n{side_by_side}"
    )
    for index, (one, other) in enumerate(zip(ours, theirs, strict=True)):
        assert one[0] == other[0], (
            f"docs/rules/{_japanese(name)}: heading {index + 1} {other[0]} {other[1]!r} is not at the level "
            f"of {name}'s {one[0]} {one[1]!r}"
        )
        fixed = SECTIONS.get(f"{one[0]} {one[1]}")
        assert fixed is None or f"{other[0]} {other[1]}" == fixed, (
            f"docs/rules/{_japanese(name)}: the section {one[1]!r} is called {fixed!r} in Japanese, not {other[1]!r}"
        )


@pytest.mark.parametrize("game", GAMES)
def test_the_decisions_keep_their_numbers(game):
    english, japanese = _pair(f"{game}.md")
    ours, theirs = _decisions(english, "## Decisions"), _decisions(japanese, "## 判断")
    assert [number for number, _ in ours] == list(range(1, len(ours) + 1)), f"docs/rules/{game}.md: Decisions 1, 2, ..."
    assert [number for number, _ in theirs] == [number for number, _ in ours], (
        f"docs/rules/{game}.ja.md: 「判断」 numbers {[n for n, _ in theirs]}, Decisions {[n for n, _ in ours]}"
    )
    unbold = [number for (number, bold), (_, bold_ja) in zip(ours, theirs, strict=True) if bold != bold_ja]
    assert unbold == [], f"docs/rules/{game}.ja.md: 判断 {unbold} open with a bold sentence as in {game}.md, or neither"


@pytest.mark.parametrize("game", GAMES)
def test_both_languages_mark_the_same_examples_in_the_same_order(game):
    english, japanese = _pair(f"{game}.md")
    ours, theirs = [name for name, _ in _examples(english)], [name for name, _ in _examples(japanese)]
    assert ours, f"docs/rules/{game}.md marks no example (<!-- example: id -->)"
    repeated = sorted({name for name in ours if ours.count(name) > 1})
    assert repeated == [], f"docs/rules/{game}.md: example ids used twice: {repeated}"
    assert theirs == ours, f"docs/rules/{game}.ja.md: examples {theirs}, {game}.md: {ours}"


@pytest.mark.parametrize("game", GAMES)
def test_every_example_has_its_request_and_every_request_its_example(game):
    english, _ = _pair(f"{game}.md")
    entries = _entries(game)
    for entry in entries:
        assert set(entry) <= ENTRY_KEYS and {"id", "method", "path", "expect"} <= set(entry), (
            f"tests/rules_examples/{game}.yaml: {entry.get('id')!r} has keys {sorted(entry)}, of {sorted(ENTRY_KEYS)}"
        )
        assert entry["expect"], f"tests/rules_examples/{game}.yaml: {entry['id']} expects nothing"
    listed = [entry["id"] for entry in entries]
    marked = [name for name, _ in _examples(english)]
    assert sorted({name for name in listed if listed.count(name) > 1}) == [], (
        f"tests/rules_examples/{game}.yaml: ids listed twice"
    )
    assert sorted(set(marked) - set(listed)) == [], f"tests/rules_examples/{game}.yaml: no request for these examples"
    assert sorted(set(listed) - set(marked)) == [], f"docs/rules/{game}.md: no example marked with these ids"


@pytest.mark.parametrize("game", GAMES)
def test_every_example_is_what_the_api_answers(game, api):
    _pair(f"{game}.md")
    for entry in _entries(game):
        where = f"tests/rules_examples/{game}.yaml, {entry['id']}"
        if entry["method"] == "GET":
            response = api.get(entry["path"], query_string=entry.get("query") or {})
        else:
            response = api.open(entry["path"], method=entry["method"], json=entry.get("body"))
        assert response.status_code == 200, f"{where}: {response.status_code} {response.get_data(as_text=True)}"
        answer = response.get_json()
        for check in entry["expect"]:
            try:
                found = _at(answer, check["at"])
            except (KeyError, IndexError, TypeError, ValueError):
                pytest.fail(f"{where}: the answer has nothing at {check['at']}")
            assert found == check["value"] and type(found) is type(check["value"]), (
                f"{where}: at {check['at']} the API answers {found!r}, the example expects {check['value']!r}"
            )


@pytest.mark.parametrize("game", GAMES)
def test_every_expected_number_is_written_in_its_example_in_both_languages(game):
    english, japanese = _pair(f"{game}.md")
    entries = {entry["id"]: entry for entry in _entries(game)}
    for document, text in ((f"{game}.md", english), (f"{game}.ja.md", japanese)):
        for example, written in _examples(text):
            missing = [n for n in _numbers(entries.get(example, {"expect": []})) if not _spelled(n).search(written)]
            assert missing == [], f"docs/rules/{document}, example {example}: the text does not state {missing}"


@pytest.mark.parametrize("name", [f"{game}{suffix}" for game in [*GAMES, "README"] for suffix in (".md", ".ja.md")])
def test_links_between_rules_documents_reach_a_heading(name):
    """Anchors differ by language: a link to ``#...`` or ``other.md#...`` names a heading
    that its target has."""
    _pair(name.replace(".ja.md", ".md"))
    broken = []
    for line in _lines(_read(name)):
        for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"`[^`]*`", "", line)):
            if "://" in target or target.startswith("mailto:"):
                continue
            path, _, anchor = target.partition("#")
            file = (RULES / path).resolve() if path else RULES / name
            reached = file.exists() and (
                not anchor or file.suffix != ".md" or anchor in _anchors(file.read_text(encoding="utf-8"))
            )
            if not reached:
                broken.append(target)
    assert broken == [], f"docs/rules/{name}: links to no file or heading: {broken}"
