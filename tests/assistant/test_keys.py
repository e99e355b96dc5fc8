"""The chat spends the operator's model credits, so it takes a client key
(``SCORING_API_KEYS``) when a model is configured, unless the operator opened it."""

from __future__ import annotations

import logging

import pytest

from scoring_api import SettingsError, create_app
from tests.conftest import API_KEY, make_chat_app
from tests.fake_openai import reply

KEYS = ("client-key-0123456789", "other-client-key-abcdef")
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
        ("Bearer client-key-012345678", "chat_key_wrong"),  # one character short
        ("Bearer client-key-0123456789x", "chat_key_wrong"),
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


@pytest.mark.parametrize(
    "keys",
    ["short", "a" * 201, "good-key-0123456789,", "good-key-0123456789,has space-0123456", "tab\tkey-0123456789", 12345],
)
def test_weak_or_malformed_keys_refuse_to_start_without_showing_them(keys):
    with pytest.raises(SettingsError) as refused:
        create_app({"TESTING": True, "API_KEYS": keys})
    message = str(refused.value)
    assert message.startswith("SCORING_API_KEYS=(hidden): must be keys of 16 to 200 printable characters")
    assert str(keys) not in message


def test_chat_open_must_be_a_boolean(monkeypatch):
    monkeypatch.setenv("SCORING_CHAT_OPEN", "yes")
    with pytest.raises(SettingsError, match="SCORING_CHAT_OPEN='yes': must be true or false"):
        create_app({"TESTING": True})


def test_a_bad_model_key_is_refused_without_showing_it():
    with pytest.raises(SettingsError) as refused:
        create_app({"TESTING": True, "OPENAI_API_KEY": " sk-with-a-leading-space"})
    assert "sk-with" not in str(refused.value) and "OPENAI_API_KEY=(hidden)" in str(refused.value)
