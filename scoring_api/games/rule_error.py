"""The one exception the game rules raise: a request the rules do not allow.

A refusal says where the input at fault is in the game's own terms, never in a request's:
a rule is called by several operations (Pedro's rules options by all four, Applejack's
orchard check by five), whose requests name the same thing differently, so only the
operation can say which field of its request that is (docs/development.md, "Adding an
operation").
"""

from __future__ import annotations

#: A key picks one of many: a position in a list, or a name (a seat, a team, an option).
Key = int | str
#: One step of a position: a game term, alone or with the key that picks one of many.
Step = str | tuple[str, Key]
#: Where the input at fault is, in game terms, outermost first.
Position = tuple[Step, ...]


class RuleError(ValueError):
    """A game rule refuses the input.

    ``code`` names the rule (``too_many_copies``); ``at`` is the :data:`Position` of the
    input at fault, in the game's vocabulary (docs/rules/<game>.md): singular terms,
    outermost first, each alone or as ``(term, key)`` when it picks one of many, e.g.
    ``(("player", 1), ("treasure", 0))``, ``(("seat", "N"), ("card", 2))`` or
    ``(("player", 1), "name")``; a term alone names the whole (``("player",)``: the
    players; ``(("player", 1), "treasure")``: player 1's treasures). ``facts`` are the
    values behind the message (the card, the count, the limit).

    The operation that called the rule maps the position to its request's JSON path (its
    ``terms``) and answers a 400 whose message is the catalogue entry ``<game>.<code>``
    filled with the facts.
    """

    def __init__(self, code: str, at: Position = (), **facts):
        super().__init__(code)
        self.code = code
        self.at = at
        self.facts = facts

    def within(self, *outer: Step) -> RuleError:
        """The same refusal inside ``outer``, in game terms: a rule that checks one hand
        reports ``("points",)``, and the game it belongs to puts it at
        ``(("hand", 3), "points")``."""
        return type(self)(self.code, (*outer, *self.at), **self.facts)
