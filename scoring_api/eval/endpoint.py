"""One chat completion from an OpenAI-compatible endpoint, within bounds: the model under
test, or a running service's ``/v1`` (アイちゃん).

Requests go through the ``openai`` client (its URL handling, key header, retries of
connection failures, 408, 409, 429 and 5xx answers, and errors). As the chat does
(:mod:`scoring_api.assistant.model`), the body is posted as written here and the response
is handed back unread, then read here: at most :data:`MAX_RESPONSE_BYTES`, each request at
most ``timeout`` seconds. The key goes only to the client: never into a result, an error
or a line printed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property

import openai
import orjson

try:  # the HTTP library the openai client is built on (httpx2 from openai 3, else httpx)
    import httpx2 as _http
except ImportError:  # pragma: no cover
    import httpx as _http  # type: ignore[no-redef]

#: Largest response body read (bytes); a longer one is the error ``too_large``.
MAX_RESPONSE_BYTES = 1024 * 1024
#: HTTP statuses no other question would escape: the run stops at the first.
FATAL_STATUSES = frozenset({401, 403, 404})
#: The key sent where none is given, with the header left out (the client wants one).
_NO_KEY = "no-key"


class EndpointError(Exception):
    """A request that gave no completion; ``code`` says why (``timeout``, ``unreachable``,
    ``http_<status>``, ``too_large``, ``bad_response``)."""

    def __init__(self, code: str, status: int | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.status = status

    @property
    def fatal(self) -> bool:
        """Wrong key, no permission, or no such endpoint or model: every question would fail."""
        return self.status in FATAL_STATUSES


@dataclass(frozen=True)
class Endpoint:
    base_url: str | None  # None: OpenAI's
    api_key: str | None  # None: no Authorization header
    timeout: float  # seconds per request
    retries: int = 2  # the client's retries of a failed request

    @cached_property
    def client(self) -> openai.OpenAI:
        return openai.OpenAI(
            api_key=self.api_key or _NO_KEY, base_url=self.base_url, timeout=self.timeout, max_retries=self.retries
        )

    def complete(self, body: dict) -> dict:
        """The completion document the endpoint answers ``body`` with (a JSON object).
        Raises :class:`EndpointError`."""
        content = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
        try:
            response = self.client.post(
                "/chat/completions",
                cast_to=_http.Response,
                content=content,
                options={"timeout": self.timeout, "headers": {} if self.api_key else {"Authorization": openai.omit}},
                stream=True,
            )
            try:
                data = _read(response)
            finally:
                response.close()
        except openai.APITimeoutError:
            raise EndpointError("timeout") from None
        except openai.APIConnectionError:
            raise EndpointError("unreachable") from None
        except openai.APIStatusError as error:
            raise EndpointError(f"http_{error.status_code}", error.status_code) from None
        except _http.TimeoutException:
            raise EndpointError("timeout") from None
        except _http.HTTPError:
            raise EndpointError("unreachable") from None
        try:
            document = orjson.loads(data)
        except orjson.JSONDecodeError:
            raise EndpointError("bad_response") from None
        if not isinstance(document, dict):
            raise EndpointError("bad_response")
        return document


def _read(response: _http.Response) -> bytes:
    parts, size = [], 0
    for part in response.iter_bytes():
        size += len(part)
        if size > MAX_RESPONSE_BYTES:
            raise EndpointError("too_large")
        parts.append(part)
    return b"".join(parts)
