"""A "stages" night (groups, then a cut to a playoff bracket) through the services: it is
finished only when the playoff has its champion, never by its groups' last result."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.factories import make_tournament, register_players
from tournaments import services
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


def play(round_: Round) -> None:
    """Confirm ``round_`` and give each table to its lowest registration id (then the next)."""
    services.round_confirm(round_=round_)
    for table in round_.tables.filter(is_bye=False):
        seats = [s.registration_id for s in table.seats.order_by("seat")]
        order = sorted(seats)
        services.result_enter(table=table, by=None, ranks=[order.index(r) + 1 for r in seats])


@pytest.fixture
def stages(organiser: Any, club: Any) -> Tournament:
    """Eight players of 13 Couronnes at tables of 4: two group rounds, then the top 4 play on."""
    tournament = make_tournament(
        organiser=organiser, club=club, format="stages", rounds_planned=2, cut_top=4
    )
    register_players(tournament, 8)
    return tournament


@pytest.mark.xfail(
    strict=True,
    reason="the bug: tournament_is_done reads the last stage's planned rounds, so a stages "
    "night finishes after its groups and names the group leader the winner",
)
def test_a_stages_night_does_not_finish_with_its_groups(stages: Tournament) -> None:
    for _ in range(2):
        play(services.round_pair_next(tournament=stages))
    stages.refresh_from_db()
    # The groups are over, the playoff is still to come: nobody has won yet.
    assert stages.status == Tournament.Status.RUNNING
    assert stages.winner == ""
