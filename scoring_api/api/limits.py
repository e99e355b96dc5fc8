"""Rate limits per client (flask-limiter): the scoring API and the tools, and the chat, each
within its own limit; the chat also within a daily token budget and a number of chats
running at once. Beyond any of them, a JSON 429 with ``Retry-After``.

A client is its chat key when it sends one (hashed: the storage never holds a key), else
its address. ``X-Forwarded-For`` is believed only from the proxies listed in
``SCORING_TRUSTED_PROXIES``. Counts live in memory, or in Redis when
``SCORING_RATELIMIT_STORAGE_URI`` is a ``redis://`` URI, so that several instances share
them (if Redis cannot be reached, each instance counts in memory until it can).
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from contextlib import contextmanager

from flask import Blueprint, Flask, current_app, request
from flask_limiter import Limiter, RateLimitExceeded
from limits import RateLimitItemPerDay

from ..errors import ApiError, api_error_body
from ..i18n import t
from .body import bearer_key
from .errors import response_lang


def client_id() -> str:
    """Who is asking: ``key:<hash>`` for a bearer key, else ``ip:<address>``."""
    key = bearer_key()
    if key is not None:
        return "key:" + hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()[:32]
    return "ip:" + client_address()


def client_address() -> str:
    """The address that sent the request: the connection's, or, when the connection comes
    from a trusted proxy, the last address in ``X-Forwarded-For`` that is not one."""
    trusted = current_app.config["TRUSTED_PROXIES"]
    proxies = set(trusted.split(",")) if trusted else set()
    address = request.remote_addr or "-"
    if address not in proxies:
        return address
    forwarded = [part.strip() for part in request.headers.get("X-Forwarded-For", "").split(",") if part.strip()]
    for hop in reversed(forwarded):
        if hop not in proxies:
            return hop
    return address


def _seconds_until(moment: float) -> int:
    """Whole seconds from now until ``moment`` (a time.time() value), at least 1."""
    return max(1, math.ceil(moment - time.time()))


def _too_many(error: RateLimitExceeded):
    """A breached limit as the service's JSON 429, saying when to come back."""
    lang = response_lang()
    current = current_app.extensions["rate_limits"].current_limit
    seconds = _seconds_until(current.reset_at) if current else 60
    rate = error.limit.limit
    if rate.multiples == 1:
        per = t(f"errors.rate_units.{rate.GRANULARITY.name}", lang)
    else:
        per = t(f"errors.rate_units.{rate.GRANULARITY.name}s", lang, n=rate.multiples)
    refusal = ApiError(429, "rate_limited", "errors.rate_limited", seconds=seconds, amount=rate.amount, per=per)
    return api_error_body(refusal, lang), 429, {"Retry-After": str(seconds)}


def limit_requests(app: Flask, scoring: list[Blueprint], chat: list[Blueprint]) -> None:
    """Put the scoring limit on the ``scoring`` blueprints and the chat limit on the ``chat``
    ones (one count for each: a client's chats on either chat endpoint add up)."""
    config = app.config
    limiter = Limiter(
        client_id,
        app=app,
        storage_uri=config["RATELIMIT_STORAGE_URI"] or "memory://",
        strategy="fixed-window",
        in_memory_fallback_enabled=True,
        key_prefix="scoring",
    )
    app.extensions["rate_limits"] = limiter
    app.extensions["chat_allowance"] = ChatAllowance(limiter, config["CHAT_TOKEN_BUDGET"], config["CHAT_MAX_IN_FLIGHT"])
    app.register_error_handler(RateLimitExceeded, _too_many)
    for blueprint in scoring:  # one count across every scorer and tool
        limiter.shared_limit(config["RATE_LIMIT"], scope="scoring")(blueprint)
    for blueprint in chat:
        limiter.shared_limit(config["CHAT_RATE_LIMIT"], scope="chat")(blueprint)


class ChatAllowance:
    """What one client may spend on the chat: a daily token budget, counted from the usage
    the model reports (in the limits' storage, so instances sharing Redis share it), and
    at most ``CHAT_MAX_IN_FLIGHT`` chats running at once in this worker."""

    def __init__(self, limiter: Limiter, budget: int, in_flight: int) -> None:
        self.limiter = limiter
        self.budget = RateLimitItemPerDay(budget)
        self.running = threading.BoundedSemaphore(in_flight)

    def check_budget(self) -> None:
        """A 429 ``chat_budget_spent`` once today's tokens are used up."""
        client = client_id()
        if not self.limiter.limiter.test(self.budget, "chat-tokens", client):
            reset, _ = self.limiter.limiter.get_window_stats(self.budget, "chat-tokens", client)
            seconds = _seconds_until(reset)
            raise ApiError(
                429,
                "chat_budget_spent",
                "assistant.chat_budget_spent",
                headers={"Retry-After": str(seconds)},
                budget=self.budget.amount,
                seconds=seconds,
            )

    def spend(self, tokens: int) -> None:
        if tokens > 0:
            self.limiter.limiter.hit(self.budget, "chat-tokens", client_id(), cost=tokens)

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
