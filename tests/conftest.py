"""Fixtures in the flaskr style: an app per test, its client and CLI runner."""

import os

import pytest
from flask import Flask

from scoring_api import create_app
from tests.fake_openai import FakeModel
from tests.recorded.recorder import recording_call

# The suite sends thousands of requests from one address; tests/api/test_rate_limits.py
# sets its own limits.
os.environ.setdefault("SCORING_RATE_LIMIT", "1000000 per minute")
os.environ.setdefault("SCORING_CHAT_RATE_LIMIT", "1000000 per minute")

if os.environ.get("SCORING_TEST_RECORD"):  # python -m tests.recorded.record
    Flask.__call__ = recording_call(Flask.__call__, os.environ["SCORING_TEST_RECORD"])

API_KEY = "sk-test-9f8e7d6c5b4a"  # must never appear in a response or a log line


def pytest_configure(config):
    """A bare ``pytest`` (no path, no ``-m``) is the fast loop: it leaves out the tests marked
    slow. Naming a file or folder runs all of it; ``.ci/run`` runs everything
    (docs/development.md, "Tests and checks")."""
    if not config.option.markexpr and config.args_source == pytest.Config.ArgsSource.TESTPATHS:
        config.option.markexpr = "not slow"  # xdist hands it to the workers
    if config.option.markexpr == "not slow":
        # Schemathesis would still build the contract test (slow, tests/test_openapi.py) at
        # collection, every operation's coverage cases: half of each worker's collection time.
        schemathesis = config.pluginmanager.get_plugin("schemathesis.pytest.plugin")
        if schemathesis is not None:
            config.pluginmanager.unregister(schemathesis)


@pytest.fixture
def app():
    return create_app({"TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture(scope="session")
def fake_model():
    """A scripted OpenAI-compatible server on 127.0.0.1 (tests/fake_openai.py)."""
    model = FakeModel().start()
    yield model
    model.stop()


def make_chat_app(fake_model, **settings):
    """An app whose chat talks to ``fake_model``; ``settings`` override the test defaults."""
    return create_app(
        {
            "TESTING": True,
            "OPENAI_BASE_URL": fake_model.base_url,
            "OPENAI_API_KEY": API_KEY,
            "OPENAI_MODEL": "fake-model",
            "CHAT_TIMEOUT": 1.0,
            "CHAT_MAX_RETRIES": 0,
            "CHAT_MAX_ROUNDS": 4,
            "CHAT_OPEN": True,  # the chat loop's tests; tests/assistant/test_keys.py locks it
            **settings,
        }
    )


@pytest.fixture
def chat_app(fake_model):
    return make_chat_app(fake_model)


@pytest.fixture
def chat_client(chat_app):
    return chat_app.test_client()
