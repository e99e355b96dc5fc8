"""The chat routes take bodies up to ``SCORING_CHAT_MAX_BODY_BYTES`` when they take photos
(``SCORING_CHAT_VISION``); without, and on every other route, ``SCORING_MAX_CONTENT_LENGTH``
(64 KiB). Under gunicorn, with the SDK:
tests/test_completions_sdk.py."""

from __future__ import annotations

import io
import json

import pytest

from tests.assistant.pictures import data_url, photo_message, png
from tests.conftest import make_chat_app
from tests.fake_openai import reply

LIMIT = 64 * 1024
CHAT_LIMIT = 200_000  # a chat limit of the tests' own, to build bodies at it quickly
QUESTION = {"role": "user", "content": "?"}


def body_of(size: int, route: str) -> bytes:
    """A valid chat body of exactly ``size`` bytes (the padding is JSON white space)."""
    document = {"messages": [QUESTION]} if route == "/api/v1/chat" else {"model": "ai-chan", "messages": [QUESTION]}
    data = json.dumps(document).encode()
    return data + b" " * (size - len(data))


@pytest.fixture
def client(fake_model):
    return make_chat_app(fake_model, CHAT_VISION=True, CHAT_MAX_BODY_BYTES=CHAT_LIMIT).test_client()


@pytest.mark.parametrize("route", ["/api/v1/chat", "/v1/chat/completions"])
def test_without_photos_the_chat_routes_keep_64_kib(fake_model, route):
    client = make_chat_app(fake_model, CHAT_MAX_BODY_BYTES=CHAT_LIMIT).test_client()
    fake_model.play(reply("はい。"))
    assert client.post(route, data=body_of(LIMIT, route), content_type="application/json").status_code == 200
    refused = client.post(route, data=body_of(LIMIT + 1, route), content_type="application/json")
    assert refused.status_code == 413
    assert "65536" in refused.get_json()["error"]["message"]


@pytest.mark.parametrize("route", ["/api/v1/chat", "/v1/chat/completions"])
def test_a_chat_body_at_the_chat_limit_is_read_and_one_byte_more_is_a_413(client, fake_model, route):
    fake_model.play(reply("はい"))
    assert client.post(route, data=body_of(CHAT_LIMIT, route), content_type="application/json").status_code == 200
    refused = client.post(route, data=body_of(CHAT_LIMIT + 1, route), content_type="application/json")
    assert refused.status_code == 413
    error = refused.get_json()["error"]
    assert error["code"] == "payload_too_large"
    assert error["message"] == "リクエストが大きすぎます（上限200000バイト）。"
    assert len(fake_model.requests) == 1


def test_the_413_of_the_openai_endpoint_is_openai_shaped(client):
    refused = client.post(
        "/v1/chat/completions?lang=en",
        data=body_of(CHAT_LIMIT + 1, "/v1/chat/completions"),
        content_type="application/json",
    )
    assert refused.get_json() == {
        "error": {
            "message": "The request is too large (limit: 200000 bytes).",
            "type": "invalid_request_error",
            "code": "payload_too_large",
            "param": None,
        }
    }


@pytest.mark.parametrize("route", ["/api/v1/chat", "/v1/chat/completions"])
def test_a_chunked_chat_body_is_held_to_the_chat_limit(client, fake_model, route):
    """Without a Content-Length, the body is read up to the chat's limit, and refused past it."""

    def chunked(size):
        return client.post(
            route,
            input_stream=io.BytesIO(body_of(size, route)),
            content_type="application/json",
            environ_overrides={"wsgi.input_terminated": True, "HTTP_TRANSFER_ENCODING": "chunked"},
        )

    fake_model.play(reply("はい"))
    assert chunked(CHAT_LIMIT).status_code == 200
    assert chunked(CHAT_LIMIT + 1).status_code == 413


@pytest.mark.parametrize(
    "route", ["/api/v1/apero/score", "/api/v1/tools/score_apero", "/api/v1/fairy-black-box/next-player"]
)
def test_every_other_route_keeps_64_kib(client, route):
    refused = client.post(route, data=b"{" + b" " * LIMIT + b"}", content_type="application/json")
    assert refused.status_code == 413
    assert refused.get_json()["error"]["message"] == f"リクエストが大きすぎます（上限{LIMIT}バイト）。"


def test_the_default_chat_limit_takes_a_few_photos(fake_model):
    app = make_chat_app(fake_model, CHAT_VISION=True)
    assert app.config["CHAT_MAX_BODY_BYTES"] == 8 * 1024 * 1024
    fake_model.play(reply("見えます。"))
    photo = data_url(png(1000, 1000, (1, 2, 3)) + b"\0" * 1_500_000)  # a PNG of about 1.5 MB
    body = json.dumps({"model": "ai-chan", "messages": [photo_message(photo, photo, photo)]}).encode()
    assert 6_000_000 < len(body) < 8 * 1024 * 1024
    client = app.test_client()
    assert client.post("/v1/chat/completions", data=body, content_type="application/json").status_code == 200
    assert fake_model.requests[0]["messages"][1]["content"][3]["image_url"]["url"] == photo
