"""The form's files under a versioned path, kept a year by browsers: /assets/v/<version>/<path>
is immutable while <version> is the static folder's current hash, and a page, manifest and
worker that always name the current one; an old version gets the current file with
``no-cache``; the unversioned /assets/<path> revalidates as before (scoring_api.web)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import flask_compress
import pytest

from scoring_api import create_app
from scoring_api.web import bp as web
from scoring_api.web import static_version

STATIC = Path(web.static_folder)
IMMUTABLE = "public, max-age=31536000, immutable"
OLD = "0123456789abcdef"  # a version the folder never had
BROWSER = "gzip, deflate, br, zstd"  # what Chromium sends
TEN_KIB = ("// a line of the form's script, as compressible as the real one\n" * 160).encode()


@pytest.fixture
def static_copy(tmp_path, monkeypatch):
    """The form's static folder as a copy that a test may change (a deploy), with ten.js."""
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    (folder / "ten.js").write_bytes(TEN_KIB)
    monkeypatch.setattr(web, "static_folder", str(folder))
    return folder


def version_of(app) -> str:
    with app.test_request_context():
        return static_version()


def fetch(client, url, **headers):
    """Status, headers and body of ``url``, the answer closed (static files are streamed)."""
    with client.get(url, headers=headers) as answer:
        return answer.status_code, answer.headers, answer.get_data()


def kept_names(folder: Path) -> list[str]:
    return sorted(
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.is_file() and path.name != "sw.js" and not path.name.startswith(".") and not path.name.endswith("~")
    )


def expected_version(folder: Path) -> str:
    """The folder's version as documented: SHA-256 of each kept file's path and bytes."""
    digest = hashlib.sha256()
    for name in kept_names(folder):
        digest.update(b"\0" + name.encode() + b"\0" + (folder / name).read_bytes())
    return digest.hexdigest()[:16]


def test_the_version_is_a_hash_of_the_kept_files_paths_and_bytes(app, static_copy):
    version = version_of(app)
    assert re.fullmatch(r"[0-9a-f]{16}", version)
    assert version == expected_version(static_copy)
    assert version_of(create_app({"TESTING": True})) == version  # the same files, the same version


def test_the_page_is_revalidated_and_links_every_file_under_the_current_version(app, client):
    version = version_of(app)
    status, headers, body = fetch(client, "/")
    assert status == 200
    assert headers["Cache-Control"] == "no-cache"
    page = body.decode()
    links = re.findall(r'(?:href|src)="(/[^"]*)"', page)
    assert links == [
        f"/assets/v/{version}/icon.svg",
        "/manifest.webmanifest",
        f"/assets/v/{version}/app-icon-192.png",
        f"/assets/v/{version}/app.css",
        f"/assets/v/{version}/main.js",
        f"/assets/v/{version}/offline.js",
    ]
    again, headers_again, body_again = fetch(client, "/", **{"If-None-Match": headers["ETag"]})
    assert (again, body_again, headers_again["Cache-Control"]) == (304, b"", "no-cache")


def test_the_manifest_names_its_icons_under_the_current_version(app, client):
    version = version_of(app)
    status, headers, body = fetch(client, "/manifest.webmanifest")
    assert status == 200 and headers["Cache-Control"] == "no-cache"
    assert [icon["src"] for icon in json.loads(body)["icons"]] == [
        f"/assets/v/{version}/app-icon.svg",
        f"/assets/v/{version}/app-icon-192.png",
        f"/assets/v/{version}/app-icon-512.png",
        f"/assets/v/{version}/app-icon-512.png",
    ]


def test_a_file_under_the_current_version_is_immutable(app, client):
    url = f"/assets/v/{version_of(app)}/text/app.js"
    status, headers, body = fetch(client, url)
    assert status == 200
    assert headers["Cache-Control"] == IMMUTABLE
    assert headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert body == (STATIC / "text" / "app.js").read_bytes()
    status, again, body = fetch(client, url, **{"If-None-Match": headers["ETag"]})
    assert (status, body, again["Cache-Control"], again["ETag"]) == (304, b"", IMMUTABLE, headers["ETag"])
    status, png, body = fetch(client, url.replace("text/app.js", "app-icon-192.png"))
    assert (status, png["Cache-Control"], png["Content-Type"]) == (200, IMMUTABLE, "image/png")
    assert body == (STATIC / "app-icon-192.png").read_bytes()


def test_an_old_version_gets_the_current_file_revalidated(app, client):
    current = version_of(app)
    _, fresh, _ = fetch(client, f"/assets/v/{current}/app.css")
    status, headers, body = fetch(client, f"/assets/v/{OLD}/app.css")
    assert status == 200
    assert headers["Cache-Control"] == "no-cache"  # never immutable for bytes the URL does not name
    assert headers["ETag"] == fresh["ETag"]
    assert body == (STATIC / "app.css").read_bytes()
    status, headers, body = fetch(client, f"/assets/v/{OLD}/app.css", **{"If-None-Match": fresh["ETag"]})
    assert (status, body, headers["Cache-Control"]) == (304, b"", "no-cache")


def test_the_unversioned_path_is_revalidated_as_before(client):
    status, headers, body = fetch(client, "/assets/main.js")
    assert status == 200
    assert headers["Cache-Control"] == "no-cache"
    assert body == (STATIC / "main.js").read_bytes()
    status, again, body = fetch(client, "/assets/main.js", **{"If-None-Match": headers["ETag"]})
    assert (status, body, again["Cache-Control"]) == (304, b"", "no-cache")


def test_only_the_kept_files_are_served_under_a_version(app, client, static_copy):
    version = version_of(app)
    (static_copy / ".hidden.js").write_text("// an editor's file\n", encoding="utf-8")
    (static_copy / "app.css~").write_text("/* a backup */\n", encoding="utf-8")
    assert version_of(app) == version  # neither is kept, neither counts
    for path in (
        ".hidden.js",
        "app.css~",
        "sw.js",  # served at /sw.js with its constants
        "missing.js",
        "text/../app.css",
        "../__init__.py",
        "%2e%2e/__init__.py",
        "text",
    ):
        assert fetch(client, f"/assets/v/{version}/{path}")[0] == 404, path
        assert fetch(client, f"/assets/v/{OLD}/{path}")[0] == 404, path
    for path in ("../__init__.py", "%2e%2e/__init__.py", "missing.js", "text"):  # as before
        assert fetch(client, f"/assets/{path}")[0] == 404, path
    assert fetch(client, "/assets/v/short/app.css")[0] == 404  # not a version: no such folder


def test_changing_a_files_bytes_makes_a_new_version(app, client, static_copy):
    version = version_of(app)
    with (static_copy / "app.css").open("a", encoding="utf-8") as css:
        css.write("\n/* deploy 2 */\n")
    changed = version_of(app)
    assert changed != version and changed == expected_version(static_copy)
    assert f'href="/assets/v/{changed}/app.css"' in fetch(client, "/")[2].decode()
    _, headers, body = fetch(client, f"/assets/v/{changed}/app.css")
    assert headers["Cache-Control"] == IMMUTABLE and body.endswith(b"/* deploy 2 */\n")
    _, headers, body = fetch(client, f"/assets/v/{version}/app.css")  # the page before the change
    assert headers["Cache-Control"] == "no-cache" and body.endswith(b"/* deploy 2 */\n")

    (static_copy / "text" / "extra.js").write_text("export default { ja: {}, en: {} };\n", encoding="utf-8")
    added = version_of(app)
    assert added not in (version, changed)
    (static_copy / "text" / "extra.js").rename(static_copy / "text" / "other.js")  # same bytes, another path
    assert version_of(app) not in (version, changed, added)


def test_a_production_process_hashes_the_folder_once(static_copy, monkeypatch):
    app = create_app({"TESTING": False})
    version = version_of(app)
    reads = []
    original = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda path: reads.append(path) or original(path))
    (static_copy / "app.css").write_text("/* edited on a running server */\n", encoding="utf-8")
    assert version_of(app) == version  # a deploy restarts the process
    assert reads == []


def test_the_worker_keeps_every_file_under_the_current_version(app, client):
    version = version_of(app)
    source = fetch(client, "/sw.js")[2].decode()
    assert f'const ASSETS = "/assets/v/{version}/";' in source
    urls = json.loads(re.search(r"^const PRECACHE = (\[.*?\]);$", source, re.S | re.M).group(1))
    assert urls == ["/", "/manifest.webmanifest", *(f"/assets/v/{version}/{name}" for name in kept_names(STATIC))]
    for url in urls:
        status, headers, _ = fetch(client, url)
        assert status == 200, url
        assert headers["Cache-Control"] == (IMMUTABLE if url.startswith("/assets/") else "no-cache"), url


def test_the_workers_version_follows_the_files(app, client, static_copy):
    def worker() -> tuple[str, str]:
        source = fetch(client, "/sw.js")[2].decode()
        return re.search(r'^const VERSION = "([0-9a-f]{16})";$', source, re.M).group(1), source

    before, source = worker()
    assert worker() == (before, source)  # stable while nothing changes
    with (static_copy / "main.js").open("a", encoding="utf-8") as script:
        script.write("\n// deploy 2\n")
    after, source = worker()
    assert after != before
    assert f'"/assets/v/{version_of(app)}/main.js"' in source


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_a_versioned_file_goes_compressed_with_an_etag_per_encoding(app, client, static_copy, encoding):
    url = f"/assets/v/{version_of(app)}/ten.js"
    _, plain, _ = fetch(client, url)
    status, headers, body = fetch(client, url, **{"Accept-Encoding": encoding})
    assert status == 200
    assert headers["Content-Encoding"] == encoding
    assert headers["Vary"] == "Accept-Encoding"
    assert headers["Cache-Control"] == IMMUTABLE
    assert headers["ETag"] == plain["ETag"][:-1] + f':{encoding}"'
    assert int(headers["Content-Length"]) == len(body) < 1024
    assert "Accept-Ranges" not in headers
    status, again, body = fetch(client, url, **{"Accept-Encoding": encoding, "If-None-Match": headers["ETag"]})
    assert (status, body, again["Cache-Control"], again["ETag"]) == (304, b"", IMMUTABLE, headers["ETag"])
    status, old, body = fetch(client, f"/assets/v/{OLD}/ten.js", **{"Accept-Encoding": encoding})
    assert (status, old["Content-Encoding"], old["ETag"], old["Cache-Control"]) == (
        200,
        encoding,
        headers["ETag"],
        "no-cache",
    )


def test_compressed_copies_are_kept_per_file_not_per_url(static_copy, monkeypatch):
    """Any client may put any 16 characters where the version goes: the compressed copy is
    kept once per file and encoding, whatever the URL."""
    caches = []

    class Recorded(flask_compress.DictCache):
        def __init__(self):
            super().__init__()
            caches.append(self)

    monkeypatch.setattr(flask_compress, "DictCache", Recorded)
    app = create_app({"TESTING": True})
    client = app.test_client()
    version = version_of(app)
    _, headers, _ = fetch(client, f"/assets/v/{version}/ten.js")
    for prefix in (f"/assets/v/{version}/", f"/assets/v/{OLD}/", "/assets/v/ffffffffffffffff/", "/assets/"):
        assert fetch(client, f"{prefix}ten.js", **{"Accept-Encoding": BROWSER})[1]["Content-Encoding"] == "br"
    [cache] = caches
    assert list(cache.data) == [f"br;ten.js\0{headers['ETag'].strip(chr(34))}"]
