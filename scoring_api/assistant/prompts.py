"""アイちゃん's prompts: text files in ``prompts/``, loaded once when the app starts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

LANGUAGE_NAMES = {"ja": "日本語", "en": "英語（English）"}


def default_prompts_dir() -> Path | None:
    """``prompts/`` beside the package (a checkout), else in the working directory."""
    for candidate in (Path(__file__).resolve().parents[2] / "prompts", Path.cwd() / "prompts"):
        if (candidate / "system.md").is_file():
            return candidate
    return None


@dataclass(frozen=True)
class Prompts:
    system: str  # with {rules} filled in; {language} left for each request
    rules: dict[str, str]

    def system_for(self, lang: str) -> str:
        return self.system.replace("{language}", LANGUAGE_NAMES[lang])


def load_prompts(folder: Path) -> Prompts:
    """Read ``system.md`` and every ``rules/*.md`` (in name order)."""
    rules = {
        path.stem: path.read_text(encoding="utf-8").strip()
        for path in sorted((folder / "rules").glob("*.md"))
    }
    system = (folder / "system.md").read_text(encoding="utf-8")
    return Prompts(system.replace("{rules}", "\n\n".join(rules.values())), rules)
