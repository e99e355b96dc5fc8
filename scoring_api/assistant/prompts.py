"""アイちゃん's prompts: text files in the package's ``prompts/`` (package data, read with
:mod:`importlib.resources`, so an installed copy finds them from any directory), or in
the folder ``PROMPTS_DIR`` names; loaded once when the app starts."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

LANGUAGE_NAMES = {"ja": "日本語", "en": "英語（English）"}


def default_prompts_dir() -> Traversable:
    """The prompts shipped inside the package."""
    return resources.files("scoring_api") / "prompts"


@dataclass(frozen=True)
class Prompts:
    system: str  # with {rules} filled in; {language} left for each request
    rules: dict[str, str]

    def system_for(self, lang: str) -> str:
        return self.system.replace("{language}", LANGUAGE_NAMES[lang])


def load_prompts(folder: Traversable | Path) -> Prompts:
    """Read ``system.md`` and every ``rules/*.md`` (in name order)."""
    notes = sorted((path for path in (folder / "rules").iterdir() if path.name.endswith(".md")), key=lambda p: p.name)
    rules = {path.name.removesuffix(".md"): path.read_text(encoding="utf-8").strip() for path in notes}
    system = (folder / "system.md").read_text(encoding="utf-8")
    return Prompts(system.replace("{rules}", "\n\n".join(rules.values())), rules)
