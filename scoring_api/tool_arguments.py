"""Reading a tool call's ``arguments`` string from the model, strictly and with bounds.

The model is untrusted input, so its arguments are read like a REST body, by
:func:`scoring_api.strict_json.loads` (no repeated key, NaN, Infinity, ``1e400`` or lone
surrogate; nesting at most :data:`MAX_DEPTH` levels). Two bounds are checked *before* anything is parsed, so hostile input costs little:

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

from . import strict_json
from .strict_json import MAX_DEPTH, JSONRefused

_KEY_SHOWN = 80  # characters of a repeated key quoted back in the message

#: A JSON string literal (linear: the two alternatives never overlap).
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


class ArgumentsError(ValueError):
    """The arguments cannot be used; ``key`` is the catalogue message, ``params`` its values."""

    def __init__(self, key: str, **params: object) -> None:
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


#: The catalogue sentence of each refusal of the strict reader.
_REFUSALS = {
    "repeated_key": "assistant.arguments_repeated_key",
    "constant": "assistant.arguments_constant",
    "out_of_range": "assistant.arguments_out_of_range",
    "too_deep": "assistant.arguments_too_deep",
    "surrogate": "assistant.arguments_surrogate",
}


def _refused(refusal: JSONRefused) -> ArgumentsError:
    values = dict(refusal.values)
    if "key" in values:
        key = values.pop("key")
        values["repeated"] = key if len(key) <= _KEY_SHOWN else key[:_KEY_SHOWN] + "…"
    return ArgumentsError(_REFUSALS[refusal.kind], **values)


def read_arguments(raw: str, max_bytes: int) -> dict[str, object]:
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
        document: object = strict_json.loads(raw)  # Any at the JSON boundary: an object, checked below
    except JSONRefused as refusal:
        raise _refused(refusal) from None
    except json.JSONDecodeError as error:
        raise ArgumentsError("assistant.arguments_not_json", line=error.lineno, column=error.colno) from None
    except RecursionError:  # cannot happen after _depth; kept so it could never be a 500
        raise ArgumentsError("assistant.arguments_too_deep", depth=MAX_DEPTH) from None
    if not isinstance(document, dict):
        raise ArgumentsError("assistant.bad_arguments")
    return document
