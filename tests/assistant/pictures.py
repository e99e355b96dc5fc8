"""Pictures for the chat's photo tests: real PNG files made here (no imaging library), and
data URLs of them."""

from __future__ import annotations

import base64
import struct
import zlib


def png(width: int = 2, height: int = 2, rgb: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    """A PNG of one colour, ``width`` × ``height`` pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\x00" + bytes(rgb) * width  # filter 0, then the pixels
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, truecolour
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height, 9))
        + chunk(b"IEND", b"")
    )


#: The start of a JPEG (SOI, then an APP0 marker): what the service checks of one.
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9"
#: The start of a WebP: RIFF, a size, WEBP.
WEBP = b"RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00"


def data_url(data: bytes, kind: str = "image/png") -> str:
    return f"data:{kind};base64," + base64.b64encode(data).decode()


def picture(url: str, **extra) -> dict:
    """An ``image_url`` content part."""
    return {"type": "image_url", "image_url": {"url": url, **extra}}


def photo_message(*urls: str, text: str = "この写真の得点は？") -> dict:
    return {"role": "user", "content": [{"type": "text", "text": text}, *(picture(url) for url in urls)]}
