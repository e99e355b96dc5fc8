"""Players are told apart by their names: one check for every game."""

from __future__ import annotations

from collections.abc import Iterable

from .rule_error import RuleError


def check_unique_names(names: Iterable[str]) -> None:
    """Refuse the first name used before (``duplicate_name`` at ``(("player", i), "name")``).

    Every game names its players, and an answer lists them by name, so a name may
    appear once (docs/rules/apero.md and docs/rules/fairy-black-box.md, Decisions)."""
    seen: set[str] = set()
    for index, name in enumerate(names):
        if name in seen:
            raise RuleError("duplicate_name", (("player", index), "name"), name=name)
        seen.add(name)
