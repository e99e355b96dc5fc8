"""The MCP Apps view (scoring_api/mcp_view.py, static/mcp-app.js) in Chromium, without a
real host. The view's HTML is what ``resources/read`` answers over ``/mcp``; each tool's
result what ``tools/call`` answers there. Two tiny host pages, served by Playwright's routing
(nothing else is reachable):

- an MCP Apps host: the view in a sandboxed srcdoc iframe, ``ui/initialize`` answered with
  a host context, then the tool's input and result notifications, and the frame sized from
  ``ui/notifications/size-changed``;
- ChatGPT's Apps SDK: ``window.openai`` (the result's structuredContent as ``toolOutput``)
  set in the frame before the view's script runs.

For one request per scoring tool (benchmarks/requests.json), the numbers the card shows are
the REST answer's, in Japanese (light theme) and English (dark theme); the view asks for
nothing over the network and reports its size. ``SCORING_TEST_SCREENSHOTS=1`` saves one picture
per game (Japanese) to docs/screens/mcp-app-<game>.png.
"""

from __future__ import annotations

import json
import os
import re
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from scoring_api import mcp_view
from scoring_api.operations.registry import GAMES

from .test_accessibility import AXE, violations

ROOT = Path(__file__).resolve().parents[2]
REQUESTS = ROOT / "benchmarks" / "requests.json"
#: The views' addresses: a hash of the document in each, so a changed card has a new one.
VIEW = f"ui://board-game-scoring/result-card.{mcp_view.view_version()}.html"
SKYBRIDGE = f"ui://board-game-scoring/result-card.{mcp_view.view_version()}.skybridge.html"
MCP_HOST = "http://mcp-host.test/"
OPENAI_HOST = "http://openai-host.test/"
FRAME_WIDTH = 400  # px: a chat bubble on a desktop, or a phone
#: Each language with the host's locale and theme it is tested in.
LANGS = {"ja": ("ja-JP", "light"), "en": ("en-US", "dark")}
#: The card of each game whose picture docs/screens/ keeps.
PICTURED = {
    "score_apero": "apero",
    "applejack_final_score": "applejack",
    "score_fairy_black_box": "fairy-black-box",
    "pedro_game": "pedro",
}
SCORING_TOOLS = [op.operation_id for game in GAMES for op in game.OPERATIONS]

MCP_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MCP Apps test host</title>
<style>body { margin: 0; } body.dark { background: #1f1f23; } iframe { display: block; border: 0; width: {width}px; height: 0; }</style>
</head><body><iframe id="view" sandbox="allow-scripts" title="result card"></iframe><script>
const frame = document.getElementById('view');
window.heard = [];
const send = (message) => frame.contentWindow.postMessage({ jsonrpc: '2.0', ...message }, '*');
addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow) return; // a sandboxed srcdoc's origin is "null"
  const message = event.data;
  window.heard.push(message);
  if (message.method === 'ui/initialize') {
    send({ id: message.id, result: { protocolVersion: '2026-01-26', hostInfo: { name: 'test-host', version: '0' },
      hostCapabilities: {}, hostContext: window.host.context } });
  } else if (message.method === 'ui/notifications/initialized') {
    send({ method: 'ui/notifications/tool-input', params: { arguments: window.host.arguments } });
    send({ method: 'ui/notifications/tool-result', params: window.host.result });
  } else if (message.method === 'ui/notifications/size-changed') {
    frame.style.height = `${message.params.height}px`;
  }
});
window.load = (host) => { window.host = host; document.body.className = host.context.theme; frame.srcdoc = host.html; };
window.tell = (method, params) => send({ method, params });
</script></body></html>""".replace("{width}", str(FRAME_WIDTH))

# ChatGPT injects window.openai into the frame before the page's scripts run; this page puts
# a script that does the same at the head of the view.
OPENAI_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Apps SDK test host</title>
<style>body { margin: 0; } iframe { display: block; border: 0; width: {width}px; height: 0; }</style>
</head><body><iframe id="view" sandbox="allow-scripts" title="result card"></iframe><script>
const frame = document.getElementById('view');
window.heard = [];
window.heights = [];
addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow) return;
  if (event.data && event.data.intrinsicHeight !== undefined) {
    window.heights.push(event.data.intrinsicHeight);
    frame.style.height = `${event.data.intrinsicHeight}px`;
  } else window.heard.push(event.data);
});
window.load = (html, globals) => {
  const bridge = '<script>window.openai = Object.assign(' + JSON.stringify(globals).replace(/</g, '\\\\u003c') + ', {'
    + ' notifyIntrinsicHeight: (height) => parent.postMessage({ intrinsicHeight: height }, "*") });'
    + ' addEventListener("message", (event) => { if (event.source !== parent || !event.data.globals) return;'
    + ' Object.assign(window.openai, event.data.globals);'
    + ' dispatchEvent(new CustomEvent("openai:set_globals", { detail: { globals: event.data.globals } })); });'
    + '<' + '/script>';
  frame.srcdoc = html.replace('<head>', '<head>' + bridge);
};
window.setGlobals = (globals) => frame.contentWindow.postMessage({ globals }, '*');
</script></body></html>""".replace("{width}", str(FRAME_WIDTH))


# -- the service: the view, each tool's result, the REST answer ----------------------------


def post_json(url: str, body: dict) -> dict:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def mcp(base_url: str, lang: str, method: str, params: dict) -> dict:
    """One JSON-RPC request to the service's /mcp (stateless: no session to open): its result."""
    answer = post_json(f"{base_url}mcp?lang={lang}", {"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    return answer["result"]


@pytest.fixture(scope="module")
def requests() -> dict[str, tuple[str, dict]]:
    """tool -> (its REST path with the query, its arguments): benchmarks/requests.json's request
    of each scoring operation (a GET's query read into arguments)."""
    routes = {(op.method, f"/api/v1{op.path}"): op.operation_id for game in GAMES for op in game.OPERATIONS}
    found = {}
    for key, body in json.loads(REQUESTS.read_text(encoding="utf-8")).items():
        method, _, url = key.partition(" ")
        parts = urllib.parse.urlsplit(url)
        name = routes.get((method, parts.path))
        if name is None:
            continue  # the comment, or not a scoring operation (the rules documents)
        query = {
            field: int(value) if value.isdigit() else value for field, value in urllib.parse.parse_qsl(parts.query)
        }
        found[name] = (url, body if method == "POST" else query)
    assert sorted(found) == sorted(SCORING_TOOLS)
    return found


@pytest.fixture(scope="module")
def views(base_url) -> dict[str, str]:
    """The view as resources/read answers it: the MCP Apps document and ChatGPT's template."""
    found = {}
    for uri in (VIEW, SKYBRIDGE):
        [content] = mcp(base_url, "ja", "resources/read", {"uri": uri})["contents"]
        found[uri] = content["text"]
    assert found[VIEW] == found[SKYBRIDGE]
    return found


def rest_answer(base_url: str, url: str, arguments: dict, lang: str) -> dict:
    joined = f"{base_url}{url.lstrip('/')}{'&' if '?' in url else '?'}lang={lang}"
    if "?" in url:
        with urllib.request.urlopen(joined, timeout=10) as answer:
            return json.loads(answer.read())
    return post_json(joined, arguments)


# -- the hosts ----------------------------------------------------------------------------


@pytest.fixture
def host(browser):
    """A page that can reach the two host pages and nothing else; every request it makes is
    kept (the view itself must make none), and a script error fails the test."""
    context = browser.new_context(viewport={"width": 800, "height": 900}, service_workers="block")
    requested: list[str] = []
    problems: list[str] = []
    pages = {MCP_HOST: MCP_PAGE, OPENAI_HOST: OPENAI_PAGE}

    def route(route):
        if route.request.url in pages:
            route.fulfill(body=pages[route.request.url], content_type="text/html; charset=utf-8")
        else:
            problems.append(f"request: {route.request.url}")
            route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("request", lambda request: requested.append(request.url))
    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    page.on("console", lambda message: problems.append(f"console: {message.text}") if message.type == "error" else None)
    page.requested = requested
    yield page
    context.close()
    assert not problems, problems


def open_in_mcp_host(page, html: str, result: dict, arguments: dict, context: dict):
    page.goto(MCP_HOST)
    page.evaluate(
        "(host) => window.load(host)", {"html": html, "result": result, "arguments": arguments, "context": context}
    )
    page.frame_locator("#view").get_by_test_id("view").locator("> *").first.wait_for()
    return page.frames[1]


def drawn(frame, name: str):
    """Wait for the card of `name` (not the note that waits for it)."""
    frame.wait_for_selector(f"#view[data-tool='{name}'] .card-box, #view[data-tool='{name}'] .pick-options")


def texts(frame, selectors: list[str]) -> list[str | None]:
    return frame.evaluate(
        "(selectors) => selectors.map((s) => { const el = document.querySelector(s);"
        " return el ? el.textContent.replace(/\\s+/g, ' ').trim() : null; })",
        selectors,
    )


def by_id(testid: str, inner: str = "") -> str:
    return f'[data-testid="{testid}"]{" " + inner if inner else ""}'


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def numbers(text: str | None) -> list[int]:
    return [int(found) for found in re.findall(r"-?\d+", text or "")]


def change(hand: dict, team: str) -> str:
    """A ledger cell: the team's change in the hand (signed, +0 too), then its score."""
    delta = hand["deltas"][team]
    return f"{'+' if delta >= 0 else ''}{delta} → {hand['scores_after'][team]}"


def pedro_card(card: str) -> str:
    return card[:-1] + {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}[card[-1]]


#: Fairy & Black Box's end conditions as the end-check card names them.
END_CONDITIONS = {
    "star_deck": {"ja": "ホシカードの山札", "en": "Star deck"},
    "treasure_deck": {"ja": "タカラモノカードの山札", "en": "Treasure deck"},
    "players_left": {"ja": "残りのプレイヤー", "en": "Players left"},
}


def card_numbers(name: str, answer: dict, lang: str) -> dict[str, str | int]:
    """What the card must show, by selector: a text exactly, or (a list of ints) every number
    of the text, where words in the view's language surround them."""
    a = answer
    if name == "score_apero":
        found: dict[str, str | int] = {}
        for k, player in enumerate(a["players"]):
            found[by_id(f"view-total-{k}")] = player["total_text"]
            for color in player["colors"]:
                found[by_id(f"view-color-{k}-{color['color']}", "td.num")] = color["score_text"]
        ranked = sorted(a["players"], key=lambda p: -p["total"])
        for j, player in enumerate(ranked):
            found[by_id(f"view-ranking-{j}", ".rank-mark")] = "★" if player["name"] in a["winners"] else ""
            found[by_id(f"view-ranking-{j}", ".rank-name")] = player["name"]
            found[by_id(f"view-ranking-{j}", ".rank-total")] = player["total_text"]
        return found
    if name == "apero_pick":
        return {by_id(f"view-pick-gain-{k}"): signed(option["gain"]) for k, option in enumerate(a["options"])}
    if name == "applejack_harvest":
        areas = {
            by_id(f"view-area-{k}-{i}"): area["explanation"]
            for k, h in enumerate(a["harvests"])
            for i, area in enumerate(h["areas"])
        }
        return {by_id("view-harvest-honey"): str(a["honey"]), **areas}
    if name == "applejack_placement":
        return {
            by_id("view-placement-result", ".big"): [a["honey"]],
            by_id("view-placement-result", "li"): a["connections"][0]["explanation"],
        }
    if name == "applejack_blossoms":
        return {by_id("view-blossoms-honey"): str(a["honey"])}
    if name == "applejack_final_score":
        rows = {
            by_id(f"view-final-{key}", "td"): str(a[key])
            for key in ("crop", "crop_doubled", "variety_bonus", "blossoms", "supply")
        }
        return {**rows, by_id("view-final-total"): str(a["total"])}
    if name == "applejack_starting_honey":
        return {by_id(f"view-honey-{k}"): str(honey) for k, honey in enumerate(a["honey"])}
    if name == "applejack_placements":
        return {
            by_id(f"view-advice-final-{k}"): str(option["final_if_now"]) for k, option in enumerate(a["options"][:5])
        }
    if name == "score_fairy_black_box":
        scores = {by_id(f"view-score-{i}"): str(p["score"]) for i, p in enumerate(a["players"]) if not p["eliminated"]}
        ranks = {by_id(f"view-rank-row-{i}", "td.num"): str(p["rank"]) for i, p in enumerate(a["players"]) if p["rank"]}
        return {**scores, **ranks}
    if name == "fairy_black_box_setup":
        keys = ("star_cards", "treasure_cards", "set_aside_star_cards", "star_deck_runouts_to_end")
        return {
            by_id("view-headline"): [a["players"], a["starting_mood"]],
            **{by_id(f"view-{key}"): [a[key]] for key in keys},
        }
    if name == "fairy_black_box_end_check":
        found = {}
        for check in a["checks"]:
            label = END_CONDITIONS[check["condition"]][lang]
            status = (
                {"ja": "終了条件を満たす", "en": "ends the game"}
                if check["met"]
                else {"ja": "満たさない", "en": "not met"}
            )
            found[by_id(f"view-check-{check['condition']}", "strong")] = f"{label}: {status[lang]}"
            found[by_id(f"view-check-{check['condition']}", "span")] = check["explanation"]
        return found
    if name == "fairy_black_box_next_player":
        return {by_id("view-fewest_treasures"): [a["fewest_treasures"]]}
    if name == "pedro_auction":
        calls = {
            by_id(f"view-call-{k}"): str(c["call"]) if c["call"] != "pass" else {"ja": "パス", "en": "pass"}[lang]
            for k, c in enumerate(a["calls"])
        }
        return {by_id("view-headline"): [a["amount"]], **calls}
    if name == "pedro_trick":
        plays = {by_id(f"view-play-{k}"): pedro_card(p["card"]) for k, p in enumerate(a["plays"])}
        return {
            **plays,
            by_id("view-point_cards"): " ".join(pedro_card(c) for c in a["point_cards"]),
            by_id("view-headline"): [a["points"]],
        }
    if name == "pedro_hand":
        return {by_id(f"view-ledger-0-{team}"): change(a, team) for team in ("NS", "EW")}
    if name == "pedro_game":
        return {
            by_id(f"view-ledger-{k}-{team}"): change(hand, team)
            for k, hand in enumerate(a["hands"])
            for team in ("NS", "EW")
        }
    raise AssertionError(f"no numbers for {name}")


def shown(frame, expected: dict) -> dict:
    """What the card shows at each selector of `expected`, read the way `expected` says it."""
    found = dict(zip(expected, texts(frame, list(expected)), strict=True))
    return {
        selector: numbers(found[selector]) if isinstance(want, list) else found[selector]
        for selector, want in expected.items()
    }


def sized(page) -> dict:
    """Once the host has sized the frame from the view's latest size-changed: that size."""
    page.wait_for_function(
        """() => {
          const sizes = window.heard.filter((m) => m.method === 'ui/notifications/size-changed');
          const frame = document.getElementById('view').getBoundingClientRect();
          return sizes.length > 0 && frame.height === sizes.at(-1).params.height;
        }"""
    )
    return page.evaluate("window.heard.filter((m) => m.method === 'ui/notifications/size-changed').at(-1).params")


def host_context(name: str, lang: str, *, named: bool) -> dict:
    locale, theme = LANGS[lang]
    context = {"theme": theme, "locale": locale, "displayMode": "inline", "containerDimensions": {"maxHeight": 3000}}
    if named:
        context["toolInfo"] = {"tool": {"name": name, "inputSchema": {"type": "object"}}}
    return context


@pytest.fixture(scope="module")
def axe_source():
    if not AXE.exists():
        pytest.fail(f"axe-core is missing: run `npm install --prefix tests/browser` ({AXE})", pytrace=False)
    return AXE.read_text()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", SCORING_TOOLS)
def test_an_mcp_apps_host_shows_each_tools_card_with_the_rest_answers_numbers(
    host, base_url, requests, views, axe_source, name, lang
):
    """Japanese in the light theme with the tool named in the host context; English in the
    dark theme with the tool known from the answer's shape alone."""
    url, arguments = requests[name]
    result = mcp(base_url, lang, "tools/call", {"name": name, "arguments": arguments})
    answer = rest_answer(base_url, url, arguments, lang)
    assert result["structuredContent"] == answer
    frame = open_in_mcp_host(host, views[VIEW], result, arguments, host_context(name, lang, named=lang == "ja"))
    drawn(frame, name)
    expected = card_numbers(name, answer, lang)
    assert shown(frame, expected) == expected
    assert frame.evaluate("[document.documentElement.lang, document.documentElement.dataset.theme]") == [
        lang,
        LANGS[lang][1],
    ]

    size = sized(host)
    assert size["width"] == FRAME_WIDTH and size["height"] > 100
    # the whole card is in the frame: it never scrolls inside the chat
    assert frame.evaluate("[document.documentElement.scrollHeight, innerHeight]") == [size["height"], size["height"]]
    heard = host.evaluate("window.heard")
    assert heard[0]["method"] == "ui/initialize"
    assert heard[0]["params"] == {
        "appInfo": {"name": "board-game-scoring-card", "version": "1"},
        "appCapabilities": {"availableDisplayModes": ["inline"]},
        "protocolVersion": "2026-01-26",
    }
    assert heard[1] == {"jsonrpc": "2.0", "method": "ui/notifications/initialized", "params": {}}
    assert {message["method"] for message in heard[2:]} == {"ui/notifications/size-changed"}

    assert violations(frame, axe_source) == []  # readable: contrast in either theme, names, lang
    assert host.requested == [MCP_HOST]  # the view asked for nothing
    if lang == "ja" and name in PICTURED and os.environ.get("SCORING_TEST_SCREENSHOTS") == "1":
        host.locator("#view").screenshot(path=str(ROOT / "docs" / "screens" / f"mcp-app-{PICTURED[name]}.png"))


@pytest.mark.parametrize("name", SCORING_TOOLS)
def test_chatgpt_shows_each_tools_card_from_window_openai(host, base_url, requests, views, name):
    """ChatGPT's template (the same document): window.openai's toolOutput at load, its
    locale and theme; the height goes to notifyIntrinsicHeight."""
    url, arguments = requests[name]
    answer = mcp(base_url, "ja", "tools/call", {"name": name, "arguments": arguments})["structuredContent"]
    host.goto(OPENAI_HOST)
    globals_ = {"toolOutput": answer, "toolInput": arguments, "locale": "ja-JP", "theme": "dark"}
    host.evaluate("([html, globals]) => window.load(html, globals)", [views[SKYBRIDGE], globals_])
    host.frame_locator("#view").get_by_test_id("view").wait_for()
    frame = host.frames[1]
    drawn(frame, name)
    expected = card_numbers(name, rest_answer(base_url, url, arguments, "ja"), "ja")
    assert shown(frame, expected) == expected
    assert frame.evaluate("[document.documentElement.lang, document.documentElement.dataset.theme]") == ["ja", "dark"]
    host.wait_for_function(
        "() => window.heights.length > 0 && document.getElementById('view').getBoundingClientRect().height === window.heights.at(-1)"
    )
    assert (
        frame.evaluate("[document.documentElement.scrollHeight, innerHeight]")
        == [host.evaluate("window.heights.at(-1)")] * 2
    )
    # the MCP Apps handshake is asked for and, unanswered here, nothing else is sent
    assert [message["method"] for message in host.evaluate("window.heard")] == ["ui/initialize"]
    assert host.requested == [OPENAI_HOST]


def test_chatgpt_may_give_the_output_after_the_view_has_loaded(host, base_url, requests, views):
    _, arguments = requests["pedro_game"]
    answer = mcp(base_url, "en", "tools/call", {"name": "pedro_game", "arguments": arguments})["structuredContent"]
    host.goto(OPENAI_HOST)
    host.evaluate(
        "([html, globals]) => window.load(html, globals)", [views[SKYBRIDGE], {"toolOutput": None, "locale": "en-GB"}]
    )
    status = host.frame_locator("#view").get_by_test_id("view-status")
    status.wait_for()
    assert status.inner_text() == "Waiting for the result…"
    host.evaluate("(globals) => window.setGlobals(globals)", {"toolOutput": answer})
    frame = host.frames[1]
    drawn(frame, "pedro_game")
    expected = card_numbers("pedro_game", answer, "en")
    assert shown(frame, expected) == expected
    assert texts(frame, [by_id("view-title")]) == ["Pedro: the whole game"]


def test_a_refused_call_shows_the_services_message_and_reasons(host, base_url, views):
    arguments = {"players": [{"name": "Aki", "cards": [{"color": "red", "value": 9}]}]}
    result = mcp(base_url, "en", "tools/call", {"name": "score_apero", "arguments": arguments})
    assert result["isError"] is True
    frame = open_in_mcp_host(host, views[VIEW], result, arguments, host_context("score_apero", "en", named=True))
    frame.wait_for_selector(by_id("view-error"))
    assert texts(frame, [by_id("view-error", "strong"), by_id("view-error", "li")]) == [
        "The input is invalid; details lists each field and the reason.",
        "players[0].cards[0].value: Use one of these: -3, -2, -1, 1, 2, 3.",
    ]
    assert host.requested == [MCP_HOST]


def colours(frame) -> list[str]:
    return frame.evaluate(
        """() => {
          const body = getComputedStyle(document.body);
          const box = getComputedStyle(document.querySelector('.card-box'));
          return [document.documentElement.style.colorScheme, body.backgroundColor, body.color, box.backgroundColor];
        }"""
    )


def test_the_hosts_theme_and_style_variables_colour_the_card(host, base_url, requests, views):
    _, arguments = requests["score_fairy_black_box"]
    result = mcp(base_url, "ja", "tools/call", {"name": "score_fairy_black_box", "arguments": arguments})
    frame = open_in_mcp_host(host, views[VIEW], result, arguments, {"theme": "dark", "locale": "ja-JP"})
    drawn(frame, "score_fairy_black_box")
    assert colours(frame) == ["dark", "rgb(31, 31, 35)", "rgb(236, 236, 241)", "rgb(38, 38, 43)"]
    host.evaluate("() => window.tell('ui/notifications/host-context-changed', { theme: 'light' })")
    frame.wait_for_function("document.documentElement.dataset.theme === 'light'")
    assert colours(frame) == ["light", "rgb(255, 255, 255)", "rgb(29, 29, 31)", "rgb(255, 255, 255)"]
    variables = {"--color-background-primary": "rgb(250, 249, 245)", "--color-text-primary": "rgb(20, 20, 19)"}
    host.evaluate(
        "(variables) => window.tell('ui/notifications/host-context-changed', { styles: { variables } })", variables
    )
    frame.wait_for_function("getComputedStyle(document.body).color === 'rgb(20, 20, 19)'")
    assert colours(frame) == ["light", "rgb(250, 249, 245)", "rgb(20, 20, 19)", "rgb(250, 249, 245)"]


def test_the_view_answers_teardown_and_ping_and_refuses_other_requests(host, base_url, requests, views):
    _, arguments = requests["applejack_blossoms"]
    result = mcp(base_url, "ja", "tools/call", {"name": "applejack_blossoms", "arguments": arguments})
    frame = open_in_mcp_host(host, views[VIEW], result, arguments, {"theme": "light", "locale": "fr-FR"})
    drawn(frame, "applejack_blossoms")
    assert frame.evaluate("document.documentElement.lang") == "ja"  # neither Japanese nor English: Japanese
    host.evaluate(
        """() => {
          const frame = document.getElementById('view').contentWindow;
          for (const [id, method] of [[7, 'ping'], [8, 'ui/resource-teardown'], [9, 'tools/list']]) {
            frame.postMessage({ jsonrpc: '2.0', id, method, params: {} }, '*');
          }
        }"""
    )
    host.wait_for_function("window.heard.some((m) => m.id === 9)")
    answers = [m for m in host.evaluate("window.heard") if m.get("id") in (7, 8, 9)]
    assert answers == [
        {"jsonrpc": "2.0", "id": 7, "result": {}},
        {"jsonrpc": "2.0", "id": 8, "result": {}},
        {"jsonrpc": "2.0", "id": 9, "error": {"code": -32601, "message": "Method not found: tools/list"}},
    ]
