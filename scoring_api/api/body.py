"""Reading a request: its language and its JSON body, strictly.

The body must be ``application/json`` (415 otherwise), not empty, valid JSON without
NaN/Infinity (nor numbers beyond a double, ``1e400``), repeated keys or lone surrogates,
and not nested deeper than the schemas can use (400).
The size limit is Flask's ``MAX_CONTENT_LENGTH`` (413).

Two readers give the same documents. :func:`strict_document` is the reference: Python's
``json`` with a hook on every object and a walk over every value. :func:`parse_document`
first tries orjson (C, several times faster) and keeps its result only when it provably
equals the reference's; anything unusual goes to the reference, which then also gives
the error message.
"""

from __future__ import annotations

import json
import math

import orjson
from flask import current_app, request
from werkzeug.exceptions import ClientDisconnected, HTTPException, RequestEntityTooLarge, UnsupportedMediaType

from ..errors import ApiError
from ..i18n import DEFAULT_LANG, LANGS, t

MAX_DEPTH = 32  # deeper than any schema goes; stops recursion bombs early


#: Query strings that need no parsing (werkzeug's takes 5 µs).
_PLAIN_QUERIES = {"": DEFAULT_LANG, **{f"lang={lang}": lang for lang in LANGS}}


def request_lang(environ: dict | None = None) -> str:
    """``?lang=ja`` (default) or ``?lang=en``; anything else is a 400 naming ``lang``.
    ``environ``: the request's WSGI environ, when the caller has it at hand."""
    if environ is None:
        environ = request.environ
    lang = _PLAIN_QUERIES.get(environ.get("QUERY_STRING", ""))
    if lang is None:
        lang = request.args.get("lang", DEFAULT_LANG)
    if lang not in LANGS:
        raise ApiError(
            400,
            "invalid_input",
            "errors.invalid_input",
            details={"lang": [t("errors.invalid_lang", DEFAULT_LANG), t("errors.invalid_lang", "en")]},
        )
    return lang


class _BadJson(ValueError):
    pass


def _no_constants(name: str):
    raise _BadJson(f"{name} is not allowed")


def _finite(text: str) -> float:
    """A JSON number with a fraction or exponent, refused when it has no finite double
    (``1e400``: Python's float gives inf, which no JSON text can hold)."""
    value = float(text)
    if not math.isfinite(value):
        raise _BadJson(f"number {text[:40]} is out of range (not a finite double)")
    return value


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


def strict_document(raw: bytes):
    """The JSON document in ``raw``: the reference reader (refusals raise ``ValueError``)."""
    text = raw.decode("utf-8")
    document = json.loads(text, parse_constant=_no_constants, parse_float=_finite, object_pairs_hook=_unique_keys)
    check_text(document)
    return document


#: orjson reads integers outside 64 bits as floats; Python's json keeps them exact.
_FLOAT_FROM_BIG_INTEGER = 2.0**63


class _Unusual(Exception):
    """orjson's document may differ from the reference's: let the reference read it."""


def _members(node, depth: int = 1) -> int:
    """The number of members of every object in ``node`` (a dict or list), refusing
    nesting deeper than :data:`MAX_DEPTH` and floats that may be rounded big integers."""
    if depth > MAX_DEPTH:
        raise _Unusual
    if type(node) is dict:
        count, values = len(node), node.values()
    else:
        count, values = 0, node
    for value in values:
        kind = type(value)
        if kind is dict or kind is list:
            count += _members(value, depth + 1)
        elif kind is float and not -_FLOAT_FROM_BIG_INTEGER < value < _FLOAT_FROM_BIG_INTEGER:
            raise _Unusual
    return count


def parse_document(raw: bytes):
    """The same document as :func:`strict_document`, read by orjson when that is provably
    the same: orjson refuses NaN, Infinity, lone surrogates and invalid UTF-8 itself; a
    repeated key shows as fewer members than ``:`` characters in the text (every member has
    one; more come only from strings, and then the reference decides); deep nesting and
    rounded big integers are found by :func:`_members`."""
    try:
        document = orjson.loads(raw)
        kind = type(document)
        if kind is dict or kind is list:
            if _members(document) != raw.count(b":"):
                raise _Unusual
        elif kind is float and not -_FLOAT_FROM_BIG_INTEGER < document < _FLOAT_FROM_BIG_INTEGER:
            raise _Unusual
        return document
    except (orjson.JSONDecodeError, _Unusual):
        return strict_document(raw)


#: Content types that werkzeug's ``is_json`` accepts, as clients send them: known at once.
_JSON_TYPES = frozenset(
    {
        "application/json",
        "application/json; charset=utf-8",
        "application/json;charset=utf-8",
        "application/json; charset=UTF-8",
    }
)


def _content_length(environ: dict) -> int | None:
    """``request.content_length``, read straight from a plain header (werkzeug's parsing
    costs 3.6 µs a request)."""
    header = environ.get("CONTENT_LENGTH")
    if header and header.isascii() and header.isdigit() and "HTTP_TRANSFER_ENCODING" not in environ:
        return int(header)
    return request.content_length


def _body(environ: dict) -> bytes:
    """The body, as ``request.get_data()`` gives it. With a ``Content-Length`` it is read
    from the WSGI input at once (werkzeug's stream layers cost 8 µs a request); werkzeug's
    own rules apply: over ``MAX_CONTENT_LENGTH`` (the app's, which no view overrides) is a
    413, a short body a 400."""
    length = _content_length(environ)
    if length is None:
        return _unsized_body(environ)
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if limit is not None and length > limit:
        raise RequestEntityTooLarge()
    raw = environ["wsgi.input"].read(length)
    if len(raw) != length:
        raise ClientDisconnected()
    return raw


#: How much of a body without ``Content-Length`` is read at a time.
_PART = 64 * 1024


def _unsized_body(environ: dict) -> bytes:
    """A body sent without ``Content-Length`` (``Transfer-Encoding: chunked``), read here up
    to ``MAX_CONTENT_LENGTH``: one byte more is a 413. The server decodes the chunks as they
    are read; a malformed one (a chunk size of ``zz``) raises from inside the server's
    reader (gunicorn's ``InvalidChunkSize``, werkzeug's ``OSError``), which only the
    client's bytes can cause: a 400."""
    if not environ.get("wsgi.input_terminated"):
        return request.get_data(cache=True)  # werkzeug reads nothing it cannot bound
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    stream = environ["wsgi.input"]
    parts: list[bytes] = []
    size = 0
    try:
        while part := stream.read(_PART if limit is None else min(_PART, limit + 1 - size)):
            parts.append(part)
            size += len(part)
            if limit is not None and size > limit:
                raise RequestEntityTooLarge()
    except HTTPException:
        raise
    except Exception:  # the server's chunk decoder refused the client's bytes
        raise ApiError(400, "invalid_body", "errors.unreadable_body") from None
    return b"".join(parts)


def read_json(environ: dict | None = None):
    """The request's JSON document (any JSON value; the schema checks its shape).
    ``environ``: the request's WSGI environ, when the caller has it at hand."""
    if environ is None:
        environ = request.environ
    if environ.get("CONTENT_TYPE") not in _JSON_TYPES and not request.is_json:
        raise UnsupportedMediaType()
    raw = _body(environ)
    if not raw.strip():
        raise ApiError(400, "invalid_json", "errors.empty_body")
    try:
        return parse_document(raw)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        reason = str(error).splitlines()[0][:200]
        raise ApiError(400, "invalid_json", "errors.invalid_json", reason=reason) from None
