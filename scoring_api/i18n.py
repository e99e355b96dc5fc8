"""User-facing text in Japanese (default) and English, from ``messages/*.yaml``.

The catalogue is data: every sentence the service shows lives in those files (one per
game plus ``common.yaml``), keyed by a dotted name (``errors.invalid_json``,
``apero.total``). The files' top-level keys merge into one catalogue.

Placeholders use ``str.format`` syntax, with three forms of the catalogue's own:

- ``{cards:# card|# cards}``: a count with its noun, singular for 1 and plural otherwise
  (``#`` is the number; ``{fields:field|fields}`` gives the noun alone), so English
  never says "card(s)";
- ``{name:person}``: a player as sentences name them, 「アキさん」 (``text.person``), but
  「プレイヤー1」 and 「ミカちゃん」 as they are (:func:`person`);
- ``{names:people}``: a list of players so named and joined (「アキさん、ベンさん」).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable
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


#: A name the form gives a player left unnamed, or a caller's numbered stand-in
#: (「プレイヤー1」, "Player 2", "P3"): a placeholder, not a person, so it takes no さん.
PLACEHOLDER_NAME = re.compile(r"(?:プレイヤー|Player ?|P)[0-9]+", re.IGNORECASE)
#: Honorifics a name may already end in (「ミカちゃん」 is not 「ミカちゃんさん」). The form
#: names players by the same two (static/people.js; tests/test_catalogue_words.py checks).
HONORIFICS = ("さん", "ちゃん", "くん", "君", "様", "さま", "氏", "先生")


def person(name: str, lang: str) -> str:
    """A player as the catalogue's sentences name them: ``text.person`` (「アキさん」),
    except a placeholder name or one that already ends in an honorific, given as it is."""
    if PLACEHOLDER_NAME.fullmatch(name) or name.endswith(HONORIFICS):
        return name
    return SENTENCES["text.person"][lang].format(name=name)


def _field(value, spec: str, lang: str) -> str:
    """One placeholder's text: the catalogue's own forms, else ``format``'s."""
    if spec == "person":
        return person(value, lang)
    if spec == "people":
        names = (value,) if isinstance(value, str) else value
        return join_list((person(name, lang) for name in names), lang)
    if "|" in spec:
        one, other = spec.split("|", 1)
        return (one if value == 1 else other).replace("#", str(value))
    return format(value, spec)


#: A placeholder with one of the catalogue's own forms.
_OWN_FORM = re.compile(r"\{\w*:(?:person|people|[^{}]*\|[^{}]*)\}")
#: The sentences that need them, by language, read into (text, field, spec) parts once;
#: the others go through plain ``format_map``.
_OWN_FORMS = {
    lang: {
        key: tuple((text, field, spec) for text, field, spec, _ in string.Formatter().parse(sentence[lang]))
        for key, sentence in SENTENCES.items()
        if _OWN_FORM.search(sentence[lang])
    }
    for lang in LANGS
}


def t(key: str, lang: str, **params) -> str:
    """The sentence ``key`` in ``lang``, with ``params`` filled in."""
    parts = _OWN_FORMS[lang].get(key)
    if parts is None:
        return SENTENCES[key][lang].format_map(params)
    return "".join(
        text + ("" if field is None else _field(params[field], spec or "", lang)) for text, field, spec in parts
    )


def template(key: str, lang: str) -> str:
    """The sentence ``key`` in ``lang`` with its placeholders unfilled (``{min}``), for a
    caller that fills it with ``str.format``: never one with the catalogue's own forms."""
    if key in _OWN_FORMS[lang]:
        raise ValueError(f"{key} uses the catalogue's own placeholder forms: fill it with t()")
    return SENTENCES[key][lang]


def join_list(items: Iterable, lang: str) -> str:
    """``A、B、C`` in Japanese, ``A, B, C`` in English."""
    return t("text.list_separator", lang).join(str(item) for item in items)


def sentences(parts, lang: str) -> str:
    """Sentences run together in Japanese and are spaced in English."""
    return t("text.sentence_separator", lang).join(part for part in parts if part)
