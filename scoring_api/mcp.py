"""The scoring tools as an MCP server (Model Context Protocol, stdio).

Run ``scoring-mcp`` (or ``python -m scoring_api.mcp``); an MCP client such as Claude
Desktop starts it as a subprocess and talks JSON-RPC over its stdin/stdout. The same
server answers over Streamable HTTP at ``/mcp`` (:mod:`scoring_api.api.mcp_http`).

Tools
    Exactly :func:`scoring_api.tools.tool_definitions`: the same names,
    descriptions and JSON Schemas (MCP ``inputSchema`` = the OpenAI tool's
    ``parameters``), marked read-only and idempotent (scoring changes nothing).

Validation
    A call runs :func:`scoring_api.tools.call_tool`, the REST endpoint's own road
    (marshmallow schema, then the game's rules). The server is built on the SDK's low-level
    ``Server``, which hands the raw ``arguments`` to the handler without checking them
    against ``inputSchema`` (the high-level ``MCPServer`` would want a Python function
    per tool and check its own pydantic model instead). That is deliberate: a generic
    JSON Schema validator's messages ("4 is not one of [...]") would pre-empt the
    service's field-level, translated reasons, and the schema cannot say everything the
    rules check anyway. So the service is the one validator, and a model always gets
    the same error document as a REST client. Being lenient costs nothing: the strict
    schemas ask for every field, but nulls and left-out optional fields load alike.

Results and errors
    Success: the response as JSON text (``ensure_ascii=False``) plus the same object as
    ``structuredContent``. Failure: a tool result with ``isError: true`` whose text (and
    structured content) is the service's error JSON
    ``{"error": {"code", "message", "details"}}`` - ``invalid_input`` with ``details``
    keyed by JSON path (``players[0].cards[0].value``), a rule's own code
    (``too_many_copies`` ...), ``unknown_tool`` for a name that is not offered, or
    ``internal_error`` (logged to stderr) for a bug - so the model can correct its
    arguments. Bad arguments never become a protocol error.

Language
    Texts (explanations and error messages) are Japanese by default. Set the environment
    variable ``SCORING_MCP_LANG=en`` for English (``ja`` and ``en`` are accepted; any
    other value falls back to Japanese with a warning on stderr).
"""

from __future__ import annotations

import json
import logging
import os
from typing import Any

# Absolute imports: this module is ``scoring_api.mcp``, so ``mcp`` is the SDK.
from marshmallow import ValidationError
from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from . import __version__
from .error_shape import ApiError
from .i18n import DEFAULT_LANG, LANGS, t
from .tools import UnknownTool, call_tool, error_body, tool_definitions

SERVER_NAME = "board-game-scoring"
LANG_ENV = "SCORING_MCP_LANG"

logger = logging.getLogger(__name__)

_ANNOTATIONS = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


def server_lang(environ=os.environ) -> str:
    """The language from ``SCORING_MCP_LANG`` (Japanese when unset or unknown)."""
    lang = environ.get(LANG_ENV, "").strip().lower() or DEFAULT_LANG
    if lang not in LANGS:
        logger.warning("%s=%r is not one of %s; using %s", LANG_ENV, lang, LANGS, DEFAULT_LANG)
        return DEFAULT_LANG
    return lang


def mcp_tools() -> list[types.Tool]:
    """Every scoring tool, described exactly as for OpenAI function calling."""
    return [
        types.Tool(
            name=spec["function"]["name"],
            description=spec["function"]["description"],
            input_schema=spec["function"]["parameters"],
            annotations=_ANNOTATIONS,
        )
        for spec in tool_definitions()
    ]


def run_tool(name: str, arguments: dict[str, Any] | None, lang: str) -> types.CallToolResult:
    """One tool call as an MCP result; every failure becomes an ``isError`` result."""
    try:
        result = call_tool(name, {} if arguments is None else arguments, lang)
    except (ValidationError, ApiError, UnknownTool) as error:
        return _result(error_body(error, lang), is_error=True)
    except Exception as error:  # a bug: report it like the REST 500, keep serving
        logger.exception("tool %s failed", name)
        return _result(error_body(error, lang), is_error=True)
    return _result(result, is_error=False)


def _result(document: dict, *, is_error: bool) -> types.CallToolResult:
    text = json.dumps(document, ensure_ascii=False)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)],
        structured_content=document,
        is_error=is_error,
    )


def create_server(lang: str | None = None) -> Server:
    """The MCP server; ``lang`` defaults to ``SCORING_MCP_LANG`` (else Japanese)."""
    lang = server_lang() if lang is None else lang
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, not {lang!r}")
    tools = mcp_tools()

    async def list_tools(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool.model_copy(deep=True) for tool in tools])

    async def call(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
        return run_tool(params.name, params.arguments, lang)

    return Server(
        SERVER_NAME,
        version=__version__,
        instructions=t("assistant.mcp_instructions", lang),
        on_list_tools=list_tools,
        on_call_tool=call,
    )


async def serve_stdio(server: Server | None = None) -> None:
    """Serve one client over this process's stdin/stdout until stdin closes."""
    server = server or create_server()
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def main() -> None:
    import anyio

    logging.basicConfig(level=logging.WARNING)  # to stderr; stdout is the protocol
    anyio.run(serve_stdio)


if __name__ == "__main__":
    main()
