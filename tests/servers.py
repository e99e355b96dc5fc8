"""Servers the tests start themselves, on free ports of 127.0.0.1."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 20, what: str = "the server") -> None:
    """Until ``port`` accepts a connection; fail the test if ``process`` dies or time runs out."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                pytest.fail(f"{what} did not start")
            time.sleep(0.1)


def wait_for_health(port: int, process: subprocess.Popen, seconds: float = 30) -> None:
    """Until /healthz answers: gunicorn's master binds the port before a worker has booted,
    and a test's first connection must not wait in the backlog meanwhile (the slow-client
    tests time what a worker does with it)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
            return
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                pytest.fail("gunicorn's workers did not start")
            time.sleep(0.1)


@contextmanager
def gunicorn(env: dict, *, workers: int = 1, log: Path | None = None, options: tuple[str, ...] = ()) -> Iterator[int]:
    """The app as the README's command serves it (gunicorn with the package's settings,
    gevent workers), with ``options`` added: its port."""
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "-c", "python:scoring_api.gunicorn_conf"]
    command += ["--bind", f"127.0.0.1:{port}", "--workers", str(workers), *options]
    if log is not None:
        command += ["--error-logfile", str(log)]
    process = subprocess.Popen(
        [*command, "scoring_api:create_app()"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wait_for_port(port, process, what=f"gunicorn{'' if log is None or not log.exists() else ': ' + log.read_text()}")
    wait_for_health(port, process)
    try:
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)
