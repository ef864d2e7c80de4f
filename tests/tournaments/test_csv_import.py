"""Players CSV imports: capped in rows and bytes (413), done in bulk (a few queries whatever
the size), one transaction that writes nothing when a row is bad, and unreadable CSV a 400."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.tournaments.factories import make_player, make_tournament, register_players
from tournaments import services
from tournaments.models import ClubMembership, Player, Registration, Tournament

pytestmark = pytest.mark.django_db

HEADER = "display_name,username,email,club,seed\n"


def players_csv(count: int, *, start: int = 0) -> str:
    return HEADER + "".join(
        f"Player {i:04d},p{i:04d},p{i:04d}@example.org,Les Pions,{i + 1}\n"
        for i in range(start, start + count)
    )


def import_url(tournament: Tournament) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/registrations/import"


def assert_error(response: Any, status: int, code: str, words: str) -> None:
    assert response.status_code == status, response.content
    assert response.json()["error"] == code
    assert words in response.json()["detail"], response.json()["detail"]


def nothing_written() -> bool:
    return not (
        Registration.objects.exists()
        or get_user_model().objects.filter(username__startswith="p0").exists()
    )


# -- caps --------------------------------------------------------------------------------------
def test_more_rows_than_the_cap_is_a_413_and_nothing_is_written(
    tournament: Tournament, api: APIClient
) -> None:
    response = api.post(import_url(tournament), {"csv": players_csv(501)})
    assert_error(response, 413, "too_large", "at most 500")
    assert nothing_written()


def test_more_bytes_than_the_cap_is_a_413(
    tournament: Tournament, api: APIClient, settings: Any
) -> None:
    settings.HERALD_IMPORT_MAX_BYTES = 4096
    text = players_csv(100)
    assert len(text.encode()) > 4096
    assert_error(api.post(import_url(tournament), {"csv": text}), 413, "too_large", "4,096 bytes")
    assert nothing_written()


def test_the_caps_are_settings(tournament: Tournament, api: APIClient, settings: Any) -> None:
    settings.HERALD_IMPORT_MAX_ROWS = 3
    assert_error(api.post(import_url(tournament), {"csv": players_csv(4)}), 413, "too_large", "3")
    assert api.post(import_url(tournament), {"csv": players_csv(3)}).status_code == 201


# -- bulk --------------------------------------------------------------------------------------
def _import_queries(tournament: Tournament, text: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        services.players_import_csv(tournament=tournament, text=text)
    return len(queries.captured_queries)


@pytest.mark.services(
    "postgres", reason="its query count (SQLite splits bulk inserts at 999 parameters)"
)
def test_an_import_costs_the_same_queries_for_5_or_500_players(
    tournament: Tournament, organiser: Any, club: Any
) -> None:
    small = _import_queries(tournament, players_csv(5))
    other = make_tournament(organiser=organiser, club=club, name="Friday")
    large = _import_queries(other, players_csv(500, start=1000))
    assert small == large
    assert large <= 20
    assert other.registrations.count() == 500
    assert ClubMembership.objects.filter(club=club, user__username="p1499").exists()


def test_a_max_size_import_through_the_api_creates_everyone(
    tournament: Tournament, api: APIClient
) -> None:
    response = api.post(import_url(tournament), {"csv": players_csv(500)})
    assert response.status_code == 201, response.content
    body = response.json()
    assert len(body) == 500
    assert body[0] == {
        "id": body[0]["id"],
        "player": Player.objects.get(user__username="p0000").pk,
        "name": "Player 0000",
        "username": "p0000",
        "club": "Les Pions",
        "seed": 1,
        "checked_in": False,
        "late_entry_round": None,
        "dropped_after_round": None,
    }
    user = get_user_model().objects.get(username="p0499")
    assert not user.has_usable_password()
    assert user.email == "p0499@example.org"


def test_one_bad_row_among_500_writes_nothing(tournament: Tournament, api: APIClient) -> None:
    text = players_csv(499) + "Bad,bad,not-an-email,,\n"
    response = api.post(import_url(tournament), {"csv": text})
    assert_error(response, 400, "invalid", "line 501")
    assert nothing_written()
    assert not get_user_model().objects.filter(username="bad").exists()


def test_an_import_into_a_running_tournament_is_late_entry(
    tournament: Tournament, api: APIClient
) -> None:
    register_players(tournament, 4)
    services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    response = api.post(import_url(tournament), {"csv": players_csv(2)})
    assert response.status_code == 201, response.content
    assert {(r["checked_in"], r["late_entry_round"]) for r in response.json()} == {(True, 2)}


def test_an_existing_member_is_reused_as_they_are(tournament: Tournament, api: APIClient) -> None:
    member = make_player(club=tournament.club, display_name="Old Name")
    text = HEADER + f"New Name,{member.user.username},,,\n"
    response = api.post(import_url(tournament), {"csv": text})
    assert response.status_code == 201, response.content
    assert response.json()[0]["name"] == "Old Name"
    assert Player.objects.count() == 1


# -- unreadable CSV ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "row",
    [
        '"Anna\rMartin",anna,,,\n',  # a carriage return inside a quoted field
        "Anna\rMartin,anna,,,\n",  # ...and outside quotes
        '"Anna\nMartin",anna,,,\n',
        "Anna\tMartin,anna,,,\n",
        "Anna,anna,,,²\n",  # a digit, but not one int() of a seed should take
        "Anna,anna,,,99999999999\n",
        "Anna,anna,,,\x00\n",
    ],
)
def test_odd_characters_are_a_400_with_a_sentence(
    tournament: Tournament, api: APIClient, row: str
) -> None:
    response = api.post(import_url(tournament), {"csv": HEADER + row})
    assert response.status_code == 400, response.content
    assert response.json()["detail"].endswith(".")
    assert not Registration.objects.exists()


def test_a_field_over_the_csv_modules_limit_is_a_400(
    tournament: Tournament, api: APIClient, settings: Any
) -> None:
    field = "x" * 131_073
    text = HEADER + f'"{field}",anna,,,\n'
    assert_error(api.post(import_url(tournament), {"csv": text}), 413, "too_large", "bytes")
    settings.HERALD_IMPORT_MAX_BYTES = 1024 * 1024  # a club that raised the cap
    assert_error(
        api.post(import_url(tournament), {"csv": text}), 400, "invalid", "cannot be read at line"
    )
