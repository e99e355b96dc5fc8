"""Recording the service's answers, to check that a refactoring changes none of them.

With ``SCORING_TEST_RECORD=<file>`` set, ``tests/conftest.py`` wraps every Flask app of the
test run: each request to ``/healthz`` or ``/api/v1/...`` (the chat aside: its answers
depend on the fake model's script) is written to ``<file>`` as one JSON line with the
request (method, path, query, content type, body) and the answer (status, content type,
body). ``tests/recorded/test_recorded_answers.py`` sends every recorded request again and
compares the answers byte for byte. ``python -m tests.recorded.record`` makes the file.
"""

from __future__ import annotations

import base64
import io
import json
import threading

RECORDED_PREFIXES = ("/healthz", "/api/v1/")
NOT_RECORDED = ("/api/v1/chat",)

_lock = threading.Lock()


def recordable(path: str) -> bool:
    return path.startswith(RECORDED_PREFIXES) and not path.startswith(NOT_RECORDED)


def _text(raw: bytes) -> dict:
    """Bytes as text when they are UTF-8, else base64."""
    try:
        return {"text": raw.decode("utf-8")}
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(raw).decode("ascii")}


def raw_bytes(stored: dict) -> bytes:
    if "text" in stored:
        return stored["text"].encode("utf-8")
    return base64.b64decode(stored["base64"])


def recording_call(original, out_path: str):
    """A replacement for ``Flask.__call__`` that records what it answers."""

    def call(app, environ, start_response):
        path = environ.get("PATH_INFO", "")
        length = environ.get("CONTENT_LENGTH")
        if not recordable(path) or environ.get("wsgi.input_terminated") or (length and not length.isdigit()):
            return original(app, environ, start_response)
        body = environ["wsgi.input"].read(int(length)) if length else b""
        environ["wsgi.input"] = io.BytesIO(body)
        if length and len(body) != int(length):  # a client that sends less than it said
            return original(app, environ, start_response)
        seen = {}

        def start(status, headers, exc_info=None):
            seen["status"] = int(status.split()[0])
            seen["type"] = dict(headers).get("Content-Type")
            return start_response(status, headers, exc_info)

        chunks = list(original(app, environ, start))
        line = {
            "method": environ["REQUEST_METHOD"],
            "path": path,
            "query": environ.get("QUERY_STRING", ""),
            "content_type": environ.get("CONTENT_TYPE"),
            "body": _text(body),
            "config": {k: app.config[k] for k in ("MAX_CONTENT_LENGTH",)},
            "status": seen["status"],
            "answer_type": seen["type"],
            "answer": _text(b"".join(chunks)),
        }
        with _lock, open(out_path, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")
        return chunks

    return call
