"""The admin site shows every tournaments model; results are history, never edited there."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.test import Client

from tests.tournaments.factories import UserFactory, register_players
from tournaments import services
from tournaments.models import Result, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_(tournament: Tournament) -> Client:
    register_players(tournament, 4)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    services.result_enter(table=round_.tables.get(), by=None, ranks=[1, 2, 3, 4])
    client = Client()
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


@pytest.mark.parametrize(
    "model",
    ["club", "player", "tournament", "registration", "round", "table", "result", "resultevent"],
)
def test_every_changelist_and_change_page_renders(admin_client_: Client, model: str) -> None:
    listing = admin_client_.get(f"/admin/tournaments/{model}/")
    assert listing.status_code == 200

    obj: Any = apps.get_model("tournaments", model).objects.first()
    assert admin_client_.get(f"/admin/tournaments/{model}/{obj.pk}/change/").status_code == 200


def test_results_cannot_be_added_changed_or_deleted_in_the_admin(admin_client_: Client) -> None:
    result = Result.objects.get()
    assert admin_client_.get("/admin/tournaments/result/add/").status_code == 403
    page = admin_client_.post(
        f"/admin/tournaments/result/{result.pk}/change/", {"ranks": "[4, 3, 2, 1]"}
    )
    assert page.status_code == 403
    assert admin_client_.post(f"/admin/tournaments/result/{result.pk}/delete/").status_code == 403
    result.refresh_from_db()
    assert result.ranks == [1, 2, 3, 4]


def test_the_admin_corrects_a_result_through_the_service_with_a_reason(
    admin_client_: Client,
) -> None:
    result = Result.objects.get()
    change = admin_client_.get(f"/admin/tournaments/result/{result.pk}/change/")
    assert f"/admin/tournaments/result/{result.pk}/correct/" in change.content.decode()
    url = f"/admin/tournaments/result/{result.pk}/correct/"
    places = {"rank_0": "4", "rank_1": "3", "rank_2": "2", "rank_3": "1"}
    refused = admin_client_.post(url, places)
    assert refused.status_code == 400
    assert "say why you change it" in refused.content.decode()
    done = admin_client_.post(url, {**places, "reason": "The sheet was read upside down"})
    assert done.status_code == 302
    table = result.table
    assert table.results.get(status="confirmed").ranks == [4, 3, 2, 1]
    corrected = table.result_events.get(kind="corrected")
    assert (corrected.reason, corrected.by.username) == ("The sheet was read upside down", "root")
    for event in table.result_events.all():  # the stream is shown, never written here
        page = f"/admin/tournaments/resultevent/{event.pk}/delete/"
        assert admin_client_.post(page).status_code == 403


def test_the_tournament_list_and_form_name_the_game(
    admin_client_: Client, tournament: Tournament
) -> None:
    listing = admin_client_.get("/admin/tournaments/tournament/").content.decode()
    assert "13 Couronnes" in listing
    assert ">13-couronnes<" not in listing  # the id stays in links and values, never as text
    form = admin_client_.get(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    assert '<option value="13-couronnes" selected>13 Couronnes</option>' in form.content.decode()
    assert '<option value="half_bye">' in form.content.decode()  # the late-entry award is set here


def test_the_tournament_add_form_starts_from_the_games_defaults(admin_client_: Client) -> None:
    page = admin_client_.get("/admin/tournaments/tournament/add/?game_id=blazon")
    html = page.content.decode()
    assert page.status_code == 200
    # Blazon seats 2 to 4: tables of 3 and 4 around the preferred 4, points 3, 2, 1, 0.
    assert "[3, 4]" in html
    assert "[3.0, 2.0, 1.0, 0.0]" in html
    assert 'href="?game_id=les-7-blasons"' in html
    seven = admin_client_.get("/admin/tournaments/tournament/add/?game_id=les-7-blasons")
    assert "[4, 5, 6]" in seven.content.decode()
