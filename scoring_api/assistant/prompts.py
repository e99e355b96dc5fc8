"""アイちゃん's prompts: text files in the package's ``prompts/`` (package data, read with
:mod:`importlib.resources`, so an installed copy finds them from any directory), or in
the folder ``PROMPTS_DIR`` names; loaded once when the app starts.

When the model can see (``SCORING_CHAT_VISION``), her system prompt ends with how to read
a photo of the table, in the answer's language (``photos.ja.md``, ``photos.en.md``; the
package's when the folder has none): list back what she read, and ask about an unclear
card before any scoring tool is called."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from ..i18n import LANGS

LANGUAGE_NAMES = {"ja": "日本語", "en": "英語（English）"}


def default_prompts_dir() -> Traversable:
    """The prompts shipped inside the package."""
    return resources.files("scoring_api") / "prompts"


@dataclass(frozen=True)
class Prompts:
    system: str  # with {rules} filled in; {language} left for each request
    rules: dict[str, str]
    photos: dict[str, str] = field(default_factory=dict)  # how to read a photo, by language

    def system_for(self, lang: str, vision: bool = False) -> str:
        """The system prompt in ``lang``; with ``vision``, how to read a photo at its end."""
        system = self.system.replace("{language}", LANGUAGE_NAMES[lang])
        photos = self.photos.get(lang) if vision else None
        return f"{system.rstrip()}\n\n{photos}\n" if photos else system


def load_prompts(folder: Traversable | Path) -> Prompts:
    """Read ``system.md``, every ``rules/*.md`` (in name order) and ``photos.<lang>.md``."""
    notes = sorted((path for path in (folder / "rules").iterdir() if path.name.endswith(".md")), key=lambda p: p.name)
    rules = {path.name.removesuffix(".md"): path.read_text(encoding="utf-8").strip() for path in notes}
    system = (folder / "system.md").read_text(encoding="utf-8")
    return Prompts(system.replace("{rules}", "\n\n".join(rules.values())), rules, _photos(folder))


def _photos(folder: Traversable | Path) -> dict[str, str]:
    """How to read a photo in each language: the folder's, else the package's."""
    found = {}
    for lang in LANGS:
        name = f"photos.{lang}.md"
        path = folder / name if (folder / name).is_file() else default_prompts_dir() / name
        found[lang] = path.read_text(encoding="utf-8").strip()
    return found
