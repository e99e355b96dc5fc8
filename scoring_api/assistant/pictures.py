"""Photos of the table in a chat: what the request's schema cannot check of a picture.

The schema (:mod:`scoring_api.schemas.content`) has read each ``image_url`` part's shape;
before the chat starts, :func:`check_pictures` refuses, with a 400 naming the picture
(``messages[2].content[1].image_url``) and the reason in the player's language:

* any picture, when the operator has not said the model can see (``SCORING_CHAT_VISION``):
  ``vision_off``;
* a picture that is not a data URL of a JPEG, PNG or WebP (a remote URL is never fetched),
  whose base64 does not decode, whose bytes exceed :data:`MAX_PICTURE_BYTES`, whose first
  bytes are not those of the type it declares (its magic number), or that comes in a
  message other than the user's: ``invalid_picture``;
* more than :data:`MAX_PICTURES_PER_MESSAGE` pictures in a message, or
  :data:`MAX_PICTURES_PER_CONVERSATION` in the conversation: ``too_many_pictures``.

A picture that passes goes to the model as it came.
"""

from __future__ import annotations

import binascii
import re
from typing import Any

from ..error_shape import ApiError, json_path
from ..i18n import t
from ..schemas.content import MAX_PICTURE_BYTES

#: Pictures one message may carry.
MAX_PICTURES_PER_MESSAGE = 4
#: Pictures one conversation may carry (a frontend sends the whole conversation each time).
MAX_PICTURES_PER_CONVERSATION = 8

#: The head of a picture's data URL: its media type, base64.
DATA_URL = re.compile(r"data:(image/(?:jpeg|png|webp));base64,")

#: What each kind's bytes start with, and where: ``(offset, bytes)`` pairs that must all match.
MAGIC = {
    "image/jpeg": ((0, b"\xff\xd8\xff"),),
    "image/png": ((0, b"\x89PNG\r\n\x1a\n"),),
    "image/webp": ((0, b"RIFF"), (8, b"WEBP")),
}
#: The kinds' names, as a refusal says what a picture holds.
KIND_NAMES = {"image/jpeg": "JPEG", "image/png": "PNG", "image/webp": "WebP"}

#: A message as the request's schema loaded it (its values are the schema's: Any).
Loaded = dict[str, Any]


def check_pictures(messages: list[Loaded], vision: bool, lang: str) -> int:
    """Refuse the first picture of ``messages`` the chat cannot take (see the module);
    return how many pictures there are."""
    seen = 0
    for index, message in enumerate(messages):
        content = message.get("content")
        if not isinstance(content, list):
            continue
        in_message = 0
        for place, part in enumerate(content):
            if part["type"] != "image_url":
                continue
            where = json_path(("messages", index, "content", place, "image_url"))
            if not vision:
                raise _refusal("vision_off", where, lang, "assistant.vision_off")
            if message["role"] != "user":
                raise _refusal("invalid_picture", where, lang, "assistant.picture_not_from_user", role=message["role"])
            in_message += 1
            seen += 1
            if in_message > MAX_PICTURES_PER_MESSAGE:
                key = "assistant.too_many_pictures_message"
                raise _refusal("too_many_pictures", where, lang, key, most=MAX_PICTURES_PER_MESSAGE)
            if seen > MAX_PICTURES_PER_CONVERSATION:
                key = "assistant.too_many_pictures_conversation"
                raise _refusal("too_many_pictures", where, lang, key, most=MAX_PICTURES_PER_CONVERSATION)
            _check_picture(part["image_url"]["url"], where, lang)
    return seen


def _check_picture(url: str, where: str, lang: str) -> None:
    """A data URL of a JPEG, PNG or WebP whose bytes are that kind of picture."""
    head = DATA_URL.match(url)
    if head is None:
        remote = url[:8].lower().startswith(("http://", "https://"))
        key = "assistant.picture_remote" if remote else "assistant.picture_not_data_url"
        raise _refusal("invalid_picture", where, lang, key)
    declared = head.group(1)
    encoded = url[head.end() :]
    size = len(encoded) * 3 // 4 - encoded[-2:].count("=")
    if size > MAX_PICTURE_BYTES:
        raise _refusal(
            "invalid_picture", where, lang, "assistant.picture_too_large", size=size, limit=MAX_PICTURE_BYTES
        )
    try:
        data = binascii.a2b_base64(encoded, strict_mode=True)
    except binascii.Error:
        raise _refusal("invalid_picture", where, lang, "assistant.picture_not_base64") from None
    found = picture_kind(data)
    if found != declared:
        what = t("assistant.picture_found", lang, kind=KIND_NAMES[found]) if found else None
        found_text = what or t("assistant.picture_found_nothing", lang)
        key = "assistant.picture_not_that_kind"
        raise _refusal("invalid_picture", where, lang, key, declared=declared, found=found_text)


def picture_kind(data: bytes) -> str | None:
    """The media type whose magic number ``data`` starts with, if any."""
    for kind, marks in MAGIC.items():
        if all(data[offset : offset + len(mark)] == mark for offset, mark in marks):
            return kind
    return None


def _refusal(code: str, where: str, lang: str, key: str, **params: object) -> ApiError:
    reason = t(key, lang, **params)
    return ApiError(400, code, key, details={where: [reason]}, **params)
