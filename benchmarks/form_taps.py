"""The form at the table: how long from a tap to the new total, on a slow phone.

    python benchmarks/form_taps.py                              # this tree
    python benchmarks/form_taps.py --reference /tmp/form-before # and an older tree, interleaved
    python benchmarks/form_taps.py --rounds 5 --only apero

A tree to compare with is made with ``git worktree add /tmp/form-before <commit>``. Each tree
is served by the README's gunicorn command (2 gevent workers) on a free port of 127.0.0.1,
from its own folder (``PYTHONPATH`` points at it; the script checks that the form it serves
is that tree's). Debian's Chromium (``SCORING_TEST_CHROMIUM``, /usr/bin/chromium unless set)
is driven through Playwright, as the browser tests drive it, on a phone (390x844 CSS px,
3 device pixels each, touch), with DevTools' CPU throttling at 4x
(``Emulation.setCPUThrottlingRate``) once the page has loaded. Every series starts in a
fresh browser context (no saved inputs but the ones it sets), and the trees take turns:
round 1 of every game on each tree, then round 2...

Each game's series of taps, every tap measured on its own:

- **Apero**: 16 card taps, 8 for each of two players (the second added first); the time
  until that player's running total (「16点」) shows the new total.
- **Pedro**: 8 hands entered; the points are typed, then 「記録」 is tapped; the time
  until the NS score shows the new score.
- **Applejack**: 9 harvests on an orchard of 8 trees (kept in the browser before the page
  opens); the die is chosen, then 「収穫」 is tapped; the time until the honey shows.
- **Fairy & Black Box**: 8 treasure changes; a treasure's points are typed, then
  「得点を計算」 is tapped; the time until that player's score shows.

The time runs in the page, on its own clock (``performance.now()``): from the tap's
``pointerdown`` to the first frame drawn after the expected text is in the page (a
MutationObserver sees the text; a frame callback, then a message, mark the frame after it).
The expected texts come from the service itself (the same requests, asked directly), and
each differs from the one before. Also printed, per tap: the page's main-thread busy time
from just before the tap until the page is idle again (DevTools' ``TaskDuration``, a CPU
figure, with the throttling in it). Between taps the page is left 0.4 s, as a person
reading the total would.

It prints every tree's median and p90 per game, in ms. The figures are measured, not
judged: the script exits non-zero only when something fails to run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from load import ROOT, free_port, started
from slow_clients import readme_command

sys.path.insert(0, str(ROOT))
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
    "locale": "ja-JP",
    "service_workers": "block",
}
THROTTLE = 4
GAP_S = 0.4  # a person reads the total before the next tap
GAMES = ["apero", "pedro", "applejack", "fairy-black-box"]

#: In the page before its scripts: the tap's start (pointerdown), then the frame after the
#: expected text is in the page.
PROBE = """
(() => {
  const probe = { pending: null };
  const check = () => {
    const p = probe.pending;
    if (!p || p.start === null || p.seen !== null) return;
    const el = document.querySelector(p.selector);
    if (!el || el.textContent.trim() !== p.expected) return;
    p.seen = performance.now();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { p.shown = performance.now(); };
      channel.port2.postMessage(0);
    });
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
  const started = () => {
    const p = probe.pending;
    if (p && p.start === null) { p.start = performance.now(); queueMicrotask(check); }
  };
  document.addEventListener('pointerdown', started, true);
  window.__tap = {
    arm(selector, expected) { probe.pending = { selector, expected, start: null, seen: null, shown: null }; },
    result() {
      const p = probe.pending;
      return p && p.shown !== null ? { shown: p.shown - p.start, dom: p.seen - p.start } : null;
    },
  };
})();
"""


def ask(base: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        f"{base}api/v1/{path}", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


# -- The series: each step is (what to do first, unmeasured; the tap; selector; expected text) --


def apero_steps(base: str) -> list[dict]:
    hands = [
        [
            ("red", 1),
            ("green", 2),
            ("green", 3),
            ("purple", -1),
            ("purple", -2),
            ("purple", -3),
            ("blue", 3),
            ("red", 2),
        ],
        [
            ("orange", 1),
            ("orange", 2),
            ("black_green", -2),
            ("black_green", -3),
            ("orange", 3),
            ("blue", 1),
            ("red", 3),
            ("blue", 2),
        ],
    ]
    steps, held = [], [[], []]
    for player, hand in enumerate(hands):
        for k, (color, value) in enumerate(hand):
            held[player].append({"color": color, "value": value})
            players = [{"name": f"P{i}", "cards": cards} for i, cards in enumerate(held) if cards]
            total = next(
                p
                for p in ask(base, "apero/score", {"sets": 1, "players": players})["players"]
                if p["name"] == f"P{player}"
            )
            steps.append(
                {
                    "before": [("click", "apero-add-player")] if player and not k else [],
                    "tap": f"apero-p{player}-{color}-{value}",
                    "selector": f"[data-testid='apero-p{player}-running']",
                    "expected": f"{total['total_text']}点",
                }
            )
    return steps


def pedro_steps(base: str) -> list[dict]:
    points = [(9, 5), (8, 6), (10, 4), (7, 7), (12, 2), (9, 5), (11, 3), (8, 6)]
    steps, hands = [], []
    for ns, ew in points:
        hands.append({"bid": {"team": "NS", "amount": 7}, "points": {"NS": ns, "EW": ew}})
        score = ask(base, "pedro/game", {"rules": {}, "hands": hands})["scores"]["NS"]
        steps.append(
            {
                "before": [
                    ("check_if_there", "pedro-bid-7"),  # the bid's button (an older form's drop-down list shows 7)
                    ("fill", "pedro-points-NS", str(ns)),
                    ("fill", "pedro-points-EW", str(ew)),
                ],
                "tap": "pedro-add",
                "selector": "[data-testid='pedro-score-NS']",
                "expected": str(score),
            }
        )
    return steps


#: Applejack's orchard, kept in the browser before the page opens (store.js's format).
ORCHARD = {
    1: {"red": 2},
    2: {"red": 3},
    3: {"yellow": 4},
    5: {"red": 1, "yellow": 2},
    9: {"red": 2},
    10: {"red": 4, "yellow": 1},
    11: {"yellow": 3},
    15: {"red": 3},
}


def applejack_storage() -> str:
    tiles = {str(f): {"apples": apples, "blossoms": 0, "beehives": [], "price": None} for f, apples in ORCHARD.items()}
    data = {
        "players": [{"name": "", "supply": None, "final": None, "tiles": tiles}],
        "current": 0,
        "first": "red",
        "second": "",
        "die": 1,
        "times": 1,
        "taken": {"apples": {}, "blossoms": 0, "beehives": ["e"], "price": 3},
        "last": None,
    }
    return json.dumps({"v": 1, "data": data})


def applejack_steps(base: str) -> list[dict]:
    orchard = {
        "tiles": [
            {"field": f, "apples": apples, "blossoms": 0, "beehives": []} for f, apples in sorted(ORCHARD.items())
        ]
    }
    steps = []
    for die in [1, 2, 3] * 3:
        honey = ask(base, "applejack/harvest", {"orchard": orchard, "varieties": ["red"], "die": die})["honey"]
        steps.append(
            {
                "before": [("check", f"aj-die-{die}")],
                "tap": "aj-harvest-go",
                "selector": "[data-testid='aj-harvest-honey']",
                "expected": str(honey),
            }
        )
    return steps


def fairy_steps(base: str) -> list[dict]:
    steps = []
    for points in [3, 5, 2, 7, 4, 6, 1, 8]:
        players = [{"name": "A", "mood": 3, "eliminated": False, "treasures": [{"name": "x", "points": points}]}]
        players += [{"name": n, "mood": 3, "eliminated": False, "treasures": []} for n in "BC"]
        score = ask(base, "fairy-black-box/score", {"players": players})["players"][0]["score"]
        steps.append(
            {
                "before": [("fill", "fairy-black-box-p0-t0-points", str(points))],
                "tap": "fairy-black-box-score",
                "selector": "[data-testid='fairy-black-box-score-0']",
                "expected": str(score),
            }
        )
    return steps


def checked(steps: list[dict]) -> list[dict]:
    """Each tap must change the text it is measured by, or its time would be nought."""
    for previous, step in itertools.pairwise(steps):
        if previous["selector"] == step["selector"] and previous["expected"] == step["expected"]:
            sys.exit(f"two taps in a row expect {step['expected']!r} at {step['selector']}")
    return steps


SERIES = {"apero": apero_steps, "pedro": pedro_steps, "applejack": applejack_steps, "fairy-black-box": fairy_steps}


def busy_s(cdp) -> float:
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return next(m["value"] for m in metrics if m["name"] == "TaskDuration")


def run_series(browser, base: str, game: str, steps: list[dict]) -> list[tuple[float, float]]:
    """One fresh phone page; every step's (tap to total shown, main-thread busy) in ms."""
    context = browser.new_context(base_url=base, **PHONE)
    try:
        context.add_init_script(PROBE)
        if game == "applejack":
            context.add_init_script(f"localStorage.setItem('scoring.applejack', {json.dumps(applejack_storage())})")
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"/#{game}")
        page.wait_for_selector("body[data-ready='true']")
        page.get_by_test_id(f"panel-{game}").wait_for(state="visible")
        if game == "fairy-black-box":
            page.get_by_test_id("fairy-black-box-setup").wait_for()
        page.wait_for_timeout(300)
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
        cdp.send("Performance.enable")
        figures = []
        for step in steps:
            for action, testid, *value in step["before"]:
                target = page.get_by_test_id(testid)
                if action == "check_if_there":  # a control an older form may lack
                    if target.count():
                        target.check()
                    continue
                getattr(target, action)(*value)
            page.wait_for_timeout(100)
            target = page.get_by_test_id(step["tap"])
            target.scroll_into_view_if_needed()
            before = busy_s(cdp)
            page.evaluate("([s, e]) => window.__tap.arm(s, e)", [step["selector"], step["expected"]])
            target.tap()
            page.wait_for_function("() => window.__tap.result() !== null")
            shown = page.evaluate("window.__tap.result()")["shown"]
            time.sleep(GAP_S)
            figures.append((shown, (busy_s(cdp) - before) * 1000))
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        return figures
    finally:
        context.close()


def serve(tree: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    command = readme_command(port)  # with this Python's gunicorn
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),
        # one client, many taps: the limits stay in the road, high enough never to refuse it
        "SCORING_RATE_LIMIT": "100000000 per minute",
    }
    server = started(command, port, env, cwd=tree)
    base = f"http://127.0.0.1:{port}/"
    served = urllib.request.urlopen(f"{base}assets/apero.js", timeout=5).read()
    if served != (tree / "scoring_api/web/static/apero.js").read_bytes():
        server.kill()
        sys.exit(f"the server on {base} does not serve {tree}'s form")
    return server, base


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", type=Path, help="a tree to compare with (git worktree add ...)")
    parser.add_argument("--rounds", type=int, default=3, help="series per game and tree (default 3)")
    parser.add_argument("--only", choices=GAMES, action="append", help="these games only")
    args = parser.parse_args()
    games = args.only or GAMES
    trees = [("reference", args.reference.resolve())] if args.reference else []
    trees.append(("this tree", ROOT))
    if not Path(CHROMIUM).exists():
        sys.exit(f"Chromium not found at {CHROMIUM} (Debian: apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    servers = {}
    try:
        for name, tree in trees:
            servers[name] = serve(tree)
            print(f"{name}: {tree} on {servers[name][1]}", flush=True)
        steps = {game: checked(SERIES[game](servers[trees[-1][0]][1])) for game in games}
        figures: dict[tuple[str, str], list[tuple[float, float]]] = {}
        began = time.monotonic()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            for round_ in range(1, args.rounds + 1):
                for name, _tree in trees:
                    for game in games:
                        got = run_series(browser, servers[name][1], game, steps[game])
                        figures.setdefault((name, game), []).extend(got)
                        shown = [s for s, _ in got]
                        print(
                            f"  round {round_} {name:9} {game:16} median {statistics.median(shown):6.0f} ms  "
                            f"max {max(shown):6.0f} ms",
                            flush=True,
                        )
            browser.close()
    finally:
        for server, _base in servers.values():
            server.terminate()
            server.wait(timeout=10)

    print(
        f"\n{args.rounds} rounds in {time.monotonic() - began:.0f} s; Chromium CPU throttling {THROTTLE}x, "
        f"phone {PHONE['viewport']['width']}x{PHONE['viewport']['height']}"
    )
    print("\n| game | tree | taps | tap to total: median ms | p90 ms | main thread per tap: median ms |")
    print("|---|---|---|---|---|---|")
    for game in games:
        for name, _tree in trees:
            got = figures[(name, game)]
            shown = [s for s, _ in got]
            busy = [b for _, b in got]
            print(
                f"| {game} | {name} | {len(got)} | {statistics.median(shown):.0f} | {p90(shown):.0f} | "
                f"{statistics.median(busy):.0f} |"
            )


if __name__ == "__main__":
    main()
