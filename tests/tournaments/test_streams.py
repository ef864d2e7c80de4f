"""Tables played on Herald: released rounds open game streams; results come from them."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.bots import RandomBot
from events.models import Stream
from events.services import stream_append_move
from events.states import current_state
from ratings.services import standings_follow
from tests.tournaments.factories import GAME, make_tournament, register_players
from tournaments import services
from tournaments.errors import WrongState
from tournaments.models import Result, Table

pytestmark = pytest.mark.django_db


def play_to_the_end(stream_id: Any) -> dict[str, Any]:
    """Random legal moves appended through the event store until the game is over."""
    game = engine.get(GAME)
    bot = RandomBot(seed="tournament-test")
    for _ in range(5000):
        stream = Stream.objects.get(pk=stream_id)
        if stream.result:
            return dict(stream.result)
        state = current_state(stream)
        seat = game.to_act(state)[0]
        move = bot.choose(game, state, seat, game.legal_moves(state, seat))
        stream_append_move(
            stream_id=stream.id, seat=seat, move=move.to_json(), expected_version=stream.version
        )
    raise AssertionError("the game did not end")


@pytest.fixture
def released_table(organiser: Any) -> Table:
    tournament = make_tournament(organiser=organiser, table_preferred=2, table_allowed=[2])
    register_players(tournament, 2)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    services.round_release(round_=round_, by=organiser)
    return round_.tables.get()


def test_the_result_is_read_from_the_finished_stream(released_table: Table) -> None:
    with pytest.raises(WrongState, match="not finished yet"):
        services.result_from_stream(table=released_table)
    outcome = play_to_the_end(released_table.stream_id)
    result = services.result_from_stream(table=released_table)
    assert result.source == Result.Source.STREAM
    assert result.status == Result.Status.CONFIRMED
    assert result.ranks == outcome["ranks"]
    assert result.scores == [float(s) for s in outcome["scores"]]
    again = services.result_from_stream(table=released_table)
    assert again.pk == result.pk  # reading it twice stores one version


def test_the_stream_seats_the_table_in_order(released_table: Table) -> None:
    stream = Stream.objects.get(pk=released_table.stream_id)
    seated = [s.registration.player.user_id for s in released_table.seats.all()]
    assert list(stream.seats.order_by("seat").values_list("user_id", flat=True)) == seated


def test_a_herald_table_reports_itself_once(released_table: Table, organiser: Any) -> None:
    """The way a Herald table's result comes in: once the game is verified, the ratings'
    worker makes the table follow it (``ratings.services.standings_follow``, which also
    applies an arbiter's rulings); asked again, it stores nothing new."""
    stream_id = released_table.stream_id
    assert standings_follow(stream_id=stream_id) == "no tournament table follows this game"
    outcome = play_to_the_end(stream_id)
    assert standings_follow(stream_id=stream_id) == "the table's result is the game's"
    first = released_table.results.get(status=Result.Status.CONFIRMED)
    standings_follow(stream_id=stream_id)  # redelivered: nothing new
    assert released_table.results.get(status=Result.Status.CONFIRMED).pk == first.pk
    kinds = list(released_table.result_events.values_list("kind", flat=True))
    assert kinds == ["game"]
    assert first.ranks == outcome["ranks"]
    # the organiser corrects it; the game's result, asked again, does not undo that
    fixed = services.result_enter(
        table=released_table,
        by=organiser,
        ranks=list(reversed(outcome["ranks"])),
        reason="A misclick the players agree on",
    )
    standings_follow(stream_id=stream_id)
    assert released_table.results.get(status=Result.Status.CONFIRMED).pk == fixed.pk
    kinds = list(released_table.result_events.values_list("kind", flat=True))
    assert kinds == ["game", "corrected"]
