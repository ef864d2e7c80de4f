"""The console's screen section: the projector's link and the clock's buttons (POST, PRG, the
service's refusal shown with its status)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.tournaments.factories import UserFactory
from tests.tournaments.live.night import publish_round, register_named
from tournaments import live_selectors, services
from tournaments.models import Club, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(organiser: Any) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def press(client: Client, tournament: Tournament, **data: Any) -> Any:
    return client.post(f"/tournaments/{tournament.pk}/console/screen/timer/", data)


def test_before_a_round_is_published_the_clock_waits(desk: Client, tournament: Tournament) -> None:
    hub = desk.get(f"/tournaments/{tournament.pk}/console/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/screen"' in hub
    assert "The clock starts once a round is published." in hub
    refused = press(desk, tournament, action="start", minutes=30)
    assert refused.status_code == 409
    assert "No round is published yet" in refused.content.decode()


def test_the_buttons_run_the_clock(desk: Client, organiser: Any, tournament: Tournament) -> None:
    register_named(tournament)
    round_ = publish_round(tournament, organiser)
    hub = desk.get(f"/tournaments/{tournament.pk}/console/").content.decode()
    assert 'id="timer-start"' in hub
    assert 'name="minutes"' in hub
    answer = press(desk, tournament, action="start", minutes=45)
    assert answer.status_code == 302
    assert answer["Location"] == f"/tournaments/{tournament.pk}/console/#console-screen"
    assert live_selectors.timer_view(round_).state == "running"
    hub = desk.get(f"/tournaments/{tournament.pk}/console/").content.decode()
    assert all(f'id="timer-{b}"' in hub for b in ("pause", "extend-1", "extend-5", "reset"))
    assert press(desk, tournament, action="pause").status_code == 302
    assert press(desk, tournament, action="extend", minutes=5).status_code == 302
    view = live_selectors.timer_view(round_)
    assert view.state == "paused"
    assert view.total == 50 * 60
    fragment = desk.get(f"/tournaments/{tournament.pk}/console/screen/timer/fragment")
    assert fragment.status_code == 200
    assert 'id="timer-resume"' in fragment.content.decode()
    assert press(desk, tournament, action="resume").status_code == 302
    assert press(desk, tournament, action="reset").status_code == 302
    assert live_selectors.timer_view(round_).state == "idle"


def test_refusals_are_shown_with_their_status(
    desk: Client, organiser: Any, tournament: Tournament
) -> None:
    register_named(tournament)
    round_: Round = publish_round(tournament, organiser)
    wrong = press(desk, tournament, action="pause")
    assert wrong.status_code == 409
    assert "clock is not running" in wrong.content.decode()
    for data in ({"action": "start"}, {"action": "start", "minutes": 0}, {"action": "explode"}):
        bad = press(desk, tournament, **data)
        assert bad.status_code == 400
        assert 'id="screen-refusal"' in bad.content.decode()
    assert live_selectors.timer_view(round_).state == "idle"


def test_a_member_is_refused(club: Club, tournament: Tournament, organiser: Any) -> None:
    register_named(tournament)
    publish_round(tournament, organiser)
    member = UserFactory(username="member")
    services.club_member_add(club=club, user=member, role="member")
    client = Client()
    client.force_login(member)
    assert press(client, tournament, action="start", minutes=30).status_code == 403
    assert (
        client.get(f"/tournaments/{tournament.pk}/console/screen/timer/fragment").status_code == 403
    )
    visitor = press(Client(), tournament, action="start", minutes=30)
    assert visitor.status_code == 302
    assert "/accounts/login/" in visitor["Location"]
