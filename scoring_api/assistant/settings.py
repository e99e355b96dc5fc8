"""The settings of one chat: the model endpoint and every bound of the loop (rounds, time,
tokens, tool calls and their sizes), read from the app's config by
:func:`scoring_api.api.assistant.chat_settings`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChatSettings:
    base_url: str | None
    api_key: str | None
    model: str
    timeout: float  # one model request, seconds
    max_retries: int  # retries of a failed model request
    max_rounds: int  # model round trips
    deadline: float = 25.0  # the whole chat, seconds
    max_tokens: int = 1024  # sent as max_tokens with every request
    max_tool_calls: int = 8  # tool calls run per round
    tool_result_limit: int = 32768  # bytes of one tool result sent back to the model
    max_argument_bytes: int = 65536  # bytes of one call's arguments (the REST body limit)
    temperature: float | None = None  # sent when set (the OpenAI-compatible endpoint passes it on)
    vision: bool = False  # the model reads pictures: her prompt says how to read a photo
