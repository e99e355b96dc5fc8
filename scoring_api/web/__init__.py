"""The scoring form for people at the table: ``GET /`` serves one HTML page.

The page is plain HTML, CSS and ES modules (no build step, no CDN): everything it needs is
served from this blueprint's ``static`` folder, and every score comes from the same REST
API (``/api/v1/...``) that apps and assistants call.
"""

from __future__ import annotations

from flask import Blueprint, render_template

# The app's own ``/static`` route always exists (Flask registers it even without a folder)
# and would shadow ours, so the form's files are served under ``/assets``.
bp = Blueprint("web", __name__, static_folder="static", static_url_path="/assets", template_folder="templates")

GAMES = ("apero", "pedro", "applejack", "fairy", "chat")  # the last is アイちゃん's chat panel


@bp.get("/")
def index():
    """The scoring form (Japanese first; the page switches to English on request)."""
    return render_template("web/index.html", games=GAMES)
