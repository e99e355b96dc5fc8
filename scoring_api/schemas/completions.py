"""Shapes of the OpenAI-compatible endpoint (``/v1``): OpenAI's Chat Completions request,
read as OpenAI reads it (unknown fields ignored), and the completion, chunk and model list
it answers, with アイちゃん's tool trace in the extension field ``ai_chan``.

A conversation may hold another model's tool use, as a frontend sends it after that model
used its own tools: ``tool`` (and legacy ``function``) messages, and assistant messages
with ``tool_calls`` (or ``function_call``), each bounded like any message;
:mod:`scoring_api.assistant.history` turns them into plain text for the model. A message's
content may hold pictures (:mod:`.content`)."""

from __future__ import annotations

from marshmallow import EXCLUDE, Schema, fields, validate

from .assistant import MAX_MESSAGE_LENGTH, ToolCallSchema
from .common import ItemList
from .content import MessageContent

#: Messages one request may carry (a long conversation of a chat frontend; the body's
#: size limit bounds it too).
MAX_COMPLETION_MESSAGES = 100
#: Tool calls one assistant message of the history may carry.
MAX_HISTORY_TOOL_CALLS = 20
#: Characters of a tool's name, a tool call's id, a participant's name.
MAX_NAME_LENGTH = 256
#: The roles a message may have: OpenAI's, ``function`` being the legacy ``tool``.
ROLES = ["system", "developer", "user", "assistant", "tool", "function"]


class OpenSchema(Schema):
    """Fields OpenAI's API knows and this endpoint does not use are ignored, as OpenAI does."""

    class Meta:
        unknown = EXCLUDE
        ordered = True


class FunctionCallSchema(OpenSchema):
    """A tool call another model made: the function's name and its arguments (as sent)."""

    name = fields.String(required=True, validate=validate.Length(1, MAX_NAME_LENGTH))
    arguments = fields.String(load_default="", allow_none=True, validate=validate.Length(0, MAX_MESSAGE_LENGTH))


class HistoryToolCallSchema(OpenSchema):
    id = fields.String(load_default=None, allow_none=True, validate=validate.Length(0, MAX_NAME_LENGTH))
    function = fields.Nested(FunctionCallSchema, required=True)


class CompletionMessageSchema(OpenSchema):
    role = fields.String(
        required=True,
        validate=validate.OneOf(ROLES),
        metadata={
            "description": "system or developer (added after アイちゃん's own prompt), user, assistant; "
            "tool and function: another model's tool results, read as plain text."
        },
    )
    content = MessageContent(max_length=MAX_MESSAGE_LENGTH, load_default=None, allow_none=True)
    name = fields.String(load_default=None, allow_none=True, validate=validate.Length(0, MAX_NAME_LENGTH))
    tool_calls = ItemList(
        fields.Nested(HistoryToolCallSchema),
        load_default=None,
        allow_none=True,
        validate=validate.Length(0, MAX_HISTORY_TOOL_CALLS),
    )
    function_call = fields.Nested(FunctionCallSchema, load_default=None, allow_none=True)
    tool_call_id = fields.String(load_default=None, allow_none=True, validate=validate.Length(0, MAX_NAME_LENGTH))


class StreamOptionsSchema(OpenSchema):
    include_usage = fields.Boolean(load_default=False, allow_none=True)


class ResponseFormatSchema(OpenSchema):
    """Only ``{"type": "text"}`` is answered; the endpoint refuses any other type."""

    type = fields.String(required=True, validate=validate.Length(1, 100))


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
    response_format = fields.Nested(ResponseFormatSchema, load_default=None, allow_none=True)


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
