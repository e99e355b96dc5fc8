"""User-facing text in Japanese (default) and English, from ``messages/*.yaml``.

The catalogue is data: every sentence the service shows lives in those files (one per
game plus ``common.yaml``), keyed by a dotted name (``errors.invalid_json``,
``apero.total``). The files' top-level keys merge into one catalogue.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

import yaml

LANGS = ("ja", "en")
DEFAULT_LANG = "ja"


@lru_cache(maxsize=1)
def _catalogue() -> dict:
    catalogue: dict = {}
    folder = files("scoring_api").joinpath("messages")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".yaml"):
            part = yaml.safe_load(entry.read_text(encoding="utf-8"))
            clash = set(part) & set(catalogue)
            if clash:
                raise ValueError(f"{entry.name} repeats message sections {sorted(clash)}")
            catalogue.update(part)
    return catalogue


def _flatten(catalogue: dict) -> dict[str, dict[str, str]]:
    """The catalogue as ``{"apero.total": {"ja": ..., "en": ...}}``: one lookup per
    sentence instead of a walk per dotted part."""
    flat: dict[str, dict[str, str]] = {}
    stack = [("", catalogue)]
    while stack:
        prefix, node = stack.pop()
        if isinstance(node, dict):
            if DEFAULT_LANG in node and isinstance(node[DEFAULT_LANG], str):
                flat[prefix] = node
            stack.extend((f"{prefix}.{k}" if prefix else k, v) for k, v in node.items() if isinstance(k, str))
    return flat


#: Every sentence by dotted key, read once at import.
SENTENCES = _flatten(_catalogue())


def t(key: str, lang: str, **params) -> str:
    """The sentence ``key`` in ``lang``, with ``params`` filled in."""
    return SENTENCES[key][lang].format_map(params)


def template(key: str, lang: str) -> str:
    """The sentence ``key`` in ``lang`` with its placeholders unfilled (``{min}``)."""
    return SENTENCES[key][lang]


def join_list(items, lang: str) -> str:
    """``A、B、C`` in Japanese, ``A, B, C`` in English."""
    return t("text.list_separator", lang).join(str(item) for item in items)


def sentences(parts, lang: str) -> str:
    """Sentences run together in Japanese and are spaced in English."""
    return t("text.sentence_separator", lang).join(part for part in parts if part)
