"""Schema helpers shared by every game: strictness, names, the error shape."""

from __future__ import annotations

from marshmallow import RAISE, Schema, ValidationError, fields, validate


class StrictSchema(Schema):
    """Unknown fields are errors (and ``additionalProperties: false`` in the spec)."""

    class Meta:
        unknown = RAISE
        ordered = True


class MaxProperties(validate.Validator):
    """At most ``maximum`` members in an object (JSON Schema's ``maxProperties``, which the
    field's metadata states), refused with marshmallow's Length message. Not a ``Length``:
    apispec would document that as a string's ``maxLength``. The compiled loader tests it
    inline (``len(x) <= maximum``)."""

    error = "Longer than maximum length {maximum}."

    def __init__(self, maximum: int) -> None:
        self.maximum = maximum

    def __call__(self, value):
        if len(value) > self.maximum:
            raise ValidationError(self.error.format(maximum=self.maximum))
        return value

    def _repr_args(self) -> str:
        return f"maximum={self.maximum!r}"


class JsonInteger(fields.Integer):
    """A JSON integer: ``2`` and ``2.0`` (the same JSON number) load as 2; ``1.5``,
    ``"1"``, ``true`` and non-finite numbers are refused."""

    def _validated(self, value):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid")
        if isinstance(value, float):
            if not value.is_integer():
                raise self.make_error("invalid")
            value = int(value)
        return super()._validated(value)


def integer(**kwargs) -> fields.Integer:
    """An integer field with JSON's rules (see :class:`JsonInteger`)."""
    return JsonInteger(strict=True, **kwargs)


class JsonBoolean(fields.Boolean):
    """A JSON boolean only: ``true``/``false``; ``1``, ``"true"`` and the like are refused
    (marshmallow's Boolean would accept them, which the spec's ``boolean`` does not)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def boolean(**kwargs) -> fields.Boolean:
    """A boolean field with JSON's rules (see :class:`JsonBoolean`)."""
    return JsonBoolean(**kwargs)


#: Names may hold any text but control characters and bidirectional overrides (which can
#: make a name display as another); emoji, kana and combining marks are welcome.
NAME_PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]*$"


def text(min_length: int = 1, max_length: int = 40, **kwargs) -> fields.String:
    """A bounded string of displayable text (player names and the like)."""
    metadata = {"pattern": NAME_PATTERN, **kwargs.pop("metadata", {})}
    return fields.String(
        validate=[
            validate.Length(min_length, max_length),
            validate.Regexp(NAME_PATTERN, error="Contains a control or text-direction character."),
        ],
        metadata=metadata,
        **kwargs,
    )


class ErrorBodySchema(StrictSchema):
    code = fields.String(required=True, metadata={"description": "Machine-readable error code."})
    message = fields.String(
        required=True, metadata={"description": "What went wrong, in the requested language."}
    )
    details = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        required=True,
        metadata={"description": "JSON path of each bad field -> reasons ($ = the whole body)."},
    )


class ErrorSchema(StrictSchema):
    error = fields.Nested(ErrorBodySchema, required=True)


class HealthSchema(StrictSchema):
    status = fields.String(required=True, metadata={"examples": ["ok"]})
