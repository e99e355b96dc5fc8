"""Reading a tool call's ``arguments`` string from the model, strictly and with bounds.

The model is untrusted input, so its arguments are read like a REST body
(``scoring_api/api/body.py``): Python's ``json`` with a hook that refuses a repeated key,
no NaN or Infinity, no lone UTF-16 surrogates, nesting at most :data:`MAX_DEPTH` levels.
Two bounds are checked *before* anything is parsed, so hostile input costs little:

* the size (the REST body limit, ``MAX_CONTENT_LENGTH``: a call cannot carry more than
  the endpoint would accept), and
* the nesting depth, found by one regular-expression pass that blanks the strings and
  then counts brackets (5,000 ``[`` are refused there; ``json`` never recurses into them).

Each refusal is an :class:`ArgumentsError` carrying its catalogue key and values, so the
chat turns it into an error tool result in the request's language (the model can fix
its call); it never becomes a 500.
"""

from __future__ import annotations

import json
import re

MAX_DEPTH = 32  # as for a REST body: deeper than any tool's schema goes
_KEY_SHOWN = 80  # characters of a repeated key quoted back in the message

#: A JSON string literal (linear: the two alternatives never overlap).
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


class ArgumentsError(ValueError):
    """The arguments cannot be used; ``key`` is the catalogue message, ``params`` its values."""

    def __init__(self, key: str, **params):
        super().__init__(key)
        self.key = key
        self.params = params


def _depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings (without parsing)."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRING.sub('""', text)):
        if bracket in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    break
        else:
            depth -= 1
    return deepest


def _unique_keys(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            shown = key if len(key) <= _KEY_SHOWN else key[:_KEY_SHOWN] + "…"
            raise ArgumentsError("assistant.arguments_repeated_key", repeated=shown)
        seen[key] = value
    return seen


def _no_constant(name: str):
    raise ArgumentsError("assistant.arguments_constant", name=name)


def _check_strings(document) -> None:
    """Refuse lone surrogates (``"\\ud800"``): valid JSON escapes, but no text. No recursion."""
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise ArgumentsError("assistant.arguments_surrogate") from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def read_arguments(raw: str, max_bytes: int) -> dict:
    """The arguments object in ``raw`` (an empty string means no arguments: ``{}``).

    Raises :class:`ArgumentsError` for text over ``max_bytes`` bytes (refused unparsed),
    nesting over :data:`MAX_DEPTH`, invalid JSON, a repeated key, NaN/Infinity, a lone
    surrogate, or a document that is not an object."""
    if len(raw) > max_bytes or len(raw.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ArgumentsError("assistant.arguments_too_long", limit=max_bytes)
    if not raw.strip():
        return {}
    if _depth(raw) > MAX_DEPTH:
        raise ArgumentsError("assistant.arguments_too_deep", depth=MAX_DEPTH)
    try:
        document = json.loads(raw, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise ArgumentsError("assistant.arguments_not_json", line=error.lineno, column=error.colno) from None
    except RecursionError:  # cannot happen after _depth; kept so it could never be a 500
        raise ArgumentsError("assistant.arguments_too_deep", depth=MAX_DEPTH) from None
    if not isinstance(document, dict):
        raise ArgumentsError("assistant.bad_arguments")
    _check_strings(document)
    return document
