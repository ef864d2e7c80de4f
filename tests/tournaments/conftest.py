"""Fixtures of the tournaments tests: an organiser and a Swiss tournament of tables of 4."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.factories import UserFactory, make_tournament
from tournaments.models import Registration, Round, Tournament


@pytest.fixture
def organiser(db: None) -> Any:
    return UserFactory(username="organiser")


@pytest.fixture
def tournament(organiser: Any) -> Tournament:
    return make_tournament(organiser=organiser)


def seated(round_: Round) -> list[int]:
    """Every registration id seated or given a bye in ``round_``, with repeats."""
    return [seat.registration_id for table in round_.tables.all() for seat in table.seats.all()]


def table_of(round_: Round, reg: Registration) -> Any:
    """The table of ``round_`` where ``reg`` sits."""
    return round_.tables.get(seats__registration=reg)
