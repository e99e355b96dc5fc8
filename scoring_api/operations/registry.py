"""The registry: every scoring operation of every game, in one fixed order.

REST routes, OpenAI tools, MCP, the OpenAPI document and the chat all read this list
(nothing imports the HTTP layer). Adding a game: write its module in this package and list
it in :data:`GAMES` (docs/development.md).
"""

from __future__ import annotations

from . import apero, applejack, fairy_black_box, pedro, rules
from .operation import Operation

#: The games, in the order their operations are listed (OpenAPI, tools).
GAMES = (apero, applejack, fairy_black_box, pedro)

#: What is not a game but every surface offers too: the rules documents.
REFERENCE = (rules,)

OPERATIONS: tuple[Operation, ...] = tuple(op for module in (*GAMES, *REFERENCE) for op in module.OPERATIONS)

_BY_ID = {op.operation_id: op for op in OPERATIONS}


def find_operation(operation_id: str) -> Operation | None:
    return _BY_ID.get(operation_id)
