"""The limits counted in the worker's memory, without a thread.

The limits library's ``MemoryStorage`` forgets an ended window's count with a
``threading.Timer`` of 10 ms, which it starts again on every count once the last one has
run: a thread started for most counted requests (about one in three, in-process), a fifth
of a cheap request's time. :class:`LazyMemoryStorage` is that storage without the timer:
a count is dropped when it is next read after its window ends (as ``MemoryStorage`` already
does), and the counts nobody reads again are swept, on a later count, at most once every
``sweep_seconds``; no thread is ever started. It stays a ``MemoryStorage`` (its moving- and
sliding-window methods are inherited, the ``/healthz`` and ``/metrics`` "memory" reads the
type), under its own scheme, ``scoring-memory://`` (:func:`scoring_api.api.limits.limit_requests`
maps ``memory://`` to it, and makes flask-limiter's in-memory fallback one too).
"""

from __future__ import annotations

import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from limits.storage import MemoryStorage

#: The scheme :class:`LazyMemoryStorage` is registered under in the limits library.
SCHEME = "scoring-memory"

#: How often, at most, the counts whose window has ended are looked for and dropped.
SWEEP_SECONDS = 1.0


class LazyMemoryStorage(MemoryStorage):
    """``MemoryStorage`` with its expiry checked on access and swept inline, never by a
    thread. ``clock`` (``time.time`` unless a test passes its own) dates the fixed-window
    counts; one lock guards them (the gevent workers run one greenlet at a time; the lock
    is for threads)."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(
        self,
        uri: str | None = None,
        wrap_exceptions: bool = False,
        sweep_seconds: float = SWEEP_SECONDS,
        clock: Callable[[], float] = time.time,
        **options: Any,
    ) -> None:
        # MemoryStorage.__init__ would start its timer: its fields are set here instead.
        self.storage: Counter[str] = Counter()
        self.locks: defaultdict[str, threading.RLock] = defaultdict(threading.RLock)
        self.expirations: dict[str, float] = {}
        self.events: dict[str, list] = {}
        self.clock = clock
        self.sweep_seconds = float(sweep_seconds)
        self._lock = threading.Lock()
        self._next_sweep = clock() + self.sweep_seconds
        super(MemoryStorage, self).__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        del state["locks"], state["_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.locks = defaultdict(threading.RLock)
        self._lock = threading.Lock()

    def _MemoryStorage__schedule_expiry(self) -> None:
        """What MemoryStorage's moving-window methods call to start its timer: a sweep
        when one is due, here and now."""
        now = self.clock()
        if now >= self._next_sweep:
            with self._lock:
                self._sweep(now)

    def _sweep(self, now: float) -> None:
        """Drop every count, and every moving-window entry, whose window has ended (the
        caller holds ``_lock``)."""
        self._next_sweep = now + self.sweep_seconds
        for key in [key for key, end in self.expirations.items() if end <= now]:
            self.storage.pop(key, None)
            self.expirations.pop(key, None)
            self.locks.pop(key, None)
        for key in list(self.events):
            with self.locks[key]:
                kept = [entry for entry in self.events.get(key, ()) if entry.expiry > now]
                if kept:
                    self.events[key] = kept
                else:
                    self.events.pop(key, None)
                    self.locks.pop(key, None)

    def _drop_if_ended(self, key: str, now: float) -> None:
        """Forget ``key``'s count if its window has ended (the caller holds ``_lock``)."""
        if self.expirations.get(key, 0) <= now:
            self.storage.pop(key, None)
            self.expirations.pop(key, None)

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        """Add ``amount`` to ``key``'s count and return it; a count that starts (from
        nothing, or from zero) starts its window, ``expiry`` seconds long, now (as
        ``MemoryStorage.incr``)."""
        now = self.clock()
        with self._lock:
            if now >= self._next_sweep:
                self._sweep(now)
            self._drop_if_ended(key, now)
            count = self.storage[key] + amount
            self.storage[key] = count
            if count == amount:
                self.expirations[key] = now + expiry
        return count

    def decr(self, key: str, amount: int = 1) -> int:
        now = self.clock()
        with self._lock:
            self._drop_if_ended(key, now)
            count = self.storage[key] = max(self.storage[key] - amount, 0)
        return count

    def get(self, key: str) -> int:
        now = self.clock()
        if self.expirations.get(key, 0) > now:
            return self.storage.get(key, 0)
        with self._lock:
            self._drop_if_ended(key, now)
        return 0

    def get_expiry(self, key: str) -> float:
        now = self.clock()
        return max(self.expirations.get(key, now), now)

    def clear(self, key: str) -> None:
        with self._lock:
            self.storage.pop(key, None)
            self.expirations.pop(key, None)
            self.events.pop(key, None)
            self.locks.pop(key, None)

    def reset(self) -> int | None:
        with self._lock:
            return super().reset()
