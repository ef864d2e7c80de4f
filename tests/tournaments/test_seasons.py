"""Club seasons: organisers set one up from the club page (a form, no JSON), and the season's
page ranks the club's players over its finished tournaments by placement points."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.test import Client

from tests.tournaments.factories import (
    UserFactory,
    make_player,
    make_tournament,
)
from tournaments import selectors, services
from tournaments.errors import InvalidInput, NotAllowed
from tournaments.models import Club, Player, Season, Tournament

pytestmark = pytest.mark.django_db


def finished_night(
    organiser: Any, club: Club, name: str, order: list[Player], played_on: datetime.date
) -> Tournament:
    """A finished one-round night of one table: ``order`` finished in that order."""
    tournament = make_tournament(
        organiser=organiser, club=club, name=name, table_preferred=len(order),
        table_allowed=[len(order)],
    )  # fmt: skip
    regs = {
        player.pk: services.registration_create(
            tournament=tournament, player=player, checked_in=True
        )
        for player in order
    }
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    table = round_.tables.get()
    seats = [s.registration_id for s in table.seats.order_by("seat")]
    rank_of = {regs[p.pk].pk: i + 1 for i, p in enumerate(order)}
    services.result_enter(table=table, by=None, ranks=[rank_of[s] for s in seats])
    services.tournament_finish(tournament=tournament)
    Tournament.objects.filter(pk=tournament.pk).update(
        created_at=datetime.datetime.combine(played_on, datetime.time(20), tzinfo=datetime.UTC)
    )
    round_.__class__.objects.filter(tournament=tournament).update(
        confirmed_at=datetime.datetime.combine(played_on, datetime.time(20), tzinfo=datetime.UTC)
    )
    return tournament


@pytest.fixture
def players(club: Club) -> list[Player]:
    return [make_player(display_name=n, club=club) for n in ("Anne", "Bruno", "Chloé", "Denis")]


@pytest.fixture
def nights(organiser: Any, club: Club, players: list[Player]) -> list[Tournament]:
    a, b, c, d = players
    return [
        finished_night(organiser, club, "Septembre", [a, b, c, d], datetime.date(2026, 9, 10)),
        finished_night(organiser, club, "Octobre", [b, a, d, c], datetime.date(2026, 10, 8)),
        finished_night(organiser, club, "Janvier", [d, c, b, a], datetime.date(2027, 1, 14)),
    ]


def test_a_season_by_dates_ranks_the_players_of_its_finished_tournaments(
    organiser: Any, club: Club, players: list[Player], nights: list[Tournament]
) -> None:
    season = services.season_create(
        club=club, by=organiser, name="Automne 2026", points_by_place=[10, 7, 5, 3],
        starts_on=datetime.date(2026, 9, 1), ends_on=datetime.date(2026, 12, 31),
    )  # fmt: skip
    standing = selectors.season_standing(season)
    assert [t.name for t in standing.tournaments] == ["Septembre", "Octobre"]
    got = [(line.rank, line.name, line.points, line.played, line.best) for line in standing.lines]
    assert got == [
        (1, "Anne", 17.0, 2, 1),
        (1, "Bruno", 17.0, 2, 1),
        (3, "Chloé", 8.0, 2, 3),
        (3, "Denis", 8.0, 2, 3),
    ]
    assert [c.place if c else None for c in standing.lines[0].cells] == [1, 2]
    # A running tournament inside the dates counts for nothing until it finishes.
    make_tournament(organiser=organiser, club=club, name="En cours")
    assert len(selectors.season_tournaments(season)) == 2


def test_an_explicit_list_of_tournaments_is_exactly_the_season(
    organiser: Any, club: Club, nights: list[Tournament]
) -> None:
    season = services.season_create(
        club=club, by=organiser, name="Coupe", points_by_place=[5, 3, 1],
        tournament_ids=[nights[2].pk, nights[0].pk],
    )  # fmt: skip
    standing = selectors.season_standing(season)
    assert [t.name for t in standing.tournaments] == ["Septembre", "Janvier"]
    assert {line.name: line.points for line in standing.lines} == {
        "Anne": 5.0, "Denis": 5.0, "Bruno": 4.0, "Chloé": 4.0,
    }  # fmt: skip


def test_only_the_clubs_organisers_set_up_a_season_and_bad_settings_are_refused(
    organiser: Any, club: Club, nights: list[Tournament]
) -> None:
    member = UserFactory(username="member")
    services.club_member_add(club=club, user=member)
    with pytest.raises(NotAllowed):
        services.season_create(club=club, by=member, name="X", points_by_place=[1])
    with pytest.raises(InvalidInput, match="cannot grow"):
        services.season_create(club=club, by=organiser, name="X", points_by_place=[1, 5])
    with pytest.raises(InvalidInput, match="end before it starts"):
        services.season_create(
            club=club, by=organiser, name="X", points_by_place=[1],
            starts_on=datetime.date(2026, 2, 1), ends_on=datetime.date(2026, 1, 1),
        )  # fmt: skip
    other = make_tournament(
        organiser=UserFactory(username="o2"), club=Club.objects.create(name="B")
    )
    with pytest.raises(InvalidInput, match="only tournaments of"):
        services.season_create(
            club=club, by=organiser, name="X", points_by_place=[1], tournament_ids=[other.pk]
        )
    services.season_create(club=club, by=organiser, name="X", points_by_place=[1])
    with pytest.raises(InvalidInput, match="already has a season"):
        services.season_create(club=club, by=organiser, name=" X ", points_by_place=[1])
    assert Season.objects.count() == 1


def test_the_organiser_creates_and_edits_a_season_from_the_club_page(
    organiser: Any, club: Club, nights: list[Tournament]
) -> None:
    browser = Client()
    browser.force_login(organiser)
    club_page = browser.get(f"/clubs/{club.pk}/").content.decode()
    assert f'href="/clubs/{club.pk}/seasons/new/"' in club_page
    form = browser.get(f"/clubs/{club.pk}/seasons/new/")
    assert form.status_code == 200
    assert 'value="10/7/5/3/1"' in form.content.decode()
    refused = browser.post(
        f"/clubs/{club.pk}/seasons/new/",
        {"name": "Saison", "points": "3/5", "tie_rule": "share"},
    )
    assert refused.status_code == 400
    assert "cannot grow" in refused.content.decode()
    answer = browser.post(
        f"/clubs/{club.pk}/seasons/new/",
        {"name": "Saison 2026-27", "points": "10/7/5/3", "tie_rule": "higher",
         "starts_on": "2026-09-01", "ends_on": "2027-06-30"},
    )  # fmt: skip
    season = Season.objects.get()
    assert answer.status_code == 302
    assert answer["Location"] == f"/clubs/{club.pk}/seasons/{season.pk}/"
    assert (season.points_by_place, season.tie_rule) == ([10, 7, 5, 3], "higher")
    edit = browser.get(f"/clubs/{club.pk}/seasons/{season.pk}/edit/").content.decode()
    assert 'value="10/7/5/3"' in edit
    browser.post(
        f"/clubs/{club.pk}/seasons/{season.pk}/edit/",
        {"name": "Saison 2026-27", "points": "4/2", "tie_rule": "share",
         "tournaments": [nights[0].pk]},
    )  # fmt: skip
    season.refresh_from_db()
    assert season.points_by_place == [4, 2]
    assert list(season.tournaments.all()) == [nights[0]]
    assert "Saison 2026-27" in browser.get(f"/clubs/{club.pk}/").content.decode()


def test_a_member_may_read_the_season_but_not_edit_it(
    organiser: Any, club: Club, nights: list[Tournament]
) -> None:
    season = services.season_create(
        club=club, by=organiser, name="Saison", points_by_place=[10, 7, 5, 3, 1]
    )
    member = UserFactory(username="member")
    services.club_member_add(club=club, user=member)
    reader = Client()
    reader.force_login(member)
    assert reader.get(f"/clubs/{club.pk}/seasons/{season.pk}/edit/").status_code == 403
    assert reader.post(f"/clubs/{club.pk}/seasons/new/", {"name": "Y"}).status_code == 403
    assert "new-season" not in reader.get(f"/clubs/{club.pk}/").content.decode()
    anonymous = Client().get(f"/clubs/{club.pk}/seasons/new/")
    assert anonymous.status_code == 302
    page = Client().get(f"/clubs/{club.pk}/seasons/{season.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Points by final place: 10 · 7 · 5 · 3 · 1." in html
    rows = re.findall(r'<tr data-player="\d+">(.*?)</tr>', html, re.S)
    assert len(rows) == 4
    # Anne: 1st, 2nd, 4th = 10 + 7 + 3; her best place is written as a place.
    anne = next(r for r in rows if "Anne" in r)
    assert "<strong>20</strong>" in anne
    assert "1st" in anne
    assert "4th" in anne
    assert "edit-season" not in html
    assert Client().get(f"/clubs/{club.pk}/seasons/{season.pk + 99}/").status_code == 404
