"""A stages night from the console (no JavaScript: the forms alone): the groups dealt before
round 1, the cut offered once the groups are over, the playoff paired to its champion."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.tournaments.factories import UserFactory, make_tournament, register_players
from tests.tournaments.test_stages_night import play
from tournaments import services
from tournaments.models import Club, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(organiser: Any, club: Club) -> Tournament:
    tournament = make_tournament(
        organiser=organiser, club=club, format="stages", rounds_planned=2, cut_top=4
    )
    register_players(tournament, 8)
    return tournament


@pytest.fixture
def desk(organiser: Any) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def hub(desk: Client, night: Tournament) -> str:
    page = desk.get(f"/tournaments/{night.pk}/console/")
    assert page.status_code == 200
    return page.content.decode()


def url(night: Tournament, rest: str) -> str:
    return f"/tournaments/{night.pk}/console/rounds/{rest}"


def test_the_console_deals_groups_then_offers_the_cut_then_the_playoff(
    desk: Client, night: Tournament
) -> None:
    before = hub(desk, night)
    assert 'data-stage="groups"' in before
    assert "Groups: 0 of 2 rounds played." in before
    assert 'id="groups-form"' in before
    assert 'id="cut-form"' not in before
    assert "the best 4 go on to the playoff bracket" in before
    assert desk.post(url(night, "groups/"), {"groups": "2"}).status_code == 302
    assert "dealt into groups A, B" in hub(desk, night)

    for number in (1, 2):
        assert desk.post(url(night, "pair/")).status_code == 302
        play(night.rounds.get(number=number, state=Round.State.DRAFT))
    night.refresh_from_db()
    assert night.status == Tournament.Status.RUNNING  # the groups do not end the night
    due = hub(desk, night)
    assert 'data-stage="cut"' in due
    assert 'id="groups-form"' not in due  # the groups have begun
    assert 'name="top" id="cut-top" min="2" max="256" value="4"' in due  # the planned cut
    assert '<option value="single_elimination">' in due
    assert '<option value="knockout">' in due
    assert "Or pair round 3 in the groups" in due

    made = desk.post(url(night, "cut/"), {"top": "2", "bracket_format": "single_elimination"})
    assert made.status_code == 302
    playoff = night.stages.get(order=2)
    assert len(playoff.bracket["meta"]["seeds"]) == 4  # the best 2 of each group
    after = hub(desk, night)
    assert 'data-stage="playoff"' in after
    assert f'href="/tournaments/{night.pk}/bracket/"' in after
    assert "Pair round 3" in after
    assert "rounds were planned" not in after  # the bracket's rounds are its own

    for number in (3, 4):  # the semi-finals, then the final: no question asked
        assert desk.post(url(night, "pair/")).status_code == 302
        draft = desk.get(url(night, f"{number}/")).content.decode()
        assert 'data-code="table_size"' not in draft  # the bracket seats its matches by two
        play(night.rounds.get(number=number, state=Round.State.DRAFT))
    night.refresh_from_db()
    assert night.status == Tournament.Status.FINISHED
    assert night.winner
    assert "The tournament is finished: no more rounds." in hub(desk, night)


def test_a_bad_cut_is_refused_with_a_sentence(desk: Client, night: Tournament) -> None:
    for _ in range(2):
        play(services.round_pair_next(tournament=night))
    for data, status, words in [
        ({"top": "many", "bracket_format": "single_elimination"}, 400, "Enter a whole number."),
        ({"top": "4", "bracket_format": "swiss"}, 400, "Select a valid choice."),
        ({"top": "12", "bracket_format": "single_elimination"}, 400, "a cut cannot send 12"),
    ]:
        refused = desk.post(url(night, "cut/"), data)
        assert refused.status_code == status, data
        assert words in refused.content.decode(), data
    assert night.stages.count() == 1
    late = desk.post(url(night, "groups/"), {"groups": "2"})
    assert late.status_code == 409
    assert "groups are set before its first round" in late.content.decode()


def test_only_the_organisers_make_the_cut(night: Tournament, club: Club) -> None:
    for _ in range(2):
        play(services.round_pair_next(tournament=night))
    member = UserFactory(username="member")
    services.club_member_add(club=club, user=member, role="member")
    client = Client()
    client.force_login(member)
    refused = client.post(url(night, "cut/"), {"top": "4", "bracket_format": "single_elimination"})
    assert refused.status_code == 403
    assert night.stages.count() == 1
    assert (
        'id="console-stages"'
        not in client.get(f"/tournaments/{night.pk}/console/").content.decode()
    )


def test_other_formats_show_no_stages_box(desk: Client, organiser: Any, club: Club) -> None:
    swiss = make_tournament(organiser=organiser, club=club)
    assert 'id="console-stages"' not in hub(desk, swiss)
