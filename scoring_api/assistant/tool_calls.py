"""Running the model's tool calls and bounding what goes back to it.

* A call's ``arguments`` string is read by :mod:`scoring_api.tool_arguments` (bounded
  before parsing: size and depth; repeated keys refused) and run with the endpoint's own
  validation; a refusal, or the tool's error, is an error result the model can correct
  its call from, never an exception.
* A call over the round's ``max_tool_calls`` is not run: it still gets its tool message
  (the API wants one per call id), an error ``too_many_tool_calls``.
* A tool result longer than ``tool_result_limit`` bytes (as JSON) goes back to the model
  as a short ``tool_result_too_long`` error; the chat's answer keeps the full result.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from marshmallow import ValidationError

from ..error_shape import ApiError
from ..i18n import t
from ..tool_arguments import ArgumentsError, read_arguments
from ..tools import UnknownTool, call_tool, error_body, tool_names
from .replies import JSONObject, ModelCall


@dataclass
class ToolCallRecord:
    name: str
    arguments: object
    result: JSONObject


def run_tool_call(name: str, raw_arguments: str, lang: str, max_argument_bytes: int = 65536) -> ToolCallRecord:
    """Execute one call from the model; a failure becomes an error result, not an exception.

    The record's ``arguments`` are the parsed object, or the raw string when it could not be
    read (``None`` when it was over the size bound, so the answer does not echo it)."""
    try:
        arguments = read_arguments(raw_arguments, max_argument_bytes)
    except ArgumentsError as error:
        shown = raw_arguments if len(raw_arguments) <= max_argument_bytes else None
        return ToolCallRecord(name, shown, error_body(error, lang))
    try:
        return ToolCallRecord(name, arguments, call_tool(name, arguments, lang))
    except (ValidationError, ApiError, UnknownTool) as error:
        return ToolCallRecord(name, arguments, error_body(error, lang))


def skipped_call(call: ModelCall, max_tool_calls: int, max_argument_bytes: int, lang: str) -> ToolCallRecord:
    """A call over the per-round limit: not run, not even parsed."""
    message = t("assistant.too_many_tool_calls", lang, limit=max_tool_calls)
    shown = call.arguments if len(call.arguments) <= max_argument_bytes else None
    return ToolCallRecord(
        call.name, shown, {"error": {"code": "too_many_tool_calls", "message": message, "details": {}}}
    )


def tool_content(result: JSONObject, limit: int, lang: str) -> str:
    """The tool message for the model: the result as JSON, or a short error if longer than
    ``limit`` bytes."""
    text = json.dumps(result, ensure_ascii=False)
    size = len(text.encode("utf-8"))
    if size <= limit:
        return text
    message = t("assistant.tool_result_too_long", lang, size=size, limit=limit)
    error = {"error": {"code": "tool_result_too_long", "message": message, "details": {}}}
    return json.dumps(error, ensure_ascii=False)


def log_name(name: str) -> str:
    """The tool's name for a log line: only names the service offers (a made-up one could
    carry any text the model likes)."""
    return name if name in tool_names() else "(unknown tool)"
