"""The last moves' lines are made once per event and kind of viewer (play.selectors.move_lines):
whatever the cache holds, every viewer reads the lines a drawing from scratch gives, in their
language and with the players' names as they are now."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from events.access import access_stream_for_user
from events.services import stream_open
from herald.bounded import Bounded
from play import selectors
from play.selectors import LAST_MOVES, last_moves, move_lines
from tests.ratings.games import play_stream
from tests.users import make_user

pytestmark = pytest.mark.django_db


def lines_from_scratch(user: Any, stream: Any, names: list[str]) -> list[str]:
    """The lines as drawn with an empty cache, the process's own left as it was."""
    kept = selectors.move_lines
    selectors.move_lines = Bounded(size=kept.size)
    try:
        return last_moves(access_stream_for_user(user, stream.pk), names)
    finally:
        selectors.move_lines = kept


@pytest.mark.parametrize("game_id", ["les-7-blasons", "13-couronnes", "blazon"])
def test_each_viewer_reads_the_lines_a_drawing_from_scratch_gives(game_id: str) -> None:
    users = [make_user(f"{game_id}-lines-{seat}") for seat in range(3)]
    arbiter = make_user(f"{game_id}-lines-arbiter", groups=("arbiters",))
    stream = stream_open(game_id=game_id, seats=users, public=True)
    viewers = [*users, None, arbiter]
    names = [user.get_username() for user in users]
    move_lines.clear()
    for _ in range(12):
        stream = play_stream(stream, stop_after=1)
        for language in ("en", "fr"):
            with translation.override(language):
                for user in viewers:
                    got = last_moves(access_stream_for_user(user, stream.pk), names)
                    assert got == lines_from_scratch(user, stream, names)
    assert got, "the last moves are told"
    # Each line was made once per kind of viewer and language, then served again.
    assert move_lines.hits > move_lines.misses


def test_a_line_is_told_again_in_another_language_and_with_a_new_name() -> None:
    users = [make_user(f"renamed-{seat}") for seat in range(3)]
    stream = play_stream(
        stream_open(game_id="les-7-blasons", seats=users, public=True), stop_after=LAST_MOVES
    )
    access = access_stream_for_user(users[0], stream.pk)
    names = [user.get_username() for user in users]
    move_lines.clear()
    with translation.override("en"):
        english = last_moves(access, names)
    with translation.override("fr"):
        french = last_moves(access, names)
    assert english
    assert french
    assert english != french
    renamed = ["Zéphyrine", *names[1:]]
    with translation.override("en"):
        told = last_moves(access, renamed)
    assert any("Zéphyrine" in line for line in told)
    assert told == lines_from_scratch(users[0], stream, renamed)
