"""Lighthouse on the scoring form: layout shift, accessibility and speed of each game's page.

    python benchmarks/lighthouse.py                 # every game, phone and desktop
    python benchmarks/lighthouse.py --only apero    # the runs whose "page form" matches
    python benchmarks/lighthouse.py --out reports   # keep Lighthouse's JSON reports there

It installs Lighthouse from the npm registry into benchmarks/lighthouse/ when missing
(``npm install --prefix benchmarks/lighthouse``, the version range of its package.json),
starts the README's gunicorn command on 127.0.0.1 (a free port), and runs the ``lighthouse``
CLI with Debian's Chromium (``CHROME_PATH``, /usr/bin/chromium unless set) on each game's
tab (``/#apero``, ``/#pedro``, ``/#applejack``, ``/#fairy-black-box``), once with Lighthouse's default
phone emulation (and its simulated slow 4G and 4x CPU slowdown) and once with
``--preset=desktop``, categories performance and accessibility only, one after the other.

It prints, per page and form factor: Cumulative Layout Shift, the accessibility and
performance scores (0-100), Largest Contentful Paint in ms, and the ids of the failed
accessibility audits, and Lighthouse's CPU index of the machine during the run (its
``benchmarkIndex``: under 1000 it warns that the CPU is slower than it expects, and the
performance figures drop with it); then each failed audit with the elements it names.
The figures are measured, not judged: the script exits 1 only when Lighthouse (or npm, or
the service) fails to run, never on a figure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from load import ROOT, free_port, started
from slow_clients import readme_command

NPM_PREFIX = ROOT / "benchmarks" / "lighthouse"
LIGHTHOUSE = NPM_PREFIX / "node_modules" / ".bin" / "lighthouse"
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = (
    "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
    "--disable-background-networking --disable-component-update --disable-sync"
)
PAGES = ["apero", "pedro", "applejack", "fairy-black-box"]
#: Form factor: the options that select it (Lighthouse's default is the phone).
FORM_FACTORS = {"mobile": [], "desktop": ["--preset=desktop"]}
#: One run's bound; Lighthouse itself gives a page 45 s to load.
RUN_TIMEOUT = 300


def ensure_lighthouse() -> None:
    if LIGHTHOUSE.exists():
        return
    npm = shutil.which("npm")
    if not npm:
        sys.exit("npm is needed to install Lighthouse (Debian: apt-get install -y npm)")
    command = [npm, "install", "--prefix", str(NPM_PREFIX), "--no-audit", "--no-fund"]
    print("installing Lighthouse:", " ".join(command), flush=True)
    if subprocess.run(command, cwd=ROOT).returncode != 0 or not LIGHTHOUSE.exists():
        sys.exit("npm could not install Lighthouse")


def run_lighthouse(url: str, options: list[str], output: Path) -> str | None:
    """Lighthouse's JSON report of ``url`` written to ``output``; the reason when it fails."""
    command = [
        str(LIGHTHOUSE),
        url,
        *options,
        "--only-categories=performance,accessibility",
        "--output=json",
        f"--output-path={output}",
        f"--chrome-flags={CHROME_FLAGS}",
        "--quiet",
    ]
    env = {**os.environ, "CHROME_PATH": CHROME}
    try:
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return f"no answer in {RUN_TIMEOUT} s"
    if done.returncode != 0 or not output.exists():
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
        return f"exit code {done.returncode}\n{tail}"
    return None


def failed_accessibility(report: dict) -> list[dict]:
    """The accessibility category's audits that failed (manual and not-applicable ones aside)."""
    audits = []
    for ref in report["categories"]["accessibility"]["auditRefs"]:
        audit = report["audits"][ref["id"]]
        if audit["scoreDisplayMode"] == "error" or (
            audit["scoreDisplayMode"] in ("binary", "numeric") and audit["score"] is not None and audit["score"] < 1
        ):
            audits.append(audit)
    return audits


def elements(audit: dict) -> list[tuple[str, str]]:
    """The (selector, snippet) of each element an audit names."""
    found = []
    for item in (audit.get("details") or {}).get("items", []):
        for node in (item.get("node"), *(sub.get("node") for sub in (item.get("subItems") or {}).get("items", []))):
            if node and node.get("type") == "node":
                found.append((node.get("selector", "?"), node.get("snippet", "")))
    return found


def score(report: dict, category: str) -> str:
    value = report["categories"][category]["score"]
    return "-" if value is None else f"{round(value * 100)}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help='regular expression on "page form" (e.g. "apero", "desktop")')
    parser.add_argument("--out", type=Path, help="keep the JSON reports in this folder (default: a temporary one)")
    args = parser.parse_args()
    if not Path(CHROME).exists():
        sys.exit(f"Chromium is needed at {CHROME} (Debian: apt-get install -y chromium) or set CHROME_PATH")
    ensure_lighthouse()
    version = subprocess.run([str(LIGHTHOUSE), "--version"], capture_output=True, text=True).stdout.strip()
    runs = [
        (page, form)
        for page in PAGES
        for form in FORM_FACTORS
        if not args.only or re.search(args.only, f"{page} {form}")
    ]

    began = time.monotonic()
    port = free_port()
    command = readme_command(port)
    print("service:", " ".join(command))
    print(f"Lighthouse {version}, Chromium {CHROME}, {len(runs)} runs one after the other", flush=True)
    server = started(command, port, dict(os.environ))
    rows, flagged, warnings, failures = [], {}, set(), []
    try:
        with tempfile.TemporaryDirectory(prefix="lighthouse-") as temp:
            folder = args.out or Path(temp)
            folder.mkdir(parents=True, exist_ok=True)
            for page, form in runs:
                output = folder / f"{page}-{form}.json"
                output.unlink(missing_ok=True)
                start = time.monotonic()
                error = run_lighthouse(f"http://127.0.0.1:{port}/#{page}", FORM_FACTORS[form], output)
                print(f"  {page} {form}: {time.monotonic() - start:.0f} s{' FAILED' if error else ''}", flush=True)
                if error:
                    failures.append(f"{page} {form}: {error}")
                    continue
                report = json.loads(output.read_text(encoding="utf-8"))
                warnings.update(report.get("runWarnings", []))
                failed = failed_accessibility(report)
                for audit in failed:
                    entry = flagged.setdefault(audit["id"], {"title": audit["title"], "runs": [], "elements": {}})
                    entry["runs"].append(f"{page} {form}")
                    for selector, snippet in elements(audit):
                        entry["elements"].setdefault(selector, snippet)
                audits = report["audits"]
                rows.append(
                    (
                        f"#{page}",
                        form,
                        f"{audits['cumulative-layout-shift'].get('numericValue', float('nan')):.3f}",
                        score(report, "accessibility"),
                        score(report, "performance"),
                        f"{audits['largest-contentful-paint'].get('numericValue', float('nan')):.0f}",
                        ", ".join(audit["id"] for audit in failed) or "-",
                        f"{report['environment'].get('benchmarkIndex', float('nan')):.0f}",
                    )
                )
    finally:
        server.terminate()
        server.wait(timeout=20)

    header = ("page", "form", "CLS", "a11y", "perf", "LCP ms", "failed a11y audits", "CPU index")
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    print()
    for row in [header, *rows]:
        print(
            "  ".join(
                str(cell).ljust(w) if i in (0, 1, 6) else str(cell).rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            )
        )
    for audit_id, entry in flagged.items():
        print(f"\n{audit_id}: {entry['title']} ({', '.join(entry['runs'])})")
        for selector, snippet in entry["elements"].items():
            print(f"  {selector}  {snippet}")
    for warning in sorted(warnings):
        print(f"\nLighthouse warns: {warning}")
    print(f"\n{len(rows)} of {len(runs)} runs measured in {time.monotonic() - began:.0f} s")
    for failure in failures:
        print(f"\nLighthouse failed on {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
