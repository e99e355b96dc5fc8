"""The form's effort: how many taps and typed characters the audit's four tasks take.

    python benchmarks/form_effort.py                            # this tree
    python benchmarks/form_effort.py --root /tmp/before-effort  # another tree
    python benchmarks/form_effort.py --only pedro --only applejack

A tree to compare with is made with ``git worktree add /tmp/before-effort <commit>``; it is
served by the README's gunicorn command from its own folder (``PYTHONPATH`` points at it,
and the script checks that the form it serves is that tree's, as form_taps.py does).
Debian's Chromium (``SCORING_TEST_CHROMIUM``) is driven through Playwright on a phone
(390x844 CSS px, touch), each task in a fresh browser context opened on its tab.

The tasks (the audit's):

- **Apero**: 4 players, 12 cards each (two sets), their names typed; every total shown.
- **Pedro**: an 11-hand game, each hand's bid and points; NS reaches 100 on the last hand.
- **Applejack**: an 18-tile orchard (fields 1-18: 15 trees as printed, with apples,
  blossoms, price and beehives; 3 pastures) entered tile by tile, then the honey held and
  the final score.
- **Fairy & Black Box**: 4 players' names, moods and treasures, then the final score.

What is counted, by the person of each task function: a **tap** is one click or tap (a
button, a box to type in, a radio button); choosing in a drop-down list is two (open it,
pick); scrolling is not counted. **Characters** are the characters typed into boxes. The
person taps only what the page does not already show as wanted (a bid team already
selected is not tapped again) and leaves a box blank where blank means the value (0
points). Each task checks the page's final figures against the service's own answer to
the same requests, so a count is never that of a task left half done.

Each task is one function taking the page (a :class:`Person`): another form, another
function; a task that fails is reported as failed and the others still run. It prints a
table of taps and characters per task. The figures are measured, not judged: the script
exits non-zero only when a task fails or the server does not start.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from form_taps import PHONE, serve
from load import ROOT

sys.path.insert(0, str(ROOT))
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS


class Person:
    """A person at the form, counting what they do: ``tap``, ``type`` (a tap into the box,
    then its characters) and ``choose`` (a drop-down list: two taps). ``page`` is the
    Playwright page, for waiting on the answers (not counted)."""

    def __init__(self, page, base: str):
        self.page = page
        self.base = base
        self.taps = 0
        self.chars = 0

    def tap(self, testid: str) -> None:
        self.page.get_by_test_id(testid).tap()
        self.taps += 1

    def type(self, testid: str, text: str) -> None:
        self.tap(testid)
        self.page.keyboard.type(text)
        self.chars += len(text)

    def choose(self, testid: str, value: str) -> None:
        """A drop-down list: tapped open, then the option tapped (nothing when it already shows it)."""
        target = self.page.get_by_test_id(testid)
        if target.input_value() == value:
            return
        target.select_option(value)
        self.taps += 2

    def tick(self, testid: str) -> None:
        """A radio button or checkbox, tapped unless it is already checked."""
        if not self.page.get_by_test_id(testid).is_checked():
            self.tap(testid)

    def expect_text(self, testid: str, text: str) -> None:
        """Waits (up to 10 s) until the element's text is ``text``."""
        from playwright.sync_api import expect

        expect(self.page.get_by_test_id(testid)).to_have_text(text, timeout=10_000)

    def ask(self, path: str, body: dict) -> dict:
        """The service's answer to ``body``, asked directly (not counted): the expected figures."""
        request = urllib.request.Request(
            f"{self.base}api/v1/{path}", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)


# -- The tasks: one function each, taking the person at the page ------------------------------

#: Apero: four players' names and 12 cards each, from two sets.
APERO_NAMES = ["Ai", "Bo", "Cy", "Di"]
APERO_HANDS = [
    {"red": [1, 1, 2, 3], "green": [2, 2], "blue": [1], "orange": [3], "purple": [-3, -2, -1], "black_green": [-2]},
    {"orange": [1, 2, 2], "blue": [1, 2, 3], "green": [1, 3], "red": [2], "black_green": [-3, -3], "purple": [-2]},
    {"green": [1, 2, 3], "red": [1, 2], "orange": [1, 3], "blue": [2, 2], "purple": [-3, -2], "black_green": [-1]},
    {"blue": [1, 2, 3], "orange": [1, 2], "red": [2, 3], "green": [2], "black_green": [-2, -2], "purple": [-3, -1]},
]


def apero(person: Person) -> None:
    """Two sets; each player added, named and given 12 cards; every total as the service's.
    A name box the form has already focused (the one of the player just added) is typed
    into without a tap."""
    person.choose("apero-sets", "2")
    for i, (name, hand) in enumerate(zip(APERO_NAMES, APERO_HANDS, strict=True)):
        if i:
            person.tap("apero-add-player")
        box = person.page.get_by_test_id(f"apero-p{i}-name")
        if box.evaluate("(el) => el === document.activeElement"):
            person.page.keyboard.type(name)
            person.chars += len(name)
        else:
            person.type(f"apero-p{i}-name", name)
        for color, values in hand.items():
            for value in values:
                person.tap(f"apero-p{i}-{color}-{value}")
    players = [
        {"name": name, "cards": [{"color": c, "value": v} for c, values in hand.items() for v in values]}
        for name, hand in zip(APERO_NAMES, APERO_HANDS, strict=True)
    ]
    expected = person.ask("apero/score", {"sets": 2, "players": players})
    for i, player in enumerate(expected["players"]):
        person.expect_text(f"apero-total-{i}", player["total_text"])


#: Pedro: (bidding team, bid, NS points, EW points) of each hand; NS reaches 100 on the 11th.
PEDRO_HANDS = [
    ("NS", 7, 9, 5),
    ("EW", 8, 4, 10),
    ("NS", 9, 12, 2),
    ("EW", 7, 6, 8),
    ("NS", 10, 11, 3),
    ("NS", 8, 9, 5),
    ("EW", 9, 5, 9),
    ("NS", 7, 8, 6),
    ("EW", 10, 8, 6),
    ("NS", 9, 14, 0),
    ("NS", 8, 14, 0),
]


def pedro(person: Person) -> None:
    """Each hand: the bidding team and the bid (when not already shown: a drop-down list, or
    the bid's button); the bidding team's points typed, then the other team's: one tap on
    the form's offer when it offers exactly them (the hand's remaining points), else typed
    (left blank for 0 where a blank box is 0: a form with the drop-down list) and 「記録」;
    the scores and the winner as the service's."""
    hands = []
    page = person.page
    for k, (team, amount, ns, ew) in enumerate(PEDRO_HANDS):
        person.tick(f"pedro-team-{team}")
        blank_is_zero = page.locator("select[data-testid='pedro-amount']").count() > 0
        if blank_is_zero:
            person.choose("pedro-amount", str(amount))
        else:
            person.tick(f"pedro-bid-{amount}")
        points = {"NS": ns, "EW": ew}
        other = "EW" if team == "NS" else "NS"
        if points[team] or not blank_is_zero:
            person.type(f"pedro-points-{team}", str(points[team]))
        offer = page.get_by_test_id("pedro-points-fill")
        if offer.count() and offer.get_attribute("data-points") == str(points[other]):
            person.tap("pedro-points-fill")
        else:
            if points[other] or not blank_is_zero:
                person.type(f"pedro-points-{other}", str(points[other]))
            person.tap("pedro-add")
        page.get_by_test_id(f"pedro-ledger-row-{k}").wait_for()
        hands.append({"bid": {"team": team, "amount": amount}, "points": {"NS": ns, "EW": ew}})
    expected = person.ask("pedro/game", {"rules": {}, "hands": hands})
    for side in ("NS", "EW"):
        person.expect_text(f"pedro-score-{side}", str(expected["scores"][side]))
    assert expected["winner"] == "NS", expected


#: Applejack: the orchard at the end of a game (fields 1-18; 19 still empty), each tile as
#: printed: (apples by variety, blossoms, beehive edges, price), None for a pasture. Filling
#: every box of every tile, as the form of 2026-12-06 asked, took the audit's 97 taps and 44
#: characters.
APPLEJACK_TILES: dict[int, tuple[dict[str, int], int, list[str], int] | None] = {
    1: ({"red": 2}, 0, ["e"], 2),
    2: ({"red": 1, "yellow": 1}, 1, ["w"], 1),
    3: None,
    4: ({"light_green": 3}, 0, ["sw"], 3),
    5: ({"orange": 2}, 1, ["nw"], 2),
    6: ({"orange": 1, "pink": 2}, 0, ["w"], 1),
    7: None,
    8: None,
    9: ({"brown": 2}, 2, ["e", "se"], 2),
    10: ({"red": 3, "seventh": 1}, 0, ["ne"], 3),
    11: ({"yellow": 2, "light_green": 1}, 0, ["sw"], 2),
    12: ({"pink": 3}, 1, ["w"], 4),
    13: ({"red": 2}, 0, ["nw"], 2),
    14: ({"red": 2}, 0, ["nw"], 2),
    15: ({"brown": 1, "yellow": 2}, 0, ["se"], 1),
    16: ({"seventh": 2}, 1, ["e"], 2),
    17: ({"orange": 3}, 0, ["ne", "sw"], 3),
    18: ({"light_green": 2, "brown": 1}, 1, ["w"], 2),
}
APPLEJACK_SUPPLY = 37


def applejack(person: Person) -> None:
    """The tiles in field order, then the honey held and 「最終得点を計算」; the total as the
    service's. For each tile the person fills every box the tile editor shows for it
    (apples, blossoms (a blank box is 0), price, beehive edges), with the fewest taps the
    form offers: 「最終得点の分だけ」 when the form has it (its editor then asks for no price
    or beehives), 「次の畑」 when it leads to the field, 「前と同じタイル」 when the tile is the
    one before it again, and the tile's kind only when a tree's boxes are not shown yet."""
    page = person.page
    if page.get_by_test_id("aj-mode-final").count():
        person.tick("aj-mode-final")
    before: object = "no tile yet"
    for field, tile in APPLEJACK_TILES.items():
        onward = page.get_by_test_id("aj-next-field")
        if onward.count() and onward.get_attribute("data-field") == str(field):
            person.tap("aj-next-field")
        else:
            person.tap(f"aj-field-{field}")
        page.get_by_test_id("aj-editor").wait_for()
        if tile == before and page.get_by_test_id("aj-same-tile").count():
            person.tap("aj-same-tile")
            continue
        before = tile
        if tile is None:
            person.tick("aj-kind-pasture")
            continue
        apples, blossoms, hives, price = tile
        if not page.get_by_test_id("aj-apples-red").is_visible():
            person.tick("aj-kind-tree")
        for variety, count in apples.items():
            person.type(f"aj-apples-{variety}", str(count))
        if blossoms:
            person.type("aj-blossoms", str(blossoms))
        if page.get_by_test_id("aj-price").count():
            person.type("aj-price", str(price))
            for edge in hives:
                person.tick(f"aj-hive-{edge}")
    person.type("aj-supply", str(APPLEJACK_SUPPLY))
    person.tap("aj-final-go")
    tiles = [
        {"field": f, "pasture": True}
        if tile is None
        else {"field": f, "apples": tile[0], "blossoms": tile[1], "beehives": tile[2], "price": tile[3]}
        for f, tile in APPLEJACK_TILES.items()
    ]
    expected = person.ask("applejack/final", {"orchard": {"tiles": tiles}, "supply": APPLEJACK_SUPPLY})
    person.expect_text("aj-final-total", str(expected["total"]))


#: Fairy & Black Box: each player's name, mood and treasure points.
FAIRY_PLAYERS = [("Ai", 3, [3, 4]), ("Bo", 1, [5]), ("Cy", 4, [2, 2]), ("Di", 2, [6, 1])]


def fairy_black_box(person: Person) -> None:
    """A fourth player added; each player's name, mood and treasures (a row added for each
    treasure after the first); 「得点を計算」; every score as the service's."""
    person.page.get_by_test_id("fairy-black-box-setup").wait_for()
    person.tap("fairy-black-box-add-player")
    for i, (name, mood, treasures) in enumerate(FAIRY_PLAYERS):
        person.type(f"fairy-black-box-p{i}-name", name)
        person.type(f"fairy-black-box-p{i}-mood", str(mood))
        for k, points in enumerate(treasures):
            if k:
                person.tap(f"fairy-black-box-p{i}-add-treasure")
            person.type(f"fairy-black-box-p{i}-t{k}-points", str(points))
    person.tap("fairy-black-box-score")
    players = [
        {
            "name": name,
            "mood": mood,
            "eliminated": False,
            "treasures": [{"name": f"t{k}", "points": p} for k, p in enumerate(treasures)],
        }
        for name, mood, treasures in FAIRY_PLAYERS
    ]
    expected = person.ask("fairy-black-box/score", {"players": players})
    for i, player in enumerate(expected["players"]):
        person.expect_text(f"fairy-black-box-score-{i}", str(player["score"]))


TASKS: dict[str, Callable[[Person], None]] = {
    "apero": apero,
    "pedro": pedro,
    "applejack": applejack,
    "fairy-black-box": fairy_black_box,
}


def run_task(browser, base: str, game: str) -> tuple[int, int, float] | str:
    """The task of `game` on a fresh phone page: (taps, characters, seconds), or why it failed."""
    context = browser.new_context(base_url=base, **PHONE)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(f"/#{game}")
        page.wait_for_selector("body[data-ready='true']")
        page.get_by_test_id(f"panel-{game}").wait_for(state="visible")
        person = Person(page, base)
        began = time.monotonic()
        try:
            TASKS[game](person)
        except Exception as error:  # a task of another form: reported, the others still run
            first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            return f"failed after {person.taps} taps: {first[:160]}"
        return person.taps, person.chars, time.monotonic() - began
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the tree to serve (default: this one)")
    parser.add_argument("--only", choices=list(TASKS), action="append", help="these tasks only")
    args = parser.parse_args()
    tree = args.root.resolve()
    if not Path(CHROMIUM).exists():
        sys.exit(f"Chromium not found at {CHROMIUM} (Debian: apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    server, base = serve(tree)
    results: dict[str, tuple[int, int, float] | str] = {}
    try:
        print(f"{tree} on {base}", flush=True)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            for game in args.only or list(TASKS):
                results[game] = run_task(browser, base, game)
                print(f"  {game}: {results[game]}", flush=True)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)

    print(f"\nphone {PHONE['viewport']['width']}x{PHONE['viewport']['height']}, touch; tree {tree}")
    print("\n| task | taps | characters typed |")
    print("|---|---|---|")
    for game, result in results.items():
        if isinstance(result, str):
            print(f"| {game} | {result} | |")
        else:
            print(f"| {game} | {result[0]} | {result[1]} |")
    if any(isinstance(result, str) for result in results.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
