"""Reading a request: its language and its JSON body, strictly.

The body must be ``application/json`` (415 otherwise), not empty, valid JSON without
NaN/Infinity, repeated keys or lone surrogates, and not nested deeper than the schemas can
use (400).
The size limit is Flask's ``MAX_CONTENT_LENGTH`` (413).
"""

from __future__ import annotations

import json

from flask import request
from werkzeug.exceptions import UnsupportedMediaType

from ..errors import ApiError
from ..i18n import DEFAULT_LANG, LANGS, t

MAX_DEPTH = 32  # deeper than any schema goes; stops recursion bombs early


def request_lang() -> str:
    """``?lang=ja`` (default) or ``?lang=en``; anything else is a 400 naming ``lang``."""
    lang = request.args.get("lang", DEFAULT_LANG)
    if lang not in LANGS:
        raise ApiError(
            400, "invalid_input", "errors.invalid_input",
            details={"lang": [t("errors.invalid_lang", DEFAULT_LANG), t("errors.invalid_lang", "en")]},
        )
    return lang


class _BadJson(ValueError):
    pass


def _no_constants(name: str):
    raise _BadJson(f"{name} is not allowed")


def _unique_keys(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise _BadJson(f"duplicate key {key!r}")
        seen[key] = value
    return seen


def check_text(value) -> None:
    """Refuse documents nested deeper than :data:`MAX_DEPTH` and lone UTF-16 surrogates
    (``"\\ud800"``: valid JSON escapes, but no text). One pass, no recursion."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise _BadJson("a string holds a lone surrogate (\\ud800-\\udfff)") from None
        elif isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                raise _BadJson(f"nested deeper than {MAX_DEPTH} levels")
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)


def read_json():
    """The request's JSON document (any JSON value; the schema checks its shape)."""
    if not request.is_json:
        raise UnsupportedMediaType()
    raw = request.get_data(cache=True)
    if not raw.strip():
        raise ApiError(400, "invalid_json", "errors.empty_body")
    try:
        text = raw.decode("utf-8")
        document = json.loads(text, parse_constant=_no_constants, object_pairs_hook=_unique_keys)
        check_text(document)
        return document
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        reason = str(error).splitlines()[0][:200]
        raise ApiError(400, "invalid_json", "errors.invalid_json", reason=reason) from None
