"""The codec's decoders made once per type (engine.core.codec._decoder) decode exactly as the
plain decoder (_decode) does: the same values, of the same types, for any JSON data, and they
refuse the same data, which from_plain then words with the path to the value."""

from __future__ import annotations

import enum
import json
import random
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.core.codec import _decode, _decoder, from_plain, to_plain


class Colour(enum.Enum):
    GULES = "gules"
    AZURE = "azure"


@dataclass
class Leaf:
    name: str
    weight: float
    colour: Colour


@dataclass
class Branch:
    leaves: list[Leaf]
    by_seat: dict[int, tuple[int, ...]]
    pair: tuple[int, str]
    either: int | str
    maybe: bool | None
    kind: Literal["a", "b"]
    tags: frozenset[str] = frozenset()
    child: Branch | None = None  # a type that holds its own kind
    extra: Any = None
    counts: set[int] = field(default_factory=set)


TYPES: list[Any] = [
    Branch, Leaf, int, float, bool, str, Colour, list[int], dict[int, str], tuple[int, ...],
    tuple[int, str], int | None, int | str, str | int, Literal[1, "1"], set[int],
]  # fmt: skip

WORDS = ["a", "b", "1", "07", " 5", "gules", "azure", "name", "leaves"]
KEYS = [
    "0", "1", "x", "name", "weight", "colour", "leaves", "by_seat", "pair", "either", "maybe",
    "kind", "tags", "child", "counts",
]  # fmt: skip
json_data = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-2, 2) | st.sampled_from(WORDS),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=8)
    ),
    max_leaves=20,
)


def decoded_both_ways(tp: Any, data: Any) -> tuple[str, str]:
    """What each decoder makes of ``data`` (its repr: 1 and 1.0, True and 1, a tuple and a
    list all differ there), or the kind of exception it raised."""
    answers = []
    for decode in (lambda: _decoder(tp)(data), lambda: _decode(tp, data, "value")):
        try:
            answers.append(repr(decode()))
        except (TypeError, ValueError) as exc:
            answers.append(f"refused ({type(exc).__name__})")
    return answers[0], answers[1]


@settings(max_examples=400, deadline=None)
@given(tp=st.sampled_from(TYPES), data=json_data)
def test_any_json_data_is_decoded_or_refused_alike(tp: Any, data: Any) -> None:
    made, plain = decoded_both_ways(tp, data)
    if plain.startswith("refused"):
        assert made.startswith("refused")
    else:
        assert made == plain


BRANCH = Branch(
    leaves=[Leaf("oak", 2.0, Colour.GULES)], by_seat={0: (1, 2), 3: ()}, pair=(1, "x"),
    either="5", maybe=None, kind="b", tags=frozenset({"t"}),
    child=Branch([], {}, (0, ""), 4, True, "a"),
)  # fmt: skip


def test_a_value_comes_back_as_it_was_with_every_kind_of_field() -> None:
    plain = json.loads(json.dumps(to_plain(BRANCH)))
    assert repr(from_plain(Branch, plain)) == repr(BRANCH)
    plain["leaves"][0]["weight"] = 2  # an integer where a float is asked: a float
    assert from_plain(Branch, plain).leaves[0].weight == 2.0
    assert isinstance(from_plain(Branch, plain).leaves[0].weight, float)


def test_a_refusal_still_says_where_the_value_is_wrong() -> None:
    plain = json.loads(json.dumps(to_plain(BRANCH)))
    plain["child"]["by_seat"] = {"0": [1, True]}
    with pytest.raises(ValueError, match=r"value\.child\.by_seat\.0\[1\]: expected an integer"):
        from_plain(Branch, plain)
    plain["child"]["by_seat"] = {"zero": []}
    with pytest.raises(ValueError, match="key 'zero' is not an integer"):
        from_plain(Branch, plain)


@pytest.mark.parametrize("game_id", ["les-7-blasons", "blazon", "13-couronnes"])
def test_every_state_of_a_game_decodes_alike_and_as_it_was(game_id: str) -> None:
    game, rng = engine.get(game_id), random.Random(game_id)
    state = game.new_game(players=4, seed="5eed" * 16)
    for _ in range(60):
        plain = json.loads(json.dumps(to_plain(state)))
        made, slow = decoded_both_ways(game.state_type, plain)
        assert made == slow == repr(state)
        if game.result(state) is not None:
            break
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
