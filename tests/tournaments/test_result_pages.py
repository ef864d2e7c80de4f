"""The phone report page and the organiser's results console: who sees what, what the forms
do, the refusals in sentences, the slips, the hub section, finishing and reopening."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.tournaments.factories import UserFactory, make_tournament, publish, register_players
from tournaments import services
from tournaments.models import Result, Table, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(organiser: Any, club: Any) -> Table:
    tournament = make_tournament(
        organiser=organiser,
        club=club,
        table_preferred=3,
        table_allowed=(3,),
        points_by_rank=(3, 1, 0),
        rounds_planned=1,
        table_mode="paper",
    )
    register_players(tournament, 3)
    round_ = publish(services.round_pair_next(tournament=tournament))
    return round_.tables.get()


def client_for(user: Any) -> Client:
    """A browser's client signed in as ``user`` (the pages' forms, CSRF off as in tests)."""
    client = Client()
    client.force_login(user)
    return client


def players(table: Table) -> list[Any]:
    return [s.registration.player.user for s in table.seats.order_by("seat")]


def report_url(table: Table) -> str:
    return f"/tournaments/{table.round.tournament_id}/tables/{table.pk}/report/"


def console_url(table: Table, tail: str = "") -> str:
    return f"/tournaments/{table.round.tournament_id}/console/results/{tail}"


def test_a_seated_player_reports_and_the_others_confirm_or_disagree(table: Table) -> None:
    a, b, c = players(table)
    page = client_for(a).get(report_url(table))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="rank_0"' in html
    assert ">2nd<" in html  # places are picked, not typed
    assert 'data-live-src="' in html
    sent = client_for(a).post(
        report_url(table),
        {"action": "report", "rank_0": "2", "rank_1": "1", "rank_2": "3"},
    )
    assert sent.status_code == 302
    result = table.results.get()
    assert (result.status, result.ranks, result.scores) == ("submitted", [2, 1, 3], [])
    seen = client_for(b).get(report_url(table)).content.decode()
    assert 'id="confirm-result"' in seen
    assert 'id="disagree-result"' in seen
    assert 'name="rank_0"' not in seen  # the others answer, they do not report again
    client_for(b).post(report_url(table), {"action": "confirm", "result": result.pk})
    client_for(c).post(
        report_url(table), {"action": "disagree", "result": result.pk, "reason": "I won"}
    )
    result.refresh_from_db()
    assert result.status == Result.Status.CONFLICT
    assert "the organiser decides" in client_for(a).get(report_url(table)).content.decode()
    live = client_for(c).get(report_url(table) + "fragment")
    assert live.status_code == 200
    assert 'data-state="disagreement"' in live.content.decode()


def test_bad_reports_are_refused_in_sentences(table: Table) -> None:
    a, _, _ = players(table)
    blank = client_for(a).post(report_url(table), {"action": "report", "rank_0": "1"})
    assert blank.status_code == 400
    assert "Pick a place for every player." in blank.content.decode()
    skipped = client_for(a).post(
        report_url(table), {"action": "report", "rank_0": "1", "rank_1": "3", "rank_2": "3"}
    )
    assert skipped.status_code == 400
    assert "Ranks must be 1-based" in skipped.content.decode()
    odd = client_for(a).post(report_url(table), {"action": "shout"})
    assert odd.status_code == 400
    assert not table.results.exists()


def test_who_is_not_seated_is_refused(table: Table) -> None:
    stranger = client_for(UserFactory()).get(report_url(table))
    assert stranger.status_code == 403
    assert "Only the players seated at table 1 report its result." in stranger.content.decode()
    sneaky = client_for(UserFactory()).post(
        report_url(table), {"action": "report", "rank_0": "1", "rank_1": "2", "rank_2": "3"}
    )
    assert sneaky.status_code == 403
    assert client_for(UserFactory()).get(report_url(table) + "fragment").status_code == 403
    anonymous = Client().get(report_url(table))
    assert anonymous.status_code == 302
    assert "/login" in anonymous["Location"]


def test_a_draft_round_has_no_report_page(organiser: Any, club: Any) -> None:
    tournament = make_tournament(organiser=organiser, club=club)
    register_players(tournament, 4)
    draft = services.round_pair_next(tournament=tournament).tables.get()
    seated = draft.seats.first().registration.player.user
    page = client_for(seated).get(report_url(draft))
    assert page.status_code == 404
    assert "not published yet" in page.content.decode()


def test_the_organiser_decides_corrects_and_sees_the_history(table: Table, organiser: Any) -> None:
    a, b, c = players(table)
    result = services.result_report(table=table, by=a, ranks=[1, 2, 3])
    services.result_disagree(result=result, by=c, reason="Not so")
    me = client_for(organiser)
    page = me.get(console_url(table))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-state="disagreement"' in html
    assert "The players disagree" in html
    no_reason = me.post(console_url(table, f"tables/{table.pk}/decide/{result.pk}/"), {})
    assert no_reason.status_code == 400
    assert "say why you change it" in no_reason.content.decode()
    decided = me.post(
        console_url(table, f"tables/{table.pk}/decide/{result.pk}/"), {"reason": "Sheet"}
    )
    assert decided.status_code == 302
    assert table.results.get(status="confirmed").ranks == [1, 2, 3]
    tournament = Tournament.objects.get(pk=table.round.tournament_id)
    assert tournament.status == Tournament.Status.FINISHED
    prefix = f"t{table.pk}-"
    correction = {prefix + "rank_0": "2", prefix + "rank_1": "1", prefix + "rank_2": "3"}
    refused = me.post(console_url(table, f"tables/{table.pk}/enter/"), correction)
    assert refused.status_code == 400
    assert "say why you change it" in refused.content.decode()
    fixed = me.post(
        console_url(table, f"tables/{table.pk}/enter/"),
        {**correction, prefix + "reason": "Names swapped on the sheet"},
    )
    assert fixed.status_code == 302
    html = me.get(console_url(table)).content.decode()
    for kind in ("Reported", "Disagreed", "Disagreement decided", "Corrected by the organiser"):
        assert kind in html
    assert "Names swapped on the sheet" in html
    assert f"Won by {b.player.display_name}" in html
    standings = me.get(f"/tournaments/{tournament.pk}/standings/").content.decode()
    assert f"Won by <strong>{b.player.display_name}</strong>" in standings
    reopened = me.post(console_url(table, "reopen/"))
    assert reopened.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    again = me.post(console_url(table, "reopen/"))
    assert again.status_code == 409
    assert "not finished" in again.content.decode()


def test_the_console_is_the_organisers_only(table: Table) -> None:
    a, _, _ = players(table)
    for url in (console_url(table), console_url(table, "slips/1/"), console_url(table, "fragment")):
        page = client_for(a).get(url)
        assert page.status_code == 403, url
    entered = client_for(a).post(
        console_url(table, f"tables/{table.pk}/enter/"),
        {f"t{table.pk}-rank_0": "1", f"t{table.pk}-rank_1": "2", f"t{table.pk}-rank_2": "3"},
    )
    assert entered.status_code == 403
    assert not table.results.exists()


def test_slips_name_the_seats_and_link_the_report_page(table: Table, organiser: Any) -> None:
    page = client_for(organiser).get(console_url(table, "slips/1/"))
    assert page.status_code == 200
    html = page.content.decode()
    for user in players(table):
        assert user.player.display_name in html
    assert f"/tournaments/{table.round.tournament_id}/tables/{table.pk}/report/" in html
    assert 'src="data:image/svg+xml' in html
    missing = client_for(organiser).get(console_url(table, "slips/7/"))
    assert missing.status_code == 404
    assert "Round 7 is not published" in missing.content.decode()


def test_the_hub_section_counts_the_tables(table: Table, organiser: Any) -> None:
    hub = client_for(organiser).get(f"/tournaments/{table.round.tournament_id}/console/")
    html = hub.content.decode()
    assert 'id="console-results"' in html
    assert "waiting <strong>1</strong>" in html
    assert 'id="console-results-link"' in html
