"""A confirmed round is not public until it is published: every public read (the pairings
pages and CSV, their live fragments, the API, the overview, the standings, the report page and
"your table") answers as if it did not exist for players and visitors, while its organisers
see it; once published, everyone does."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.api import client_for as api_for
from tests.tournaments.factories import make_tournament, register_players
from tournaments import services
from tournaments.models import Club, Registration, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(organiser: Any, club: Club) -> Tournament:
    """Nine players at tables of 4 only: two tables and a bye each round; paper tables."""
    tournament = make_tournament(
        organiser=organiser,
        club=club,
        table_preferred=4,
        table_allowed=(4,),
        points_by_rank=(3, 2, 1, 0),
        bye_points=3,
        table_mode="paper",
    )
    register_players(tournament, 9)
    return tournament


@pytest.fixture
def confirmed(night: Tournament) -> Round:
    return services.round_confirm(round_=services.round_pair_next(tournament=night))


def browser(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def seated(round_: Round) -> Registration:
    """A player seated at table 1 of ``round_``."""
    seat = round_.tables.get(number=1, is_bye=False).seats.order_by("seat").first()
    assert seat is not None
    return seat.registration


def outsiders(round_: Round) -> list[Client]:
    """A visitor and a player of the round: neither runs the tournament."""
    return [browser(None), browser(seated(round_).player.user)]


def public_urls(round_: Round) -> list[str]:
    base = f"/tournaments/{round_.tournament_id}/pairings/{round_.number}"
    return [
        f"{base}/",
        f"{base}/by-name/",
        f"{base}.csv",
        f"{base}/fragment",
        f"{base}/by-name/fragment",
    ]


def test_the_pairings_pages_csv_and_fragments_wait_for_publishing(
    organiser: Any, confirmed: Round
) -> None:
    for url in public_urls(confirmed):
        for client in outsiders(confirmed):
            assert client.get(url).status_code == 404, url
        assert browser(organiser).get(url).status_code == 200, url
    services.round_release(round_=confirmed, by=organiser)
    for url in public_urls(confirmed):
        for client in outsiders(confirmed):
            assert client.get(url).status_code == 200, url


def test_the_api_leaves_a_confirmed_round_out_until_published(
    organiser: Any, confirmed: Round
) -> None:
    tournament_id = confirmed.tournament_id
    table = confirmed.tables.get(number=1, is_bye=False)
    urls = [
        f"/api/v1/rounds/{confirmed.pk}",
        f"/api/v1/tables/{table.pk}",
        f"/api/v1/tables/{table.pk}/results",
        f"/api/v1/tables/{table.pk}/results/events",
    ]
    for user in (None, seated(confirmed).player.user):
        api = api_for(user)
        assert api.get(f"/api/v1/tournaments/{tournament_id}/rounds").json() == []
        for url in urls:
            assert api.get(url).status_code == 404, url
    mine = api_for(organiser)
    assert [r["id"] for r in mine.get(f"/api/v1/tournaments/{tournament_id}/rounds").json()] == [
        confirmed.pk
    ]
    assert all(mine.get(url).status_code == 200 for url in urls)
    services.round_release(round_=confirmed, by=organiser)
    anyone = api_for(None)
    assert [r["id"] for r in anyone.get(f"/api/v1/tournaments/{tournament_id}/rounds").json()] == [
        confirmed.pk
    ]
    assert all(anyone.get(url).status_code == 200 for url in urls)


def test_the_overview_links_a_round_once_published(organiser: Any, confirmed: Round) -> None:
    base = f"/tournaments/{confirmed.tournament_id}"
    link = f'href="{base}/pairings/1/"'
    for url in (f"{base}/", f"{base}/rounds/fragment", f"{base}/standings/"):
        for client in outsiders(confirmed):
            html = client.get(url).content.decode()
            assert link not in html, url
    assert "not published yet" in browser(None).get(f"{base}/").content.decode()
    services.round_release(round_=confirmed, by=organiser)
    for url in (f"{base}/", f"{base}/rounds/fragment", f"{base}/standings/"):
        assert link in browser(None).get(url).content.decode(), url


def test_a_confirmed_round_s_bye_counts_in_public_standings_once_published(
    organiser: Any, night: Tournament, confirmed: Round
) -> None:
    bye = confirmed.tables.get(is_bye=True).seats.get().registration
    name = bye.player.display_name

    def points(api: Any) -> float:
        rows = api.get(f"/api/v1/tournaments/{night.pk}/standings").json()
        return float(next(row["points"] for row in rows if row["name"] == name))

    assert points(api_for(None)) == 0.0
    assert points(api_for(organiser)) == 3.0
    page = browser(None).get(f"/tournaments/{night.pk}/standings/").content.decode()
    assert "Standings after round 1" not in page
    csv = browser(None).get(f"/tournaments/{night.pk}/standings.csv").content.decode()
    assert f",{name},{bye.player.club.name},0," in csv
    services.round_release(round_=confirmed, by=organiser)
    assert points(api_for(None)) == 3.0
    page = browser(None).get(f"/tournaments/{night.pk}/standings/").content.decode()
    assert "Standings after round 1" in page


def test_the_report_page_waits_for_publishing_but_the_organiser_may_enter(
    organiser: Any, confirmed: Round
) -> None:
    table = confirmed.tables.get(number=1, is_bye=False)
    url = f"/tournaments/{confirmed.tournament_id}/tables/{table.pk}/report/"
    player = browser(seated(confirmed).player.user)
    for suffix in ("", "fragment"):
        refused = player.get(url + suffix)
        assert refused.status_code == 404
        assert "not published yet" in refused.content.decode()
    assert player.post(url, {"action": "report", "rank_0": "1"}).status_code == 404
    assert browser(organiser).get(url).status_code == 200
    services.round_release(round_=confirmed, by=organiser)
    assert player.get(url).status_code == 200


def test_your_table_appears_once_the_round_is_published(organiser: Any, confirmed: Round) -> None:
    reg = seated(confirmed)
    url = f"/tournaments/{confirmed.tournament_id}/my-table/fragment"
    waiting = browser(reg.player.user).get(url).content.decode()
    assert "appears here the moment round 1 is published" in waiting
    assert "Table 1" not in waiting
    services.round_release(round_=confirmed, by=organiser)
    shown = browser(reg.player.user).get(url).content.decode()
    assert "Table 1" in shown
    assert "Report the result" in shown
