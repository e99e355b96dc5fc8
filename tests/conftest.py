"""Fixtures in the flaskr style: an app per test, its client and CLI runner."""

import pytest

from scoring_api import create_app


@pytest.fixture
def app():
    return create_app({"TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
