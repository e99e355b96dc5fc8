"""The container runs what the Procfile runs, as a non-root user, with a health check.

No test here builds the image (there is no Docker daemon on the test machines); these
tests keep the Dockerfile in step with the Procfile and with what the README promises."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")


def instructions() -> list[tuple[str, str]]:
    """``(INSTRUCTION, arguments)`` with continuation lines joined and comments left out."""
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    found = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def test_the_container_runs_the_procfiles_command():
    web = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    [cmd] = [rest for word, rest in instructions() if word == "CMD"]
    shell = json.loads(cmd)
    assert shell[:2] == ["sh", "-c"]
    assert shell[2] == "exec " + web.removeprefix("web:").strip()


def test_it_runs_as_a_user_that_is_not_root():
    users = [rest for word, rest in instructions() if word == "USER"]
    assert users and users[-1] not in ("root", "0")


def test_it_checks_its_health_on_healthz():
    [check] = [rest for word, rest in instructions() if word == "HEALTHCHECK"]
    assert "/healthz" in check and "--timeout=" in check


def test_it_starts_from_a_slim_python_of_the_supported_version():
    [base] = [rest for word, rest in instructions() if word == "FROM"]
    assert re.fullmatch(r"python:3\.1[1-9]-slim", base)
    assert 'requires-python = ">=3.11"' in (ROOT / "pyproject.toml").read_text()


def test_the_image_holds_no_tests_or_local_state():
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", "tests", "**/__pycache__"} <= set(ignored)


def test_the_readme_the_procfile_and_the_tests_serve_with_the_packages_gunicorn_settings():
    """One place says how gunicorn serves the app: scoring_api/gunicorn_conf.py."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    serve = next(line for line in readme.splitlines() if "gunicorn" in line and "--bind 127.0.0.1:8000" in line)
    procfile = (ROOT / "Procfile").read_text()
    servers = (ROOT / "tests" / "servers.py").read_text()
    for command in (serve, procfile, servers.replace('", "', " ")):
        assert "-c python:scoring_api.gunicorn_conf" in command


def test_the_gunicorn_settings_bound_every_connection():
    from scoring_api import gunicorn_conf

    assert gunicorn_conf.worker_class == "gevent"
    assert 1 <= gunicorn_conf.keepalive <= 10  # the head timeout (0 would wait for ever)
    assert gunicorn_conf.limit_request_line and gunicorn_conf.limit_request_fields
    assert gunicorn_conf.limit_request_field_size


def test_each_gevent_worker_freezes_the_loaded_app_and_yields_after_each_answer(monkeypatch):
    """scoring_api/gunicorn_conf.py, ``post_worker_init`` and ``post_request``: the loaded
    app is moved out of the garbage collector's sight, and each answer ends with
    ``gevent.sleep(0)`` (the worker's other connections go first)."""
    import gc

    import gevent
    from gunicorn import util
    from gunicorn.workers.ggevent import GeventWorker

    from scoring_api import create_app, gunicorn_conf

    monkeypatch.setattr(util, "write_error", util.write_error)  # put back after the test
    monkeypatch.setattr(gunicorn_conf, "_after_each_request", [])
    slept: list[float] = []
    monkeypatch.setattr(gevent, "sleep", slept.append)
    worker = GeventWorker.__new__(GeventWorker)  # no process: its class and these three
    worker.wsgi, worker.log, worker.handle_request = create_app(), None, lambda *request: True
    try:
        gunicorn_conf.post_worker_init(worker)
        assert gc.get_freeze_count() > 50_000
    finally:
        gc.unfreeze()
    gunicorn_conf.post_request(worker, None, {}, None)
    gunicorn_conf.post_request(worker, None, {}, None)
    assert slept == [0, 0]
