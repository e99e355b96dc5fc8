"""Fixtures in the flaskr style: an app per test, its client and CLI runner."""

import os

import pytest
from flask import Flask

from scoring_api import create_app
from scoring_api.operations.operation import Operation
from tests.fake_openai import FakeModel
from tests.recorded.recorder import recording_call

# The suite sends thousands of requests from one address; tests/api/test_rate_limits.py
# sets its own limits.
os.environ.setdefault("SCORING_RATE_LIMIT", "1000000 per minute")
os.environ.setdefault("SCORING_CHAT_RATE_LIMIT", "1000000 per minute")

if os.environ.get("SCORING_TEST_RECORD"):  # python -m tests.recorded.record
    Flask.__call__ = recording_call(Flask.__call__, os.environ["SCORING_TEST_RECORD"])

API_KEY = "sk-test-9f8e7d6c5b4a"  # must never appear in a response or a log line


# -- Every answer keeps its response schema ---------------------------------------------
#
# Operation.run returns the handler's answer as the handler built it: no response schema
# dumps it (docs/performance.md, "Answers built once"). So in the tests every answer
# Operation.run gives (REST, tools, MCP in-process, the chat's tool calls) is checked
# against its operation's response schema; an answer that differs fails the test that
# got it (tests/test_answers_match_schemas.py checks the check).

#: The types of a JSON document as the answers hold them (no tuple, float, Decimal,
#: enum or subclass: a dump would have turned them into these, or json would write them
#: otherwise).
JSON_TYPES = (dict, list, str, int, bool, type(None))


def answer_mismatches(op: Operation, answer) -> list[str]:
    """How ``answer`` differs from what ``op``'s response schema makes of it, one line per
    difference, each at its JSON path ([] when it differs in nothing):

    - a value of another type than :data:`JSON_TYPES` (a tuple, a float, an enum...);
    - what the schema refuses when it reads the answer strictly (``validate``): a missing
      required field, an unknown key, a wrong type, a value outside a ``OneOf``;
    - anything its ``dump`` would change: key order, a field's ``data_key``, a
      ``dump_default``, a ``Method`` or ``Function`` field, formatting (``1.0`` for 1,
      ``1`` for true), a dropped key."""
    found = [f"{where}: {type(value).__name__} is not a JSON type" for where, value in _not_json(answer, "$")]
    if found:
        return found
    found += [f"{where}: {reasons}" for where, reasons in _flat_errors(op.response_schema.validate(answer), "$")]
    found += _differences(answer, op.response_schema.dump(answer), "$")
    return found


def _not_json(value, where: str):
    if type(value) not in JSON_TYPES:
        yield where, value
    elif type(value) is dict:
        for key, item in value.items():
            if type(key) is not str:
                yield f"{where} key {key!r}", key
            else:
                yield from _not_json(item, f"{where}.{key}")
    elif type(value) is list:
        for index, item in enumerate(value):
            yield from _not_json(item, f"{where}[{index}]")


def _flat_errors(errors, where: str):
    """marshmallow's nested error messages as (path, reasons) pairs."""
    if not isinstance(errors, dict):
        yield where, errors
        return
    for key, inner in errors.items():
        yield from _flat_errors(inner, f"{where}[{key}]" if isinstance(key, int) else f"{where}.{key}")


def _differences(built, dumped, where: str) -> list[str]:
    """Where ``built`` and ``dumped`` differ, types and key order included."""
    if type(built) is not type(dumped):
        return [f"{where}: built {built!r}, the dump gives {dumped!r}"]
    if type(built) is dict:
        if list(built) != list(dumped):
            return [f"{where}: keys built {list(built)}, the dump gives {list(dumped)}"]
        return [line for key in built for line in _differences(built[key], dumped[key], f"{where}.{key}")]
    if type(built) is list:
        if len(built) != len(dumped):
            return [f"{where}: {len(built)} items built, the dump gives {len(dumped)}"]
        pairs = enumerate(zip(built, dumped, strict=True))
        return [line for i, (one, other) in pairs for line in _differences(one, other, f"{where}[{i}]")]
    return [] if built == dumped else [f"{where}: built {built!r}, the dump gives {dumped!r}"]


#: Mismatches found since the last test that reported them (a server thread's too).
ANSWER_MISMATCHES: list[str] = []
#: Operation.run itself: what production runs (the check below wraps it in the tests).
UNCHECKED_RUN = Operation.run


def _checked_run(self: Operation, payload, lang: str) -> dict:
    answer = UNCHECKED_RUN(self, payload, lang)
    found = answer_mismatches(self, answer)
    if found:
        shown = "\n    ".join(found[:10])
        ANSWER_MISMATCHES.append(f"{self.operation_id} ({lang}), {len(found)} difference(s):\n    {shown}")
    return answer


Operation.run = _checked_run  # type: ignore[method-assign]


def _report_mismatches() -> None:
    __tracebackhide__ = True
    if ANSWER_MISMATCHES:
        found = ANSWER_MISMATCHES[:]
        ANSWER_MISMATCHES.clear()
        raise AssertionError(
            "an answer does not match its operation's response schema (tests/conftest.py):\n  " + "\n  ".join(found)
        )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """The test fails if an answer it got (in its set-up or its body) missed its schema."""
    try:
        result = yield
    except BaseException:
        _report_mismatches()  # both failed: the schema's reason, from the test's own
        raise
    _report_mismatches()
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """...and so does its tear-down (a module's server answering while it stops)."""
    result = yield
    _report_mismatches()
    return result


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


def chat_env(fake_model, **variables: str) -> dict[str, str]:
    """The environment of a served app (gunicorn) whose chat talks to ``fake_model``, without
    retries; ``variables`` (``SCORING_...``) added."""
    return {
        **os.environ,
        "OPENAI_BASE_URL": fake_model.base_url,
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_MODEL": "fake-model",
        "SCORING_CHAT_MAX_RETRIES": "0",
        **variables,
    }


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
