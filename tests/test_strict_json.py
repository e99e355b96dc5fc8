"""The strict reader's nesting check (``scoring_api/strict_json.py``): read from the text,
it agrees with the document's depth however strings hide brackets, quotes and escapes, and
it costs no Python step per object (docs/performance.md, "Invalid bodies")."""

import json
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring_api import strict_json
from scoring_api.strict_json import MAX_DEPTH, JSONRefused


def depth(document) -> int:
    """The reference: levels of lists and objects, walked."""
    if isinstance(document, dict):
        return 1 + max(map(depth, document.values()), default=0)
    if isinstance(document, list):
        return 1 + max(map(depth, document), default=0)
    return 0


#: Strings made of what the text check must see through.
TRICKY = st.text(alphabet='[]{}"\\\\:,u0 aé', max_size=6)
DOCUMENTS = st.recursive(
    st.none() | st.integers() | TRICKY,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TRICKY, inner, max_size=3),
    max_leaves=60,
)


def reads(text: str) -> bool:
    try:
        strict_json.loads(text)
    except JSONRefused as refused:
        assert refused.kind == "too_deep"
        return False
    return True


@settings(max_examples=500, deadline=None)
@given(DOCUMENTS, st.integers(0, MAX_DEPTH), st.booleans())
def test_the_depth_read_from_the_text_is_the_documents(document, wrap, ascii_only):
    nested = document
    for _ in range(wrap):
        nested = [nested] if wrap % 2 else {'[\\"': nested}
    text = json.dumps(nested, ensure_ascii=ascii_only, indent=None if wrap % 3 else 1)
    assert reads(text) == (depth(nested) <= MAX_DEPTH)


@pytest.mark.parametrize("inside", ['"]]]]"', '"[[[["', '"\\\\"', '"\\"[{"', '"\\\\\\"]"', "{}"])
def test_exactly_at_the_limit_whatever_the_strings_hold(inside):
    at = "[" * (MAX_DEPTH - 1) + f"[{inside}]" + "]" * (MAX_DEPTH - 1)
    levels = MAX_DEPTH + (inside == "{}")  # {} is one level more
    assert reads(at) == (levels <= MAX_DEPTH)
    assert not reads("[" + at + "]")
    keyed = "{" + (inside if inside.startswith('"') else '"k"') + ":" + at[1:-1] + "}"  # the outer list as an object
    assert reads(keyed) == reads(at)


def test_a_body_of_thousands_of_objects_costs_no_python_step_per_object():
    """Counting calls, not time: the duplicate-key hook runs once per object (json's own
    way); nothing else of the reader runs per object (the check used to walk them all)."""
    text = '{"players":[' + ",".join(["{}"] * 21_840) + "]}"
    calls: dict[str, int] = {}

    def count(frame, event, arg):
        if event == "call" and frame.f_code.co_filename == strict_json.__file__:
            calls[frame.f_code.co_name] = calls.get(frame.f_code.co_name, 0) + 1

    sys.setprofile(count)
    try:
        strict_json.loads(text)
    finally:
        sys.setprofile(None)
    assert calls.pop("_unique_keys") == 21_841  # the 21,840 and the body
    assert sum(calls.values()) <= 5, calls
