"""The MCP Apps view's assembler (scoring_api.mcp_view): the form's ES modules turned into
one inline module script, run here by Node.js on toy modules and read as text on the real
view (the view drawing cards in Chromium: tests/browser/test_mcp_app_view.py)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from scoring_api import mcp_view
from scoring_api.mcp_view import ViewError, assemble, bundle

#: The view's modules, each after those it imports (the order of mcp-app.js's imports).
VIEW_MODULES = [
    "dom.js",
    "text/app.js",
    "text/apero.js",
    "text/applejack.js",
    "text/chat.js",
    "text/fairy-black-box.js",
    "text/pedro.js",
    "i18n.js",
    "api.js",
    "people.js",
    "store.js",
    "apero.js",
    "orchard.js",
    "applejack.js",
    "fairy-black-box.js",
    "pedro.js",
    "cards.js",
    "mcp-app.js",
]
#: The view's size bound: 220,366 bytes on 2026-12-06 (the form's modules whole: applejack.js
#: 40 KB, pedro.js 26 KB, apero.js 22 KB, the texts 43 KB, the styles 23 KB), about 266,000
#: after the form's third round (the Applejack panel, Apero's folding, Pedro's one-line
#: ledger); a host fetches it once per version. A card that pulls in much more shows here.
VIEW_LIMIT = 300_000


def write(folder, files: dict[str, str]):
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def node(script: str) -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail("Node.js is missing: apt-get install -y nodejs (the browser tests' npm brings it)", pytrace=False)
    done = subprocess.run([found, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout


TOY = {
    "entry.js": (
        "import { double as twice, SEVEN } from './lib/numbers.js';\n"
        "import words from './text/words.js';\n"
        "import * as all from './lib/numbers.js';\n"
        "import { order } from './log.js';\n"
        "order.push('entry');\n"
        "export const answer = { twice: twice(SEVEN), hello: words.hello, keys: Object.keys(all).sort(), order };\n"
    ),
    "lib/numbers.js": (
        "import { order } from '../log.js';\n"
        "order.push('numbers');\n"
        "export const SEVEN = 7;\n"
        "export function double(n) { return 2 * n; }\n"
        "export async function later() { return 1; }\n"
        "export class Counter {}\n"
    ),
    "text/words.js": "import { order } from '../log.js';\norder.push('words');\nexport default {\n  hello: 'こんにちは',\n};\n",
    "log.js": "export const order = [];\n",
}


def test_a_toy_application_runs_as_its_modules_would(tmp_path):
    script = bundle("entry.js", write(tmp_path, TOY))
    assert [line[3:] for line in script.splitlines() if line.startswith("// ")] == [
        "log.js",
        "lib/numbers.js",
        "text/words.js",
        "entry.js",
    ]
    answer = json.loads(node(script + "console.log(JSON.stringify($3.answer));"))
    assert answer == {
        "twice": 14,
        "hello": "こんにちは",
        "keys": ["Counter", "SEVEN", "double", "later"],
        "order": ["numbers", "words", "entry"],
    }


@pytest.mark.parametrize(
    ("source", "refused"),
    [
        ("export let n = 1;\n", "export let n = 1;"),
        ("export { a };\nconst a = 1;\n", "export { a };"),
        ("const m = import('./other.js');\n", "const m = import('./other.js');"),
        ("console.log(import.meta.url);\n", "console.log(import.meta.url);"),
        ("import x from 'https://cdn.example/x.js';\n", "import x from 'https://cdn.example/x.js';"),
        ("export default function f() {}\n", "export default function f() {}"),
    ],
)
def test_what_it_cannot_assemble_is_refused_by_name(tmp_path, source, refused):
    write(tmp_path, {"entry.js": source})
    with pytest.raises(ViewError) as error:
        bundle("entry.js", tmp_path)
    assert str(error.value) == f"entry.js: cannot assemble {refused!r}"


def test_a_text_that_would_end_the_inline_script_is_refused(tmp_path):
    write(tmp_path, {"entry.js": "const tag = '</script>';\n"})
    with pytest.raises(ViewError, match=r"entry\.js: holds '</script', which would end the inline script"):
        bundle("entry.js", tmp_path)


def test_a_cycle_and_a_missing_export_are_refused(tmp_path):
    write(
        tmp_path,
        {
            "a.js": "import { b } from './b.js';\nexport const a = 1;\n",
            "b.js": "import { a } from './a.js';\nexport const b = 2;\n",
        },
    )
    with pytest.raises(ViewError, match=r"^import cycle: a\.js -> b\.js -> a\.js$"):
        bundle("a.js", tmp_path)
    write(tmp_path, {"c.js": "import { nothing } from './d.js';\n", "d.js": "export const something = 1;\n"})
    with pytest.raises(ViewError, match=r"^c\.js: d\.js does not export nothing$"):
        bundle("c.js", tmp_path)


def test_the_view_is_one_html5_document_with_everything_inline():
    html = mcp_view.view_html()
    assert html.startswith('<!doctype html>\n<html lang="ja">\n<head>\n<meta charset="utf-8">')
    assert html.endswith("</script>\n</body>\n</html>\n")
    assert len(html.encode()) <= VIEW_LIMIT
    script = html[html.index('<script type="module">') : html.rindex("</script>")]
    assert [line[3:] for line in script.splitlines() if re.fullmatch(r"// \S+\.js", line)] == VIEW_MODULES
    # Nothing to fetch: no linked file, no import left, no url() nor @import in the styles.
    assert html.count("<script") == 1 and html.count("<style>") == 1
    assert not re.search(r"<link|<img|<iframe|\bsrc=|@import|url\(|^import\b|^export\b", html, re.M)
    assert html == assemble()  # read from the static folder as it is


def test_the_styles_are_the_forms_then_the_views():
    html = mcp_view.view_html()
    css = html[html.index("<style>") : html.index("</style>")]
    assert css.index("/* The scoring form: mobile first") < css.index("/* The MCP Apps view (mcp-app.js)")
