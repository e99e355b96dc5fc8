"""The rules documents (``docs/rules/<game>.md`` and ``<game>.ja.md``) as text to read:
whole, or one section. The ``rules`` operation, its tool and the MCP resources answer
with them, so アイちゃん and hosted assistants quote the project's own rules and decisions.

The documents ship inside the package: ``scoring_api/rules_docs`` is a link to
``docs/rules`` (followed when the package is built, so an installed copy holds the files).
English and Japanese have the same headings, one for one (tests/test_rules_documents.py),
so a section can be asked for by its heading in either language (``Decisions`` or
``判断``) and is answered in the language asked for.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from .games.rule_error import RuleError
from .i18n import LANGS

#: The games with a rules document, as their files (and URLs) spell them.
GAMES = ("apero", "applejack", "fairy-black-box", "pedro")

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_COMMENT = re.compile(r"<!--.*?-->\n?", re.S)


@dataclass(frozen=True)
class Section:
    level: int  # 1 for the title, 2 for "## ...", ...
    heading: str
    text: str  # the heading's line and everything under it, to the next heading of its level or higher


@dataclass(frozen=True)
class Document:
    game: str
    lang: str
    text: str
    sections: tuple[Section, ...]  # every heading in order, the title first

    @property
    def title(self) -> str:
        return self.sections[0].heading


def file_name(game: str, lang: str) -> str:
    """``pedro.md`` (English) or ``pedro.ja.md``."""
    return f"{game}.md" if lang == "en" else f"{game}.{lang}.md"


@cache
def document(game: str, lang: str) -> Document:
    """A game's rules in ``lang``, without the checking marks (HTML comments) the files carry."""
    raw = (files("scoring_api") / "rules_docs" / file_name(game, lang)).read_text(encoding="utf-8")
    text = _COMMENT.sub("", raw)
    return Document(game, lang, text, _sections(text))


def _sections(text: str) -> tuple[Section, ...]:
    lines = text.splitlines(keepends=True)
    starts: list[tuple[int, int, str]] = []
    fenced = False
    for number, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        match = None if fenced else _HEADING.match(line)
        if match:
            starts.append((number, len(match.group(1)), match.group(2)))
    sections = []
    for k, (number, level, heading) in enumerate(starts):
        end = next((n for n, lvl, _ in starts[k + 1 :] if lvl <= level), len(lines))
        sections.append(Section(level, heading, "".join(lines[number:end]).strip() + "\n"))
    return tuple(sections)


def _key(heading: str) -> str:
    """A heading as it is compared: NFKC, lower case, without spaces, hyphens and the
    ``#`` marks (``Worked examples``, ``worked-examples`` and ``## Worked Examples`` are one)."""
    folded = unicodedata.normalize("NFKC", heading).casefold()
    return re.sub(r"[\s#\-_]+", "", folded)


def read(game: str, lang: str, section: str | None = None) -> tuple[Document, Section | None]:
    """The document, and the section whose heading (in any language) is ``section``.

    An unknown section is refused (``unknown_section``) with the document's headings."""
    doc = document(game, lang)
    if section is None:
        return doc, None
    wanted = _key(section)
    for other in LANGS:
        headings = [_key(s.heading) for s in document(game, other).sections]
        if wanted in headings:
            return doc, doc.sections[headings.index(wanted)]
    listed = [s.heading for s in doc.sections[1:]]
    raise RuleError("unknown_section", ("section",), section=section, sections=listed)
