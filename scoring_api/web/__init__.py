"""The scoring form for people at the table: ``GET /`` serves one HTML page.

The page is plain HTML, CSS and ES modules (no build step, no CDN): everything it needs is
served from this blueprint's ``static`` folder, and every score comes from the same REST
API (``/api/v1/...``) that apps and assistants call.

The form is also an installable web app that opens without a connection: ``GET
/manifest.webmanifest`` describes it, and ``GET /sw.js`` is its service worker (scope: the
whole site). The worker is ``static/sw.js`` with the list of files to keep put in front of
it; the list is every file of the static folder, computed here on each request, and its
version is a hash of the page and of those files, so a deploy that changes any of them gives
browsers a new worker that replaces the kept copy.

The files go with ``Cache-Control: no-cache`` and their ETag (Flask's default, kept on
purpose), not a long ``max-age``: their URLs carry no version, and the modules import one
another by relative URL (``./dom.js``), so a versioned query string on the page's links
would not reach them, and a copy kept for long could pair a new page with old modules. The
worker keeps every file per version, so an installed form asks for none of them; a browser
without it revalidates each (a 304). Compression: ``scoring_api._compress_answers``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, request, url_for

# The app's own ``/static`` route always exists (Flask registers it even without a folder)
# and would shadow ours, so the form's files are served under ``/assets``.
bp = Blueprint("web", __name__, static_folder="static", static_url_path="/assets", template_folder="templates")

#: The form's tabs, in order: each game under its URL spelling, then アイちゃん's chat panel.
TABS = ("apero", "pedro", "applejack", "fairy-black-box", "chat")

#: The worker's source in the static folder (served at /sw.js, never kept by itself).
WORKER = "sw.js"
#: The theme colour: the header's.
THEME = "#22303f"
#: The page's background (``--bg`` in app.css): the splash screen of the installed app.
BACKGROUND = "#f6f4ef"
#: The app's icons (file in the static folder, sizes, type, purpose); missing ones are left
#: out. The die sits inside the middle 80%, so the large one also serves as a maskable icon.
ICONS = (
    ("app-icon.svg", "any", "image/svg+xml", "any"),
    ("app-icon-192.png", "192x192", "image/png", "any"),
    ("app-icon-512.png", "512x512", "image/png", "any"),
    ("app-icon-512.png", "512x512", "image/png", "maskable"),
)


@bp.get("/")
def index():
    """The scoring form (Japanese first; the page switches to English on request)."""
    return _page()


def _page() -> str:
    """The page; the chat panel learns from it whether the model reads photos
    (``SCORING_CHAT_VISION``: its photo button)."""
    return render_template("web/index.html", games=TABS, chat_vision=bool(current_app.config["CHAT_VISION"]))


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest: name, colours, icons; start URL and scope are the form's own URL."""
    folder = _static_folder()
    icons = [
        {"src": url_for("web.static", filename=name), "sizes": sizes, "type": kind, "purpose": purpose}
        for name, sizes, kind, purpose in ICONS
        if (folder / name).is_file()
    ]
    document = {
        "id": "./",
        "name": "ボードゲーム得点計算",
        "short_name": "得点計算",
        "description": "アペロ、ピードロ、アップルジャック、フェアリー＆ブラックボックスの得点を正確に計算します。",
        "lang": "ja",
        "dir": "ltr",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": icons,
    }
    response = Response(json.dumps(document, ensure_ascii=False, indent=2), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/sw.js")
def service_worker():
    """The service worker, with its version, the form's URL and the URLs it keeps in front.

    Served from the root so that its scope is the whole site; ``no-cache`` so that browsers
    always ask whether it changed (an unchanged worker answers 304 through its ETag).
    """
    source = (_static_folder() / WORKER).read_text(encoding="utf-8")
    version, urls = precache()
    head = (
        f"const VERSION = {json.dumps(version)};\n"
        f"const PAGE = {json.dumps(url_for('web.index'))};\n"
        f"const PRECACHE = {json.dumps(urls, indent=2)};\n\n"
    )
    response = Response(head + source, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = url_for("web.index")
    response.set_etag(version)
    return response.make_conditional(request)


def precache() -> tuple[str, list[str]]:
    """What the worker keeps, and its version.

    The URLs are the form's page, its manifest and every file of the static folder (hidden
    files and the worker's own source aside), so a file added to the form is kept without
    anyone listing it. The version is a SHA-256 of the rendered page, the manifest, the
    worker's source and every kept file's path and bytes (first 16 hex digits).
    """
    folder = _static_folder()
    digest = hashlib.sha256()
    urls = [url_for("web.index"), url_for("web.manifest")]
    digest.update(_page().encode())
    digest.update(manifest().get_data())
    digest.update((folder / WORKER).read_bytes())
    for name in _kept_files(folder):
        urls.append(url_for("web.static", filename=name))
        digest.update(b"\0" + name.encode() + b"\0")
        digest.update((folder / name).read_bytes())
    return digest.hexdigest()[:16], urls


def _kept_files(folder: Path) -> list[str]:
    """The static folder's files (paths inside it, sorted) but hidden ones, editors' backups
    and the worker's source."""
    names = (path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file())
    return sorted(
        name
        for name in names
        if name != WORKER and not name.endswith("~") and not any(part.startswith(".") for part in name.split("/"))
    )


def _static_folder() -> Path:
    assert bp.static_folder is not None  # set above
    return Path(bp.static_folder)
