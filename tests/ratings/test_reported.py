"""Paper tables in the ratings: a confirmed report is rated in the tournament's game pool,
marked "reported" in histories, leaderboards and the API; a pool may rate verified games only."""

from __future__ import annotations

from typing import Any

import pytest

from events.models import OutboxEntry
from ratings import reported
from ratings.models import RatedGame, RatingChange, RatingPool, RecomputeJob
from tests.api import client_for
from tests.tournaments.factories import ClubFactory, UserFactory, make_tournament, register_players
from tournaments import services
from tournaments.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Any:
    return UserFactory(username="organiser")


@pytest.fixture
def table(organiser: Any) -> Table:
    tournament = make_tournament(organiser=organiser, club=ClubFactory(), rounds_planned=3)
    register_players(tournament, 4)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    return round_.tables.get()


def confirm_on_paper(table: Table, ranks: list[int]) -> None:
    users = [s.registration.player.user for s in table.seats.order_by("seat")]
    result = services.result_report(table=table, by=users[0], ranks=ranks)
    for user in users[1:]:
        services.result_confirm(result=result, by=user)


def test_a_confirmed_paper_result_is_rated_and_marked_reported(table: Table) -> None:
    confirm_on_paper(table, [2, 1, 3, 4])
    assert OutboxEntry.objects.filter(topic="table.result", payload={"table": table.pk}).exists()
    game = reported.reported_table_rate(table_id=table.pk)
    assert game is not None
    assert (game.source, game.status, game.ranks) == ("reported", "rated", [2, 1, 3, 4])
    table.refresh_from_db()
    assert game.stream_id == table.report_id == table.report_stream_id
    assert reported.reported_table_rate(table_id=table.pk).pk == game.pk  # redelivered
    assert RatingChange.objects.filter(game=game, current=True).count() == 4
    pool = game.pool
    winner = table.seats.get(seat=1).registration.player.user
    page = client_for(winner).get(f"/ratings/{pool.pk}/players/{winner.pk}/")
    assert page.status_code == 200
    assert "reported" in page.content.decode()
    assert f"round 1, table {table.number}" in page.content.decode()
    board = client_for(winner).get(f"/ratings/{pool.pk}/")
    assert "1 reported" in board.content.decode()
    api = client_for(winner).get(
        f"/api/v1/ratings/pools/{pool.pk}/players/{winner.username}/history"
    )
    assert api.status_code == 200, api.content
    assert [c["source"] for c in api.json()["changes"]] == ["reported"]
    rows = client_for(winner).get(f"/api/v1/ratings/pools/{pool.pk}/leaderboard").json()["rows"]
    assert {row["reported"] for row in rows} == {1}


def test_a_correction_re_rates_and_a_discard_stops_counting(table: Table, organiser: Any) -> None:
    confirm_on_paper(table, [1, 2, 3, 4])
    game = reported.reported_table_rate(table_id=table.pk)
    services.result_enter(table=table, by=organiser, ranks=[4, 3, 2, 1], reason="Sheet upside down")
    again = reported.reported_table_rate(table_id=table.pk)
    assert again.pk == game.pk
    assert again.ranks == [4, 3, 2, 1]
    assert RecomputeJob.objects.filter(pool=game.pool, from_stream_id=game.stream_id).exists()
    services.table_results_discard(table=table, by=organiser, reason="Misdeal")
    gone = reported.reported_table_rate(table_id=table.pk)
    assert gone.status == RatedGame.Status.EXCLUDED


def test_a_verified_only_pool_lists_but_does_not_rate_reported_games(table: Table) -> None:
    RatingPool.objects.create(
        game=table.round.tournament.game_id, edition_family="reconstructed-1", verified_only=True
    )
    confirm_on_paper(table, [1, 2, 3, 4])
    game = reported.reported_table_rate(table_id=table.pk)
    assert game.status == RatedGame.Status.EXCLUDED
    assert "verified games only" in game.excluded_reason
    assert not RatingChange.objects.filter(game=game).exists()
