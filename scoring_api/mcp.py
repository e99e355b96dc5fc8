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

Result cards (MCP Apps)
    Every scoring tool (an operation of a game in the registry) names, in its ``_meta``, the
    view that draws its answer as the form's result card (:mod:`scoring_api.mcp_view`):
    ``ui.resourceUri`` and the deprecated flat ``ui/resourceUri`` for MCP Apps hosts,
    ``openai/outputTemplate`` for ChatGPT. ``resources/list`` lists the views and
    ``resources/read`` returns them (:func:`served_resources`, the one table of resources,
    which also serves each game's rules document in both languages as ``text/markdown``);
    an unknown URI is a JSON-RPC error -32602 (invalid params). The metadata is always
    sent, whatever the client says it supports (over the stateless ``/mcp`` every request
    is a new session that knows nothing of the client): hosts without MCP Apps ignore it
    and read the same text and ``structuredContent`` as before.

Language
    Texts (explanations and error messages) are Japanese by default. Set the environment
    variable ``SCORING_MCP_LANG=en`` for English (``ja`` and ``en`` are accepted; any
    other value falls back to Japanese with a warning on stderr).
"""

from __future__ import annotations

import copy
import json
import logging
import os
from dataclasses import dataclass
from typing import Any

# Absolute imports: this module is ``scoring_api.mcp``, so ``mcp`` is the SDK.
from marshmallow import ValidationError
from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from . import __version__, mcp_view, rules_documents
from .error_shape import ApiError
from .i18n import DEFAULT_LANG, LANGS, t
from .operations.registry import GAMES
from .tools import UnknownTool, call_tool, error_body, tool_definitions

SERVER_NAME = "board-game-scoring"
LANG_ENV = "SCORING_MCP_LANG"

logger = logging.getLogger(__name__)

_ANNOTATIONS = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)

#: The tools whose answers the result-card view draws: every game's operations.
SCORING_TOOLS = frozenset(op.operation_id for game in GAMES for op in game.OPERATIONS)

#: The longest part of an unknown resource URI said back in the error.
URI_SHOWN = 200


@dataclass(frozen=True)
class ServedResource:
    """A resource the server offers: listed by ``resources/list``, read by ``resources/read``."""

    uri: str
    name: str
    mime_type: str
    text: str
    meta: dict | None = None
    title: str | None = None


#: Where each rules document is served: ``rules://board-game-scoring/pedro.ja.md``.
RULES_URI = "rules://board-game-scoring/{file}"
RULES_MIME = "text/markdown"


def served_resources(lang: str) -> tuple[ServedResource, ...]:
    """Every resource the server offers, in listing order; ``lang`` is the server's
    language, for resources written in one: the result-card view, for MCP Apps hosts and as
    ChatGPT's template (the same document), then each game's rules document in the server's
    language and in the other (docs/rules/, as the ``rules`` tool reads them)."""
    html = mcp_view.view_html()
    views = (
        ServedResource(mcp_view.view_uri(), "result-card", mcp_view.MCP_APP_MIME, html, mcp_view.VIEW_META),
        ServedResource(
            mcp_view.skybridge_uri(), "result-card-skybridge", mcp_view.SKYBRIDGE_MIME, html, mcp_view.SKYBRIDGE_META
        ),
    )
    languages = (lang, *(other for other in LANGS if other != lang))
    documents = tuple(
        ServedResource(
            RULES_URI.format(file=rules_documents.file_name(game, language)),
            f"rules-{game}-{language}",
            RULES_MIME,
            document.text,
            title=document.title,
        )
        for language in languages
        for game in rules_documents.GAMES
        for document in [rules_documents.document(game, language)]
    )
    return views + documents


def server_lang(environ=os.environ) -> str:
    """The language from ``SCORING_MCP_LANG`` (Japanese when unset or unknown)."""
    lang = environ.get(LANG_ENV, "").strip().lower() or DEFAULT_LANG
    if lang not in LANGS:
        logger.warning("%s=%r is not one of %s; using %s", LANG_ENV, lang, LANGS, DEFAULT_LANG)
        return DEFAULT_LANG
    return lang


def mcp_tools() -> list[types.Tool]:
    """Every tool, described exactly as for OpenAI function calling; a scoring tool also
    names its result-card view (:func:`scoring_api.mcp_view.tool_meta`)."""
    return [
        types.Tool(
            name=spec["function"]["name"],
            description=spec["function"]["description"],
            input_schema=spec["function"]["parameters"],
            annotations=_ANNOTATIONS,
            _meta=mcp_view.tool_meta() if spec["function"]["name"] in SCORING_TOOLS else None,
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
    resources = {resource.uri: resource for resource in served_resources(lang)}

    async def list_tools(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool.model_copy(deep=True) for tool in tools])

    async def call(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
        return run_tool(params.name, params.arguments, lang)

    async def list_resources(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=r.uri, name=r.name, title=r.title, mime_type=r.mime_type, _meta=copy.deepcopy(r.meta)
                )
                for r in resources.values()
            ]
        )

    async def read_resource(
        ctx: ServerRequestContext, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        found = resources.get(str(params.uri))
        if found is None:
            uri = str(params.uri)[:URI_SHOWN]
            raise MCPError(INVALID_PARAMS, t("assistant.unknown_resource", lang, uri=uri), {"uri": uri})
        content = types.TextResourceContents(
            uri=found.uri, mime_type=found.mime_type, text=found.text, _meta=copy.deepcopy(found.meta)
        )
        return types.ReadResourceResult(contents=[content])

    return Server(
        SERVER_NAME,
        version=__version__,
        instructions=t("assistant.mcp_instructions", lang),
        on_list_tools=list_tools,
        on_call_tool=call,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
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
