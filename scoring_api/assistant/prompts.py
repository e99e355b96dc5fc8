"""アイちゃん's prompts: text files in the package's ``prompts/`` (package data, read with
:mod:`importlib.resources`, so an installed copy finds them from any directory), or in
the folder ``PROMPTS_DIR`` names; loaded once when the app starts.

When the model can see (``SCORING_CHAT_VISION``), her system prompt ends with how to read
a photo of the table, in the answer's language (``photos.ja.md``, ``photos.en.md``; the
package's when the folder has none): list back what she read, and ask about an unclear
card before any scoring tool is called.

Rules questions are answered from the rules documents through the ``rules`` tool
(docs/rules/, in Japanese and English), so a rule is written once per language: the
prompts carry no rule notes of their own. A ``system.md`` that still holds the old
``{rules}`` placeholder is refused at start-up, so it cannot reach the model unfilled."""

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
    system: str  # {language} left for each request
    photos: dict[str, str] = field(default_factory=dict)  # how to read a photo, by language

    def system_for(self, lang: str, vision: bool = False) -> str:
        """The system prompt in ``lang``; with ``vision``, how to read a photo at its end."""
        system = self.system.replace("{language}", LANGUAGE_NAMES[lang])
        photos = self.photos.get(lang) if vision else None
        return f"{system.rstrip()}\n\n{photos}\n" if photos else system


class PromptsError(ValueError):
    """A prompts folder the service cannot use (said at start-up)."""


def load_prompts(folder: Traversable | Path) -> Prompts:
    """Read ``system.md`` and ``photos.<lang>.md``."""
    system = (folder / "system.md").read_text(encoding="utf-8")
    if "{rules}" in system:
        raise PromptsError(
            f"{folder}/system.md holds {{rules}}, which is no longer filled: rule notes were replaced by the "
            "rules tool (docs/rules/); remove the placeholder"
        )
    return Prompts(system, _photos(folder))


def _photos(folder: Traversable | Path) -> dict[str, str]:
    """How to read a photo in each language: the folder's, else the package's."""
    found = {}
    for lang in LANGS:
        name = f"photos.{lang}.md"
        path = folder / name if (folder / name).is_file() else default_prompts_dir() / name
        found[lang] = path.read_text(encoding="utf-8").strip()
    return found
