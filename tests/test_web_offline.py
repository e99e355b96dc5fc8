"""The installable form, seen by the Flask client: the manifest, the service worker and the
list of files it keeps (every file the page loads, computed from the static folder)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from urllib.parse import urljoin

import pytest

from scoring_api.web import bp as web
from scoring_api.web import static_version

STATIC = Path(web.static_folder)
# import x from './x.js'; export { y } from './y.js'; import './z.js'; import('./w.js')
IMPORTS = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}/[^'"]+)['"]""")


def body(client, url: str) -> tuple[int, str, bytes]:
    """Status, type and bytes of ``url``, with the response closed (static files are streamed)."""
    with client.get(url) as response:
        return response.status_code, response.mimetype, response.get_data()


def precache_of(response) -> tuple[str, list[str]]:
    source = response.get_data(as_text=True)
    version = re.search(r'^const VERSION = "([0-9a-f]+)";$', source, re.M).group(1)
    urls = json.loads(re.search(r"^const PRECACHE = (\[.*?\]);$", source, re.S | re.M).group(1))
    return version, urls


def assets(client) -> str:
    """The folder of the static files under their current version (/assets/v/<hash>/)."""
    with client.application.test_request_context():
        return f"/assets/v/{static_version()}/"


def names(urls: list[str]) -> list[str]:
    """The URLs with their version left out: /assets/v/<hash>/app.css -> /assets/app.css."""
    return [re.sub(r"^/assets/v/[0-9a-f]{16}/", "/assets/", url) for url in urls]


def test_the_manifest_names_the_form_and_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    assert response.headers["Cache-Control"] == "no-cache"
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["name"] == "ボードゲーム得点計算"
    assert manifest["short_name"] == "得点計算"
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"  # the form's URL, wherever it is mounted
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#22303f"
    assert {(icon["sizes"], icon["type"]) for icon in manifest["icons"]} >= {
        ("any", "image/svg+xml"),
        ("192x192", "image/png"),
        ("512x512", "image/png"),
    }
    for icon in manifest["icons"]:
        status, mimetype, data = body(client, icon["src"])
        assert status == 200 and mimetype == icon["type"], icon
        if icon["type"] == "image/png":
            width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
            assert f"{width}x{height}" == icon["sizes"]


def test_the_page_links_the_manifest_and_loads_the_offline_script(client):
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="theme-color" content="#22303f">' in page
    assert f'<script type="module" src="{assets(client)}offline.js"></script>' in page
    banner = re.search(r'<p class="offline-banner"[^>]*>', page).group(0)
    assert 'data-i18n="offline.banner"' in banner and " hidden" in banner  # hidden until offline
    assert re.search(r'role="status" aria-live="polite" data-testid="offline-status"', page)


def test_the_worker_is_served_from_the_root_and_never_cached(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["Service-Worker-Allowed"] == "/"
    version, _ = precache_of(response)
    assert response.headers["ETag"] == f'"{version}"'
    again = client.get("/sw.js", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304 and again.headers["Cache-Control"] == "no-cache"
    source = response.get_data(as_text=True)
    assert 'const PAGE = "/";' in source
    assert source.endswith((STATIC / "sw.js").read_text(encoding="utf-8"))


def test_the_worker_keeps_the_page_the_manifest_and_every_static_file(client):
    _, urls = precache_of(client.get("/sw.js"))
    files = sorted(
        path.relative_to(STATIC).as_posix()
        for path in STATIC.rglob("*")
        if path.is_file() and path.name != "sw.js" and not path.name.startswith(".") and not path.name.endswith("~")
    )
    assert urls == ["/", "/manifest.webmanifest", *(f"{assets(client)}{name}" for name in files)]
    assert "/assets/sw.js" not in names(urls)
    assert not [url for url in urls if re.match(r"/(api|v1|mcp)(/|$)", url)]  # the API is never kept
    for url in urls:
        assert body(client, url)[0] == 200, url


def test_everything_the_page_loads_is_kept(client):
    """The page's links and scripts, and every module they import (followed to the end)."""
    _, urls = precache_of(client.get("/sw.js"))
    page = client.get("/").get_data(as_text=True)
    loaded = set(re.findall(r'(?:href|src)="(/(?:assets/[^"]+|manifest\.webmanifest))"', page))
    todo = [url for url in loaded if url.endswith(".js")]
    while todo:
        script = todo.pop()
        for target in IMPORTS.findall(body(client, script)[2].decode()):
            url = urljoin(script, target)
            if url not in loaded:
                loaded.add(url)
                todo.append(url)
    assert {"/assets/main.js", "/assets/offline.js", "/assets/i18n.js", "/assets/api.js"} <= set(names(loaded))
    assert any(url.startswith(f"{assets(client)}text/") for url in loaded)
    assert not loaded - set(urls), sorted(loaded - set(urls))


@pytest.fixture
def static_copy(tmp_path, monkeypatch):
    """The form's static folder as a copy that a test may change (a deploy)."""
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    monkeypatch.setattr(web, "static_folder", str(folder))
    return folder


def test_a_changed_or_added_file_makes_a_new_version(client, static_copy):
    version, urls = precache_of(client.get("/sw.js"))
    assert precache_of(client.get("/sw.js")) == (version, urls)  # stable while nothing changes

    with (static_copy / "app.css").open("a", encoding="utf-8") as css:
        css.write("\n/* deploy 2 */\n")
    changed, same_urls = precache_of(client.get("/sw.js"))
    assert changed != version and names(same_urls) == names(urls) and same_urls != urls  # a new folder version

    (static_copy / "text" / "extra.js").write_text("export default { ja: {}, en: {} };\n", encoding="utf-8")
    (static_copy / ".hidden.js").write_text("// an editor's file\n", encoding="utf-8")
    added, more_urls = precache_of(client.get("/sw.js"))
    assert added not in (version, changed)
    assert set(names(more_urls)) - set(names(urls)) == {"/assets/text/extra.js"}

    (static_copy / "app-icon-512.png").unlink()  # an install without the PNG icons leaves them out
    icons = json.loads(client.get("/manifest.webmanifest").get_data(as_text=True))["icons"]
    assert "/assets/app-icon-512.png" not in names([icon["src"] for icon in icons])
    assert "/assets/app-icon-512.png" not in names(precache_of(client.get("/sw.js"))[1])


def test_the_offline_texts_exist_in_both_languages():
    catalogue = (STATIC / "text" / "app.js").read_text(encoding="utf-8")
    assert re.findall(r"'offline\.banner': '([^']+)'", catalogue) == [
        "オフラインです。入力は保存されます。得点の計算は接続が戻ってから行います。",
        "You are offline. Your entries are kept; scores are computed when the connection is back.",
    ]
    assert len(re.findall(r"'error\.offline': ", catalogue)) == 2


def test_the_players_page_has_no_developer_footer_and_its_tabs_sit_in_a_landmark(client):
    page = client.get("/").get_data(as_text=True)
    assert "<footer" not in page
    assert 'href="openapi.yaml"' not in page and "REST API /api/v1" not in page
    # Only the note for browsers without JavaScript points at the API.
    noscript = re.search(r"<noscript>(.*?)</noscript>", page, re.S).group(1)
    assert "/openapi.yaml" in noscript
    nav = re.search(
        r'<nav class="tab-nav" aria-label="ゲームの切り替え"[^>]*>\s*<div class="tabs" role="tablist"', page
    )
    assert nav, "the tablist is inside a <nav> landmark"
    assert page.index('data-testid="offline-status"') > page.index('<main id="panels"')  # inside <main>
    assert '<meta name="color-scheme" content="light dark">' in page
