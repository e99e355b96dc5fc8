"""The one player-name field (``schemas/common.py``): its explicit character lists match
Unicode as Python knows it, its published pattern says exactly what its validators accept,
and what it accepts reads back as a name (docs/rules/README.md, "Player names")."""

import re
import unicodedata

import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from scoring_api.schemas.common import (
    CONTROL_CHARACTERS,
    INVISIBLE_CHARACTERS,
    NAME_REGEX,
    PLAYER_NAME_PATTERN,
    SPACES,
    NotBlank,
    Visible,
    player_name,
    same_name,
)


def codes(ranges) -> set[int]:
    return {code for low, high in ranges for code in range(low, high + 1)}


HIDDEN = codes(CONTROL_CHARACTERS + INVISIBLE_CHARACTERS)
EVERY_CHARACTER = [chr(code) for code in range(0x110000) if not 0xD800 <= code <= 0xDFFF]
#: The pattern as JSON Schema means it (``$`` is the end of the text).
PATTERN = re.compile(PLAYER_NAME_PATTERN[:-1] + r"\Z")
CONTROL = re.compile(NAME_REGEX)


def accepted(name: str) -> bool:
    """What the field's character checks say (the length aside)."""
    try:
        Visible()(name)
        NotBlank()(name)
    except ValidationError:
        return False
    return CONTROL.match(name) is not None


def test_every_control_format_and_separator_character_is_listed():
    wanted = {ord(c) for c in EVERY_CHARACTER if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")}
    assert wanted - HIDDEN == set()
    assert {0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x1D159} <= HIDDEN  # drawn as nothing
    assert codes(SPACES) == {ord(c) for c in EVERY_CHARACTER if unicodedata.category(c) == "Zs"}


def test_the_lists_do_not_overlap_and_keep_what_names_need():
    assert codes(CONTROL_CHARACTERS) & codes(INVISIBLE_CHARACTERS) == set()
    assert HIDDEN & codes(SPACES) == set()
    for welcome in ("😀", "\ufe0f", "\U000e0100", "\u3099", "ー", "・", "ｱ", "\u0301"):
        assert ord(welcome) not in HIDDEN, welcome  # emoji, variation selectors, marks, kana


def test_the_pattern_accepts_each_character_exactly_when_the_field_does():
    refused = HIDDEN | codes(SPACES)
    shown = [c for c in EVERY_CHARACTER if ord(c) not in refused]
    assert [c for c in EVERY_CHARACTER if bool(PATTERN.match(c)) == (ord(c) in refused)] == []
    assert accepted("".join(shown))  # the field takes them all, in one name
    assert not any(accepted(chr(code)) for code in refused)
    assert not any(accepted(f"A{chr(code)}B") for code in HIDDEN)
    assert accepted("A B") and accepted("A\u00a0B") and not accepted(" ")


def test_every_accepted_character_reads_as_a_visible_name():
    spaces = codes(SPACES)
    for c in EVERY_CHARACTER:
        if ord(c) in spaces:
            assert same_name(c) == "", hex(ord(c))
        elif ord(c) not in HIDDEN:
            read = same_name(c)
            assert read and not any(ord(x) in HIDDEN for x in read), hex(ord(c))


NAME_PARTS = st.sampled_from(
    ["A", "ki", " ", "\u3000", "\u00a0", "\u200b", "\u200d", "\n", "\u202e", "か", "\u3099", "Ａ", "😀", "\U000e0061"]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(NAME_PARTS, min_size=1, max_size=6).map("".join))
def test_the_pattern_and_the_field_agree_on_names(name):
    assert bool(PATTERN.match(name)) == accepted(name)


@pytest.mark.parametrize(
    "name", ["Aki", "Aki\u200b", " ", "\u3000Aki", "a\U000e0061", "\U0001d173", "葛\U000e0100", "Aki\n", ""]
)
def test_the_validator_of_the_contract_tests_reads_the_pattern_alike(name):
    """jsonschema-rs (schemathesis' validator) and Python agree on astral characters too."""
    validator = jsonschema_rs.validator_for({"type": "string", "pattern": PLAYER_NAME_PATTERN})
    assert validator.is_valid(name) == bool(PATTERN.match(name))


@pytest.mark.parametrize(
    "sent, read",
    [
        ("Aki", "Aki"),
        ("Aki ", "Aki"),
        ("\u3000Aki\u00a0", "Aki"),
        ("Ａｋｉ", "Aki"),
        ("ｱｷ", "アキ"),
        ("か\u3099", "が"),
        ("e\u0301", "é"),
        ("A  ki", "A  ki"),
        ("aki", "aki"),
        ("㍿", "株式会社"),
    ],
)
def test_a_name_is_loaded_as_players_read_it(sent, read):
    assert player_name().deserialize(sent) == read
