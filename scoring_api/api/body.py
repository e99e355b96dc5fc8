"""Reading a request: its language and its JSON body, strictly.

The body must be ``application/json`` (415 otherwise), not empty, and valid JSON as
:class:`JSONProvider` reads it (400); the size limit is Flask's ``MAX_CONTENT_LENGTH``
(413), for bodies with a ``Content-Length`` and chunked ones alike.
"""

from __future__ import annotations

import json
import math
import re

from flask import Request, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.wsgi import LimitedStream

from ..errors import ApiError
from ..i18n import DEFAULT_LANG, LANGS, t

MAX_DEPTH = 32  # deeper than any schema goes; stops recursion bombs early


def request_lang() -> str:
    """``?lang=ja`` (default) or ``?lang=en``; anything else is a 400 naming ``lang``."""
    lang = request.args.get("lang", DEFAULT_LANG)
    if lang not in LANGS:
        reasons = [t("errors.invalid_lang", DEFAULT_LANG), t("errors.invalid_lang", "en")]
        raise ApiError(400, "invalid_input", "errors.invalid_input", details={"lang": reasons})
    return lang


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, with the strictness the API promises when reading: UTF-8 only, no
    NaN/Infinity (nor numbers beyond a double, ``1e400``), no repeated keys, no lone
    surrogates, at most :data:`MAX_DEPTH` levels. Answers are written as UTF-8 in the
    schemas' field order."""

    ensure_ascii = False
    sort_keys = False

    def loads(self, s, **kwargs):
        text = s.decode("utf-8") if isinstance(s, bytes) else s
        document = json.loads(text, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_unique_keys)
        _check_depth(document)
        if _SURROGATE_ESCAPE.search(text):  # the only way a JSON text can hold a lone surrogate
            _check_strings(document)
        return document


#: ``\ud800``-``\udfff`` written as an escape (UTF-8 itself cannot carry a surrogate).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _no_constant(name: str):
    raise ValueError(f"{name} is not allowed")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:40]} is out of range (not a finite double)")
    return value


def _unique_keys(pairs):
    document = dict(pairs)
    if len(document) < len(pairs):  # a key came twice: name the first one repeated
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate key {key!r}")
            seen.add(key)
    return document


def _check_depth(document) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` (one pass, no recursion)."""
    stack = [(document, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
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
                raise ValueError("a string holds a lone surrogate (\\ud800-\\udfff)") from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


class JSONRequest(Request):
    """Flask's request, with the service's refusals: a chunked body (no ``Content-Length``)
    longer than ``MAX_CONTENT_LENGTH`` is a 413 (werkzeug stops reading at the limit and
    would pass the first part on), a malformed one is a 400 (the server's chunk decoder
    raises from inside ``read``), and so is bad JSON."""

    def get_data(self, *args, **kwargs):
        try:
            data = super().get_data(*args, **kwargs)
            stream = self.stream
            if isinstance(stream, LimitedStream) and stream.is_exhausted and self.content_length is None:
                if self.environ["wsgi.input"].read(1):  # more than the limit was sent
                    raise RequestEntityTooLarge()
            return data
        except HTTPException:  # 413, or a client that sent less than it said
            raise
        except Exception:  # only the client's bytes can make the server's reader fail
            raise ApiError(400, "invalid_body", "errors.unreadable_body") from None

    def on_json_loading_failed(self, e):
        if e is None:  # not application/json: Flask's 415
            return super().on_json_loading_failed(e)
        if not self.get_data(cache=True).strip():
            raise ApiError(400, "invalid_json", "errors.empty_body")
        reason = str(e).splitlines()[0][:200]
        raise ApiError(400, "invalid_json", "errors.invalid_json", reason=reason) from None


def read_json():
    """The request's JSON document (any JSON value; the schema checks its shape)."""
    try:
        return request.get_json()
    except RecursionError as error:  # deeper than Python's own parser goes
        reason = str(error).splitlines()[0][:200]
        raise ApiError(400, "invalid_json", "errors.invalid_json", reason=reason) from None
