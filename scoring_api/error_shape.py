"""The service's one error shape: ``{"error": {"code", "message", "details"}}``.

Every failure a client can cause becomes a 4xx in this shape (the HTTP layer's handlers
are in :mod:`scoring_api.api.error_handlers`); tool calls and MCP use the same bodies.
"""

from __future__ import annotations

import itertools

from marshmallow import ValidationError

from .i18n import t


class ApiError(Exception):
    """A client error with a catalogue message; ``details`` maps JSON paths to reasons;
    ``headers`` go with the HTTP answer (``WWW-Authenticate`` on a 401)."""

    def __init__(self, status: int, code: str, message_key: str, details=None, headers=None, **params):
        super().__init__(code)
        self.status = status
        self.code = code
        self.message_key = message_key
        self.details = details or {}
        self.headers = headers or {}
        self.params = params


#: How a request names one game term: a field, or the fields leading to it (``()``: the
#: request has no field of its own there, e.g. a seat's cards are the list at its seat).
RequestName = str | tuple[str, ...]


def rule_error(error, namespace: str, lang: str, terms: dict[str, RequestName], /, **display_facts) -> ApiError:
    """A 400 for a game rule's refusal (:class:`scoring_api.games.rule_error.RuleError`).

    The message is ``<namespace>.<code>`` from the catalogue, filled with the error's
    facts (``display_facts`` override them, e.g. a colour's localized name); ``details``
    carries the same message under the JSON path of the input at fault: the error's
    position in game terms, named as the operation's request names them (``terms``,
    :func:`request_path`).
    """
    facts = {**error.facts, **display_facts}
    key = f"{namespace}.{error.code}"
    message = t(key, lang, **facts)
    return ApiError(400, error.code, key, details={json_path(request_path(error.at, terms)): [message]}, **facts)


def request_path(at: tuple, terms: dict[str, RequestName]) -> tuple:
    """A rule's position in game terms as its request's path.

    ``terms`` maps each term, spelled with the terms around it (``"player"``,
    ``"player.card"``), to its :data:`RequestName`; keys pass through:
    ``(("player", 1), ("card", 0))`` with ``{"player": "players", "player.card": "cards"}``
    -> ``("players", 1, "cards", 0)``. A term the operation does not name is a
    programming error, a LookupError (docs/development.md, "Adding an operation")."""
    path: list = []
    spelled = ""
    for step in at:
        term, key = (step, ()) if isinstance(step, str) else (step[0], (step[1],))
        spelled = f"{spelled}.{term}" if spelled else term
        if spelled not in terms:
            raise LookupError(f"the request does not name the game term {spelled!r}")
        named = terms[spelled]
        path += [named] if isinstance(named, str) else named
        path += key
    return tuple(path)


def json_path(where: tuple) -> str:
    """``("players", 1, "cards", 0)`` -> ``players[1].cards[0]``."""
    path = ""
    for key in where:
        path += f"[{key}]" if isinstance(key, int) else (f".{key}" if path else str(key))
    return path or "$"


def json_paths(messages, prefix: str = "", most: int | None = None) -> dict[str, list[str]]:
    """Flatten marshmallow's nested messages to ``{"players[0].cards[1].color": [...]}``;
    ``most``: stop at that many paths (the rest is not walked)."""
    flat: dict[str, list[str]] = {}
    for path, texts in _paths(messages, prefix):
        if path not in flat and most is not None and len(flat) >= most:
            break
        flat.setdefault(path, []).extend(texts)
    return flat


def _paths(messages, prefix: str):
    """``(JSON path, messages)`` of nested messages, depth first, in their order."""
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        yield prefix or "$", messages
        return
    if isinstance(messages, str):
        yield prefix or "$", [messages]
        return
    items = messages.items() if isinstance(messages, dict) else enumerate(messages)
    for key, value in items:
        if key == "_schema":
            path = prefix
        elif isinstance(key, int):
            path = f"{prefix}[{key}]"
        else:
            path = f"{prefix}.{key}" if prefix else str(key)
        yield from _paths(value, path)


def error_document(code: str, message: str, details=None) -> dict:
    """``{"error": {"code", "message", "details"}}``."""
    return {"error": {"code": code, "message": message, "details": details or {}}}


def api_error_body(error: ApiError, lang: str) -> dict:
    """The error document of an :class:`ApiError` in ``lang``."""
    return error_document(error.code, t(error.message_key, lang, **error.params), error.details)


#: The most ``details`` entries an answer holds; beyond, the first ones and ``truncated: true``.
MAX_DETAILS = 20


def validation_error_body(error: ValidationError, lang: str) -> dict:
    """The error document of marshmallow's refusal: each bad field by JSON path, in ``lang``;
    at most :data:`MAX_DETAILS` of them, then ``"truncated": true`` (only then present)."""
    paths = json_paths(error.messages, most=MAX_DETAILS + 1)
    details = dict(itertools.islice(paths.items(), MAX_DETAILS))
    body = error_document("invalid_input", t("errors.invalid_input", lang), details)
    if len(paths) > MAX_DETAILS:
        body["error"]["truncated"] = True
    return body
