"""What an operation is: the one road every surface takes to a game's rules.

An :class:`Operation` names its path, its request and response schemas and a handler
``(loaded request, lang) -> answer``. :meth:`Operation.run` is the road the REST view,
a tool call, an MCP call and the chat all take: load the request with its marshmallow
schema, apply the rules, and return the handler's answer as it is built. A handler builds
its answer in the response schema's shape, key order included (plain dicts, lists, text,
integers, booleans and None), so no dump walks it again (docs/performance.md, "Answers
built once"); the response schema stays the contract (the OpenAPI document's answers),
and the tests check every answer they get against it (``tests/conftest.py``).

A rule refuses in the game's own terms (:class:`~scoring_api.games.rule_error.RuleError`'s
position, e.g. ``(("player", 1), "name")``), since one rule serves several requests; each
operation's ``terms`` say how its request names them, so the refusal points at a field of
that request (``players[1].name``).

Each game's module in :mod:`scoring_api.operations` registers its operations with
:func:`operation`; :mod:`scoring_api.operations` lists the games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from marshmallow import Schema

from ..error_shape import RequestName, rule_error
from ..games.rule_error import RuleError
from ..schemas.localized import localized


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str  # POST reads a JSON body; GET the query string (the same fields)
    path: str  # below /api/v1
    request: type[Schema]
    response: type[Schema]
    handler: Callable[[dict, str], dict]
    summary: str
    description: str
    tag: str  # the game: OpenAPI tag and the catalogue section of its refusals
    #: Optional ``(facts, lang) -> extra facts`` for refusal messages (localized names).
    display_facts: Callable[[dict, str], dict] | None = None
    #: How the request names each game term its rules' refusals use, spelled with the
    #: terms around it: ``{"player": "players", "player.name": "name"}``
    #: (:func:`~scoring_api.error_shape.request_path`).
    terms: dict[str, RequestName] = field(default_factory=dict, compare=False)

    def run(self, payload, lang: str) -> dict:
        """Load ``payload`` with the request schema, apply the rules, return the answer as
        the handler built it (already the response schema's shape: no dump).

        Invalid input raises marshmallow's ValidationError, a rule's refusal an ApiError
        (both 400s)."""
        request = localized(self.request, lang).load(payload)
        try:
            return self.handler(request, lang)
        except RuleError as error:
            shown = self.display_facts(error.facts, lang) if self.display_facts else {}
            raise rule_error(error, self.tag, lang, self.terms, **shown) from None

    @cached_property
    def request_schema(self) -> Schema:
        """The request's shape (the OpenAPI document and the tools read it)."""
        return self.request()

    @cached_property
    def response_schema(self) -> Schema:
        """The answer's shape, the contract every handler's answer keeps (the tests check
        each answer against it); :meth:`run` returns the answer without it."""
        return self.response()


def operation(registry: list[Operation], **declared) -> Callable:
    """Register the decorated handler in ``registry`` (its game's list) as an operation."""

    def register(handler):
        registry.append(Operation(handler=handler, **declared))
        return handler

    return register
