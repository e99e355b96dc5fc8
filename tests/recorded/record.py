"""Record the answers of the current code: ``python -m tests.recorded.record``.

Runs the fast test suite and ``record_more.py`` with ``SCORING_TEST_RECORD`` set (see
:mod:`tests.recorded.recorder`) and writes ``tests/recorded/answers.jsonl.gz``, one line a
request and its answer, duplicates removed.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
OUT = HERE / "answers.jsonl.gz"


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        raw = Path(folder) / "answers.jsonl"
        env = {**os.environ, "SCORING_TEST_RECORD": str(raw)}
        pytest = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider"]
        suite = ["tests", "--ignore=tests/browser", "--ignore=tests/recorded"]
        for command in [pytest + suite, [*pytest, str(HERE / "record_more.py")]]:
            done = subprocess.run(command, env=env, cwd=HERE.parents[1])
            if done.returncode:
                return done.returncode
        seen, lines = set(), []
        for line in raw.read_text(encoding="utf-8").split("\n"):
            if line and line not in seen:
                seen.add(line)
                lines.append(line)
    with gzip.open(OUT, "wt", encoding="utf-8", compresslevel=9) as out:
        out.write("\n".join(lines) + "\n")
    print(f"{len(lines)} answers written to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
