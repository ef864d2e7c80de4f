"""Late entrants: what they earn for the rounds they missed, and where that seats them.

Round 1 is eight players at tables of 2 (a win is 2 points, a loss 0, a bye 2): four winners
on 2 points, four losers on 0. Two latecomers then enter for round 2. The award decides their
points, and so their score group in round 2: with the winners (a bye), with each other
(half a bye), or with the losers (nothing).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.api import client_for
from tests.tournaments.factories import make_player, make_tournament, publish, register_players
from tournaments import selectors, services
from tournaments.errors import InvalidInput
from tournaments.models import Registration, Round, Tournament

pytestmark = pytest.mark.django_db


def two_player_tournament(organiser: Any, award: str) -> Tournament:
    return make_tournament(
        organiser=organiser,
        table_preferred=2,
        table_allowed=(2,),
        points_by_rank=(2, 0),
        bye_points=2,
        late_entry_award=award,
    )


def play_round(round_: Round) -> None:
    """Confirm every played table with ranks in seat order (seat 0 wins)."""
    for table in round_.tables.filter(is_bye=False):
        services.result_enter(table=table, by=None, ranks=list(range(1, table.seats.count() + 1)))


def round_one_then_two_latecomers(tournament: Tournament) -> list[Registration]:
    register_players(tournament, 8)
    play_round(publish(services.round_pair_next(tournament=tournament)))
    late = [
        services.registration_create(tournament=tournament, player=make_player()) for _ in range(2)
    ]
    assert [reg.late_entry_round for reg in late] == [2, 2]
    return late


@pytest.mark.parametrize(
    ("award", "points", "late_byes"), [("none", 0.0, 0), ("bye", 2.0, 1), ("half_bye", 1.0, 1)]
)
def test_a_late_entrant_earns_the_award_and_is_paired_in_its_score_group(
    organiser: Any, award: str, points: float, late_byes: int
) -> None:
    tournament = two_player_tournament(organiser, award)
    late = round_one_then_two_latecomers(tournament)
    lines = {line.registration: line for line in selectors.tournament_standings(tournament)}
    for reg in late:
        assert (lines[reg.id].points, lines[reg.id].late_byes) == (points, late_byes)
        assert (lines[reg.id].games, lines[reg.id].byes) == (0, 0)

    second = services.round_pair_next(tournament=tournament)
    tables = {
        seat.registration: table
        for table in selectors.pairings_by_table(second)
        for seat in table.seats
    }
    for reg in late:
        seats = tables[reg.id].seats
        assert [seat.points for seat in seats] == [points, points], award
    if award == "half_bye":  # a score group of its own: the two latecomers meet
        assert {seat.registration for seat in tables[late[0].id].seats} == {r.id for r in late}


def test_every_round_missed_counts_and_the_standings_page_says_so(organiser: Any) -> None:
    tournament = two_player_tournament(organiser, "half_bye")
    register_players(tournament, 4)
    for _ in range(2):
        play_round(publish(services.round_pair_next(tournament=tournament)))
    late = services.registration_create(tournament=tournament, player=make_player())
    assert late.late_entry_round == 3
    line = next(
        line for line in selectors.tournament_standings(tournament) if line.registration == late.id
    )
    assert (line.points, line.late_byes) == (2.0, 2)
    html = Client().get(f"/tournaments/{tournament.pk}/standings/").content.decode()
    assert f"{late.player.display_name} <small>(late entry: 2 half byes)</small>" in html
    overview = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "half a bye (1 point) for each round played before a player enters" in overview


def test_changing_the_award_recomputes_the_standings(organiser: Any) -> None:
    tournament = two_player_tournament(organiser, "none")
    late = round_one_then_two_latecomers(tournament)
    services.tournament_update(tournament=tournament, late_entry_award="bye")
    rows = {row.entrant: row for row in selectors.standings_rows(tournament)}
    assert [rows[reg.id].points for reg in late] == [2.0, 2.0]


def test_a_round_the_entrant_played_after_all_is_not_a_missed_round(organiser: Any) -> None:
    tournament = two_player_tournament(organiser, "bye")
    regs = register_players(tournament, 4)
    play_round(publish(services.round_pair_next(tournament=tournament)))
    # The admin may set a late entry round by hand, even for someone who played round 1.
    Registration.objects.filter(pk=regs[0].pk).update(late_entry_round=2)
    rows = {row.entrant: row for row in selectors.standings_rows(tournament)}
    assert rows[regs[0].id].late_byes == 0
    assert rows[regs[0].id].games == 1
    assert sum(row.points for row in rows.values()) == 2 * 2  # two wins, nothing awarded


def test_the_api_sets_the_award_and_refuses_a_bad_one_with_a_sentence(organiser: Any) -> None:
    api = client_for(organiser)
    created = api.post(
        "/api/v1/tournaments",
        {
            "name": "Late night",
            "game": "13-couronnes",
            "late_entry_award": "half_bye",
            "club": "Les Pions",
        },
    )
    assert created.status_code == 201, created.content
    assert created.json()["late_entry_award"] == "half_bye"
    url = f"/api/v1/tournaments/{created.json()['id']}"
    assert api.patch(url, {"late_entry_award": "bye"}).json()["late_entry_award"] == "bye"

    for response in (
        api.post(
            "/api/v1/tournaments",
            {"name": "X", "game": "13-couronnes", "late_entry_award": "all", "club": "Les Pions"},
        ),
        api.patch(url, {"late_entry_award": "double"}),
        api.patch(url, {"late_entry_award": 2}),
    ):
        assert response.status_code == 400, response.content
        body = response.json()
        assert body["error"] == "invalid"
        assert "choose none (0 points), bye (the bye points) or half_bye" in body["detail"]
    assert Tournament.objects.count() == 1
    assert api.get(url).json()["late_entry_award"] == "bye"


def test_the_service_refuses_a_bad_award_too(organiser: Any) -> None:
    with pytest.raises(InvalidInput, match='no late entry award "quarter"'):
        two_player_tournament(organiser, "quarter")
    assert not Tournament.objects.exists()
