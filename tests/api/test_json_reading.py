"""The app's JSON reader: Python's json, strict where the API promises.

It reads every document Python's json reads, exactly (integers of any size included),
and refuses repeated keys, NaN/Infinity, numbers beyond a double, lone surrogates and
nesting deeper than 32.
"""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring_api import create_app
from scoring_api.strict_json import MAX_DEPTH

LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
read = create_app({"TESTING": True}).json.loads

VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=25,
)
TOKENS = st.sampled_from(
    [
        b"{",
        b"}",
        b"[",
        b"]",
        b'"a"',
        b'"a"',
        b'"b"',
        b'"a:b"',
        b'"\\"a"',
        b":",
        b":",
        b",",
        b",",
        b"1",
        b"-0",
        b"2.5",
        b"18446744073709551616",
        b"-9223372036854775809",
        b"9223372036854775807",
        b"1e400",
        b"NaN",
        b"-Infinity",
        b'"\\ud800"',
        b'"\\ud83d\\ude00"',
        b'"\\u0061"',
        b" ",
        b"\n",
        b"true",
        b"null",
        b'"\xc3\x28"',
        b'"\xe3\x81\x82"',
    ]
)


def outcome(raw: bytes):
    try:
        return "read", json.dumps(read(raw))  # json.dumps tells 1 from 1.0 and keeps key order
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        return "refused", str(error)


def plain(raw: bytes):
    """Python's own reader, strict about UTF-8."""
    return json.loads(raw.decode("utf-8"))


@settings(max_examples=400, deadline=None)
@given(VALUES, st.booleans())
def test_any_json_document_reads_as_python_reads_it(value, ascii_only):
    raw = json.dumps(value, ensure_ascii=ascii_only).encode()
    assert outcome(raw) == ("read", json.dumps(plain(raw)))


@settings(max_examples=1500, deadline=None)
@given(st.lists(TOKENS, max_size=14))
def test_token_soup_is_read_as_python_reads_it_or_refused_for_a_stated_reason(tokens):
    raw = b"".join(tokens)
    status, text = outcome(raw)
    try:
        expected = json.dumps(plain(raw))
    except (ValueError, RecursionError):
        assert status == "refused"
        return
    if status == "read":
        assert text == expected
    else:
        assert any(reason in text for reason in ("duplicate key", "is not allowed", "out of range", "lone surrogate"))


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a": 1, "a": 2}',
        b'{"a": {"b": 1, "b": 1}}',
        b'{"a": 1, "\\u0061": 2}',
        b'[{"x": 1}, {"x": 1, "x": 1}]',
    ],
)
def test_a_repeated_key_is_refused(raw):
    with pytest.raises(ValueError, match="duplicate key"):
        read(raw)


def test_colons_inside_strings_are_no_keys():
    assert read(b'{"name": "a:b", "t": "12:30"}') == {"name": "a:b", "t": "12:30"}


def test_nesting_is_read_to_the_limit_and_refused_beyond():
    assert read(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH) is not None
    with pytest.raises(ValueError, match="nested deeper"):
        read(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))


@pytest.mark.parametrize("number", [2**63, 2**64, 2**64 + 1, -(2**63) - 1, 10**30])
def test_integers_beyond_64_bits_stay_exact(number):
    assert read(f'{{"x": {number}}}'.encode()) == {"x": number}
    assert read(str(number).encode()) == number


def test_a_lone_surrogate_is_refused_with_the_reference_message():
    with pytest.raises(ValueError, match="lone surrogate"):
        read(b'{"x": "\\ud800"}')


def test_responses_beyond_64_bits_are_written_exactly():
    app = create_app({"TESTING": True})
    with app.app_context():
        response = app.json.response({"total": 2**70, "name": "紫"})
    assert response.mimetype == "application/json"
    assert json.loads(response.get_data()) == {"total": 2**70, "name": "紫"}
    assert "紫".encode() in response.get_data()  # UTF-8, not \\u escapes


def test_a_body_shorter_than_its_content_length_is_a_400(client):
    response = client.post(
        "/api/v1/fairy-black-box/next-player",
        data=b"{}",
        content_type="application/json",
        environ_overrides={"CONTENT_LENGTH": "10"},
    )
    assert response.status_code == 400
    assert response.get_json()["error"]["code"]


@pytest.mark.parametrize("query, lang", [("", "ja"), ("?lang=en", "en"), ("?lang=ja", "ja"), ("?x=1&lang=en", "en")])
def test_the_language_from_plain_and_other_query_strings(client, query, lang):
    body = {"players": [{"name": "Aki", "cards": [{"color": "red", "value": 1}]}]}
    response = client.post(f"/api/v1/apero/score{query}", json=body)
    assert response.status_code == 200
    assert response.get_json()["players"][0]["colors"][0]["label"] == {"ja": "赤", "en": "red"}[lang]


NEXT_PLAYER = {"players": [{"name": "Aki", "treasure_count": 2}, {"name": "Ben", "treasure_count": 1}]}


def test_a_chunked_body_is_read(client):
    import io

    raw = json.dumps(NEXT_PLAYER).encode()
    response = client.post(
        "/api/v1/fairy-black-box/next-player",
        input_stream=io.BytesIO(raw),
        content_type="application/json",
        environ_overrides={"wsgi.input_terminated": True, "HTTP_TRANSFER_ENCODING": "chunked"},
    )
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["next_players"] == ["Ben"]


@pytest.mark.parametrize(
    "content_type", ["application/json; charset=utf-8", "application/json;charset=UTF-8", "application/problem+json"]
)
def test_json_content_types_with_parameters_or_suffixes_are_json(client, content_type):
    response = client.post(
        "/api/v1/fairy-black-box/next-player", data=json.dumps(NEXT_PLAYER), content_type=content_type
    )
    assert response.status_code == 200, response.get_json()
