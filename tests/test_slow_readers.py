"""Clients that ask for answers and never read them, against the README's server (gunicorn,
gevent workers): each write of an answer gets ``SCORING_SEND_TIMEOUT`` seconds, then the
connection is reset and its slot serves someone else (scoring_api/gunicorn_conf.py,
docs/deployment.md "The server")."""

from __future__ import annotations

import os
import socket
import urllib.request

import pytest

from scoring_api.openapi import spec_yaml
from tests.servers import gunicorn

pytestmark = pytest.mark.slow  # live gunicorn processes (docs/development.md)

#: Slots of the server's one worker (``--worker-connections``), and slow readers: twice as
#: many, so that every slot is held and more wait behind them.
SLOTS = 4
READERS = 2 * SLOTS
#: Answers each slow reader asks for at once (pipelined): 32 x 210 KB, more than the
#: kernel queues for a client that does not read (1.6 MB here, at most 4 MB by default).
PIPELINED = 32
OPENAPI = b"GET /openapi.yaml HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


@pytest.fixture(scope="module")
def few_slots(tmp_path_factory):
    """One worker of ``SLOTS`` connections that gives each write of an answer 1 s; its error log."""
    log = tmp_path_factory.mktemp("gunicorn") / "error.log"
    env = {**os.environ, "SCORING_SEND_TIMEOUT": "1"}
    with gunicorn(env, log=log, options=("--worker-connections", str(SLOTS))) as port:
        # the worker writes the spec once (seconds on a busy machine), before the readers ask
        urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.yaml", timeout=60).read()
        yield port, log


def _slow_reader(port: int) -> socket.socket:
    """A connection with a 1 KiB receive buffer that asks for ``PIPELINED`` answers and reads none."""
    connection = socket.socket()
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    connection.settimeout(10)
    connection.connect(("127.0.0.1", port))
    connection.sendall(OPENAPI * PIPELINED)
    return connection


def _read_all(connection: socket.socket) -> tuple[bytes, str]:
    """Everything ``connection`` receives, and how it ended: ``closed``, ``reset`` or ``timeout``."""
    received = b""
    try:
        while chunk := connection.recv(65536):
            received += chunk
    except ConnectionResetError:
        return received, "reset"
    except TimeoutError:
        return received, "timeout"
    return received, "closed"


def test_slow_readers_are_reset_and_everyone_else_is_answered(few_slots):
    port, log = few_slots
    readers = [_slow_reader(port) for _ in range(READERS)]
    try:
        for _ in range(4):  # each waits for a slot a slow reader held
            with socket.create_connection(("127.0.0.1", port), timeout=10) as probe:
                probe.sendall(HEALTHZ)
                answer, ended = _read_all(probe)
            assert (ended, answer.split(b"\r\n", 1)[0]) == ("closed", b"HTTP/1.1 200 OK")
        endings = [_read_all(reader) for reader in readers]
    finally:
        for reader in readers:
            reader.close()
    asked = PIPELINED * len(spec_yaml(None).encode())
    assert [ended for _, ended in endings] == ["reset"] * READERS
    assert all(len(received) < asked / 2 for received, _ in endings)
    text = log.read_text()
    assert text.count("Reset the connection of 127.0.0.1: the answer was not taken within 1 s") == READERS
    assert "Traceback" not in text


def test_a_client_that_reads_gets_the_whole_answer(few_slots):
    """The deadline is on the client taking each write, not on the size of the answer."""
    port, _ = few_slots
    with socket.socket() as connection:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        connection.settimeout(10)
        connection.connect(("127.0.0.1", port))
        connection.sendall(OPENAPI.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"))
        answer, ended = _read_all(connection)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert (ended, head.split(b"\r\n", 1)[0]) == ("closed", b"HTTP/1.1 200 OK")
    assert body == spec_yaml(None).encode()
