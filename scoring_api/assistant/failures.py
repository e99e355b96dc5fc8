"""How a chat fails: :class:`ChatFailure`, the 502, 503 or 504 the API answers with a
code (:func:`scoring_api.api.assistant.chat_error` makes it the service's error), and what
each failure of a model request means (:func:`model_failures`), wrapped in
:class:`Retryable` when another attempt may cure it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import openai

try:  # the HTTP library the openai client is built on (httpx2 from openai 3, else httpx)
    import httpx2 as _http
except ImportError:  # pragma: no cover
    import httpx as _http  # type: ignore[no-redef]

if TYPE_CHECKING:
    from .deadline import Deadline

#: Status codes worth a retry (as the openai client's own policy).
RETRY_STATUSES = frozenset({408, 409, 429})


class ChatFailure(Exception):
    """The model could not give an answer; ``status`` is 502, 503 or 504."""

    def __init__(self, status: int, code: str, **params: object) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.params = params


class Retryable(Exception):
    """A failure another attempt may cure; ``failure`` is what to answer if none does."""

    def __init__(self, failure: ChatFailure) -> None:
        super().__init__(failure.code)
        self.failure = failure


def bad_response() -> ChatFailure:
    """A reply that is not what the API promises (502 ``model_bad_response``)."""
    return ChatFailure(502, "model_bad_response")


def timed_out(deadline: Deadline, seconds: float) -> Exception:
    if deadline.remaining() <= 0.01:  # the request had only the time left
        return deadline.failure()
    return Retryable(ChatFailure(504, "model_timeout", seconds=seconds))


@contextmanager
def model_failures(deadline: Deadline, seconds: float) -> Iterator[None]:
    """What a failed model request means: a ChatFailure, wrapped in Retryable when another
    attempt may cure it."""
    try:
        yield
    except openai.APITimeoutError:
        raise timed_out(deadline, seconds) from None
    except openai.APIConnectionError:
        raise Retryable(ChatFailure(502, "model_unreachable")) from None
    except openai.APIStatusError as error:
        failure = ChatFailure(502, "model_error", http_status=error.status_code)
        if error.status_code in RETRY_STATUSES or error.status_code >= 500:
            raise Retryable(failure) from None
        raise failure from None
    except _http.TimeoutException:  # while reading the body
        raise timed_out(deadline, seconds) from None
    except _http.HTTPError:
        raise Retryable(ChatFailure(502, "model_unreachable")) from None
    except (openai.APIError, ValueError, TypeError):
        raise bad_response() from None
