"""JSON read strictly: the one reader of REST bodies (through Flask's JSON provider) and of
the model's tool arguments (:mod:`scoring_api.assistant.arguments`).

Python's ``json`` with hooks: no repeated key, no NaN or Infinity, no number beyond a
double (``1e400``), no lone UTF-16 surrogate, nesting at most :data:`MAX_DEPTH` levels.
A refusal is a :class:`JSONRefused`: its text is the reason a REST client reads, its
``kind`` and ``values`` what the chat's catalogue sentence needs.
"""

from __future__ import annotations

import json
import math
import re

MAX_DEPTH = 32  # deeper than any schema goes

#: ``\ud800``-``\udfff`` written as an escape (UTF-8 itself cannot carry a surrogate).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class JSONRefused(ValueError):
    """A JSON text valid for Python's ``json`` that the service refuses: ``kind`` is one of
    ``repeated_key`` (``key``), ``constant`` (``name``), ``out_of_range`` (``number``),
    ``too_deep`` (``depth``) and ``surrogate``."""

    def __init__(self, kind: str, reason: str, **values):
        super().__init__(reason)
        self.kind = kind
        self.values = values


def loads(text: str):
    """The document in ``text``; raises :class:`JSONRefused`, or ``json``'s own
    ``JSONDecodeError`` (and ``RecursionError`` beyond Python's nesting limit)."""
    document = json.loads(text, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_unique_keys)
    _check_depth(document)
    if _SURROGATE_ESCAPE.search(text):  # the only way a JSON text can hold a lone surrogate
        _check_strings(document)
    return document


def _no_constant(name: str):
    raise JSONRefused("constant", f"{name} is not allowed", name=name)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        number = text[:40]
        raise JSONRefused("out_of_range", f"number {number} is out of range (not a finite double)", number=number)
    return value


def _unique_keys(pairs):
    document = dict(pairs)
    if len(document) < len(pairs):  # a key came twice: name the first one repeated
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise JSONRefused("repeated_key", f"duplicate key {key!r}", key=key)
            seen.add(key)
    return document


def _check_depth(document) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` (one pass, no recursion)."""
    stack = [(document, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise JSONRefused("too_deep", f"nested deeper than {MAX_DEPTH} levels", depth=MAX_DEPTH)
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))


def _check_strings(document) -> None:
    """Refuse lone UTF-16 surrogates (``"\\ud800"``: a valid JSON escape, but no text), in
    keys and values."""
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise JSONRefused("surrogate", "a string holds a lone surrogate (\\ud800-\\udfff)") from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
