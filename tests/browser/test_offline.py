"""The installable form offline: its service worker keeps the page and its files, the page
opens without a connection, says so in a banner, and a scoring call says it needs the
connection instead of failing like a broken page.

These tests make their own browser context: conftest's ``page`` blocks service workers.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring_api.web import bp as web

from .conftest import EXPECTED_CONSOLE, PHONE, SCREENS
from .test_pedro_form import enter_points

BANNER_JA = "オフラインです。入力は保存されます。得点の計算は接続が戻ってから行います。"
BANNER_EN = "You are offline. Your entries are kept; scores are computed when the connection is back."
# The form's scripts run under the service's CSP, which refuses string evaluation: functions only.
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
ACTIVATED = "async () => (await navigator.serviceWorker.ready).active.state"
CACHED_URLS = """async () => {
  const urls = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    urls[name] = (await cache.keys()).map((request) => request.url);
  }
  return urls;
}"""

# The cache names once the old cache is gone (wait_for_function does not wait for promises).
NEW_CACHE = """async (old) => {
  for (let i = 0; i < 100; i += 1) {
    const names = await caches.keys();
    if (names.length === 1 && names[0] !== old) return names;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return caches.keys();
}"""


@pytest.fixture
def context(request, browser, base_url):
    """A context that allows service workers, on the narrowest phone unless a test asks for
    one of conftest's SCREENS; script errors, unexpected console errors and requests to
    other origins fail the test."""
    viewport = SCREENS[request.param] if hasattr(request, "param") else PHONE
    context = browser.new_context(viewport=viewport, base_url=base_url, locale="ja-JP", service_workers="allow")
    problems: list[str] = []

    def watch(tab):
        tab.set_default_timeout(10_000)
        tab.on("pageerror", lambda error: problems.append(f"script error: {error}"))
        tab.on(
            "console",
            lambda message: (
                problems.append(f"console {message.type}: {message.text}")
                if message.type == "error" and not message.text.startswith(EXPECTED_CONSOLE)
                else None
            ),
        )

    context.on("page", watch)
    context.on(
        "request",
        lambda request: (
            problems.append(f"request outside the service: {request.url}")
            if not request.url.startswith(base_url)
            else None
        ),
    )
    yield context
    context.close()
    assert not problems, "\n".join(problems)


def open_controlled(context):
    """A new tab with the form, once the worker is activated and controls the page."""
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_function(CONTROLLED)
    assert page.evaluate(ACTIVATED) == "activated"
    return page


def precache_list(page) -> list[str]:
    """The URLs the worker keeps, read from the worker as served."""
    source = page.request.get("/sw.js").text()
    return json.loads(re.search(r"^const PRECACHE = (\[.*?\]);$", source, re.S | re.M).group(1))


@pytest.mark.parametrize("context", SCREENS, indirect=True)
def test_the_form_opens_offline_and_says_scoring_needs_the_connection(context, base_url, shots):
    page = open_controlled(context)
    banner = page.get_by_test_id("offline-banner")
    expect(banner).to_be_hidden()
    caches = page.evaluate(CACHED_URLS)
    assert len(caches) == 1, caches
    [(name, kept)] = caches.items()
    assert name.startswith("scoring-form-")
    assert sorted(kept) == sorted(base_url + url.lstrip("/") for url in precache_list(page))

    context.set_offline(True)
    expect(banner).to_be_visible()  # the page that is open says so at once
    response = page.reload()
    assert response is not None and response.ok and response.from_service_worker
    page.wait_for_selector("body[data-ready='true']")
    expect(page.get_by_role("tab")).to_have_count(5)
    expect(banner).to_be_visible()
    expect(banner).to_have_text(BANNER_JA)
    expect(page.get_by_test_id("offline-status")).to_have_attribute("role", "status")

    page.get_by_test_id("tab-apero").click()
    page.get_by_test_id("apero-p0-red-1").click()
    expect(page.get_by_test_id("apero-error")).to_contain_text("オフライン")
    expect(page.get_by_test_id("apero-error")).to_contain_text("得点の計算にはサービスへの接続が必要です")
    page.screenshot(path=shots / "offline.png", full_page=True)

    page.get_by_test_id("lang-en").click()
    expect(banner).to_have_text(BANNER_EN)
    page.get_by_test_id("lang-ja").click()
    expect(banner).to_have_text(BANNER_JA)

    context.set_offline(False)
    expect(banner).to_be_hidden()
    page.get_by_test_id("apero-p0-red-2").click()  # the card entered offline was kept: 1 + 2
    expect(page.get_by_test_id("apero-total-0")).to_have_text("3")
    expect(page.get_by_test_id("apero-error")).to_have_count(0)
    # Scoring answers went through the network, never into the worker's cache.
    kept_now = [url for urls in page.evaluate(CACHED_URLS).values() for url in urls]
    assert not [url for url in kept_now if re.search(r"/(api|v1|mcp)(/|$)", url)], kept_now


def test_a_new_tab_opens_the_form_offline(context):
    open_controlled(context).close()
    context.set_offline(True)
    page = context.new_page()
    response = page.goto("/#pedro")
    assert response is not None and response.from_service_worker
    page.wait_for_selector("body[data-ready='true']")
    expect(page.get_by_test_id("panel-pedro")).to_be_visible()
    expect(page.get_by_test_id("offline-banner")).to_be_visible()
    # Pedro asks the service for the game when it opens: the answer kept from the first
    # visit (a new game, no hand yet) stands in, as the same hands get the same answer.
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("0")
    expect(page.get_by_test_id("pedro-score-EW")).to_have_text("0")
    expect(page.get_by_test_id("pedro-error")).to_have_count(0)
    expect(page.get_by_test_id("pedro-kept-note")).to_have_text("")


def score_fairy_black_box(page, ben_points):
    """Aki (mood 2, 3 points) and Ben (mood 4), the third player out; scored."""
    page.get_by_test_id("tab-fairy-black-box").click()
    for k, (name, mood, points) in enumerate([("Aki", 2, 3), ("Ben", 4, ben_points)]):
        page.get_by_test_id(f"fairy-black-box-p{k}-name").fill(name)
        page.get_by_test_id(f"fairy-black-box-p{k}-mood").fill(str(mood))
        page.get_by_test_id(f"fairy-black-box-p{k}-t0-points").fill(str(points))
    page.get_by_test_id("fairy-black-box-p2-out").check()
    page.get_by_test_id("fairy-black-box-score").click()


STALE_JA = "接続が切れる前に計算した得点です。そのあとの変更はまだ入っていません。接続が戻ると計算し直します。"
STALE_EN = (
    "These scores were computed before the connection dropped; the changes since are not in them yet. "
    "They are scored again when the connection is back."
)
STALE_LABEL = (
    """(testid) => getComputedStyle(document.querySelector(`[data-testid='${testid}']`), '::before').content"""
)


def test_the_scores_open_offline_are_marked_when_the_entries_change_and_come_back_online(context, shots):
    """Scored online, then offline: the page opens with every game's totals (the kept answers
    to the same entries); an entry changed offline keeps the totals shown, marked as from
    before the connection dropped; back online the open game scores again without a tap, and
    another game when its tab is opened."""
    page = open_controlled(context)
    page.get_by_test_id("tab-apero").click()
    page.get_by_test_id("apero-p0-red-1").click()
    page.get_by_test_id("apero-p0-red-2").click()
    expect(page.get_by_test_id("apero-total-0")).to_have_text("3")
    score_fairy_black_box(page, ben_points=5)
    expect(page.get_by_test_id("fairy-black-box-top-0")).to_contain_text("Ben")
    page.get_by_test_id("tab-apero").click()

    context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    expect(page.get_by_test_id("offline-banner")).to_be_visible()
    expect(page.get_by_test_id("apero-total-0")).to_have_text("3")
    expect(page.get_by_test_id("apero-totals-ranking")).to_contain_text("3")
    expect(page.get_by_test_id("apero-error")).to_have_count(0)
    expect(page.get_by_test_id("apero-kept-note")).to_have_text("")  # the same cards: the same answer
    expect(page.get_by_test_id("panel-apero")).not_to_have_attribute("data-answers", "stale")
    page.get_by_test_id("tab-fairy-black-box").click()
    expect(page.get_by_test_id("fairy-black-box-top-0")).to_contain_text("Ben")
    expect(page.get_by_test_id("fairy-black-box-kept-note")).to_have_text("")
    page.get_by_test_id("tab-apero").click()

    # A card tapped offline: the totals stay, marked as from before the connection dropped.
    page.get_by_test_id("apero-p0-red-3").click()
    expect(page.get_by_test_id("apero-kept-note")).to_have_text(STALE_JA)
    expect(page.get_by_test_id("apero-kept-note")).to_have_attribute("role", "status")
    expect(page.get_by_test_id("panel-apero")).to_have_attribute("data-answers", "stale")
    expect(page.get_by_test_id("apero-total-0")).to_have_text("3")
    expect(page.get_by_test_id("apero-error")).to_have_count(0)
    assert page.evaluate(STALE_LABEL, "apero-totals") == '"接続が切れる前の得点"'
    expect(page.get_by_test_id("apero-p0-hand-2")).to_be_visible()  # the card is kept with the entries
    page.screenshot(path=shots / "offline-stale.png", full_page=True)
    page.get_by_test_id("lang-en").click()
    expect(page.get_by_test_id("apero-kept-note")).to_have_text(STALE_EN)
    page.get_by_test_id("lang-ja").click()
    expect(page.get_by_test_id("apero-kept-note")).to_have_text(STALE_JA)
    # Taken back: the cards scored before, so the answer kept for them, not marked.
    page.get_by_test_id("apero-p0-hand-2").click()
    expect(page.get_by_test_id("apero-kept-note")).to_have_text("")
    expect(page.get_by_test_id("apero-total-0")).to_have_text("3")
    page.get_by_test_id("apero-p0-red-3").click()
    expect(page.get_by_test_id("apero-kept-note")).to_have_text(STALE_JA)

    # Fairy & Black Box scored again offline with Ben's points changed: Ben's win stands, marked.
    page.get_by_test_id("tab-fairy-black-box").click()
    page.get_by_test_id("fairy-black-box-p1-t0-points").fill("1")
    page.get_by_test_id("fairy-black-box-score").click()
    expect(page.get_by_test_id("fairy-black-box-kept-note")).to_have_text(STALE_JA)
    expect(page.get_by_test_id("fairy-black-box-top-0")).to_contain_text("Ben")
    page.get_by_test_id("tab-apero").click()

    # Back online: the open game is scored again at once, without a tap: red 1, 2, 3 = (1 + 2) × 3.
    context.set_offline(False)
    expect(page.get_by_test_id("apero-total-0")).to_have_text("9")
    expect(page.get_by_test_id("apero-kept-note")).to_have_text("")
    expect(page.get_by_test_id("panel-apero")).not_to_have_attribute("data-answers", "stale")
    assert page.evaluate(STALE_LABEL, "apero-totals") == "none"
    # The other game waits for its tab: still marked until it is opened, then scored again.
    expect(page.get_by_test_id("fairy-black-box-kept-note")).to_have_text(STALE_JA)
    page.get_by_test_id("tab-fairy-black-box").click()
    expect(page.get_by_test_id("fairy-black-box-top-0")).to_contain_text("Aki")
    expect(page.get_by_test_id("fairy-black-box-kept-note")).to_have_text("")


def test_a_hand_recorded_offline_waits_in_its_entry(context):
    """Pedro opens offline with the kept scoreboard; a new hand cannot be scored offline, so
    it is not recorded: it waits in its entry, the scoreboard as it was, until it is sent again."""
    page = open_controlled(context)
    page.get_by_test_id("tab-pedro").click()
    enter_points(page, "NS", 7, 9, 5)
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("9")
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("9")
    expect(page.get_by_test_id("pedro-score-EW")).to_have_text("5")
    expect(page.get_by_test_id("pedro-ledger-row-0")).to_be_visible()

    enter_points(page, "EW", 8, 4, 10)
    expect(page.get_by_test_id("pedro-error")).to_contain_text("オフライン")
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("9")
    expect(page.get_by_test_id("pedro-ledger-row-1")).to_have_count(0)
    expect(page.get_by_test_id("pedro-points-EW")).to_have_value("10")
    expect(page.get_by_test_id("pedro-kept-note")).to_have_text("")

    context.set_offline(False)
    expect(page.get_by_test_id("pedro-error")).to_have_count(0)  # asked again by itself
    page.get_by_test_id("pedro-add").click()
    expect(page.get_by_test_id("pedro-score-EW")).to_have_text("15")
    expect(page.get_by_test_id("pedro-score-NS")).to_have_text("13")


def test_answers_are_kept_with_the_requests_they_answered(context):
    """Every answer is kept in localStorage (store.js's versioned save) with its request: a
    few per endpoint, in the language asked."""
    page = open_controlled(context)
    page.get_by_test_id("tab-apero").click()
    page.get_by_test_id("apero-p0-red-1").click()
    expect(page.get_by_test_id("apero-total-0")).to_have_text("1")
    page.get_by_test_id("apero-p0-red-2").click()
    expect(page.get_by_test_id("apero-total-0")).to_have_text("3")
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('scoring.answers.apero'))")
    assert saved["v"] == 1
    [latest, first] = saved["data"]["apero/score"]
    assert [latest["lang"], first["lang"]] == ["ja", "ja"]
    assert latest["data"]["players"][0]["total"] == 3 and first["data"]["players"][0]["total"] == 1
    method, params, body = json.loads(latest["request"])
    assert (method, params) == ("POST", [])
    assert body["players"][0]["cards"] == [{"color": "red", "value": 1}, {"color": "red", "value": 2}]
    pedro = page.evaluate("() => JSON.parse(localStorage.getItem('scoring.answers.pedro'))")
    assert pedro["data"]["pedro/game"][0]["data"]["scores"] == {"NS": 0, "EW": 0}


def test_the_manifest_makes_the_form_installable(context, base_url):
    page = open_controlled(context)
    link = page.locator("link[rel='manifest']")
    assert link.get_attribute("href") == "/manifest.webmanifest"
    expect(page.locator("meta[name='theme-color']")).to_have_attribute("content", "#22303f")
    response = page.request.get("/manifest.webmanifest")
    assert response.ok and response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["name"] == "ボードゲーム得点計算"
    assert manifest["short_name"]
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#22303f"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert page.request.get(icon["src"]).headers["content-type"].startswith(icon["type"])

    cdp = context.new_cdp_session(page)  # detached below: it would undo offline emulation
    try:
        parsed = cdp.send("Page.getAppManifest")
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    finally:
        cdp.detach()
    assert parsed["url"] == f"{base_url}manifest.webmanifest"
    assert parsed["errors"] == []
    # Playwright's contexts are incognito ones, where Chromium installs nothing; nothing else is missing.
    assert {error["errorId"] for error in errors} <= {"in-incognito"}, errors
    registration = page.evaluate(
        "async () => { const r = await navigator.serviceWorker.ready; return [r.scope, r.active.scriptURL]; }"
    )
    assert registration == [base_url, f"{base_url}sw.js"]


@pytest.fixture
def static_copy(tmp_path, monkeypatch):
    """The form's static folder as a copy that a test may change (a deploy)."""
    folder = tmp_path / "static"
    shutil.copytree(Path(web.static_folder), folder)
    monkeypatch.setattr(web, "static_folder", str(folder))
    return folder


def test_a_new_deploy_replaces_the_kept_files(context, static_copy):
    """Changing a file of the static folder makes a new worker, whose cache holds the new
    file and replaces the old cache."""
    folder = static_copy
    page = open_controlled(context)
    [old] = page.evaluate(CACHED_URLS)
    with (folder / "app.css").open("a", encoding="utf-8") as css:
        css.write("\n/* deploy 2 */\n")
    page.evaluate("async () => { await (await navigator.serviceWorker.getRegistration()).update(); }")
    names = page.evaluate(NEW_CACHE, old)
    assert len(names) == 1 and names[0] != old, names
    css = page.evaluate(  # kept under its new version's URL, /assets/v/<version>/app.css
        """async (name) => {
          const cache = await caches.open(name);
          const key = (await cache.keys()).find((request) => request.url.endsWith('/app.css'));
          return (await cache.match(key)).text();
        }""",
        names[0],
    )
    assert css.endswith("/* deploy 2 */\n")


def test_a_page_opened_as_a_deploy_lands_reloads_once_with_the_new_files(context, static_copy):
    """The page loaded just as a deploy lands gets the new files (their URLs name the new
    version, which the old worker does not keep); the new worker takes over and the page,
    untouched yet, reloads once, still with the new files."""
    page = open_controlled(context)
    with (static_copy / "app.css").open("a", encoding="utf-8") as css:
        css.write("\n:root { --deploy: 2; }\n")
    loads = []
    page.on("load", lambda _: loads.append(page.url))
    with page.expect_event("load", predicate=lambda _: len(loads) == 2):  # the reload after the update
        page.reload()
    page.wait_for_function(
        "() => getComputedStyle(document.documentElement).getPropertyValue('--deploy').trim() === '2'"
    )
    page.wait_for_selector("body[data-ready='true']")
    assert len(loads) == 2, loads  # the reload asked for, and the one after the update
