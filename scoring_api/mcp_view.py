"""The MCP Apps view of the scoring tools: one self-contained HTML document that draws any
scoring tool's answer as the form's own result card, assembled at start-up from the form's
ES modules (``web/static/``), so a change to a card shows on the form, in the chat and here.

One document serves every tool: the cards share most of their code (dom.js, i18n.js and the
texts), hosts fetch and cache one resource instead of sixteen, and the view learns which
tool answered from the host (or from the answer's shape, ``cards.js``). It is offered twice
(:func:`scoring_api.mcp.served_resources`): as an MCP Apps resource
(``text/html;profile=mcp-app``, the 2026-01-26 specification) and as a ChatGPT Apps SDK
template (``text/html+skybridge``, for ``openai/outputTemplate``).

How the document is assembled (:func:`bundle`): hosts load it with a content security
policy that allows inline scripts and styles and no request at all, so everything is inline
and there is no bundler at run time. Starting from ``mcp-app.js``, every module it imports
(followed to the end, each once) becomes a function scope run in dependency order, as the
browser would evaluate the modules::

    const $2 = (() => {               // apero.js
      const { errorBox, fieldError } = $0;     // import { errorBox, fieldError } from './api.js';
      const { h, onPage: at } = $1;            // import { h, onPage as at } from './dom.js';
      ... the module, its `export ` keywords taken off ...
      return { resultCards, pickOptions };     // what it exported
    })();

``import x from`` reads ``default`` (``export default {...}`` becomes ``const $default =
{...}``), ``import * as x`` the whole object. A module's imports are a snapshot of the other
module's exports, taken once it has run (not ES modules' live bindings), so an ``export
let`` is refused; so is anything else the assembler does not know (a dynamic ``import()``,
``import.meta``, a re-export), and a text that would end the inline script early. Styles:
``app.css`` then ``mcp-app.css``, inline too.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

#: The form's static folder (read directly: importing scoring_api.web would load Flask).
STATIC = Path(__file__).resolve().parent / "web" / "static"
#: The view's own module (the app side of the protocol) and its styles, after the form's.
ENTRY = "mcp-app.js"
STYLES = ("app.css", "mcp-app.css")

#: The views' addresses carry a hash of the document (:func:`view_version`): hosts keep a
#: view by its URI (ChatGPT caches templates), so a changed card must have a new one.
VIEW_URI = "ui://board-game-scoring/result-card.{version}.html"
SKYBRIDGE_URI = "ui://board-game-scoring/result-card.{version}.skybridge.html"
MCP_APP_MIME = "text/html;profile=mcp-app"
SKYBRIDGE_MIME = "text/html+skybridge"


#: On the resources (listed and read): the host draws the border; no domain to reach, none
#: to load from.
VIEW_META = {"ui": {"prefersBorder": True, "csp": {"connectDomains": [], "resourceDomains": []}}}
SKYBRIDGE_META = {
    "openai/widgetPrefersBorder": True,
    "openai/widgetCSP": {"connect_domains": [], "resource_domains": []},
}

_IMPORT = re.compile(
    r"^import\s*(?:\{(?P<names>[^}]*)\}|\*\s*as\s+(?P<all>[A-Za-z_$][\w$]*)|(?P<default>[A-Za-z_$][\w$]*))"
    r"\s*from\s*'(?P<path>\.\.?/[^']+)';?[ \t]*$",
    re.M,
)
_EXPORT_DECLARED = re.compile(r"^export\s+((?:async\s+)?function\*?\s+|const\s+|class\s+)([A-Za-z_$][\w$]*)", re.M)
_EXPORT_DEFAULT = re.compile(r"^export\s+default\s+(?=[{\[(])", re.M)
_NAME = re.compile(r"^[A-Za-z_$][\w$]*$")
#: What ends an inline <script> or <style> early, or starts a comment the HTML parser keeps.
_CLOSING = re.compile(r"</(script|style)|<!--|<script", re.I)


class ViewError(ValueError):
    """A module the assembler cannot turn into part of the view (named, with the reason)."""


@dataclass(frozen=True)
class _Module:
    path: str  # inside the static folder: "apero.js", "text/app.js"
    imports: tuple[tuple[str, str, str], ...]  # (kind: names|default|all, what, path)
    body: str  # the source with its import lines taken out and export keywords off
    exports: tuple[str, ...]


def _resolve(importer: str, target: str) -> str:
    parts = [*importer.split("/")[:-1], *target.split("/")]
    resolved: list[str] = []
    for part in parts:
        if part == "..":
            if not resolved:
                raise ViewError(f"{importer}: {target} is outside the static folder")
            resolved.pop()
        elif part not in ("", "."):
            resolved.append(part)
    return "/".join(resolved)


def _read(path: str, folder: Path) -> _Module:
    source = (folder / path).read_text(encoding="utf-8")
    closing = _CLOSING.search(source)
    if closing:
        raise ViewError(f"{path}: holds {closing.group(0)!r}, which would end the inline script")
    imports = []
    for found in _IMPORT.finditer(source):
        kind = next(kind for kind in ("names", "all", "default") if found.group(kind) is not None)
        imports.append((kind, found.group(kind), _resolve(path, found.group("path"))))
    source = _IMPORT.sub("", source)
    leftover = re.search(
        r"^[ \t]*(import\b|export\s+(let|var)\b|export\s*[{*])|\bimport\s*\(|\bimport\.meta", source, re.M
    )
    if leftover:
        line = source[source.rfind("\n", 0, leftover.start()) + 1 :].split("\n", 1)[0]
        raise ViewError(f"{path}: cannot assemble {line.strip()!r}")
    exports = [found.group(2) for found in _EXPORT_DECLARED.finditer(source)]
    source = _EXPORT_DECLARED.sub(lambda found: found.group(1) + found.group(2), source)
    if _EXPORT_DEFAULT.search(source):
        exports.append("default")
        source = _EXPORT_DEFAULT.sub("const $default = ", source, count=1)
    other = re.search(r"^export\b.*$", source, re.M)
    if other:
        raise ViewError(f"{path}: cannot assemble {other.group(0)!r}")
    return _Module(path, tuple(imports), source.strip("\n"), tuple(exports))


def _in_order(entry: str, folder: Path) -> list[_Module]:
    """``entry`` and every module it imports, each after the modules it imports (in the
    order of its import lines, as the browser runs them); an import cycle is refused."""
    done: dict[str, _Module] = {}
    visiting: list[str] = []

    def visit(path: str) -> None:
        if path in done:
            return
        if path in visiting:
            raise ViewError(f"import cycle: {' -> '.join([*visiting, path])}")
        visiting.append(path)
        module = _read(path, folder)
        for _, _, target in module.imports:
            visit(target)
        visiting.pop()
        done[path] = module

    visit(entry)
    return list(done.values())


def _binding(kind: str, what: str, source: str) -> str:
    if kind == "default":
        return f"const {what} = {source}.default;"
    if kind == "all":
        return f"const {what} = {source};"
    names = []
    for item in (part.strip() for part in what.split(",")):
        if not item:
            continue
        original, _, local = (word.strip() for word in item.partition(" as "))
        if not _NAME.match(original) or (local and not _NAME.match(local)):
            raise ViewError(f"cannot read the import {item!r}")
        names.append(f"{original}: {local}" if local and local != original else original)
    return f"const {{ {', '.join(names)} }} = {source};"


def bundle(entry: str = ENTRY, folder: Path = STATIC) -> str:
    """The module ``entry`` with everything it imports, as the body of one inline module script."""
    modules = _in_order(entry, folder)
    names = {module.path: f"${k}" for k, module in enumerate(modules)}
    parts = []
    for module in modules:
        for kind, what, target in module.imports:
            exported = next(m for m in modules if m.path == target).exports
            wanted = [item.strip().partition(" as ")[0].strip() for item in what.split(",")] if kind == "names" else []
            missing = [name for name in wanted if name and name not in exported]
            if kind == "default" and "default" not in exported:
                missing = ["default"]
            if missing:
                raise ViewError(f"{module.path}: {target} does not export {', '.join(missing)}")
        bindings = [_binding(kind, what, names[target]) for kind, what, target in module.imports]
        returned = ", ".join("default: $default" if name == "default" else name for name in module.exports)
        parts.append(
            f"// {module.path}\nconst {names[module.path]} = (() => {{\n"
            + "".join(f"{line}\n" for line in bindings)
            + f"{module.body}\nreturn {{ {returned} }};\n}})();\n"
        )
    return "".join(parts)


def styles(folder: Path = STATIC) -> str:
    css = "\n".join((folder / name).read_text(encoding="utf-8") for name in STYLES)
    if _CLOSING.search(css):
        raise ViewError("the styles hold text that would end the inline style")
    return css


def assemble(folder: Path = STATIC) -> str:
    """The view: an HTML5 document with its styles and its script inline."""
    return (
        "<!doctype html>\n"
        '<html lang="ja">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<title></title>\n"
        f"<style>\n{styles(folder)}</style>\n"
        "</head>\n<body>\n"
        '<div id="view" data-testid="view" aria-live="polite"></div>\n'
        f'<script type="module">\n{bundle(ENTRY, folder)}</script>\n'
        "</body>\n</html>\n"
    )


@functools.cache
def view_html() -> str:
    """The view, assembled once per process (at start-up: :func:`scoring_api.mcp.create_server`)."""
    return assemble()


@functools.cache
def view_version() -> str:
    """The first 12 hex digits of the view's SHA-256: a new card, a new address."""
    return hashlib.sha256(view_html().encode("utf-8")).hexdigest()[:12]


def view_uri() -> str:
    return VIEW_URI.format(version=view_version())


def skybridge_uri() -> str:
    return SKYBRIDGE_URI.format(version=view_version())


def tool_meta() -> dict:
    """On every scoring tool (the MCP Apps specification, "Resource Discovery"): the view
    under its key and under the deprecated flat key hosts still read, and ChatGPT's template."""
    view = view_uri()
    return {"ui": {"resourceUri": view}, "ui/resourceUri": view, "openai/outputTemplate": skybridge_uri()}
