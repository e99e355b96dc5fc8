"""Shapes of the OpenAI-compatible endpoint (``/v1``): OpenAI's Chat Completions request,
read as OpenAI reads it (unknown fields ignored), and the completion, chunk and model list
it answers, with アイちゃん's tool trace in the extension field ``ai_chan``."""

from __future__ import annotations

from marshmallow import EXCLUDE, Schema, fields, validate

from .assistant import MAX_MESSAGE_LENGTH, ToolCallSchema
from .common import ItemList

#: Messages one request may carry (a long conversation of a chat frontend; the body's
#: size limit bounds it too).
MAX_COMPLETION_MESSAGES = 100
#: Content parts of one message.
MAX_CONTENT_PARTS = 20


class MessageContent(fields.Field):
    """A message's text: a string, or OpenAI's list of content parts, of which only text
    parts are understood (joined by new lines). ``null`` reads as no text."""

    default_error_messages = {"invalid": "Not text, or a list of text parts."}
    catalogue_messages = {"invalid": ("validation.message_content", {"most": MAX_CONTENT_PARTS})}

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            return value
        if not isinstance(value, list) or len(value) > MAX_CONTENT_PARTS:
            raise self.make_error("invalid")
        texts = []
        for part in value:
            if not (isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)):
                raise self.make_error("invalid")
            texts.append(part["text"])
        return "\n".join(texts)


class OpenSchema(Schema):
    """Fields OpenAI's API knows and this endpoint does not use are ignored, as OpenAI does."""

    class Meta:
        unknown = EXCLUDE
        ordered = True


class CompletionMessageSchema(OpenSchema):
    role = fields.String(
        required=True,
        validate=validate.OneOf(["system", "developer", "user", "assistant"]),
        metadata={"description": "system or developer (added after アイちゃん's own prompt), user, assistant."},
    )
    content = MessageContent(required=True, allow_none=True, validate=validate.Length(0, MAX_MESSAGE_LENGTH))


class StreamOptionsSchema(OpenSchema):
    include_usage = fields.Boolean(load_default=False, allow_none=True)


class CompletionRequestSchema(OpenSchema):
    model = fields.String(required=True, validate=validate.Length(1, 100))
    messages = ItemList(
        fields.Nested(CompletionMessageSchema), required=True, validate=validate.Length(1, MAX_COMPLETION_MESSAGES)
    )
    stream = fields.Boolean(load_default=False, allow_none=True)
    stream_options = fields.Nested(StreamOptionsSchema, load_default=None, allow_none=True)
    max_tokens = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(1, 1_000_000))
    max_completion_tokens = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(1, 1_000_000))
    temperature = fields.Float(load_default=None, allow_none=True, validate=validate.Range(0, 2))
    user = fields.String(load_default=None, allow_none=True, validate=validate.Length(0, 256))


class UsageSchema(Schema):
    prompt_tokens = fields.Integer(required=True)
    completion_tokens = fields.Integer(required=True)
    total_tokens = fields.Integer(required=True)


class AiChanSchema(Schema):
    """The extension field ``ai_chan``: what アイちゃん computed to answer."""

    tool_calls = fields.List(fields.Nested(ToolCallSchema), required=True)
    rounds = fields.Integer(required=True)


class AnswerMessageSchema(Schema):
    role = fields.String(required=True)
    content = fields.String(required=True)


class ChoiceSchema(Schema):
    index = fields.Integer(required=True)
    message = fields.Nested(AnswerMessageSchema, required=True)
    finish_reason = fields.String(required=True)


class CompletionSchema(Schema):
    id = fields.String(required=True)
    object = fields.String(required=True)
    created = fields.Integer(required=True)
    model = fields.String(required=True)
    choices = fields.List(fields.Nested(ChoiceSchema), required=True)
    usage = fields.Nested(UsageSchema, required=True)
    ai_chan = fields.Nested(AiChanSchema, required=True)


class DeltaSchema(Schema):
    role = fields.String()
    content = fields.String()


class ChunkChoiceSchema(Schema):
    index = fields.Integer(required=True)
    delta = fields.Nested(DeltaSchema, required=True)
    finish_reason = fields.String(required=True, allow_none=True)


class ChunkSchema(Schema):
    id = fields.String(required=True)
    object = fields.String(required=True)
    created = fields.Integer(required=True)
    model = fields.String(required=True)
    choices = fields.List(fields.Nested(ChunkChoiceSchema), required=True)
    usage = fields.Nested(UsageSchema)
    ai_chan = fields.Nested(AiChanSchema)


class ModelSchema(Schema):
    id = fields.String(required=True)
    object = fields.String(required=True)
    created = fields.Integer(required=True)
    owned_by = fields.String(required=True)


class ModelListSchema(Schema):
    object = fields.String(required=True)
    data = fields.List(fields.Nested(ModelSchema), required=True)
