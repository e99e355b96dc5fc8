"""Shapes of the assistant endpoints: the chat conversation and its answer."""

from __future__ import annotations

from marshmallow import fields, validate

from .common import StrictSchema
from .content import MessageContent

MAX_MESSAGES = 30
MAX_MESSAGE_LENGTH = 4000


class ChatMessageSchema(StrictSchema):
    role = fields.String(
        required=True,
        validate=validate.OneOf(["user", "assistant"]),
        metadata={"description": "user, or assistant for アイちゃん's earlier replies."},
    )
    content = MessageContent(
        max_length=MAX_MESSAGE_LENGTH,
        filled=True,
        required=True,
        metadata={
            "description": "Text, or OpenAI's content parts: text, and photos as data URLs (SCORING_CHAT_VISION)."
        },
    )


class ChatRequestSchema(StrictSchema):
    messages = fields.List(
        fields.Nested(ChatMessageSchema),
        required=True,
        validate=validate.Length(1, MAX_MESSAGES),
        metadata={"description": "The conversation so far, oldest first; the last is usually the user's."},
    )


class ToolCallSchema(StrictSchema):
    name = fields.String(required=True)
    arguments = fields.Raw(required=True, metadata={"description": "The arguments the model sent (as parsed JSON)."})
    result = fields.Dict(
        required=True, metadata={"description": 'The tool\'s answer, or {"error": ...} that went back to the model.'}
    )


class ChatResponseSchema(StrictSchema):
    reply = fields.String(required=True, metadata={"description": "アイちゃん's answer."})
    tool_calls = fields.List(
        fields.Nested(ToolCallSchema), required=True, metadata={"description": "Every tool call made, in order."}
    )
    rounds = fields.Integer(required=True, metadata={"description": "Model round trips used."})
