"""Writing and compiling the Python source of :mod:`.compiled`'s loaders.

A :class:`Source` collects the functions of one compiled loader (one per schema
it reaches, plus helpers for list and dict fields) and the objects they refer to (choices,
bounds, hooks, nested functions), then compiles them together with :func:`compile`. The
generated text is kept in :mod:`linecache`, so a traceback through it shows its lines, and
on the built function as ``__source__``.
"""

from __future__ import annotations

import itertools
import linecache
from collections.abc import Callable
from typing import Any

from marshmallow import ValidationError, missing


class Fallback(Exception):
    """The compiled path cannot vouch for this document: marshmallow decides."""


def _fail():
    raise Fallback


def _none(value):
    """``None`` for a field that allows it; anything else falls back."""
    if value is None:
        return None
    raise Fallback


def _member(value, choices: frozenset) -> bool:
    try:
        return value in choices
    except TypeError:  # unhashable: OneOf refuses it too
        return False


def _passes(validator: Callable, value) -> bool:
    """Any other validator, called as marshmallow calls it."""
    try:
        validator(value)
    except ValidationError:
        return False
    return True


#: The names every generated function may use.
RUNTIME = {
    "Fallback": Fallback,
    "ValidationError": ValidationError,
    "missing": missing,
    "_fail": _fail,
    "_none": _none,
    "_member": _member,
    "_passes": _passes,
}

_SOURCES = itertools.count(1)
MAX_FUNCTIONS = 64  # the largest request schema of this service needs 15


class Source:
    """The text of some generated functions and the namespace they run in."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.namespace: dict[str, Any] = dict(RUNTIME)
        self.functions: dict[tuple, str] = {}
        self._names = itertools.count()

    def ref(self, obj: Any, hint: str) -> str:
        """A fresh global name bound to ``obj``."""
        name = f"_{hint}_{next(self._names)}"
        self.namespace[name] = obj
        return name

    def function(self, key: tuple, owner: Any) -> tuple[str, bool]:
        """The name of the function for ``key``, and whether it is new (then the caller
        writes it, with :meth:`add`, or binds it, with :meth:`alias`)."""
        if key in self.functions:
            return self.functions[key], False
        name = f"{key[0].replace(' ', '_')}_{type(owner).__name__}_{next(self._names)}"
        self.functions[key] = name
        return name, True

    def crowded(self) -> bool:
        """Too many functions for one schema: a schema nested in itself (marshmallow builds
        those lazily, level by level) is left to marshmallow from here on."""
        return len(self.functions) > MAX_FUNCTIONS

    def alias(self, name: str, obj: Callable) -> None:
        self.namespace[name] = obj

    def add(self, lines: list[str]) -> None:
        self.lines += lines

    def build(self, name: str) -> Callable:
        """Compile every function written and return the one called ``name``."""
        text = "\n".join(self.lines) + "\n"
        filename = f"<compiled {next(_SOURCES)}: {name}>"
        exec(compile(text, filename, "exec"), self.namespace)  # noqa: S102 - our own text
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
        function = self.namespace[name]
        try:
            function.__source__ = text
        except AttributeError:  # a bound method (marshmallow's own load)
            pass
        return function
