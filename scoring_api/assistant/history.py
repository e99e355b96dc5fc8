"""A chat frontend's conversation as the model behind アイちゃん reads it.

A frontend sends the whole conversation each time, and it may hold another model's use of
its own tools: assistant messages with ``tool_calls`` (or the legacy ``function_call``) and
the ``tool`` (or ``function``) messages that answered them. Those tools are not this
service's, so none of it goes to the model as a call it could answer or repeat: each call
becomes a line of the assistant's text (「（以前の会話でツール「get_weather」を呼び出しました。
引数: …）」), and each result a user message of plain text (「（以前の会話でのツール
「get_weather」の結果: …）」; results in a row make one message). No tool call id reaches
the model, and a foreign tool's name is only ever text: the chat loop runs the calls the
model makes in its own rounds, never one of the history's (docs/chat-frontends.md).

``developer`` messages are ``system`` ones; messages left without text are left out; a
user's photos stay as they came (:mod:`.pictures` has checked them).
"""

from __future__ import annotations

from typing import Any

from ..i18n import t
from .replies import JSONObject

#: A message as the request's schema loaded it (its values are the schema's: Any).
Loaded = dict[str, Any]

#: The roles of a tool's answer in the history: ``function`` is the legacy ``tool``.
RESULT_ROLES = ("tool", "function")


def model_messages(messages: list[Loaded], lang: str) -> list[JSONObject]:
    """The conversation (loaded by ``CompletionRequestSchema``) as plain ``system``,
    ``user`` and ``assistant`` messages, the history's tool use told in ``lang``."""
    names: dict[str, str] = {}  # tool call id -> the tool's name, from the calls so far
    converted: list[JSONObject] = []
    results: list[str] = []  # tool results in a row, one user message when they end

    def end_results() -> None:
        if results:
            converted.append({"role": "user", "content": "\n".join(results)})
            results.clear()

    for message in messages:
        role = message["role"]
        content = message.get("content")
        if role in RESULT_ROLES:
            results.append(_result_line(message, names, lang))
            continue
        end_results()
        if role == "assistant":
            lines = [content] if isinstance(content, str) and content.strip() else []
            lines += [_call_line(call, names, lang) for call in _calls(message)]
            if lines:
                converted.append({"role": "assistant", "content": "\n".join(lines)})
        elif _has_content(content):
            converted.append({"role": "system" if role == "developer" else role, "content": content})
    end_results()
    return converted


def _calls(message: Loaded) -> list[Loaded]:
    """The tool calls of one assistant message: ``tool_calls``, then ``function_call``."""
    calls = list(message.get("tool_calls") or [])
    if message.get("function_call"):
        calls.append({"id": None, "function": message["function_call"]})
    return calls


def _call_line(call: Loaded, names: dict[str, str], lang: str) -> str:
    function = call["function"]
    if call.get("id"):
        names[call["id"]] = function["name"]
    arguments = function.get("arguments") or "{}"
    return t("assistant.history_call", lang, name=function["name"], arguments=arguments)


def _result_line(message: Loaded, names: dict[str, str], lang: str) -> str:
    """A tool's answer: named by its call (``tool_call_id``), else by its ``name``."""
    name = names.get(message.get("tool_call_id") or "") or message.get("name")
    content = message.get("content")
    result = content if isinstance(content, str) else ""
    if name:
        return t("assistant.history_result", lang, name=name, result=result)
    return t("assistant.history_result_unnamed", lang, result=result)


def _has_content(content: object) -> bool:
    """Text that is not blank, or parts: the schema keeps parts only when a picture is
    among them (:mod:`scoring_api.schemas.content`)."""
    return isinstance(content, list) or (isinstance(content, str) and bool(content.strip()))
