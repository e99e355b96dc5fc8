"""Rate limits per client (flask-limiter): the scoring API and the tools, and the chat, each
within its own limit; the chat also within a daily token budget and a number of chats
running at once. Beyond any of them, a JSON 429 with ``Retry-After``.

A client is its key once the key is verified (one of ``SCORING_API_KEYS``; hashed: the
storage never holds a key), else its address: a made-up key buys no count of its own, and
wrong keys are themselves limited per address (``SCORING_WRONG_KEY_RATE_LIMIT``, see
:func:`caller`). ``X-Forwarded-For`` is believed only from the proxies listed in
``SCORING_TRUSTED_PROXIES``. Counts live in memory, or in Redis when
``SCORING_RATELIMIT_STORAGE_URI`` is a ``redis://`` URI, so that several instances share
them. If Redis does not answer within ``SCORING_RATELIMIT_STORAGE_TIMEOUT``, each worker
counts in its own memory until it does (flask-limiter's in-memory fallback, which tries
Redis again after 1, 2, 4 ... 32 s); the change is logged once each way, ``/healthz`` and
``/metrics`` say where the limits are counted (docs/deployment.md, "Redis"). In memory, the
counts are kept by :class:`~.limits_memory.LazyMemoryStorage`, which starts no thread.

Each limited request is counted by :func:`_counted` (one ``hit`` in flask-limiter's strategy
and storage, under the key flask-limiter itself uses); flask-limiter's own check, which
works out on every request which limits apply (about 95 µs), runs only when its storage
fails or while its fallback counts (docs/performance.md, "Rate limiter"). ``/mcp`` counts
its tool calls only, against a limit of its own: its view, which reads the JSON-RPC method,
calls :func:`count` (docs/deployment.md, "Remote MCP").
"""

from __future__ import annotations

import enum
import functools
import hashlib
import hmac
import logging
import math
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import urlsplit

from flask import Blueprint, Flask, current_app, request
from flask_limiter import Limiter, RateLimitExceeded
from limits import RateLimitItem, RateLimitItemPerDay, parse_many
from limits.storage import MemoryStorage
from limits.strategies import RateLimiter

from ..error_shape import ApiError, api_error_body
from ..i18n import t
from .body import bearer_key
from .error_handlers import response_lang
from .limits_memory import SCHEME as MEMORY_SCHEME
from .limits_memory import LazyMemoryStorage

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

log = logging.getLogger(__name__)


def client_id() -> str:
    """Who the limits count a request under: ``key:<hash>`` once its bearer key is
    verified, else ``ip:<address>``."""
    return caller().client


class KeyCheck(enum.Enum):
    """What became of the request's bearer key."""

    MISSING = "missing"  # none sent
    RIGHT = "right"  # one of SCORING_API_KEYS
    WRONG = "wrong"  # none of them
    LOCKED = "locked"  # not compared: the address sent too many wrong keys


class Caller(NamedTuple):
    """Who is asking, as the limits count them, and what became of their key (a named
    tuple: made on every limited request, it costs a fifth of a frozen dataclass)."""

    client: str  # "key:<hash>" or "ip:<address>"
    key: KeyCheck
    rate: RateLimitItem | None = None  # LOCKED: the wrong-key limit reached
    seconds: int = 0  # LOCKED: until the address may try again


#: The storage's name for the wrong-key counts (per address) and the token budget (per client).
WRONG_KEYS = "wrong-keys"
CHAT_TOKENS = "chat-tokens"


def caller() -> Caller:
    """This request's :class:`Caller`, worked out once (every limit asks for it).

    A bearer key takes one attempt from its address's wrong-key limit *before* it is
    compared, and gives it back when it is right: so concurrent guesses cannot all pass a
    check that none has counted yet, and right keys use none up. An address past the
    limit has its key not compared at all (even a right one): its answers, a 429 from the
    chat, its address's count everywhere, say nothing about the key. The comparison is in
    constant time, over the keys' SHA-256 digests (their lengths do not show either)."""
    environ = request.environ  # kept with the request: every limited request comes here
    found = environ.get(_CALLER)
    if found is None:
        found = environ[_CALLER] = _identify(environ)
    return found


#: Where a request's :class:`Caller` is kept, in its WSGI environ.
_CALLER = "scoring_api.caller"


def _identify(environ: WSGIEnvironment) -> Caller:
    config = current_app.config
    address = client_address(environ, config["TRUSTED_PROXIES"])
    by_address = "ip:" + address
    given = bearer_key(environ)
    if given is None:
        return Caller(by_address, KeyCheck.MISSING)
    keys = config["API_KEYS"]
    if not keys:  # no key can be right: nothing to guess, nothing to count
        return Caller(by_address, KeyCheck.WRONG)
    rates = wrong_key_rates(config["WRONG_KEY_RATE_LIMIT"])
    reached = None
    for rate in rates:
        if not _hit(rate, WRONG_KEYS, address) and reached is None:
            reached = rate
    if reached is not None:
        return Caller(by_address, KeyCheck.LOCKED, reached, _seconds_until(_reset_at(reached, WRONG_KEYS, address)))
    digest = _digest(given)
    right = False
    for known in _digests(keys):
        right |= hmac.compare_digest(digest, known)
    if not right:
        return Caller(by_address, KeyCheck.WRONG)
    for rate in rates:
        _hit(rate, WRONG_KEYS, address, cost=-1)  # a right key's attempt back
    return Caller("key:" + digest.hex()[:32], KeyCheck.RIGHT)


def _digest(key: str) -> bytes:
    return hashlib.sha256(key.encode("utf-8", "replace")).digest()


@functools.lru_cache(maxsize=4)
def _digests(keys: str) -> tuple[bytes, ...]:
    return tuple(_digest(key) for key in keys.split(","))


@functools.lru_cache(maxsize=4)
def wrong_key_rates(setting: str) -> tuple[RateLimitItem, ...]:
    """``SCORING_WRONG_KEY_RATE_LIMIT`` read (``10 per minute``, or several)."""
    return tuple(parse_many(setting))


def too_many_wrong_keys(found: Caller) -> ApiError:
    """The 429 of an address past its wrong-key limit, saying when to come back."""
    assert found.rate is not None
    return ApiError(
        429,
        "too_many_wrong_keys",
        "assistant.too_many_wrong_keys",
        headers={"Retry-After": str(found.seconds)},
        seconds=found.seconds,
        **rate_words(found.rate, response_lang()),
    )


def rate_words(rate: RateLimitItem, lang: str) -> dict:
    """A rate's ``amount`` and ``per`` for the catalogue's sentences (「10分あたり1回」)."""
    if rate.multiples == 1:
        per = t(f"errors.rate_units.{rate.GRANULARITY.name}", lang)
    else:
        per = t(f"errors.rate_units.{rate.GRANULARITY.name}s", lang, n=rate.multiples)
    return {"amount": rate.amount, "per": per}


def _counts() -> RateLimiter:
    """The limits' counts now: the configured storage, or memory while Redis is away."""
    return current_app.extensions["rate_limits"].limiter


def _hit(rate: RateLimitItem, *identifiers: str, cost: int = 1, limiter: Limiter | None = None) -> bool:
    """Add ``cost`` (a negative one gives back) to a count; False when it is now past
    ``rate``. A storage that fails the call (Redis gone before flask-limiter noticed)
    leaves the request uncounted, as flask-limiter's ``swallow_errors`` does."""
    counts = limiter.limiter if limiter is not None else _counts()
    try:
        return counts.hit(rate, *identifiers, cost=cost)
    except Exception as error:  # the storage's own errors (redis-py's), whatever they are
        log.warning("rate limits: the storage failed (%s); not counted", type(error).__name__)
        return True


def _reset_at(rate: RateLimitItem, *identifiers: str, limiter: Limiter | None = None) -> float:
    """When the count's window ends (a minute from now if the storage cannot say)."""
    counts = limiter.limiter if limiter is not None else _counts()
    try:
        return counts.get_window_stats(rate, *identifiers).reset_time
    except Exception as error:
        log.warning("rate limits: the storage failed (%s)", type(error).__name__)
        return time.time() + 60


def client_address(environ: WSGIEnvironment, trusted_proxies: str) -> str:
    """The address that sent the request: the connection's, or, when the connection comes
    from one of the ``trusted_proxies`` (``SCORING_TRUSTED_PROXIES``), the last address in
    ``X-Forwarded-For`` that is not one."""
    proxies = _proxies(trusted_proxies)
    address = environ.get("REMOTE_ADDR") or "-"
    if address not in proxies:
        return address
    forwarded = [part.strip() for part in environ.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    for hop in reversed(forwarded):
        if hop not in proxies:
            return hop
    return address


@functools.lru_cache(maxsize=4)
def _proxies(setting: str) -> frozenset[str]:
    """``SCORING_TRUSTED_PROXIES`` read."""
    return frozenset(setting.split(",")) if setting else frozenset()


def _seconds_until(moment: float) -> int:
    """Whole seconds from now until ``moment`` (a time.time() value), at least 1."""
    return max(1, math.ceil(moment - time.time()))


#: The catalogue's sentence of a breached limit, by scope where it counts something else
#: than requests (``/mcp``: tool calls); the others say ``errors.rate_limited``.
RATE_MESSAGES = {"mcp": "errors.mcp_rate_limited"}


def rate_limited(rate: RateLimitItem, seconds: int, message: str = "errors.rate_limited") -> ApiError:
    """The 429 of a breached request limit, saying when to come back (``message``: the
    catalogue's sentence, :data:`RATE_MESSAGES`)."""
    return ApiError(
        429,
        "rate_limited",
        message,
        headers={"Retry-After": str(seconds)},
        seconds=seconds,
        **rate_words(rate, response_lang()),
    )


def _too_many(error: RateLimitExceeded):
    """A limit flask-limiter's own check found breached, as the service's JSON 429."""
    current = current_app.extensions["rate_limits"].current_limit
    scope = current_app.extensions["limit_scopes"].get(request.blueprint)
    seconds = _seconds_until(current.reset_at) if current else 60
    refusal = rate_limited(error.limit.limit, seconds, RATE_MESSAGES.get(scope, "errors.rate_limited"))
    return api_error_body(refusal, response_lang()), 429, refusal.headers


#: The first part of every count's key (flask-limiter's ``key_prefix``).
KEY_PREFIX = "scoring"


def _counted(
    limiter: Limiter, scope: str, rates: tuple[RateLimitItem, ...], library_check: Callable[[], None]
) -> Callable[[], None]:
    """The check before each request of a blueprint limited by ``rates``, counted under
    ``scope``: one ``hit`` per rate in the strategy and storage flask-limiter made, under the
    key its own check uses (``scoring``, the client, the scope), so the two count the same
    requests alike; past a rate, a 429 ``rate_limited``.

    flask-limiter's own check (``library_check``, the hook it registered) runs instead
    while its in-memory fallback counts (it tries Redis again when due), and when the
    storage fails the ``hit`` (it switches to the fallback and logs it): the switches happen
    there, and :class:`LimitsStorage` is told after it."""
    message = RATE_MESSAGES.get(scope, "errors.rate_limited")

    def check() -> None:
        counts = limiter.limiter
        if counts.storage is not limiter.storage:  # the fallback counts
            return _checked_by_library(library_check)
        client = client_id()
        for rate in rates:
            try:
                allowed = counts.hit(rate, KEY_PREFIX, client, scope)
            except Exception:  # the storage's own errors (redis-py's), whatever they are
                return _checked_by_library(library_check)
            if not allowed:
                raise rate_limited(rate, _seconds_until(_reset_at(rate, KEY_PREFIX, client, scope)), message)
        return None

    return check


def count(scope: str) -> None:
    """Count the current request against the limit of ``scope`` as :func:`_counted` counts a
    limited blueprint's requests before their view (the same key, the same fallback to
    flask-limiter's own check), or a 429 ``rate_limited`` past it: for a view that counts
    only some of its requests, once it knows which (``"mcp"``: the tool calls of ``/mcp``,
    once its body is read). Call it at most once per request."""
    current_app.extensions["limit_checks"][scope]()


def _checked_by_library(library_check: Callable[[], None]) -> None:
    """flask-limiter's own check of this request, then where it counts now (it may have
    switched to its fallback, or back to Redis)."""
    try:
        library_check()
    finally:
        current_app.extensions["limits_storage"].current()


def _rates(setting: str) -> tuple[RateLimitItem, ...]:
    """A limit setting's rates in the order flask-limiter checks them."""
    return tuple(sorted(parse_many(setting)))


def limit_requests(app: Flask, scoring: list[Blueprint], chat: list[Blueprint], mcp: list[Blueprint]) -> None:
    """Put the scoring limit on the ``scoring`` blueprints, the chat limit on the ``chat``
    ones and the MCP limit on the ``mcp`` ones (one count for each: a client's chats on
    either chat endpoint add up). Every request of the first two is counted; the ``mcp``
    blueprints' views count the requests they choose with :func:`count`.

    flask-limiter makes the storage, the strategy and the fallback, and knows the limits
    (``shared_limit``); its request hooks, which run around every request the app answers,
    are taken off, and :func:`_counted` checks the limited blueprints' requests only.

    ``swallow_errors``: a request whose Redis call was already under way when another one
    switched the worker to memory is served uncounted, not answered with a 500."""
    config = app.config
    storage_uri = config["RATELIMIT_STORAGE_URI"] or "memory://"
    in_memory = urlsplit(storage_uri).scheme == "memory"
    hooks = _request_hooks(app)
    hooked_before = [list(funcs.get(None, ())) for funcs in hooks]
    limiter = Limiter(
        client_id,
        app=app,
        storage_uri=f"{MEMORY_SCHEME}://" if in_memory else storage_uri,
        storage_options=_storage_options(storage_uri, config["RATELIMIT_STORAGE_TIMEOUT"]),
        strategy="fixed-window",
        in_memory_fallback_enabled=not in_memory,  # memory has nothing to fall back from
        swallow_errors=True,
        key_prefix=KEY_PREFIX,
    )
    if not in_memory:
        _lazy_fallback(limiter)
    taken = [_take_off(funcs, before) for funcs, before in zip(hooks, hooked_before, strict=True)]
    (library_check,) = taken[0]  # flask-limiter's check before the view
    app.extensions["rate_limits"] = limiter
    app.extensions["limits_storage"] = LimitsStorage(limiter)
    limited = (  # the blueprints, their setting, their count, and whether each request counts
        (scoring, "RATE_LIMIT", "scoring", True),
        (chat, "CHAT_RATE_LIMIT", "chat", True),
        (mcp, "MCP_RATE_LIMIT", "mcp", False),  # the view counts its tool calls (count)
    )
    app.extensions["limit_scopes"] = {bp.name: scope for blueprints, _, scope, _ in limited for bp in blueprints}
    checks: dict[str, Callable[[], None]] = {}
    app.extensions["limit_checks"] = checks
    app.extensions["chat_allowance"] = ChatAllowance(limiter, config["CHAT_TOKEN_BUDGET"], config["CHAT_MAX_IN_FLIGHT"])
    app.register_error_handler(RateLimitExceeded, _too_many)
    for blueprints, setting, scope, every_request in limited:
        check = checks[scope] = _counted(limiter, scope, _rates(config[setting]), library_check)
        for blueprint in blueprints:
            limiter.shared_limit(config[setting], scope=scope)(blueprint)  # for flask-limiter's own check
            if every_request:
                app.before_request_funcs.setdefault(blueprint.name, []).append(check)


def _request_hooks(app: Flask) -> tuple[dict[Any, list[Any]], ...]:
    """The app's hook tables, by blueprint name (``None``: every request)."""
    return (app.before_request_funcs, app.after_request_funcs, app.teardown_request_funcs)


def _take_off(funcs: dict[Any, list[Any]], before: list[Any]) -> list[Any]:
    """Take off the hooks flask-limiter added to every request (those of ``funcs[None]`` not
    in ``before``), and return them. Its check before the view runs from :func:`_counted`
    when needed; after the view it writes no header here (``headers_enabled`` is off) and
    its per-request context lives in the request context, gone with it."""
    added = [func for func in funcs.get(None, []) if func not in before]
    funcs[None] = [func for func in funcs.get(None, []) if func not in added]
    return added


def _lazy_fallback(limiter: Limiter) -> None:
    """Make flask-limiter's in-memory fallback (used while Redis does not answer) a
    :class:`LazyMemoryStorage`, which starts no thread. flask-limiter builds its fallback
    as a plain ``MemoryStorage()`` and has no setting to name another, so its two
    attributes are replaced, with a strategy of the same class; should a later
    flask-limiter keep them elsewhere, nothing is replaced (tests/api/test_limits_memory.py
    fails then)."""
    fallback = getattr(limiter, "_fallback_storage", None)
    strategy = getattr(limiter, "_fallback_limiter", None)
    if type(fallback) is MemoryStorage and isinstance(strategy, RateLimiter):
        storage = LazyMemoryStorage()
        limiter._fallback_storage = storage
        limiter._fallback_limiter = type(strategy)(storage)


def _storage_options(storage_uri: str, timeout: float) -> dict[str, Any]:
    """The Redis client's bounds (keyword arguments of ``redis.Redis``, through the limits
    library's RedisStorage): without them a Redis that accepts connections but does not
    answer (a frozen process, a full disk) held every limited request 5 s per call, 10 s
    for the first (the call, then flask-limiter's PING before it falls back). A client made
    from a URI does not retry a failed call (redis-py's ``from_url``), so ``timeout`` is
    what one call can cost."""
    if urlsplit(storage_uri).scheme not in ("redis", "rediss"):
        return {}
    return {"socket_timeout": timeout, "socket_connect_timeout": timeout}


class LimitsStorage:
    """Where this worker counts the limits now: ``"redis"``, or ``"memory"`` (so configured,
    or flask-limiter's fallback while Redis does not answer). flask-limiter switches during
    its own check and logs nothing a deployment sees; this reads the switch from its public
    ``Limiter.limiter`` (the strategy in use and its storage) after each of its checks and
    whenever asked (``/healthz``), and writes one log line per change and tells the
    ``listeners`` (the ``/metrics`` gauge)."""

    def __init__(self, limiter: Limiter) -> None:
        self.limiter = limiter
        self.where = self._now()
        self.listeners: list[Callable[[str], None]] = []
        self._lock = threading.Lock()

    def _now(self) -> str:
        return "memory" if isinstance(self.limiter.limiter.storage, MemoryStorage) else "redis"

    def current(self) -> str:
        where = self._now()
        with self._lock:
            before, self.where = self.where, where
        if where != before:
            if where == "memory":
                log.warning("rate limits: Redis does not answer; this worker counts them in its memory until it does")
            else:
                log.info("rate limits: Redis answers again; this worker counts them there")
            for listener in self.listeners:
                listener(where)
        return where


#: The limit each 429 stands for, by its error code (``rate_limited``: the blueprint's).
REFUSED_LIMITS = {"chat_budget_spent": "budget", "chat_busy": "busy", "too_many_wrong_keys": "wrong_key"}


def refused_limit(code: str) -> str:
    """Which limit refused the current request: ``scoring``, ``chat`` or ``mcp`` (the rate
    limit of the request's blueprint), ``budget``, ``busy``, ``wrong_key``, or else the
    refusal's own code."""
    if code == "rate_limited":
        return current_app.extensions["limit_scopes"].get(request.blueprint, code)
    return REFUSED_LIMITS.get(code, code)


class ChatAllowance:
    """What one client may spend on the chat: a daily token budget (:meth:`budget_for`, in
    the limits' storage, so instances sharing Redis share it), and at most
    ``CHAT_MAX_IN_FLIGHT`` chats running at once in this worker."""

    def __init__(self, limiter: Limiter, budget: int, in_flight: int) -> None:
        self.limiter = limiter
        self.budget = RateLimitItemPerDay(budget)
        self.running = threading.BoundedSemaphore(in_flight)

    def budget_for(self, client: str) -> TokenBudget:
        """The tokens of ``client`` (a :func:`client_id`), for one chat's loop."""
        return TokenBudget(self.limiter, self.budget, client)

    def spent_today(self, client: str) -> int:
        """The tokens ``client`` has spent or set aside in the current day."""
        return TokenBudget(self.limiter, self.budget, client).spent()

    @contextmanager
    def slot(self):
        """One of this worker's chat slots, or a 429 ``chat_busy`` when all are taken."""
        if not self.running.acquire(blocking=False):
            raise ApiError(
                429,
                "chat_busy",
                "assistant.chat_busy",
                headers={"Retry-After": str(BUSY_SECONDS)},
                seconds=BUSY_SECONDS,
            )
        try:
            yield
        finally:
            self.running.release()


#: When a client told the chat is busy should come back.
BUSY_SECONDS = 5


class TokenBudget:
    """One client's daily chat tokens as the chat loop spends them
    (:class:`scoring_api.assistant.budget.Budget`): a fixed-window count per client in the
    limits' storage, raised by a round's reservation with the limits library's
    ``hit(cost=...)`` (the storage's atomic increment, so concurrent chats each see the
    others' reservations) and lowered again, with a negative cost, by what a settled round
    did not use. It holds the client and the limiter, not the request: a stream is
    settled when its response closes, after the request has gone."""

    def __init__(self, limiter: Limiter, day: RateLimitItem, client: str) -> None:
        self.limiter = limiter
        self.day = day
        self.client = client

    def reserve(self, tokens: int) -> None:
        """Set ``tokens`` aside, or a 429 ``chat_budget_spent`` when fewer are left (then
        nothing is set aside)."""
        if _hit(self.day, CHAT_TOKENS, self.client, cost=tokens, limiter=self.limiter):
            return
        _hit(self.day, CHAT_TOKENS, self.client, cost=-tokens, limiter=self.limiter)
        seconds = _seconds_until(_reset_at(self.day, CHAT_TOKENS, self.client, limiter=self.limiter))
        raise ApiError(
            429,
            "chat_budget_spent",
            "assistant.chat_budget_spent",
            headers={"Retry-After": str(seconds)},
            budget=self.day.amount,
            seconds=seconds,
        )

    def settle(self, reserved: int, tokens: int) -> None:
        """A round that set ``reserved`` aside cost ``tokens``: the difference is charged, or
        given back (never below zero: a reservation that outlived its day's window gives
        nothing back to the next day's)."""
        if tokens > reserved:
            _hit(self.day, CHAT_TOKENS, self.client, cost=tokens - reserved, limiter=self.limiter)
        elif tokens < reserved:
            back = min(reserved - tokens, self.spent())
            if back > 0:
                _hit(self.day, CHAT_TOKENS, self.client, cost=-back, limiter=self.limiter)

    def spent(self) -> int:
        try:
            return self.limiter.limiter.storage.get(self.day.key_for(CHAT_TOKENS, self.client))
        except Exception as error:  # as in _hit
            log.warning("rate limits: the storage failed (%s)", type(error).__name__)
            return 0
