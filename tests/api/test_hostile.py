"""Hostile input against every POST endpoint: each gets a clear 4xx JSON error, never a
500 and never a hang."""

import json

import pytest

from scoring_api import create_app

APP = create_app({"TESTING": True})
POSTS = [
    *sorted(
        rule.rule
        for rule in APP.url_map.iter_rules()
        if "POST" in rule.methods and rule.rule.startswith("/api/v1/") and "<" not in rule.rule
    ),
    "/api/v1/tools/score_apero",
]

HOSTILE = {
    "deep nesting": (b"[" * 10_000 + b"]" * 10_000, "application/json", 400, "invalid_json"),
    "deep objects": (b'{"a":' * 5_000 + b"1" + b"}" * 5_000, "application/json", 400, "invalid_json"),
    "NaN": (b'{"players": NaN}', "application/json", 400, "invalid_json"),
    "-Infinity": (b'{"players": -Infinity}', "application/json", 400, "invalid_json"),
    "duplicate keys": (b'{"a": 1, "a": 2}', "application/json", 400, "invalid_json"),
    "empty body": (b"", "application/json", 400, "invalid_json"),
    "truncated": (b'{"players": [', "application/json", 400, "invalid_json"),
    "not utf-8": (b'{"x": "\xc3\x28"}', "application/json", 400, "invalid_json"),
    "lone surrogate": (b'{"x": "\\udc00"}', "application/json", 400, "invalid_json"),
    "huge integer literal": (b'{"x": ' + b"7" * 5_000 + b"}", "application/json", 400, "invalid_json"),
    "text/plain": (b"{}", "text/plain", 415, "unsupported_media_type"),
    "form": (b"a=1", "application/x-www-form-urlencoded", 415, "unsupported_media_type"),
    "xml": (b"<a/>", "application/xml", 415, "unsupported_media_type"),
    "a JSON string": (b'"hello"', "application/json", 400, "invalid_input"),
    "a JSON array": (b"[1, 2]", "application/json", 400, "invalid_input"),
    "null": (b"null", "application/json", 400, "invalid_input"),
    "unknown field": (b'{"zzz": 1}', "application/json", 400, "invalid_input"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
@pytest.mark.parametrize("path", POSTS)
def test_hostile_bodies_get_a_clear_4xx(path, name):
    raw, content_type, status, code = HOSTILE[name]
    response = APP.test_client().post(path, data=raw, content_type=content_type)
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    error = response.get_json()["error"]
    assert error["code"] == code and error["message"]


NUMBERS = [2**64, -(2**63), 1.5, "7", True, None, 1e308]  # 1e400: the reader's (below)


@pytest.mark.parametrize("value", NUMBERS, ids=repr)
def test_numbers_out_of_every_range_are_refused(client, value):
    raw = json.dumps(
        {"sets": 1, "players": [{"name": "A", "cards": [{"color": "red", "value": value}]}]}, allow_nan=True
    )
    response = client.post(
        "/api/v1/apero/score", data=raw.replace("Infinity", "1e400"), content_type="application/json"
    )
    assert response.status_code == 400
    assert "players[0].cards[0].value" in response.get_json()["error"]["details"]
    for field, body in [
        ("sets", {"sets": value, "players": [{"name": "A", "cards": [{"color": "red", "value": 1}]}]}),
        ("die", {"orchard": {"tiles": []}, "varieties": ["red"], "die": value}),
        (
            "scores_before.NS",
            {"bid": {"team": "NS", "amount": 7}, "scores_before": {"NS": value, "EW": 0}, "points": {"NS": 7, "EW": 7}},
        ),
    ]:
        url = {
            "sets": "/api/v1/apero/score",
            "die": "/api/v1/applejack/harvest",
            "scores_before.NS": "/api/v1/pedro/hand",
        }[field]
        raw = json.dumps(body, allow_nan=True).replace("Infinity", "1e400")
        response = client.post(url, data=raw, content_type="application/json")
        assert response.status_code == 400, (field, value)
        assert field in response.get_json()["error"]["details"], (field, response.get_json())


@pytest.mark.parametrize("number", ["1e400", "-1e400", "1E+400", "-2.5e999", "1e309"])
@pytest.mark.parametrize(
    "template",
    [
        '{"sets": %s, "players": [{"name": "A", "cards": [{"color": "red", "value": 1}]}]}',
        '{"players": [{"name": "A", "cards": [{"color": "red", "value": %s}]}]}',
        '{"players": [%s]}',
        "[%s]",
        "%s",
        '{"players": [{"name": "A", "cards": [], "x": {"y": [1, 2, %s]}}]}',
    ],
)
def test_numbers_no_double_holds_are_refused_by_the_reader(client, template, number):
    """Python's json reads 1e400 as inf: the reader refuses it, as it refuses Infinity."""
    response = client.post("/api/v1/apero/score?lang=en", data=template % number, content_type="application/json")
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == "invalid_json"
    assert error["details"] == {}
    assert error["message"].startswith("The request body is not valid JSON: number ")
    assert "out of range" in error["message"]


@pytest.mark.parametrize(
    "number, value", [("1e308", 1e308), ("-2.5e-300", -2.5e-300), ("1.5", 1.5), ("2.0", 2.0), ("1e2", 100.0)]
)
def test_ordinary_floats_are_still_read(app, number, value):
    raw = f'{{"a": [{number}, {{"b": {number}}}]}}'.encode()
    assert app.json.loads(raw) == {"a": [value, {"b": value}]}


def test_a_finite_float_still_reaches_the_schema(client):
    raw = '{"sets": 2.5e-1, "players": [{"name": "A", "cards": [{"color": "red", "value": 1}]}]}'
    response = client.post("/api/v1/apero/score?lang=en", data=raw, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"]["details"] == {"sets": ["Not a whole number."]}


@pytest.mark.parametrize(
    "name, status, answered",
    [
        ("Aki", 200, "Aki"),
        ("😀👨👩👧", 200, "😀👨👩👧"),
        ("❤\ufe0f", 200, "❤\ufe0f"),  # a variation selector picks the glyph: kept
        ("か\u3099", 200, "が"),  # NFD in, NFC (NFKC) out
        ("Zoë", 200, "Zoë"),
        ("\u05d0\u05d1", 200, "\u05d0\u05d1"),
        (" Aki\u3000", 200, "Aki"),
        ("a\u0000b", 400, None),
        ("\u0007bell", 400, None),
        ("evil\u202eeman", 400, None),
        ("\u2066x\u2069", 400, None),
        ("😀👨\u200d👩\u200d👧", 400, None),  # the joiner is invisible (docs/rules/README.md)
        ("Aki\u200b", 400, None),
        ("", 400, None),
        ("x" * 41, 400, None),
        ("\u00a0" * 40, 400, None),
    ],
)
def test_unicode_oddities_in_names(client, name, status, answered):
    body = {"players": [{"name": name, "cards": [{"color": "red", "value": 1}]}]}
    response = client.post("/api/v1/apero/score", json=body)
    assert response.status_code == status
    if status == 200:
        assert response.get_json()["winners"] == [answered]  # echoed back as read
    else:
        assert list(response.get_json()["error"]["details"]) == ["players[0].name"]
