"""The service's settings: defaults, the environment, checked once when the app is created.

Every setting comes from a ``SCORING_*`` environment variable (Flask reads its value as
JSON when it can: ``30`` is a number, ``abc`` a string) or, for the model behind the chat,
an ``OPENAI_*`` one; a test or an embedding program may pass a mapping to ``create_app``.
A value out of its bounds, of the wrong type, or a ``SCORING_*`` variable that names no
setting refuses to start with a :class:`SettingsError` naming the variable. The README's
"Configuration" table lists the same settings.
"""

from __future__ import annotations

import ipaddress
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from limits import parse_many

PREFIX = "SCORING_"


class SettingsError(ValueError):
    """A setting the service cannot start with; the message names its variable."""


@dataclass(frozen=True)
class Setting:
    default: Any
    check: Callable[[Any], str | None]  # the reason a value is refused, or None
    meaning: str
    secret: bool = False  # a refusal does not show the value


def _integer(low: int, high: int, unit: str = "") -> Callable[[Any], str | None]:
    def check(value):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            return f"must be a whole number{unit} from {low} to {high}"
        return None

    return check


def _seconds(low: float, high: float) -> Callable[[Any], str | None]:
    def check(value):
        number = not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
        if not number or not low <= value <= high:
            return f"must be a number of seconds from {low} to {high}"
        return None

    return check


def _url(schemes: tuple[str, ...]) -> Callable[[Any], str | None]:
    def check(value):
        if value is None:
            return None
        reason = f"must be an absolute {' or '.join(schemes)} URL (for example {schemes[-1]}://example.org)"
        if not isinstance(value, str):
            return reason
        parts = urlsplit(value)
        if parts.scheme not in schemes or not parts.hostname or any(c.isspace() for c in value):
            return reason
        return None

    return check


def _folder(value) -> str | None:
    if value is None:
        return None
    if not isinstance(value, (str, Path)) or not (Path(value) / "system.md").is_file():
        return "must be a folder that holds system.md (and rules/*.md)"
    return None


def _text(max_length: int) -> Callable[[Any], str | None]:
    def check(value):
        if value is None:
            return None
        if not isinstance(value, str) or not 0 < len(value) <= max_length or value != value.strip():
            return f"must be text of 1 to {max_length} characters without surrounding spaces"
        return None

    return check


def _boolean(value) -> str | None:
    return None if isinstance(value, bool) else "must be true or false"


#: The shortest and longest key a client may be given (``SCORING_API_KEYS``).
KEY_LENGTH = (24, 200)
#: The fewest different characters a client key must have: a key such as
#: ``aaaa...`` or ``abab...`` would be guessed first, whatever its length.
KEY_DISTINCT = 10
#: How to make a key the service takes (docs/deployment.md, "Keys and limits").
MAKE_KEY = "make one with: python -c 'import secrets; print(secrets.token_urlsafe(32))'"


def _keys(value) -> str | None:
    """Comma-separated keys, each of printable characters without spaces, long and varied
    enough not to be guessed (the reason names a key by its place, never shows it)."""
    if value is None:
        return None
    low, high = KEY_LENGTH
    shape = f"must be keys of {low} to {high} printable characters without spaces, separated by commas"
    if not isinstance(value, str):
        return shape
    for place, key in enumerate(value.split(","), start=1):
        if not low <= len(key) <= high or not key.isprintable() or any(c.isspace() for c in key):
            return f"{shape} (key {place} is not); {MAKE_KEY}"
        if len(set(key)) < KEY_DISTINCT:
            return f"must be keys hard to guess: key {place} has fewer than {KEY_DISTINCT} different characters; {MAKE_KEY}"
    return None


def _token(value) -> str | None:
    """One secret of printable characters without spaces, as long as a client key."""
    low, high = KEY_LENGTH
    if value is None:
        return None
    reason = f"must be {low} to {high} printable characters without spaces"
    if not isinstance(value, str) or not low <= len(value) <= high:
        return reason
    return None if value.isprintable() and not any(c.isspace() for c in value) else reason


def _origins(value) -> str | None:
    """Comma-separated browser origins: ``https://app.example.org`` (scheme, host, optional
    port; no path, no wildcard)."""
    if value is None:
        return None
    reason = "must be origins such as https://app.example.org, separated by commas (no path, no *)"
    if not isinstance(value, str):
        return reason
    for origin in value.split(","):
        parts = urlsplit(origin)
        try:
            parts.port  # noqa: B018 - a port that is no number raises
        except ValueError:
            return reason
        plain = not (parts.path or parts.query or parts.fragment or parts.username or "*" in origin)
        if parts.scheme not in ("http", "https") or not parts.hostname or not plain or origin != origin.strip():
            return reason
    return None


def _hosts(value) -> str | None:
    """Comma-separated host names as a ``Host`` header carries them: ``scores.example``,
    ``scores.example:8443``, ``[2001:db8::1]``, or ``name:*`` for any port (no scheme, no
    path, no wildcard name)."""
    if value is None:
        return None
    reason = "must be host names such as scores.example or scores.example:8443 (name:* for any port), by commas"
    if not isinstance(value, str):
        return reason
    for host in value.split(","):
        name, port = host, ""
        if ":" in host and not host.endswith("]"):
            name, _, port = host.rpartition(":")
        if port and port != "*" and not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
            return reason
        if not _host_name(name):
            return reason
    return None


def _host_name(name: str) -> bool:
    """A DNS name or IPv4 address (labels of letters, digits and inner hyphens), or an IPv6
    address in brackets."""
    if name.startswith("[") and name.endswith("]"):
        try:
            ipaddress.IPv6Address(name[1:-1])
        except ValueError:
            return False
        return True
    labels = name.split(".")
    return 0 < len(name) <= 253 and all(
        0 < len(label) <= 63
        and label.isascii()
        and label.replace("-", "").isalnum()
        and "-" not in (label[0], label[-1])
        for label in labels
    )


def _rate(value) -> str | None:
    """A limit as flask-limiter reads it: ``600 per minute``, ``10/minute;100/day``."""
    reason = "must be a rate such as 600 per minute (several: 10/minute;100/day)"
    if not isinstance(value, str):
        return reason
    try:
        parsed = parse_many(value)
    except ValueError:
        return reason
    return None if parsed else reason


def _addresses(value) -> str | None:
    """Comma-separated IP addresses (the proxies whose X-Forwarded-For is believed)."""
    if value is None:
        return None
    reason = "must be IP addresses separated by commas, such as 10.0.0.5,10.0.0.6"
    if not isinstance(value, str):
        return reason
    try:
        for address in value.split(","):
            ipaddress.ip_address(address)
    except ValueError:
        return reason
    return None


def _storage(value) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or urlsplit(value).scheme not in ("memory", "redis", "rediss") or " " in value:
        return "must be memory:// or a redis:// (or rediss://) URI such as redis://127.0.0.1:6379/0"
    return None


def _one_of(*choices: str) -> Callable[[Any], str | None]:
    def check(value):
        if value is None or value in choices:
            return None
        return f"must be one of {', '.join(choices)}"

    return check


KIB = 1024
MIB = 1024 * KIB

#: Every ``SCORING_*`` setting (config key = the variable without its prefix).
SETTINGS: dict[str, Setting] = {
    "MAX_CONTENT_LENGTH": Setting(
        64 * KIB, _integer(64, 1024 * KIB, " of bytes"), "largest request body; larger ones get a 413"
    ),
    "BODY_TIMEOUT": Setting(
        10, _seconds(1, 120), "seconds a client may take to send a request's body (then a 408; gevent workers)"
    ),
    "SEND_TIMEOUT": Setting(
        10, _seconds(1, 120), "seconds a client may take to receive each part of an answer (then it is cut off)"
    ),
    "CHAT_TIMEOUT": Setting(30, _seconds(1, 300), "seconds one model request may take"),
    "CHAT_MAX_RETRIES": Setting(1, _integer(0, 5), "retries of a failed model request"),
    "CHAT_MAX_ROUNDS": Setting(5, _integer(1, 20), "model round trips per chat"),
    "CHAT_DEADLINE": Setting(
        25,
        _seconds(1, 300),
        "seconds a whole chat may take (all rounds and retries); keep it below the worker timeout",
    ),
    "CHAT_MAX_TOKENS": Setting(1024, _integer(16, 32768), "max_tokens sent with every model request"),
    "CHAT_MAX_TOOL_CALLS": Setting(8, _integer(1, 64), "tool calls executed per round"),
    "CHAT_TOOL_RESULT_LIMIT": Setting(
        32 * KIB, _integer(KIB, 256 * KIB, " of bytes"), "bytes of one tool result sent back to the model"
    ),
    "CHAT_MAX_BODY_BYTES": Setting(
        8 * MIB,
        _integer(64 * KIB, 64 * MIB, " of bytes"),
        "largest request body of the chat routes (/api/v1/chat, /v1/chat/completions), photos included; "
        "larger ones get a 413",
    ),
    "CHAT_VISION": Setting(
        False, _boolean, "true: the model reads pictures, and the chat takes photos (image_url data URLs)"
    ),
    "PROMPTS_DIR": Setting(None, _folder, "folder of the assistant's prompts (default: those in the package)"),
    "PUBLIC_URL": Setting(None, _url(("https",)), "https URL of this deployment, first in the served spec"),
    "MCP_LANG": Setting(None, _one_of("ja", "en"), "language of the MCP stdio server's texts (default ja)"),
    "MCP_ALLOWED_HOSTS": Setting(
        None, _hosts, "Host names /mcp answers besides loopback and SCORING_PUBLIC_URL's (DNS rebinding protection)"
    ),
    "MCP_ALLOWED_ORIGINS": Setting(
        None, _origins, "browser origins /mcp answers besides loopback and SCORING_PUBLIC_URL's"
    ),
    "API_KEYS": Setting(None, _keys, "keys a client sends to use the chat (Authorization: Bearer)", secret=True),
    "CHAT_OPEN": Setting(False, _boolean, "true: the chat takes no key (anyone may spend the model's credits)"),
    "CORS_ORIGINS": Setting(None, _origins, "browser origins that may call the scoring API and the tools"),
    "RATE_LIMIT": Setting("600 per minute", _rate, "requests a client may make to the scorers and tools"),
    "CHAT_RATE_LIMIT": Setting("10 per minute", _rate, "chats a client may start"),
    "MCP_RATE_LIMIT": Setting(
        "600 per minute", _rate, "tool calls (tools/call) a client may make through /mcp; its other requests are free"
    ),
    "WRONG_KEY_RATE_LIMIT": Setting(
        "10 per minute", _rate, "wrong keys one address may send; then even a right one gets a 429 until the time is up"
    ),
    "CHAT_TOKEN_BUDGET": Setting(
        200_000, _integer(1_000, 100_000_000, " of tokens"), "model tokens one client may spend on the chat a day"
    ),
    "CHAT_MAX_IN_FLIGHT": Setting(4, _integer(1, 256), "chats one worker runs at once; more get a 429"),
    "TRUSTED_PROXIES": Setting(None, _addresses, "proxies whose X-Forwarded-For names the client"),
    "RATELIMIT_STORAGE_URI": Setting(
        None, _storage, "where the limits count: memory (default) or a Redis shared by every instance", secret=True
    ),
    "RATELIMIT_STORAGE_TIMEOUT": Setting(
        0.025,
        _seconds(0.005, 5),
        "seconds the limits' Redis may take to connect or answer; then the worker counts in memory",
    ),
    "METRICS_TOKEN": Setting(
        None, _token, "bearer token /metrics asks for (without it, /metrics answers this host only)", secret=True
    ),
}

#: The ``OPENAI_*`` settings, checked the same way.
MODEL_CHECKS: dict[str, Setting] = {
    "OPENAI_BASE_URL": Setting(None, _url(("http", "https")), "the model's OpenAI-compatible endpoint"),
    "OPENAI_API_KEY": Setting(None, _text(1000), "the model's key; without it the chat answers 503", secret=True),
    "OPENAI_MODEL": Setting(None, _text(200), "the model's name (default gpt-4o-mini)"),
}

#: The model behind the chat: any OpenAI-compatible endpoint, from the environment only.
MODEL_SETTINGS = tuple(MODEL_CHECKS)

DEFAULT_CONFIG = {name: setting.default for name, setting in SETTINGS.items()}


def unknown_variables(environ: os._Environ | dict) -> list[str]:
    """``SCORING_*`` variables that name no setting (a typo would otherwise go unseen)."""
    return sorted(
        name
        for name in environ
        if name.startswith(PREFIX)
        and name.removeprefix(PREFIX) not in SETTINGS
        and not name.startswith(f"{PREFIX}TEST_")  # the test suite's own variables
    )


def check(config) -> None:
    """Refuse the first setting in ``config`` that is out of bounds, naming its variable."""
    unknown = unknown_variables(os.environ)
    if unknown:
        raise SettingsError(f"{unknown[0]}: no such setting (known: {', '.join(PREFIX + name for name in SETTINGS)})")
    for table, prefix in ((SETTINGS, PREFIX), (MODEL_CHECKS, "")):
        for name, setting in table.items():
            value = config.get(name)
            reason = setting.check(value)
            if reason:
                shown = "(hidden)" if setting.secret else repr(value)
                raise SettingsError(f"{prefix}{name}={shown}: {reason}")


def chat_body_limit(config) -> int:
    """The largest body of a chat route: ``CHAT_MAX_BODY_BYTES`` when the model reads
    photos, else the limit of every route (an 8 MiB body of text only is no chat)."""
    return config["CHAT_MAX_BODY_BYTES"] if config["CHAT_VISION"] else config["MAX_CONTENT_LENGTH"]
