"""The chat spends the operator's model credits, so it takes a client key
(``SCORING_API_KEYS``) when a model is configured, unless the operator opened it."""

from __future__ import annotations

import logging
import secrets

import pytest

from scoring_api import SettingsError, create_app
from tests.conftest import API_KEY, make_chat_app
from tests.fake_openai import reply

KEYS = ("client-key-0123456789-abcd", "other-client-key-abcdef-98765")
QUESTION = {"messages": [{"role": "user", "content": "こんにちは"}]}


@pytest.fixture
def locked(fake_model):
    fake_model.play()  # nothing scripted: a request that reaches the model is recorded, and fails
    return make_chat_app(fake_model, CHAT_OPEN=False, API_KEYS=",".join(KEYS)).test_client()


def ask(client, authorization=None, lang="en"):
    headers = {"Authorization": authorization} if authorization is not None else {}
    return client.post(f"/api/v1/chat?lang={lang}", json=QUESTION, headers=headers)


@pytest.mark.parametrize("key", KEYS)
def test_a_known_key_opens_the_chat(locked, fake_model, key):
    fake_model.play(reply("こんにちは！"))
    response = ask(locked, f"Bearer {key}")
    assert response.status_code == 200 and response.get_json()["reply"] == "こんにちは！"
    assert len(fake_model.requests) == 1


@pytest.mark.parametrize(
    "authorization, code",
    [
        (None, "chat_key_missing"),
        ("", "chat_key_missing"),
        ("Bearer", "chat_key_missing"),
        ("Basic dXNlcjpwYXNz", "chat_key_missing"),
        (f"Bearer {KEYS[0][:-1]}", "chat_key_wrong"),  # one character short
        (f"Bearer {KEYS[0]}x", "chat_key_wrong"),
        (f"Bearer {KEYS[0]},{KEYS[1]}", "chat_key_wrong"),
        ("Bearer キー", "chat_key_wrong"),
    ],
)
def test_no_key_or_a_wrong_key_is_a_401_before_the_model_is_asked(locked, fake_model, authorization, code):
    response = ask(locked, authorization)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="chat"'
    assert response.get_json()["error"]["code"] == code
    assert fake_model.requests == []


def test_the_refusal_is_in_the_players_language(locked):
    assert ask(locked, lang="ja").get_json()["error"] == {
        "code": "chat_key_missing",
        "message": "チャットを使うにはキーが必要です。Authorization: Bearer <キー> を付けて送ってください"
        "（キーはサービスの運営者にお問い合わせください）。",
        "details": {},
    }
    assert ask(locked, "Bearer nope-nope-nope-nope").get_json()["error"]["message"] == (
        "This key does not open the chat; check the key the operator gave you."
    )


def test_the_scheme_is_case_insensitive(locked, fake_model):
    fake_model.play(reply("ok"))
    assert ask(locked, f"bearer {KEYS[0]}").status_code == 200


def test_a_model_without_client_keys_keeps_the_chat_shut(fake_model):
    fake_model.play()
    client = make_chat_app(fake_model, CHAT_OPEN=False).test_client()
    assert ask(client, f"Bearer {KEYS[0]}").get_json()["error"]["code"] == "chat_key_wrong"
    assert ask(client).status_code == 401
    assert fake_model.requests == []


def test_an_open_chat_takes_no_key(fake_model):
    fake_model.play(reply("ok"))
    assert ask(make_chat_app(fake_model, CHAT_OPEN=True).test_client()).status_code == 200


def test_without_a_model_the_chat_answers_503_without_asking_for_a_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    response = ask(create_app({"TESTING": True, "API_KEYS": KEYS[0]}).test_client())
    assert response.status_code == 503


def test_the_scorers_and_tools_take_no_key(locked):
    body = {"players": [{"name": "A", "cards": [{"color": "red", "value": 2}]}]}
    assert locked.post("/api/v1/apero/score", json=body).status_code == 200
    assert locked.post("/api/v1/tools/score_apero", json=body).status_code == 200


def test_keys_never_appear_in_answers_or_logs(locked, fake_model, caplog):
    caplog.set_level(logging.DEBUG)
    fake_model.play(reply("ok"))
    answers = [ask(locked, f"Bearer {KEYS[0]}"), ask(locked, f"Bearer {KEYS[1]}x"), ask(locked)]
    for response in answers:
        text = response.get_data(as_text=True)
        assert not any(key in text for key in KEYS) and API_KEY not in text
    assert not any(key in caplog.text for key in KEYS) and API_KEY not in caplog.text


MAKE_KEY = "make one with: python -c 'import secrets; print(secrets.token_urlsafe(32))'"


@pytest.mark.parametrize(
    ("keys", "place"),
    [
        ("short", 1),
        ("sk-test-9f8e7d6c5b4a", 1),  # 20 characters: taken before, now too short
        ("a" * 201, 1),
        (f"{KEYS[0]},", 2),
        (f"{KEYS[0]},has space-0123456789abcdef", 2),
        ("tab\tkey-0123456789abcdefgh", 1),
    ],
)
def test_short_or_malformed_keys_refuse_to_start_without_showing_them(keys, place):
    with pytest.raises(SettingsError) as refused:
        create_app({"TESTING": True, "API_KEYS": keys})
    assert str(refused.value) == (
        "SCORING_API_KEYS=(hidden): must be keys of 24 to 200 printable characters without spaces, "
        f"separated by commas (key {place} is not); {MAKE_KEY}"
    )


@pytest.mark.parametrize(
    ("keys", "place"),
    [("a" * 40, 1), ("ab12" * 8, 1), (f"{KEYS[0]},{'012345678' * 3}", 2), (f"{KEYS[1]},abcdefgh-abcdefgh-abcdefgh", 2)],
)
def test_keys_of_few_different_characters_refuse_to_start_without_showing_them(keys, place):
    with pytest.raises(SettingsError) as refused:
        create_app({"TESTING": True, "API_KEYS": keys})
    message = str(refused.value)
    assert message == (
        f"SCORING_API_KEYS=(hidden): must be keys hard to guess: key {place} has fewer than 10 different "
        f"characters; {MAKE_KEY}"
    )
    assert not any(key in message for key in keys.split(","))


def test_a_key_made_as_the_refusal_says_is_taken():
    key = secrets.token_urlsafe(32)
    assert create_app({"TESTING": True, "API_KEYS": f"{key},{KEYS[0]}"}).config["API_KEYS"] == f"{key},{KEYS[0]}"


def test_malformed_keys_are_refused_without_showing_them():
    with pytest.raises(SettingsError, match=r"^SCORING_API_KEYS=\(hidden\): must be keys of 24 to 200 [^;]*$"):
        create_app({"TESTING": True, "API_KEYS": 12345})


def test_chat_open_must_be_a_boolean(monkeypatch):
    monkeypatch.setenv("SCORING_CHAT_OPEN", "yes")
    with pytest.raises(SettingsError, match="SCORING_CHAT_OPEN='yes': must be true or false"):
        create_app({"TESTING": True})


def test_a_bad_model_key_is_refused_without_showing_it():
    with pytest.raises(SettingsError) as refused:
        create_app({"TESTING": True, "OPENAI_API_KEY": " sk-with-a-leading-space"})
    assert "sk-with" not in str(refused.value) and "OPENAI_API_KEY=(hidden)" in str(refused.value)


# --- wrong keys are limited per address (SCORING_WRONG_KEY_RATE_LIMIT, 10 per minute) ---


def test_the_eleventh_wrong_key_from_an_address_is_a_429_even_with_the_right_key(locked, fake_model):
    for number in range(10):
        assert ask(locked, f"Bearer guess-{number:02d}-abcdefghijklmnop").status_code == 401
    fake_model.play(reply("届かないはず"))
    refused = ask(locked, f"Bearer {KEYS[0]}")  # the right key, not even compared
    assert refused.status_code == 429
    seconds = refused.headers["Retry-After"]
    assert 1 <= int(seconds) <= 60
    assert refused.get_json()["error"] == {
        "code": "too_many_wrong_keys",
        "message": f"Too many wrong keys (limit: 10 per minute); try again with the right key in {seconds} seconds.",
        "details": {},
    }
    assert ask(locked, f"Bearer {KEYS[0]}", lang="ja").get_json()["error"]["message"] == (
        f"間違ったキーが多すぎます（上限: 1分あたり10回）。{seconds}秒後に正しいキーでもう一度お試しください。"
    )
    assert fake_model.requests == []


def test_right_keys_use_up_no_attempts(locked):
    right = {"Authorization": f"Bearer {KEYS[1]}"}
    assert [locked.get("/v1/models", headers=right).status_code for _ in range(15)] == [200] * 15
    wrong = {"Authorization": "Bearer wrong-key-abcdefghijklmnop"}
    assert [locked.get("/v1/models", headers=wrong).status_code for _ in range(11)] == [401] * 10 + [429]


def test_each_address_has_its_own_attempts(fake_model):
    """Behind a trusted proxy, the forwarded address is the one limited."""
    client = make_chat_app(
        fake_model, CHAT_OPEN=False, API_KEYS=",".join(KEYS), TRUSTED_PROXIES="127.0.0.1", WRONG_KEY_RATE_LIMIT="2/hour"
    ).test_client()

    def models(address, key):
        headers = {"X-Forwarded-For": address, "Authorization": f"Bearer {key}"}
        return client.get("/v1/models?lang=en", headers=headers)

    assert [models("198.51.100.7", "not-the-key-abcdefghijklm").status_code for _ in range(3)] == [401, 401, 429]
    refused = models("198.51.100.7", KEYS[0]).get_json()["error"]
    assert refused["message"].startswith("Too many wrong keys (limit: 2 per hour)")
    assert models("198.51.100.8", KEYS[0]).status_code == 200


def test_the_openai_endpoints_refuse_in_openais_shape(locked, fake_model):
    wrong = {"Authorization": "Bearer wrong-key-abcdefghijklmnop"}
    for _ in range(10):
        locked.get("/v1/models", headers=wrong)
    question = {"model": "ai-chan-en", "messages": [{"role": "user", "content": "hi"}]}
    for refused in (
        locked.post("/v1/chat/completions?lang=en", json=question, headers={"Authorization": f"Bearer {KEYS[0]}"}),
        locked.get("/v1/models?lang=en", headers=wrong),
    ):
        assert refused.status_code == 429
        seconds = refused.headers["Retry-After"]
        assert refused.get_json() == {
            "error": {
                "message": f"Too many wrong keys (limit: 10 per minute); try again with the right key in {seconds} seconds.",
                "type": "rate_limit_error",
                "code": "too_many_wrong_keys",
                "param": None,
            }
        }
    assert fake_model.requests == []


def test_a_bad_wrong_key_limit_refuses_to_start():
    with pytest.raises(SettingsError, match=r"^SCORING_WRONG_KEY_RATE_LIMIT='often': must be a rate"):
        create_app({"TESTING": True, "WRONG_KEY_RATE_LIMIT": "often"})
