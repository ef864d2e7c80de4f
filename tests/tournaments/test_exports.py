"""CSV exports never hand a spreadsheet a formula typed into a display name or a club."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from tests.tournaments.factories import ClubFactory, make_player, publish
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

NAMES = ['=HYPERLINK("http://evil.example","click")', "+1+2", "-3", "@SUM(A1)", "\tTab", "Plain"]


def rows(url: str) -> list[dict[str, str]]:
    response = Client().get(url)
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.content.decode())))


@pytest.fixture
def round_one(tournament: Tournament) -> int:
    club = ClubFactory(name="=cmd|' /C calc'!A0")
    for name in NAMES:
        services.registration_create(
            tournament=tournament, player=make_player(display_name=name, club=club), checked_in=True
        )
    round_ = publish(services.round_pair_next(tournament=tournament))
    for table in round_.tables.filter(is_bye=False):
        services.result_enter(table=table, by=None, ranks=list(range(1, table.seats.count() + 1)))
    return round_.number


def test_standings_csv_quotes_formulas_in_names_and_clubs(
    tournament: Tournament, round_one: int
) -> None:
    lines = rows(f"/tournaments/{tournament.pk}/standings.csv")
    assert sorted(line["name"] for line in lines) == sorted(
        name if name == "Plain" else f"'{name}" for name in NAMES
    )
    assert {line["club"] for line in lines} == {"'=cmd|' /C calc'!A0"}
    assert all(not line["points"].startswith("'") for line in lines)  # numbers stay numbers


def test_pairings_csv_quotes_formulas_in_names(tournament: Tournament, round_one: int) -> None:
    names = {line["name"] for line in rows(f"/tournaments/{tournament.pk}/pairings/1.csv")}
    assert names == {name if name == "Plain" else f"'{name}" for name in NAMES}
