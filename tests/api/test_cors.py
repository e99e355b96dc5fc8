"""Browser apps on the origins of ``SCORING_CORS_ORIGINS`` may call the scoring API and the
tools; nobody else, and never the chat."""

from __future__ import annotations

import pytest

from scoring_api import SettingsError, create_app

ORIGINS = "https://app.example.org,http://localhost:5173"
BODY = {"players": [{"name": "A", "cards": [{"color": "red", "value": 2}]}]}
SCORE = "/api/v1/apero/score"


@pytest.fixture
def cors_client():
    return create_app({"TESTING": True, "CORS_ORIGINS": ORIGINS}).test_client()


@pytest.mark.parametrize("origin", ORIGINS.split(","))
def test_a_listed_origin_may_read_the_answer(cors_client, origin):
    response = cors_client.post(SCORE, json=BODY, headers={"Origin": origin})
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == origin
    assert "Access-Control-Allow-Credentials" not in response.headers


def test_refusals_carry_the_header_too(cors_client):
    response = cors_client.post(SCORE, json={}, headers={"Origin": "https://app.example.org"})
    assert response.status_code == 400
    assert response.headers["Access-Control-Allow-Origin"] == "https://app.example.org"


def test_the_preflight_allows_json_posts(cors_client):
    response = cors_client.options(
        SCORE,
        headers={
            "Origin": "https://app.example.org",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "https://app.example.org"
    assert set(response.headers["Access-Control-Allow-Methods"].split(", ")) == {"GET", "POST", "OPTIONS"}
    assert response.headers["Access-Control-Allow-Headers"].lower() == "content-type"
    assert response.headers["Access-Control-Max-Age"] == "600"


@pytest.mark.parametrize("path", ["/api/v1/tools", "/api/v1/fairy-black-box/setup?players=3"])
def test_tools_and_gets_answer_listed_origins(cors_client, path):
    response = cors_client.get(path, headers={"Origin": "http://localhost:5173"})
    assert response.headers["Access-Control-Allow-Origin"] == "http://localhost:5173"


@pytest.mark.parametrize("origin", ["https://evil.example", "https://app.example.org.evil.example", "null"])
def test_an_unlisted_origin_gets_no_permission(cors_client, origin):
    response = cors_client.post(SCORE, json=BODY, headers={"Origin": origin})
    assert response.status_code == 200  # the browser, not the server, withholds the answer
    assert "Access-Control-Allow-Origin" not in response.headers


def test_the_chat_never_answers_another_origin(cors_client):
    for method in ("post", "options"):
        response = getattr(cors_client, method)(
            "/api/v1/chat",
            json={"messages": [{"role": "user", "content": "?"}]},
            headers={"Origin": "https://app.example.org", "Access-Control-Request-Method": "POST"},
        )
        assert "Access-Control-Allow-Origin" not in response.headers, method


def test_no_origin_is_listed_by_default(client):
    response = client.post(SCORE, json=BODY, headers={"Origin": "https://app.example.org"})
    assert "Access-Control-Allow-Origin" not in response.headers


@pytest.mark.parametrize(
    "origins",
    [
        "*",
        "https://app.example.org/",
        "app.example.org",
        "https://app.example.org, https://b.example",
        "ftp://x.org",
        "https://x.org:port",
    ],
)
def test_a_malformed_origin_refuses_to_start(origins):
    with pytest.raises(
        SettingsError, match=r"SCORING_CORS_ORIGINS=.*must be origins such as https://app\.example\.org"
    ):
        create_app({"TESTING": True, "CORS_ORIGINS": origins})


@pytest.mark.parametrize("origin", [*ORIGINS.split(","), "https://evil.example", None])
@pytest.mark.parametrize(
    "send",
    [
        lambda client, headers: client.post(SCORE, json=BODY, headers=headers),
        lambda client, headers: client.post(SCORE, json={}, headers=headers),
        lambda client, headers: client.get("/api/v1/tools", headers=headers),
        lambda client, headers: client.get("/api/v1/no-such-thing", headers=headers),
        lambda client, headers: client.options(SCORE, headers={**headers, "Access-Control-Request-Method": "POST"}),
    ],
    ids=["score", "refusal", "tools", "not found", "preflight"],
)
def test_every_answer_on_the_cross_origin_paths_varies_by_origin(cors_client, send, origin):
    """Whether the answer names the origin depends on it: a cache must keep one per origin."""
    response = send(cors_client, {"Origin": origin} if origin else {})
    # An answer of 1 KiB or more (the tools' list) may go compressed: it varies by that too.
    compressible = len(response.get_data()) >= 1024
    assert response.headers.getlist("Vary") == (["Origin, Accept-Encoding"] if compressible else ["Origin"])
    assert response.headers.get("Access-Control-Allow-Origin") == (origin if origin in ORIGINS.split(",") else None)


def test_one_listed_origin_varies_by_origin_too():
    client = create_app({"TESTING": True, "CORS_ORIGINS": "https://app.example.org"}).test_client()
    response = client.post(SCORE, json=BODY, headers={"Origin": "https://app.example.org"})
    assert response.headers["Access-Control-Allow-Origin"] == "https://app.example.org"
    assert response.headers.getlist("Vary") == ["Origin"]


@pytest.mark.parametrize("path", ["/api/v1/chat", "/healthz", "/"])
def test_answers_that_never_name_an_origin_do_not_vary_by_it(cors_client, path):
    response = cors_client.get(path, headers={"Origin": "https://app.example.org"})
    assert "Access-Control-Allow-Origin" not in response.headers
    assert "Origin" not in response.headers.get("Vary", "")
