"""Points by rank, bye points and game scores are finite numbers within a million either way:
1.7e308 summed in the standings is infinity (invalid JSON, ``inf`` on the pages)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.factories import GAME, register_players
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def assert_invalid(response: Any, *words: str) -> None:
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["error"] in {"invalid", "bad_request"}
    for word in words:
        assert word in body["detail"], body["detail"]


@pytest.mark.parametrize(
    "field",
    [
        {"points_by_rank": [1.7e308, 0]},
        {"points_by_rank": [1e7, 0]},
        {"points_by_rank": [0, -1e7]},
        {"bye_points": 1e300},
    ],
)
def test_absurd_points_are_refused_on_creation(api: APIClient, field: dict[str, Any]) -> None:
    body = {"name": "Big", "game": GAME, "club": "Les Pions", **field}
    assert_invalid(api.post("/api/v1/tournaments", body), "1000000")
    assert not Tournament.objects.exists()


def test_absurd_points_are_refused_on_change_and_the_standings_stay_finite(
    tournament: Tournament, api: APIClient
) -> None:
    register_players(tournament, 4)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    services.result_enter(table=round_.tables.get(), by=None, ranks=[1, 2, 3, 4])
    url = f"/api/v1/tournaments/{tournament.pk}"
    assert_invalid(api.patch(url, {"points_by_rank": [1.7e308, 0]}), "1000000")
    assert_invalid(api.patch(url, {"bye_points": 1.7e308}), "1000000")
    assert Tournament.objects.get(pk=tournament.pk).points_by_rank == [4.0, 2.0, 1.0, 0.0, 0.0]
    standings = api.get(f"{url}/standings")
    assert standings.status_code == 200
    assert "Infinity" not in standings.content.decode()


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan"), 1.7e308, 1e6 + 1])
def test_the_services_refuse_what_the_serializer_would(
    tournament: Tournament, value: float
) -> None:
    with pytest.raises(InvalidInput, match="between -1,000,000 and 1,000,000"):
        services.tournament_update(tournament=tournament, points_by_rank=[value, 0])
    with pytest.raises(InvalidInput, match="Bye points"):
        services.tournament_update(tournament=tournament, bye_points=value)


def test_the_largest_points_are_taken(tournament: Tournament) -> None:
    changed = services.tournament_update(
        tournament=tournament, points_by_rank=[1e6, 0, -1e6], bye_points=-1e6
    )
    assert changed.points_by_rank == [1e6, 0.0, -1e6]


def test_absurd_game_scores_are_refused(tournament: Tournament, api: APIClient) -> None:
    register_players(tournament, 4)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    table = round_.tables.get()
    response = api.post(
        f"/api/v1/tables/{table.pk}/results",
        {"ranks": [1, 2, 3, 4], "scores": [1.7e308, 1.7e308, 0, 0], "decide": True},
    )
    assert_invalid(response, "1000000")
    with pytest.raises(InvalidInput, match="Game scores"):
        services.result_enter(table=table, by=None, ranks=[1, 2, 3, 4], scores=[1e9, 0, 0, 0])
    assert not table.results.exists()
