"""Fixtures of the tournaments tests: a club, its organiser and its Swiss tournament of
tables of 4."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api import client_for
from tests.tournaments.factories import ClubFactory, UserFactory, make_tournament
from tournaments import services
from tournaments.models import Club, Registration, Round, Tournament


@pytest.fixture
def club(db: None) -> Club:
    return ClubFactory(name="Les Pions")


@pytest.fixture
def organiser(club: Club) -> Any:
    """An organiser of ``club``: only a club's organisers (and staff) run its tournaments."""
    user = UserFactory(username="organiser")
    services.club_member_add(club=club, user=user, role="organiser")
    return user


@pytest.fixture
def api(organiser: Any) -> APIClient:
    """The API signed in as the organiser."""
    return client_for(organiser)


@pytest.fixture
def tournament(organiser: Any, club: Club) -> Tournament:
    return make_tournament(organiser=organiser, club=club)


def seated(round_: Round) -> list[int]:
    """Every registration id seated or given a bye in ``round_``, with repeats."""
    return [seat.registration_id for table in round_.tables.all() for seat in table.seats.all()]


def table_of(round_: Round, reg: Registration) -> Any:
    """The table of ``round_`` where ``reg`` sits."""
    return round_.tables.get(seats__registration=reg)
