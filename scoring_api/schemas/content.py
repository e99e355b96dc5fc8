"""A chat message's content: text, or OpenAI's list of content parts, text and pictures.

A part is ``{"type": "text", "text": "..."}`` or ``{"type": "image_url", "image_url":
{"url": "data:image/jpeg;base64,...", "detail": "auto"}}``. The shape is checked here, as
the spec states it: at most :data:`MAX_CONTENT_PARTS` parts, a text (or each text part) at
most ``max_length`` characters, a picture's ``url`` a string of at most
:data:`MAX_PICTURE_URL_LENGTH` characters and its ``detail`` one of OpenAI's. What JSON Schema cannot say of a picture (that the model reads
pictures at all, its bytes, how many a message and a conversation may carry) is checked
once the request is read, by :mod:`scoring_api.assistant.pictures`, whose refusals have
codes of their own; the spec states the data URL's pattern, which it checks too.

Loaded, a content without pictures is its text (text parts joined by new lines), as the
model has always been sent it; one with pictures is the list of parts as sent (only the
fields named above), so that the pictures reach the model as they came.
"""

from __future__ import annotations

from marshmallow import ValidationError, fields

#: Content parts of one message.
MAX_CONTENT_PARTS = 20
#: The kinds of pictures a data URL may carry, by their media type.
PICTURE_TYPES = ("image/jpeg", "image/png", "image/webp")
#: The bytes of one picture (OpenAI takes up to 20 MB an image).
MAX_PICTURE_BYTES = 20 * 1024 * 1024
#: Characters of a picture's data URL: its bytes in base64, and the head.
MAX_PICTURE_URL_LENGTH = 4 * MAX_PICTURE_BYTES // 3 + 64
#: The data URL of a picture, as the spec states it (checked by assistant/pictures.py).
PICTURE_URL_PATTERN = r"^data:image/(jpeg|png|webp);base64,[A-Za-z0-9+/]*={0,2}$"
#: How closely the model looks at a picture (OpenAI's ``detail``).
DETAILS = ("auto", "low", "high")

_PICTURE_PART = {
    "type": "object",
    "required": ["type", "image_url"],
    "properties": {
        "type": {"type": "string", "enum": ["image_url"]},
        "image_url": {
            "type": "object",
            "required": ["url"],
            "properties": {
                "url": {"type": "string", "pattern": PICTURE_URL_PATTERN, "maxLength": MAX_PICTURE_URL_LENGTH},
                "detail": {"type": "string", "enum": list(DETAILS)},
            },
        },
    },
}


class MessageContent(fields.Field):
    """A message's text, or its parts (text and pictures). ``null`` reads as no text;
    ``filled``: the message must hold some text, or at least one part."""

    default_error_messages = {
        "invalid": "Not text, or a list of parts.",
        "part": "Not a text part or an image_url part.",
        "too_long": "Too much text.",
        "empty": "No text and no picture.",
    }

    def __init__(self, *, max_length: int, filled: bool = False, **kwargs) -> None:
        self.max_length = max_length
        self.filled = filled
        self.catalogue_messages = {
            "invalid": ("assistant.message_parts", {"most": MAX_CONTENT_PARTS}),
            "part": ("assistant.message_part", {"details": ", ".join(DETAILS)}),
            "too_long": ("validation.text_length_max", {"max": max_length}),
            "empty": ("assistant.message_empty", {"max": max_length}),
        }
        text = {"type": "string", "minLength": 1 if filled else 0, "maxLength": max_length}
        text_part = {
            "type": "object",
            "required": ["type", "text"],
            "properties": {
                "type": {"type": "string", "enum": ["text"]},
                "text": {"type": "string", "maxLength": max_length},
            },
        }
        parts = {
            "type": "array",
            "minItems": 1 if filled else 0,
            "maxItems": MAX_CONTENT_PARTS,
            "items": {"oneOf": [text_part, _PICTURE_PART]},
        }
        metadata = {"oneOf": [text, parts], **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            if len(value) > self.max_length:
                raise self.make_error("too_long")
            if self.filled and not value:
                raise self.make_error("empty")
            return value
        if not isinstance(value, list) or len(value) > MAX_CONTENT_PARTS:
            raise self.make_error("invalid")
        if self.filled and not value:
            raise self.make_error("empty")
        parts = []
        for index, part in enumerate(value):
            loaded = _part(part)
            if loaded is None:
                raise ValidationError({index: [self.error_messages["part"].format()]})
            if loaded["type"] == "text" and len(loaded["text"]) > self.max_length:
                raise ValidationError({index: {"text": [self.error_messages["too_long"].format()]}})
            parts.append(loaded)
        texts = [part["text"] for part in parts if part["type"] == "text"]
        if len("\n".join(texts)) > self.max_length:  # the parts' text together, as a string's
            raise self.make_error("too_long")
        if self.filled and len(texts) == len(parts) and not any(texts):
            raise self.make_error("empty")
        return parts if len(texts) < len(parts) else "\n".join(texts)


def _part(part: object) -> dict | None:
    """One part as loaded (only its known fields), or None when it is neither kind."""
    if not isinstance(part, dict):
        return None
    if part.get("type") == "text" and isinstance(part.get("text"), str):
        return {"type": "text", "text": part["text"]}
    picture = part.get("image_url")
    if part.get("type") != "image_url" or not isinstance(picture, dict):
        return None
    url, detail = picture.get("url"), picture.get("detail")
    if not isinstance(url, str) or not 0 < len(url) <= MAX_PICTURE_URL_LENGTH or detail not in (None, *DETAILS):
        return None
    return {"type": "image_url", "image_url": {"url": url} | ({"detail": detail} if detail else {})}
