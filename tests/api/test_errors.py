"""The service's error model (docs/api.md) and its meta routes."""

import pytest

from scoring_api import create_app

URL = "/api/v1/apero/score"


def error_of(response):
    assert response.mimetype == "application/json", response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    return body["error"]


def test_healthz(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_json() == {"status": "ok", "limits": "memory"}


def test_unknown_path_is_a_json_404(client):
    response = client.get("/api/v1/nope?lang=en")
    assert response.status_code == 404
    assert error_of(response) == {
        "code": "not_found",
        "message": "No such path: /api/v1/nope",
        "details": {},
    }


def test_wrong_method_is_a_json_405_with_allow(client):
    response = client.get(URL)
    assert response.status_code == 405
    assert set(response.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}
    assert error_of(response)["code"] == "method_not_allowed"
    assert "POST" in error_of(response)["message"]


def test_a_405_lists_the_allowed_methods_in_a_stable_order(client):
    response = client.delete("/api/v1/applejack/starting-honey?lang=en")
    assert error_of(response)["message"] == "DELETE is not allowed here. Allowed: GET, HEAD, OPTIONS"


def test_oversized_body_is_a_413(client):
    big = b'{"players": [' + b" " * (64 * 1024) + b"]}"
    response = client.post(URL, data=big, content_type="application/json")
    assert response.status_code == 413
    assert error_of(response)["code"] == "payload_too_large"


def test_limit_is_configurable():
    client = create_app({"MAX_CONTENT_LENGTH": 100}).test_client()
    response = client.post(URL, data=b"{" + b" " * 200 + b"}", content_type="application/json")
    assert response.status_code == 413
    assert "100" in error_of(response)["message"]


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_non_json_body_is_a_415(client, content_type):
    response = client.post(URL, data=b'{"players": []}', content_type=content_type)
    assert response.status_code == 415
    assert error_of(response)["code"] == "unsupported_media_type"


@pytest.mark.parametrize(
    "raw, reason",
    [
        (b"{", "Expecting property name"),
        (b"", None),
        (b"   ", None),
        (b'{"sets": NaN, "players": []}', "NaN is not allowed"),
        (b'{"sets": Infinity, "players": []}', "Infinity is not allowed"),
        (b'{"sets": 1, "sets": 2, "players": []}', "duplicate key 'sets'"),
        (b"[" * 50 + b"]" * 50, "nested deeper than 32 levels"),
        (b'{"sets": ' + b"9" * 5000 + b"}", "a number has too many digits"),
        (b'{"players": "\xff"}', "not UTF-8 (byte 13)"),
        (b'{"players": [{"name": "\\ud800", "cards": []}]}', "lone surrogate"),
        (b'{"\\udfff": 1}', "lone surrogate"),
    ],
)
def test_malformed_json_is_a_400_with_the_reason(client, raw, reason):
    response = client.post(URL + "?lang=en", data=raw, content_type="application/json")
    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid_json"
    if reason:
        assert reason in error["message"]
    else:
        assert error["message"] == "The request body is empty; send a JSON object."


@pytest.mark.parametrize("body", [[], "text", 3, None, [{"players": []}]])
def test_a_body_that_is_not_an_object(client, body):
    import json

    response = client.post(URL, data=json.dumps(body), content_type="application/json")
    assert response.status_code == 400
    assert error_of(response)["details"] == {"$": ["この部分の入力の形が正しくありません。"]}


def test_unknown_lang_is_a_400_naming_lang(client):
    response = client.post(URL + "?lang=fr", json={"players": []})
    assert response.status_code == 400
    assert list(error_of(response)["details"]) == ["lang"]


def test_an_unexpected_failure_is_a_json_500_without_internals(app, caplog):
    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internals")

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    error = error_of(response)
    assert error["code"] == "internal_error"
    assert "secret" not in response.get_data(as_text=True)
    assert "secret internals" in caplog.text  # logged for the operator
