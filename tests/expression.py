"""A tiny parser for the scorer's formulas, so tests check them without ``eval``.

Grammar: ``sum := product ("+" product)*``, ``product := atom ("×" atom)*``,
``atom := integer | "(" sum ")"``; integers may carry a leading minus sign.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"\s*(-?\d+|[+×()])")


def tokens(text: str) -> list[str]:
    found, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if not match:
            raise ValueError(f"unexpected character at {pos}: {text[pos:]!r}")
        found.append(match.group(1))
        pos = match.end()
    return found


def evaluate(text: str) -> tuple[int, list[int]]:
    """The formula's value and the numbers it uses (each card once)."""
    items = tokens(text)
    numbers: list[int] = []
    pos = 0

    def peek():
        return items[pos] if pos < len(items) else None

    def take(expected=None):
        nonlocal pos
        token = peek()
        if token is None or (expected and token != expected):
            raise ValueError(f"expected {expected or 'a token'} at token {pos} in {text!r}")
        pos += 1
        return token

    def atom():
        if peek() == "(":
            take("(")
            value = total()
            take(")")
            return value
        token = take()
        if not re.fullmatch(r"-?\d+", token):
            raise ValueError(f"expected a number, got {token!r} in {text!r}")
        numbers.append(int(token))
        return int(token)

    def product():
        value = atom()
        while peek() == "×":
            take("×")
            value *= atom()
        return value

    def total():
        value = product()
        while peek() == "+":
            take("+")
            value += product()
        return value

    value = total()
    if pos != len(items):
        raise ValueError(f"trailing tokens in {text!r}")
    return value, numbers
