"""The admin site shows every tournaments model; results are history, never edited there."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.test import Client

from herald.roles import ARBITERS
from tests.tournaments.admin_forms import form_values
from tests.tournaments.factories import UserFactory, make_tournament, register_players
from tournaments import services
from tournaments.models import Registration, Result, Round, Table, Tournament

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
    values = form_values(html)
    assert values["table_allowed"] == "3, 4"  # typed as numbers, not JSON
    assert values["points_by_rank"] == "3, 2, 1, 0"
    assert 'href="?game_id=les-7-blasons"' in html
    seven = admin_client_.get("/admin/tournaments/tournament/add/?game_id=les-7-blasons")
    assert form_values(seven.content.decode())["table_allowed"] == "4, 5, 6"


# -- what the services own is not typed in ------------------------------------------------------
def change_url(tournament: Tournament) -> str:
    return f"/admin/tournaments/tournament/{tournament.pk}/change/"


def post_change(client: Client, tournament: Tournament, **changes: Any) -> Any:
    """The tournament's change form sent back as drawn, with ``changes``."""
    values = form_values(client.get(change_url(tournament)).content.decode())
    values.update(changes)
    return client.post(change_url(tournament), values)


def test_status_and_winner_are_read_only_in_the_form(
    admin_client_: Client, tournament: Tournament
) -> None:
    page = admin_client_.get(change_url(tournament)).content.decode()
    assert 'name="status"' not in page
    assert 'name="winner"' not in page
    sent = post_change(admin_client_, tournament, status="finished", winner="Mallory")
    assert sent.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.status, tournament.winner) == (Tournament.Status.RUNNING, "")


def test_finish_and_reopen_are_actions_through_the_services(
    admin_client_: Client, tournament: Tournament
) -> None:
    listing = "/admin/tournaments/tournament/"
    finish = {"action": "finish", "_selected_action": [tournament.pk]}
    done = admin_client_.post(listing, finish, follow=True)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.winner  # named by the service, from the standings
    assert f"{tournament.name} is finished." in done.content.decode()
    admin_client_.post(listing, {"action": "reopen", "_selected_action": [tournament.pk]})
    tournament.refresh_from_db()
    assert (tournament.status, tournament.winner) == (Tournament.Status.RUNNING, "")
    # A refusal is said, and changes nothing: reopening what is not finished.
    again = admin_client_.post(
        listing, {"action": "reopen", "_selected_action": [tournament.pk]}, follow=True
    )
    assert "is not finished: there is nothing to reopen" in again.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


def test_finishing_with_a_draft_round_is_refused_in_words(
    admin_client_: Client, tournament: Tournament
) -> None:
    services.round_pair_next(tournament=tournament, force=True, beyond_planned=True)
    page = admin_client_.post(
        "/admin/tournaments/tournament/",
        {"action": "finish", "_selected_action": [tournament.pk]},
        follow=True,
    )
    assert "A round is still a draft" in page.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


def test_registrations_change_only_through_the_services(
    admin_client_: Client, tournament: Tournament
) -> None:
    reg = tournament.registrations.order_by("id").first()
    assert reg is not None
    page = admin_client_.get(change_url(tournament)).content.decode()
    for field in ("checked_in", "late_entry_round", "dropped_after_round", "fixed_table"):
        assert f'name="registrations-0-{field}"' not in page, field
    assert 'name="registrations-0-seed"' in page  # the seed stays the admin's to change
    post_change(
        admin_client_,
        tournament,
        **{"registrations-0-dropped_after_round": "1", "registrations-0-seed": "7"},
    )
    reg.refresh_from_db()
    assert (reg.dropped_after_round, reg.seed) == (None, 7)
    url = f"/admin/tournaments/registration/{reg.pk}/change/"
    assert 'name="checked_in"' not in admin_client_.get(url).content.decode()
    assert admin_client_.get("/admin/tournaments/registration/add/").status_code == 403
    assert admin_client_.post(f"/admin/tournaments/registration/{reg.pk}/delete/").status_code == (
        403
    )


def test_registration_actions_call_the_services(
    admin_client_: Client, tournament: Tournament
) -> None:
    reg = tournament.registrations.order_by("id").first()
    assert reg is not None
    listing = "/admin/tournaments/registration/"
    admin_client_.post(listing, {"action": "drop", "_selected_action": [reg.pk]})
    reg.refresh_from_db()
    assert reg.dropped_after_round == 1  # after the last confirmed round, as the console does
    refused = admin_client_.post(
        listing, {"action": "drop", "_selected_action": [reg.pk]}, follow=True
    )
    assert "has already dropped out" in refused.content.decode()
    admin_client_.post(listing, {"action": "readd", "_selected_action": [reg.pk]})
    reg.refresh_from_db()
    assert (reg.dropped_after_round, reg.late_entry_round, reg.checked_in) == (None, 2, True)
    admin_client_.post(listing, {"action": "undo_check_in", "_selected_action": [reg.pk]})
    reg.refresh_from_db()
    assert not reg.checked_in
    admin_client_.post(listing, {"action": "check_in", "_selected_action": [reg.pk]})
    assert Registration.objects.get(pk=reg.pk).checked_in


def test_rounds_tables_and_stages_are_never_deleted_in_the_admin(
    admin_client_: Client, tournament: Tournament
) -> None:
    round_ = Round.objects.get()
    table = Table.objects.get()
    for url in (
        f"/admin/tournaments/round/{round_.pk}/delete/",
        f"/admin/tournaments/table/{table.pk}/delete/",
    ):
        assert admin_client_.get(url).status_code == 403, url
        assert admin_client_.post(url, {"post": "yes"}).status_code == 403, url
    bulk = admin_client_.post(
        "/admin/tournaments/round/",
        {"action": "delete_selected", "_selected_action": [round_.pk], "post": "yes"},
    )
    assert bulk.status_code in (200, 302)
    # A tournament with rounds is history: deleting it would delete them, so it is refused
    # (its results' streams are protected too, so the page says what stands in the way).
    whole = admin_client_.post(
        f"/admin/tournaments/tournament/{tournament.pk}/delete/", {"post": "yes"}
    )
    assert whole.status_code in (200, 403)
    assert Tournament.objects.filter(pk=tournament.pk).exists()
    paired = make_tournament(organiser=UserFactory(username="other-organiser"))
    register_players(paired, 4)
    services.round_pair_next(tournament=paired)
    url = f"/admin/tournaments/tournament/{paired.pk}/delete/"
    assert admin_client_.post(url, {"post": "yes"}).status_code in (200, 403)
    assert paired.rounds.exists()
    assert Round.objects.filter(pk=round_.pk).exists()
    assert Table.objects.filter(pk=table.pk).exists()
    page = admin_client_.get(change_url(tournament)).content.decode()
    assert 'name="stages-0-format"' not in page


# -- table sizes and points by place in words and numbers --------------------------------------
def test_sizes_and_points_are_typed_as_numbers_and_checked(
    admin_client_: Client, tournament: Tournament
) -> None:
    sent = post_change(admin_client_, tournament, table_allowed="3, 4 5", points_by_rank="5/3/1")
    assert sent.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.table_allowed, tournament.points_by_rank) == ([3, 4, 5], [5.0, 3.0, 1.0])
    for changes, words in [
        ({"table_allowed": "3, four"}, "Write whole numbers separated by commas, e.g. 3, 4, 5."),
        ({"table_allowed": "3.5, 4"}, "Write whole numbers separated by commas"),
        ({"points_by_rank": "4, x"}, "Write numbers separated by commas, e.g. 4, 3, 2, 1."),
        ({"table_allowed": "4, 9"}, "a table of 9 cannot play it"),
        ({"points_by_rank": "1, 4"}, "must not grow with the rank"),
        ({"table_allowed": "3, 5", "table_preferred": "4"}, "must be one of the allowed sizes"),
    ]:
        refused = post_change(admin_client_, tournament, **changes)
        assert refused.status_code == 200, changes
        assert words in refused.content.decode(), changes
    tournament.refresh_from_db()
    assert (tournament.table_allowed, tournament.points_by_rank) == ([3, 4, 5], [5.0, 3.0, 1.0])


def test_a_tournament_added_in_the_admin_opens_for_registration(admin_client_: Client) -> None:
    page = admin_client_.get("/admin/tournaments/tournament/add/?game_id=blazon")
    values = form_values(page.content.decode())
    root = UserFactory(username="root")
    values.update(name="Added by hand", table_preferred="4", organisers=[root.pk])
    sent = admin_client_.post("/admin/tournaments/tournament/add/?game_id=blazon", values)
    assert sent.status_code == 302, re.findall(
        r'class="errorlist[^>]*>(.*?)</ul>', sent.content.decode()
    )
    added = Tournament.objects.get(name="Added by hand")
    assert added.status == Tournament.Status.REGISTRATION
    assert (added.table_allowed, added.points_by_rank) == ([3, 4], [3.0, 2.0, 1.0, 0.0])


def test_an_arbiter_reads_tournaments_but_has_no_actions(tournament: Tournament) -> None:
    arbiter = UserFactory(username="arbiter", is_staff=True)
    arbiter.groups.add(Group.objects.get(name=ARBITERS))
    client = Client()
    client.force_login(arbiter)
    listing = client.get("/admin/tournaments/tournament/")
    assert listing.status_code == 200
    assert 'value="finish"' not in listing.content.decode()
    refused = client.post(
        "/admin/tournaments/tournament/", {"action": "finish", "_selected_action": [tournament.pk]}
    )
    assert refused.status_code in (200, 302, 403)
    tournament.refresh_from_db()
    assert tournament.status != Tournament.Status.FINISHED
