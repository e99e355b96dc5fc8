"""The scoring form for people at the table: ``GET /`` serves one HTML page.

The page is plain HTML, CSS and ES modules (no build step, no CDN): everything it needs is
served from this blueprint's ``static`` folder, and every score comes from the same REST
API (``/api/v1/...``) that apps and assistants call.

The form is also an installable web app that opens without a connection: ``GET
/manifest.webmanifest`` describes it, and ``GET /sw.js`` is its service worker (scope: the
whole site). The worker is ``static/sw.js`` with the list of files to keep put in front of
it; the list is every file of the static folder, and its version a hash of the page, the
manifest, the worker and those files, so a deploy that changes any of them gives browsers
a new worker that replaces the kept copy.

Caching. The static folder's files go under a versioned path,
``/assets/v/<version>/<path>``, where ``<version>`` is a hash of the folder's kept files
(their paths and bytes, :func:`static_version`), with ``Cache-Control: public,
max-age=31536000, immutable``: a browser keeps them for a year and never asks again, since a
change to any file gives every file a new URL. The version sits in the path, not in a query
string, because the modules import one another by relative URL (``./dom.js``): a page that
loads ``/assets/v/<version>/main.js`` gets every module under the same version with no
change to the modules. The page (``GET /``), its manifest and the worker stay ``no-cache``
and link the files through the current version, so a deploy reaches a browser with the
next page it loads.

A request for another version than the current one (a page loaded before a deploy asking
for a module after it; during a rolling deploy, a new page's request reaching a process
that still has the old files) is answered with the current file and ``Cache-Control:
no-cache`` (and its ETag), never the immutable header for bytes that the URL's version does
not name; not with a redirect, which would cost a round trip per module and leave the old
page with the new files all the same.
Only the kept files are served there (no hidden file, editor's backup or ``sw.js``); any
other path is a 404. The unversioned ``/assets/<path>`` (Flask's static route) still serves
the folder with ``no-cache`` and its ETag, for whatever holds an old link.

The version is computed once per process, on first use, and kept per folder. Under a
development server (``debug``) or in tests (``TESTING``) it is checked against the folder's
listing and each file's size and modification time on every use and computed again when
they change, so a file edited while the server runs gives the next page a new version (and
the worker a new list); a production process never looks again (its files are package data,
and a deploy restarts it: files changed under a running process would go out under the
version it computed first, so restart it after changing them). Compression:
``scoring_api._compress_answers``, which compresses each file once per version and encoding
for both routes.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
from dataclasses import dataclass
from pathlib import Path

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    make_response,
    render_template,
    request,
    send_from_directory,
    url_for,
)

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
#: Hex digits of the static folder's version (SHA-256) in the files' URLs.
VERSION_DIGITS = 16
#: A versioned file's ``Cache-Control``: kept a year, never asked for again.
IMMUTABLE = "public, max-age=31536000, immutable"


@bp.get("/")
def index():
    """The scoring form (Japanese first; the page switches to English on request), with
    ``no-cache`` and an ETag: a browser asks for it each time, and a page that names the
    same versions as its copy costs a 304."""
    response = make_response(_page())
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


def _page() -> str:
    """The page, its files linked through the current version; the chat panel learns from it
    whether the model reads photos (``SCORING_CHAT_VISION``: its photo button)."""
    return render_template(
        "web/index.html",
        games=TABS,
        chat_vision=bool(current_app.config["CHAT_VISION"]),
        static_version=static_version(),
    )


@bp.get(f"/assets/v/<string(length={VERSION_DIGITS}):version>/<path:filename>")
def asset(version: str, filename: str):
    """A kept file of the static folder under a version: immutable when the version is the
    current one, else the current file with ``no-cache`` (the module docstring says why)."""
    files = _static_files()
    if filename not in files.names:
        abort(404)
    response = send_from_directory(_static_folder(), filename)  # no-cache and the file's ETag
    if version == files.version:
        response.headers["Cache-Control"] = IMMUTABLE
    return response


def asset_url(filename: str, version: str | None = None) -> str:
    """The URL of a static file under ``version`` (the current one unless given)."""
    return url_for("web.asset", version=version or static_version(), filename=filename)


def static_version() -> str:
    """The static folder's version: the first 16 hex digits of a SHA-256 of every kept
    file's path and bytes (computed once per process; see the module docstring)."""
    return _static_files().version


@dataclass(frozen=True)
class _Files:
    """The kept files of a static folder, as last looked at, and their version."""

    signature: tuple[tuple[str, int, int], ...]  # each file's path, size and mtime (ns)
    version: str
    listed: tuple[str, ...]  # sorted
    names: frozenset[str]


#: Per static folder (tests point the blueprint at copies): its files and version.
_seen: dict[str, _Files] = {}


def _static_files() -> _Files:
    """The kept files and their version: once per process and folder, or again whenever the
    folder changed under a development server or in tests (debug, TESTING)."""
    folder = _static_folder()
    known = _seen.get(str(folder))
    if known is not None and not (current_app.debug or current_app.testing):
        return known
    names = _kept_files(folder)
    stats = [(folder / name).stat() for name in names]
    signature = tuple((name, stat.st_size, stat.st_mtime_ns) for name, stat in zip(names, stats, strict=True))
    if known is not None and known.signature == signature:
        return known
    digest = hashlib.sha256()
    for name in names:
        digest.update(b"\0" + name.encode() + b"\0")
        digest.update((folder / name).read_bytes())
    known = _Files(signature, digest.hexdigest()[:VERSION_DIGITS], tuple(names), frozenset(names))
    _seen[str(folder)] = known
    return known


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest: name, colours, icons; start URL and scope are the form's own URL."""
    folder = _static_folder()
    version = static_version()
    icons = [
        {"src": asset_url(name, version), "sizes": sizes, "type": kind, "purpose": purpose}
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
    assets = posixpath.dirname(asset_url(WORKER)) + "/"  # the folder of the versioned files
    head = (
        f"const VERSION = {json.dumps(version)};\n"
        f"const PAGE = {json.dumps(url_for('web.index'))};\n"
        f"const ASSETS = {json.dumps(assets)};\n"
        f"const PRECACHE = {json.dumps(urls, indent=2)};\n\n"
    )
    response = Response(head + source, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = url_for("web.index")
    response.set_etag(version)
    return response.make_conditional(request)


def precache() -> tuple[str, list[str]]:
    """What the worker keeps, and its version.

    The URLs are the form's page, its manifest and every kept file of the static folder
    (hidden files, editors' backups and the worker's own source aside) under the current
    version, so a file added to the form is kept without anyone listing it. The worker's
    version is a SHA-256 of the rendered page, the manifest, the worker's source and the
    static folder's version (first 16 hex digits): it changes when any of them does.
    """
    files = _static_files()
    digest = hashlib.sha256()
    digest.update(_page().encode())
    digest.update(manifest().get_data())
    digest.update((_static_folder() / WORKER).read_bytes())
    digest.update(files.version.encode())
    urls = [url_for("web.index"), url_for("web.manifest"), *(asset_url(name, files.version) for name in files.listed)]
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
