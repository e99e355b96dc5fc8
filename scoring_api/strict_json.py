"""JSON read strictly: the one reader of REST bodies (through Flask's JSON provider) and of
the model's tool arguments (:mod:`scoring_api.tool_arguments`).

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
#: Objects read as lists for the depth (``{`` -> ``[``); all but brackets and quotes dropped.
_SQUARE = bytes.maketrans(b"{}", b"[]")
_NOT_STRUCTURE = bytes(sorted(set(range(256)) - set(b'[]{}"')))


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
    _check_depth(text)
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


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH`, read from the text of a document
    ``json`` has just read (so its brackets and quotes are balanced). Walking the parsed
    document cost a Python step per object: 22 ms for the 64 KiB body ``[{},{},...]``
    against 0.3 ms here, where every step is a bytes method (docs/performance.md).

    Escaped backslashes, then escaped quotes, are dropped (left to right, as JSON pairs
    them), so every quote left opens or closes a string; what lies between quotes is
    dropped, and of the rest only brackets stay, braces read as ``[`` and ``]``. Each pass of
    ``replace(b"[]", b"")`` removes the innermost level (``[[]]`` becomes ``[]``, not
    empty): a document MAX_DEPTH levels deep is empty after MAX_DEPTH passes."""
    raw = text.encode("utf-8", "surrogatepass").replace(b"\\\\", b"").replace(b'\\"', b"")
    brackets = b"".join(raw.translate(_SQUARE, _NOT_STRUCTURE).split(b'"')[::2])
    for _ in range(MAX_DEPTH):
        if not brackets:
            return
        brackets = brackets.replace(b"[]", b"")
    if brackets:
        raise JSONRefused("too_deep", f"nested deeper than {MAX_DEPTH} levels", depth=MAX_DEPTH)


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


def unreadable(error: Exception) -> str:
    """Why a body is not JSON, as a client is told: the decoder's reason and place, or the
    strict reader's; never Python's advice about its own limits (``int()`` beyond
    ``sys.get_int_max_str_digits()``, the recursion limit)."""
    if isinstance(error, (json.JSONDecodeError, JSONRefused)):
        return str(error).splitlines()[0][:200]
    if isinstance(error, UnicodeDecodeError):
        return f"not UTF-8 (byte {error.start})"
    if isinstance(error, RecursionError):
        return f"nested deeper than {MAX_DEPTH} levels"
    return "a number has too many digits"
