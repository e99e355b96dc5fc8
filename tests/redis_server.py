"""A real Redis server for the tests, started on a free port of 127.0.0.1 and stopped after
them; it can be frozen (SIGSTOP), thawed, killed and started again on the same port, the
faults docs/deployment.md ("Redis") describes."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.servers import free_port


class RedisServer:
    """``redis-server`` without persistence, in ``folder``; ``uri`` is its address."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.uri = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> RedisServer:
        server = shutil.which("redis-server")
        if server is None:
            pytest.fail("redis-server is not installed (apt-get install redis-server; .ci/run does)")
        command = [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(
            [*command, "--dir", str(self.folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and self.process.poll() is None:
            if self.answers():
                return self
            time.sleep(0.05)
        self.process.kill()
        pytest.fail("redis-server did not start")

    def answers(self) -> bool:
        """Whether the server answers PING now."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def freeze(self) -> None:
        """The process stops (SIGSTOP): connections are still accepted, nothing answers."""
        self._signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self._signal(signal.SIGCONT)

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.thaw()
            self.process.terminate()
            self.process.wait(timeout=10)

    def _signal(self, number: int) -> None:
        assert self.process is not None and self.process.poll() is None
        self.process.send_signal(number)
