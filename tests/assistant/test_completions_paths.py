"""``/v1`` answers every path as OpenAI does: one model by its id
(``GET /v1/models/{model}``), and an unknown path or a wrong method in OpenAI's error shape;
the rest of the service keeps its own shape."""

from __future__ import annotations

import pytest

from tests.conftest import make_chat_app

KEY = "frontend-key-0123456789-abc"


@pytest.mark.parametrize("name", ["ai-chan", "ai-chan-en"])
def test_a_served_model_is_retrieved_as_its_object(chat_client, name):
    answer = chat_client.get(f"/v1/models/{name}")
    assert answer.status_code == 200
    assert answer.get_json() == {"id": name, "object": "model", "created": 1796169600, "owned_by": "scoring-api"}


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/v1/models/gpt-4o", "「gpt-4o」というモデルはありません。使えるモデル: ai-chan、ai-chan-en"),
        ("/v1/models/openai/gpt-4o", "「openai/gpt-4o」というモデルはありません。使えるモデル: ai-chan、ai-chan-en"),
    ],
)
def test_another_model_is_openais_model_not_found(chat_client, path, message):
    answer = chat_client.get(path)
    assert answer.status_code == 404
    assert answer.get_json() == {
        "error": {"message": message, "type": "invalid_request_error", "code": "model_not_found", "param": None}
    }


def test_another_model_in_english(chat_client):
    error = chat_client.get("/v1/models/gpt-4o?lang=en").get_json()["error"]
    assert error["message"] == 'There is no model "gpt-4o"; the models are: ai-chan, ai-chan-en'


def test_a_locked_chat_wants_the_key_for_one_model_too(fake_model):
    client = make_chat_app(fake_model, CHAT_OPEN=False, API_KEYS=KEY).test_client()
    refused = client.get("/v1/models/ai-chan")
    assert refused.status_code == 401
    assert refused.get_json()["error"]["type"] == "authentication_error"
    assert client.get("/v1/models/ai-chan", headers={"Authorization": f"Bearer {KEY}"}).status_code == 200


@pytest.mark.parametrize(
    ("method", "path", "status", "code", "message", "allow"),
    [
        ("GET", "/v1/embeddings", 404, "not_found", "そのパスはありません: /v1/embeddings", None),
        ("POST", "/v1/responses", 404, "not_found", "そのパスはありません: /v1/responses", None),
        ("GET", "/v1", 404, "not_found", "そのパスはありません: /v1", None),
        (
            "GET",
            "/v1/chat/completions",
            405,
            "method_not_allowed",
            "GET はこのパスでは使えません。使えるメソッド: OPTIONS, POST",
            "POST, OPTIONS",
        ),
        (
            "DELETE",
            "/v1/models/ai-chan",
            405,
            "method_not_allowed",
            "DELETE はこのパスでは使えません。使えるメソッド: GET, HEAD, OPTIONS",
            "GET, HEAD, OPTIONS",
        ),
    ],
)
def test_an_unknown_path_or_a_wrong_method_is_openai_shaped(chat_client, method, path, status, code, message, allow):
    answer = chat_client.open(path, method=method)
    assert answer.status_code == status
    assert answer.get_json() == {
        "error": {"message": message, "type": "invalid_request_error", "code": code, "param": None}
    }
    allowed = answer.headers.get("Allow")
    assert (allowed and set(allowed.split(", "))) == (allow and set(allow.split(", ")))  # in any order


def test_an_unknown_path_speaks_english_on_request(chat_client):
    error = chat_client.get("/v1/files?lang=en").get_json()["error"]
    assert error == {
        "message": "No such path: /v1/files",
        "type": "invalid_request_error",
        "code": "not_found",
        "param": None,
    }


@pytest.mark.parametrize(("method", "path"), [("GET", "/api/v1/nothing"), ("GET", "/v1x"), ("PUT", "/api/v1/chat")])
def test_the_rest_of_the_service_keeps_its_own_error_shape(chat_client, method, path):
    body = chat_client.open(path, method=method).get_json()
    assert set(body["error"]) == {"code", "message", "details"}
