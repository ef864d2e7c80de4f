"""Parts of the drawings made once and served again (play.fragments): a key says every value
a part is drawn from, so a drawing made with the parts other viewers left in the cache is byte
for byte the drawing made with none, for every seat and a spectator of each game, in both
languages; and a value that is not plain data is refused rather than keyed loosely."""

from __future__ import annotations

import gc
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import translation
from django.utils.functional import lazy
from django.utils.safestring import mark_safe

from events.access import access_stream_for_user
from events.services import stream_open
from play.fragments import fragments, value_key
from play.rendering import public_drawings, render_table
from tests.ratings.games import play_stream
from tests.users import make_user

pytestmark = pytest.mark.django_db


@dataclass
class Part:
    name: str
    marks: list[dict[str, Any]]


def test_equal_values_share_a_key_and_any_difference_parts_them() -> None:
    one = Part("a", [{"x": 1, "fits": True}])
    assert value_key(one) == value_key(Part("a", [{"fits": True, "x": 1}]))
    assert value_key(one) != value_key(Part("a", [{"x": 1, "fits": False}]))
    assert value_key(one) != value_key(Part("a", [{"x": True, "fits": True}]))  # 1 is not True
    assert value_key({"a": 1}) != value_key({"a": 1.5})


@dataclass
class Other:
    name: str
    marks: list[dict[str, Any]]


def leaves(key: Any) -> list[Any]:
    return [leaf for item in key for leaf in leaves(item)] if isinstance(key, tuple) else [key]


def test_keys_are_made_of_strings_and_numbers_and_still_tell_kinds_apart() -> None:
    """A key holding a type (a class), or tuples nested deep, would stay tracked by the garbage
    collector as long as the cache holds it: every full collection of a socket server would
    scan them all."""
    key = value_key(Part("a", [{"x": 1.5, "fits": True, "none": None}, {"safe": mark_safe("b")}]))
    assert all(isinstance(leaf, (str, int, float, type(None))) for leaf in leaves(key))
    assert value_key(Part("a", [])) != value_key(Other("a", []))  # same fields, another kind
    assert value_key(["a"]) != value_key([mark_safe("a")])  # a SafeString draws unescaped
    kept = value_key(Part("a", [{"x": 1, "y": [Other(mark_safe("b"), [])]}]))
    gc.collect()  # a tuple of untracked items is untracked at its first collection
    assert not gc.is_tracked(kept)


def test_a_value_that_is_not_plain_data_is_refused() -> None:
    words = lazy(lambda: "hidden", str)()
    with pytest.raises(TypeError):
        value_key(Part("a", [{"label": words}]))
    with pytest.raises(TypeError):
        value_key(object())


def test_a_part_is_drawn_once_per_values_and_language() -> None:
    fragments.clear()
    template = "play/_presence.html"
    values = {"table": None, "seat": 0}
    with translation.override("en"):
        english = fragments.draw(template, values)
        assert fragments.draw(template, dict(values)) == english
    with translation.override("fr"):
        assert fragments.draw(template, values) != english  # "connected" / "connecté"
    assert (fragments.hits, fragments.misses) == (1, 2)


@pytest.mark.parametrize(
    ("game_id", "players", "moves"),
    [("blazon", 3, 25), ("les-7-blasons", 4, 20), ("13-couronnes", 3, 25)],
)
def test_a_drawing_from_other_viewers_parts_is_the_drawing_from_none(
    game_id: str, players: int, moves: int
) -> None:
    users = [make_user(f"frag-{game_id[:4]}-{n}") for n in range(players)]
    stream = play_stream(stream_open(game_id=game_id, seats=users, public=True), stop_after=moves)
    viewers = [*users, None]
    presence = [True] * players

    def drawings() -> dict[tuple[Any, str], Any]:
        drawn = {}
        for language in ("en", "fr"):
            for viewer in viewers:
                public_drawings.clear()
                access = access_stream_for_user(viewer, stream.pk)
                drawn[viewer, language] = render_table(access, language, presence)
        return drawn

    fragments.clear()
    drawings()  # the parts of this version, for every viewer
    stream = play_stream(stream, stop_after=1)
    warm = drawings()  # the next: each viewer drawn after the others left their parts
    assert fragments.hits > 0
    for key, expected in warm.items():
        fragments.clear()
        public_drawings.clear()
        viewer, language = key
        cold = render_table(access_stream_for_user(viewer, stream.pk), language, presence)
        assert cold == expected, key
