"""What a second visit to the form fetches from the network, with a warm HTTP cache.

    python benchmarks/static_cache.py                              # this tree
    python benchmarks/static_cache.py --reference /tmp/form-before # and an older tree

A tree to compare with is made with ``git worktree add /tmp/form-before <commit>``. Each tree
is served by the README's gunicorn command on a free port of 127.0.0.1, from its own folder
(``PYTHONPATH`` points at it; the script checks that the form it serves is that tree's), as
``form_taps.py`` serves it. Debian's Chromium (``SCORING_TEST_CHROMIUM``) is driven through
Playwright on a phone (390x844 CSS px), with service workers blocked, so that only the
browser's HTTP cache keeps anything.

In one fresh browser context: a first visit (``/``, until the form says it is ready and the
network is idle), then a second visit in a new tab of the same context (the same HTTP
cache), the same way. For each visit it counts, from DevTools' network events, the requests
that went to the network (neither the disk nor the memory cache answered them; a 304 is
one) and the bytes they received (``encodedDataLength``: headers and body as they came,
compressed), and how many of those were answered 304.

It prints a table per tree. The figures are measured, not judged: the script exits non-zero
only when something fails to run.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

from form_taps import PHONE, serve
from load import ROOT

sys.path.insert(0, str(ROOT))
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS


@dataclass
class Visit:
    """The network requests of one visit, from DevTools' events."""

    urls: dict[str, str] = field(default_factory=dict)
    status: dict[str, int] = field(default_factory=dict)
    cached: set[str] = field(default_factory=set)
    received: dict[str, int] = field(default_factory=dict)
    wire_status: dict[str, int] = field(default_factory=dict)  # as it came: a revalidated file's 304

    def watch(self, cdp) -> None:
        cdp.on("Network.requestWillBeSent", lambda e: self.urls.setdefault(e["requestId"], e["request"]["url"]))
        cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        cdp.on("Network.responseReceived", self._response)
        cdp.on(
            "Network.responseReceivedExtraInfo", lambda e: self.wire_status.update({e["requestId"]: e["statusCode"]})
        )
        cdp.on("Network.loadingFinished", lambda e: self.received.update({e["requestId"]: e["encodedDataLength"]}))
        cdp.send("Network.enable")

    def _response(self, event) -> None:
        response = event["response"]
        self.status[event["requestId"]] = response["status"]
        if response.get("fromDiskCache") or response.get("fromPrefetchCache") or response.get("fromServiceWorker"):
            self.cached.add(event["requestId"])

    def network(self) -> list[str]:
        """The requests that went to the network (a 304 among them)."""
        return [rid for rid in self.urls if rid in self.status and rid not in self.cached]

    def figures(self) -> tuple[int, int, int, int]:
        """Requests to the network, bytes received, 304s, requests answered by a cache."""
        sent = self.network()
        answered_304 = sum(1 for rid in sent if self.wire_status.get(rid) == 304)
        return len(sent), sum(self.received.get(rid, 0) for rid in sent), answered_304, len(self.cached)


def visit(context, base: str) -> Visit:
    page = context.new_page()
    page.set_default_timeout(30_000)
    cdp = context.new_cdp_session(page)
    seen = Visit()
    seen.watch(cdp)
    page.goto(base, wait_until="networkidle")
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_load_state("networkidle")
    cdp.detach()
    return seen


def measure(browser, base: str) -> list[tuple[str, Visit]]:
    context = browser.new_context(base_url=base, **PHONE)  # service workers blocked
    try:
        first = visit(context, base)
        second = visit(context, base)
    finally:
        context.close()
    return [("first visit", first), ("second visit", second)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", type=Path, help="a tree to compare with (git worktree add ...)")
    parser.add_argument("--urls", action="store_true", help="list each network request of the second visit")
    args = parser.parse_args()
    trees = [("reference", args.reference.resolve())] if args.reference else []
    trees.append(("this tree", ROOT))
    if not Path(CHROMIUM).exists():
        sys.exit(f"Chromium not found at {CHROMIUM} (Debian: apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    results = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        for name, tree in trees:
            server, base = serve(tree)
            try:
                results[name] = (tree, measure(browser, base))
            finally:
                server.terminate()
                server.wait(timeout=10)
        browser.close()

    print(f"\nphone {PHONE['viewport']['width']}x{PHONE['viewport']['height']}, service workers blocked")
    for name, (tree, visits) in results.items():
        print(f"\n{name}: {tree}\n")
        print("| visit | requests to the network | bytes received | of which 304 | answered by the cache |")
        print("|---|---|---|---|---|")
        for label, seen in visits:
            sent, received, answered_304, cached = seen.figures()
            print(f"| {label} | {sent} | {received:,} | {answered_304} | {cached} |")
        if args.urls:
            seen = visits[-1][1]
            for rid in seen.network():
                print(
                    f"  {seen.wire_status.get(rid, seen.status[rid])} {seen.received.get(rid, 0):>7,} {seen.urls[rid]}"
                )


if __name__ == "__main__":
    main()
