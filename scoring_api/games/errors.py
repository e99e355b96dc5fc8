"""The one exception the game rules raise: a request the rules do not allow."""

from __future__ import annotations


class RuleError(ValueError):
    """A game rule refuses the input.

    ``code`` names the rule (``too_many_copies``); ``where`` locates the input at fault as
    a path, e.g. ``("players", 1, "cards", 0)``; ``facts`` are the values behind the
    message (the card, the count, the limit). The web layer turns it into a 400 whose
    message is the catalogue entry ``<game>.<code>`` filled with the facts.
    """

    def __init__(self, code: str, where: tuple = (), **facts):
        super().__init__(code)
        self.code = code
        self.where = where
        self.facts = facts

    def within(self, *prefix) -> RuleError:
        """The same error located inside ``prefix`` (e.g. the hand of a whole game)."""
        moved = type(self)(self.code, tuple(prefix) + tuple(self.where), **self.facts)
        return moved
