"""The form's Japanese texts (scoring_api/web/static/text/*.js) read as Japanese is written:
full-width brackets （）, and no ASCII space between Japanese characters or after a sentence.
The files are ES modules of plain object literals: Node.js imports them as the browser does."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

TEXT = Path(__file__).resolve().parents[1] / "scoring_api" / "web" / "static" / "text"

#: Kana, kanji and the Japanese punctuation a sentence is written with (not the full-width
#: signs ＋＝＆, which stand as symbols).
JAPANESE = r"[\u3001-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01\uff08\uff09\uff1a\uff1f]"
#: An ASCII space between two Japanese characters, or after the end of a sentence.
SPACED = re.compile(rf"(?<={JAPANESE}) +(?={JAPANESE})|[。！？] ")
#: A placeholder beside an ASCII space beside Japanese: what it holds decides, so only the
#: placeholders that hold a number (「ハチミツ +2」) may stand there.
NEXT_TO_PLACEHOLDER = re.compile(rf"\{{(\w+)\}} +(?={JAPANESE})|(?<={JAPANESE}) +\{{(\w+)\}}")
NUMBERS = {"honey"}


def node_texts() -> dict[str, dict[str, dict[str, str]]]:
    """Every text file's `ja` and `en` entries, as Node.js reads the modules."""
    found = shutil.which("node")
    if found is None:
        pytest.fail("Node.js is missing: apt-get install -y nodejs (the browser tests' npm brings it)", pytrace=False)
    script = (
        "import { pathToFileURL } from 'node:url';\n"
        f"const files = {json.dumps(sorted(p.name for p in TEXT.glob('*.js')))};\n"
        "const out = {};\n"
        f"for (const f of files) out[f] = (await import(pathToFileURL({json.dumps(str(TEXT))} + '/' + f).href)).default;\n"
        "console.log(JSON.stringify(out));\n"
    )
    done = subprocess.run([found, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@cache
def japanese() -> dict[str, str]:
    """Every Japanese text by "<file> <key>"."""
    return {f"{name} {key}": text for name, part in node_texts().items() for key, text in part["ja"].items()}


def test_every_text_file_is_read_with_its_japanese():
    texts = japanese()
    assert {key.split()[0] for key in texts} == {path.name for path in TEXT.glob("*.js")}
    assert texts["app.js winner.single"] == "{names}の勝ち（{points}）"
    assert texts["applejack.js aj.variety.orange"] == "橙"


def test_japanese_texts_use_full_width_brackets():
    assert {key: text for key, text in japanese().items() if re.search(r"[()]", text)} == {}


def test_no_ascii_space_between_japanese_words_or_sentences():
    assert {key: text for key, text in japanese().items() if SPACED.search(text)} == {}
    beside = {
        key: text
        for key, text in japanese().items()
        for match in NEXT_TO_PLACEHOLDER.finditer(text)
        if (match.group(1) or match.group(2)) not in NUMBERS
    }
    assert beside == {}


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("入札 成功", True),
        ("決めます。 次", True),
        ("勝ち！ ", True),
        ("{title} 目標{target}点", False),  # the placeholder rule's, below
        ("Enter で送り", False),
        ("+ と × を使って", False),
        ("＋ プレイヤーを追加", False),
        ("JPEG か PNG", False),
    ],
)
def test_the_space_rule_reads_japanese_as_meant(text, found):
    assert bool(SPACED.search(text)) is found


def test_the_placeholder_rule_reads_what_a_placeholder_holds():
    assert [m.group(1) or m.group(2) for m in NEXT_TO_PLACEHOLDER.finditer("{title} 目標{target}点")] == ["title"]
    assert [m.group(1) or m.group(2) for m in NEXT_TO_PLACEHOLDER.finditer("ハチミツ {honey}")] == ["honey"]
    assert list(NEXT_TO_PLACEHOLDER.finditer("{team} {amount}入札")) == []
