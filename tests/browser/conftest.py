"""Browser fixtures: the real app served on 127.0.0.1 from a background thread, driven by
the system Chromium through Playwright's sync API (no browser download, no pytest-playwright).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from scoring_api import create_app

CHROMIUM = os.environ.get("SCORING_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 375, "height": 812}  # the narrowest phone the form is laid out for
DESKTOP = {"width": 1280, "height": 800}
SCREENS = {"phone": {"width": 390, "height": 844}, "desktop": DESKTOP}  # where answers must be in view
# Chrome reports every 4xx/5xx response as a console error; the form handles those itself.
EXPECTED_CONSOLE = ("Failed to load resource",)
HERE = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects
def pytest_collection_modifyitems(items):
    """Every test here drives Chromium, so every test here is slow: a bare ``pytest`` leaves
    them out, ``.ci/run`` runs them (docs/development.md). Each xdist worker serves the app
    and starts its Chromium itself; screenshots have a file per test, so workers share no file."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.slow)
            item.add_marker(pytest.mark.filterwarnings(WERKZEUG_ABORTED_FILE))


#: werkzeug's development server (these tests' server, never the service's) leaves the file
#: of a static answer the browser aborted (the offline tests cut requests mid-answer) to the
#: garbage collector, which may warn during any later test; gunicorn closes it at once.
WERKZEUG_ABORTED_FILE = r"ignore:unclosed file <_io.BufferedReader name='.*/web/static/:ResourceWarning"


@contextmanager
def served(app, name: str) -> Iterator[str]:
    """``app`` on a free port of 127.0.0.1, served by werkzeug in a daemon thread: its URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name=name, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        thread.join(timeout=5)
        server.server_close()


@pytest.fixture(scope="package")
def base_url():
    """The app, as :func:`served`."""
    with served(create_app({"TESTING": True}), "scoring-form-server") as url:
        yield url


@pytest.fixture(scope="package")
def browser():
    """One headless system Chromium for these tests; a missing browser fails loudly.

    Package scope, not session: Playwright's sync API keeps an asyncio loop running while
    it is open, which would break later tests that start their own loop (asyncio.run).
    """
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"Chromium not found at {CHROMIUM}. The browser tests drive the system Chromium "
            "(Debian: apt-get install -y chromium) and never download one; set "
            "SCORING_TEST_CHROMIUM to use another path.",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def shots(pytestconfig) -> Path:
    """The run's screenshot folder: test-results/screenshots/ (git-ignored). The README's
    pictures in docs/screens/ are copied from apero.png, pedro.png, applejack-harvest.png and
    fairy-black-box.png."""
    folder = Path(pytestconfig.rootpath) / "test-results" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def guarded_page(browser, base_url, viewport, **options):
    """A fresh page (new storage) that may only talk to the service itself; yields it, then
    closes it and fails the test on any request to another origin (a CDN, a font service),
    uncaught script error or unexpected console error."""
    context = browser.new_context(
        viewport=viewport, base_url=base_url, locale="ja-JP", service_workers="block", **options
    )
    problems = only_the_service(context, base_url)
    tab = context.new_page()
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
    yield tab
    context.close()
    assert not problems, "\n".join(problems)


def only_the_service(context, base_url) -> list[str]:
    """Abort every request of `context` outside the service; the list collects them."""
    problems: list[str] = []

    def route(route):
        if route.request.url.startswith(base_url):
            route.continue_()
        else:
            problems.append(f"request outside the service: {route.request.url}")
            route.abort()

    context.route("**/*", route)
    return problems


@pytest.fixture
def page(browser, base_url):
    """A guarded page on the narrowest phone (375x812)."""
    yield from guarded_page(browser, base_url, PHONE)


@pytest.fixture
def desktop(browser, base_url):
    """A guarded page on a 1280x800 desktop."""
    yield from guarded_page(browser, base_url, DESKTOP)


@pytest.fixture(params=["phone", "desktop"])
def screen(request, browser, base_url):
    """A guarded page on the issue's phone (390x844), then on a 1280x800 desktop."""
    yield from guarded_page(browser, base_url, SCREENS[request.param])


def in_view(tab, testid):
    """The element starts inside the viewport (its top part at least is visible), within 5 s:
    an answer arriving may replace the element while its box is read."""
    height = tab.viewport_size["height"]
    for _ in range(50):
        box = tab.get_by_test_id(testid).bounding_box()
        if box is not None and box["height"] > 0 and -1 <= box["y"] <= height - min(box["height"], 100):
            return box
        tab.wait_for_timeout(100)
    raise AssertionError((testid, box, height))


def wait_for_focus_in(tab, testid):
    tab.wait_for_function(
        "id => document.querySelector(`[data-testid='${id}']`)?.contains(document.activeElement)", arg=testid
    )


@pytest.fixture
def chat_app(chat_server):
    """The app of a module's ``chat_server`` (the app and its URL), its settings restored
    after each test."""
    app = chat_server[0]
    saved = dict(app.config)
    yield app
    app.config.update(saved)


@pytest.fixture
def open_chat(page, open_game):
    """open_chat() selects the chat tab once its input is there."""

    def open_():
        panel = open_game("chat")
        page.get_by_test_id("chat-input").wait_for()
        return panel

    return open_


@pytest.fixture
def open_game(page):
    """open_game("apero") loads the form, waits for its scripts, and selects that game's tab."""

    def open_(game: str):
        page.goto("/")
        page.wait_for_selector("body[data-ready='true']")
        page.get_by_test_id(f"tab-{game}").click()
        panel = page.get_by_test_id(f"panel-{game}")
        panel.wait_for(state="visible")
        return panel

    return open_


@pytest.fixture
def fits_phone(page):
    """fits_phone() asserts nothing sticks out sideways at 375px (no horizontal scrolling)."""

    def check():
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"page is {width}px wide on a {PHONE['width']}px screen"

    return check
