"""Smaller answers on the wire: gzip or brotli (flask-compress) for the form's files and for
answers of at least 1 KiB, as the client accepts; never the chat's stream nor /mcp; ETags
that name the encoding, conditional requests and ranges as before; the form's files
revalidated (``no-cache`` and their ETag: their URLs carry no version)."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import brotli
import pytest

from scoring_api import COMPRESS_MIN_BYTES, SECURITY_HEADERS, create_app
from scoring_api.web import bp as web
from tests.fake_openai import reply

BROWSER = "gzip, deflate, br, zstd"  # what Chromium sends
#: 10 KiB of a script, the size of a middle-sized module of the form.
TEN_KIB = ("// a line of the form's script, as compressible as the real one\n" * 160).encode()
DECODE = {"gzip": gzip.decompress, "br": brotli.decompress}


@pytest.fixture
def static_copy(tmp_path, monkeypatch):
    """The form's static folder as a copy holding ``ten.js`` (10 KiB), which a test may change."""
    folder = tmp_path / "static"
    shutil.copytree(Path(web.static_folder), folder)
    (folder / "ten.js").write_bytes(TEN_KIB)
    monkeypatch.setattr(web, "static_folder", str(folder))
    return folder


def fetch(client, url, **headers):
    """Status, headers and body of ``url``, the answer closed (static files are streamed)."""
    with client.get(url, headers=headers) as answer:
        return answer.status_code, answer.headers, answer.get_data()


def test_the_threshold_is_one_kib():
    assert COMPRESS_MIN_BYTES == 1024
    assert len(TEN_KIB) == 10_240


@pytest.mark.parametrize(
    ("accepted", "encoding"),
    [(BROWSER, "br"), ("gzip", "gzip"), ("br", "br"), ("gzip;q=1, br;q=0.5", "gzip")],
)
def test_a_static_file_goes_compressed_as_the_client_accepts(client, static_copy, accepted, encoding):
    status, headers, body = fetch(client, "/assets/ten.js", **{"Accept-Encoding": accepted})
    assert status == 200
    assert headers["Content-Encoding"] == encoding
    assert DECODE[encoding](body) == TEN_KIB
    assert int(headers["Content-Length"]) == len(body) < 1024  # 10 KiB of repeated lines
    assert headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert headers["Vary"] == "Accept-Encoding"
    assert headers["Cache-Control"] == "no-cache"
    assert headers["ETag"].endswith(f':{encoding}"')  # never the same validator as the file as it is
    assert "Accept-Ranges" not in headers  # ranges are offered on the file as it is
    assert headers["Content-Security-Policy"] == SECURITY_HEADERS["Content-Security-Policy"]


@pytest.mark.parametrize("accepted", [None, "identity", "compress"])
def test_a_static_file_goes_as_it_is_to_a_client_that_takes_no_compression(client, static_copy, accepted):
    status, headers, body = fetch(client, "/assets/ten.js", **({"Accept-Encoding": accepted} if accepted else {}))
    assert status == 200
    assert "Content-Encoding" not in headers
    assert body == TEN_KIB
    assert headers["Content-Length"] == "10240"
    assert headers["Accept-Ranges"] == "bytes"
    assert headers["Cache-Control"] == "no-cache"
    assert headers["ETag"].startswith('"') and ":" not in headers["ETag"]


def test_each_encoding_has_its_etag_and_revalidates_with_it(client, static_copy):
    _, plain, _ = fetch(client, "/assets/ten.js")
    _, packed, _ = fetch(client, "/assets/ten.js", **{"Accept-Encoding": BROWSER})
    assert packed["ETag"] == plain["ETag"][:-1] + ':br"'
    status, headers, body = fetch(
        client, "/assets/ten.js", **{"Accept-Encoding": BROWSER, "If-None-Match": packed["ETag"]}
    )
    assert (status, body) == (304, b"")
    assert headers["ETag"] == packed["ETag"]
    status, _, body = fetch(client, "/assets/ten.js", **{"If-None-Match": plain["ETag"]})
    assert (status, body) == (304, b"")
    # The compressed copy's validator does not stand for the file as it is, and the other way round.
    status, headers, body = fetch(client, "/assets/ten.js", **{"If-None-Match": packed["ETag"]})
    assert (status, body) == (200, TEN_KIB)
    status, headers, body = fetch(
        client, "/assets/ten.js", **{"Accept-Encoding": "gzip", "If-None-Match": packed["ETag"]}
    )
    assert status == 200 and headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == TEN_KIB


def test_a_range_is_a_part_of_the_file_as_it_is(client, static_copy):
    status, headers, body = fetch(client, "/assets/ten.js", **{"Accept-Encoding": BROWSER, "Range": "bytes=3-12"})
    assert status == 206
    assert "Content-Encoding" not in headers
    assert headers["Content-Range"] == "bytes 3-12/10240"
    assert body == TEN_KIB[3:13]
    _, plain, _ = fetch(client, "/assets/ten.js")
    # If-Range with the compressed ETag: not the file as it is, so the whole file, compressed.
    _, packed, _ = fetch(client, "/assets/ten.js", **{"Accept-Encoding": BROWSER})
    status, headers, body = fetch(
        client, "/assets/ten.js", **{"Accept-Encoding": BROWSER, "Range": "bytes=3-12", "If-Range": packed["ETag"]}
    )
    assert status == 200 and headers["Content-Encoding"] == "br" and brotli.decompress(body) == TEN_KIB
    status, _, body = fetch(
        client, "/assets/ten.js", **{"Accept-Encoding": BROWSER, "Range": "bytes=3-12", "If-Range": plain["ETag"]}
    )
    assert (status, body) == (206, TEN_KIB[3:13])


def test_a_changed_file_is_compressed_again(client, static_copy):
    _, first, body = fetch(client, "/assets/ten.js", **{"Accept-Encoding": "br"})
    assert brotli.decompress(body) == TEN_KIB
    changed = TEN_KIB + b"// deploy 2\n"
    (static_copy / "ten.js").write_bytes(changed)
    _, second, body = fetch(client, "/assets/ten.js", **{"Accept-Encoding": "br"})
    assert brotli.decompress(body) == changed
    assert second["ETag"] != first["ETag"]


def test_a_small_file_and_a_compressed_image_go_as_they_are(client, static_copy):
    (static_copy / "tiny.js").write_bytes(b"export const x = 1;\n" * 50)  # 1000 bytes
    for url in ("/assets/tiny.js", "/assets/app-icon-192.png"):
        status, headers, _ = fetch(client, url, **{"Accept-Encoding": BROWSER})
        assert status == 200 and "Content-Encoding" not in headers, url


def test_the_page_and_the_worker_go_compressed(client):
    status, headers, body = fetch(client, "/", **{"Accept-Encoding": BROWSER})
    assert status == 200 and headers["Content-Encoding"] == "gzip"  # made per request: gzip first
    assert "<!doctype html>" in gzip.decompress(body).decode()
    _, plain, source = fetch(client, "/sw.js")
    status, headers, body = fetch(client, "/sw.js", **{"Accept-Encoding": BROWSER})
    assert status == 200 and headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == source
    assert headers["ETag"] == plain["ETag"][:-1] + ':gzip"'
    assert headers["Cache-Control"] == "no-cache"
    status, _, body = fetch(client, "/sw.js", **{"Accept-Encoding": BROWSER, "If-None-Match": headers["ETag"]})
    assert (status, body) == (304, b"")


def test_a_tiny_json_answer_goes_as_it_is(client):
    answer = client.get("/healthz", headers={"Accept-Encoding": BROWSER})
    assert answer.status_code == 200
    assert "Content-Encoding" not in answer.headers
    assert answer.get_json()["status"] == "ok"
    small = client.post(
        "/api/v1/apero/score",
        json={"players": [{"name": "Aki", "cards": [{"color": "red", "value": 1}]}]},
        headers={"Accept-Encoding": BROWSER},
    )
    assert small.status_code == 200 and len(small.get_data()) < 1024
    assert "Content-Encoding" not in small.headers
    # Never compressed whatever the client accepts: such an answer does not vary by it.
    for answer in (small, client.get("/healthz", headers={"Accept-Encoding": BROWSER})):
        assert "Accept-Encoding" not in answer.headers.get("Vary", "")
    assert small.get_json()["players"][0]["total"] == 1


def test_a_json_answer_of_a_kib_or_more_goes_compressed(client):
    hand = [{"color": color, "value": value} for color in ("red", "green", "blue") for value in (1, 2, 3)]
    body = {"players": [{"name": name, "cards": hand} for name in ("Aki", "Ben", "Chika")], "sets": 3}
    plain = client.post("/api/v1/apero/score", json=body)
    assert len(plain.get_data()) >= 1024 and "Content-Encoding" not in plain.headers
    for accepted, encoding in ((BROWSER, "gzip"), ("br", "br")):
        answer = client.post("/api/v1/apero/score", json=body, headers={"Accept-Encoding": accepted})
        assert answer.headers["Content-Encoding"] == encoding
        assert answer.headers["Vary"] == "Accept-Encoding"
        assert int(answer.headers["Content-Length"]) == len(answer.get_data()) < len(plain.get_data()) / 2
        assert json.loads(DECODE[encoding](answer.get_data())) == plain.get_json()
    assert plain.get_json()["players"][0]["total"] == 27  # each colour (1 + 2) × 3 = 9


def test_the_chat_stream_is_never_compressed(fake_model):
    client = create_app(
        {
            "TESTING": True,
            "OPENAI_BASE_URL": fake_model.base_url,
            "OPENAI_API_KEY": "sk-test-9f8e7d6c5b4a",
            "OPENAI_MODEL": "fake-model",
            "CHAT_MAX_RETRIES": 0,
            "CHAT_OPEN": True,
        }
    ).test_client()
    long_text = "アペロの得点は色ごとに計算します。" * 100  # well over 1 KiB of events
    fake_model.play(reply(long_text))
    body = {"model": "ai-chan", "messages": [{"role": "user", "content": "こんにちは"}], "stream": True}
    answer = client.post("/v1/chat/completions", json=body, headers={"Accept-Encoding": BROWSER})
    assert answer.status_code == 200
    assert answer.mimetype == "text/event-stream"
    assert "Content-Encoding" not in answer.headers
    text = answer.get_data(as_text=True)
    assert len(text.encode()) > 1024 and text.endswith("data: [DONE]\n\n")
    fake_model.play(reply(long_text))
    answer = client.post(
        "/api/v1/chat",
        json={"messages": [{"role": "user", "content": "こんにちは"}]},
        headers={"Accept-Encoding": BROWSER},
    )
    assert answer.status_code == 200 and len(answer.get_data()) > 1024
    assert "Content-Encoding" not in answer.headers


def test_mcp_answers_are_never_compressed(client):
    answer = client.post(
        "/mcp",
        data=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        content_type="application/json",
        headers={"Accept": "application/json, text/event-stream", "Accept-Encoding": BROWSER},
    )
    assert answer.status_code == 200
    assert len(answer.get_data()) > 1024  # every tool's definition
    assert "Content-Encoding" not in answer.headers
    assert answer.get_json()["result"]["tools"]
