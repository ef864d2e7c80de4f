"""The console's hub: its organisers reach it, nobody else does."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.tournaments.factories import UserFactory
from tournaments import services
from tournaments.models import Club, Tournament

pytestmark = pytest.mark.django_db


def test_the_organiser_opens_the_console(organiser: Any, tournament: Tournament) -> None:
    client = Client()
    client.force_login(organiser)
    response = client.get(f"/tournaments/{tournament.pk}/console/")
    assert response.status_code == 200
    assert tournament.name in response.content.decode()


def test_a_member_is_refused_with_a_sentence(club: Club, tournament: Tournament) -> None:
    member = UserFactory(username="member")
    services.club_member_add(club=club, user=member, role="member")
    client = Client()
    client.force_login(member)
    response = client.get(f"/tournaments/{tournament.pk}/console/")
    assert response.status_code == 403
    assert "organisers" in response.content.decode()


def test_a_visitor_is_asked_to_log_in(tournament: Tournament) -> None:
    response = Client().get(f"/tournaments/{tournament.pk}/console/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_the_overview_links_the_console_for_its_organisers_only(
    organiser: Any, tournament: Tournament
) -> None:
    console = f'href="/tournaments/{tournament.pk}/console/"'
    assert console not in Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    client = Client()
    client.force_login(organiser)
    assert console in client.get(f"/tournaments/{tournament.pk}/").content.decode()
