"""The fast canonical JSON path gives exactly rfc8785's bytes, and refuses what rfc8785 refuses."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from events.hashing import NotCanonical, _fast_canonical, canonical_json
from events.models import EventType


class Number(IntEnum):
    ONE = 1


KEYS = st.one_of(
    st.text(max_size=8),
    st.sampled_from(["seat", "move", "type", "card", "é", "\ue000", "\U0001f600", "a\x00", ""]),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1),
    st.integers(),  # beyond ±2**53 too: both must refuse
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(),  # control characters, quotes, backslashes, non-ASCII, lone surrogates
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(KEYS, inner, max_size=5),
    ),
    max_leaves=30,
)


def reference(data: dict[str, Any]) -> bytes | type[Exception]:
    try:
        return rfc8785.dumps(data)
    except (rfc8785.CanonicalizationError, UnicodeError):
        return NotCanonical


def ours(data: dict[str, Any]) -> bytes | type[Exception]:
    try:
        return canonical_json(data)
    except NotCanonical:
        return NotCanonical


@settings(max_examples=1500, deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=6))
def test_canonical_json_is_byte_identical_to_rfc8785(data: dict[str, Any]) -> None:
    assert ours(data) == reference(data)


@pytest.mark.parametrize(
    "data",
    [
        {"seat": 1, "move": {"type": "play", "card": 7}, "expected_version": 12},
        {"s": 'quote " backslash \\ newline \n tab \t bell \x07 del \x7f é \u2028 😀'},
        {"b": True, "n": None, "i": -(2**53) + 1, "l": [[], {}, [1, [2, {"z": 0, "a": 1}]]]},
        {"Z": 1, "a": 2, "_": 3, "A": 4, "0": 5},
        {"type": EventType.MOVE_MADE, "t": (1, (2, "x")), "seat": None},
    ],
)
def test_the_usual_payloads_take_the_fast_path(data: dict[str, Any]) -> None:
    assert _fast_canonical(data) == rfc8785.dumps(data)


@pytest.mark.parametrize(
    "data",
    [
        {"score": 1.0},  # ECMAScript spells it "1"
        {"big": 2**53},  # refused by rfc8785
        {"\U0001f600": 1, "\ue000": 2},  # UTF-16 order differs from code point order
        {"lone": "\ud800"},
        {"n": Number.ONE},
    ],
)
def test_values_the_fast_path_cannot_vouch_for_go_to_rfc8785(data: dict[str, Any]) -> None:
    assert _fast_canonical(data) is None
    assert ours(data) == reference(data)
