"""Printable pages and CSV exports: they render, name everyone and link the site's stylesheet."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.test import Client

from tests.tournaments.factories import make_tournament, publish, register_players
from tournaments import services
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db

PLAYERS = """display_name,username,email,club,seed
Ysolde Aubert,ysolde,,Les Pions,1
Xavier Bonnet,xavier,,Les Pions,2
Wanda Carré,wanda,,La Tour,3
Victor Dupuis,victor,,La Tour,4
Ulysse Étienne,ulysse,,,5
Théo Fabre,theo,,,6
Sarah Gilles,sarah,,,7
Romain Hubert,romain,,,8
Quentin Ibert,quentin,,,9
"""


@pytest.fixture
def played(tournament: Tournament) -> Round:
    """Nine imported players, round 1 published and every table's result entered."""
    regs = services.players_import_csv(tournament=tournament, text=PLAYERS)
    for reg in regs:
        services.registration_check_in(registration=reg)
    round_ = publish(services.round_pair_next(tournament=tournament))
    for table in round_.tables.filter(is_bye=False):
        ranks = list(range(1, table.seats.count() + 1))
        services.result_enter(table=table, by=None, ranks=ranks, scores=[10 - r for r in ranks])
    return round_


def names() -> list[str]:
    return [line.split(",")[0] for line in PLAYERS.splitlines()[1:]]


def get_page(url: str) -> str:
    response = Client().get(url)
    assert response.status_code == 200, url
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    # The one stylesheet of the site (its @media print rules make the A4 sheet), and no other.
    assert re.findall(r'rel="stylesheet" href="([^"]+)"', html) == ["/static/herald/site.css"]
    assert "data-print" in html
    return html


def test_pairings_by_table_name_every_seated_player(tournament: Tournament, played: Round) -> None:
    html = get_page(f"/tournaments/{tournament.pk}/pairings/1/")
    assert "Round 1 — pairings by table" in html
    for name in names():
        assert name in html
    for table in played.tables.filter(is_bye=False):
        assert f"Table {table.number}" in html


def test_pairings_by_name_are_alphabetical(tournament: Tournament, played: Round) -> None:
    html = get_page(f"/tournaments/{tournament.pk}/pairings/1/by-name/")
    positions = [html.index(name) for name in sorted(names(), key=str.casefold)]
    assert positions == sorted(positions)


def test_standings_page_lists_players_and_tiebreakers(
    tournament: Tournament, played: Round
) -> None:
    services.round_pair_next(tournament=tournament)  # a draft of round 2 counts for nothing
    html = get_page(f"/tournaments/{tournament.pk}/standings/")
    assert "Standings after round 1" in html
    assert "Opp. points" in html
    for name in names():
        assert name in html


def test_a_missing_round_is_a_404(tournament: Tournament) -> None:
    assert Client().get(f"/tournaments/{tournament.pk}/pairings/7/").status_code == 404


def test_pairings_csv_matches_the_round(tournament: Tournament, played: Round) -> None:
    response = Client().get(f"/tournaments/{tournament.pk}/pairings/1.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    expected = {
        (seat.registration.player.display_name, table.number, seat.seat + 1)
        for table in played.tables.filter(is_bye=False)
        for seat in table.seats.all()
    }
    assert {(r["name"], int(r["table"]), int(r["seat"])) for r in rows} == expected


def test_imported_players_come_back_in_the_standings_csv(
    tournament: Tournament, played: Round
) -> None:
    response = Client().get(f"/tournaments/{tournament.pk}/standings.csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert sorted(r["name"] for r in rows) == sorted(names())
    clubs = {r["name"]: r["club"] for r in rows}
    assert clubs["Ysolde Aubert"] == "Les Pions"
    assert clubs["Théo Fabre"] == ""
    assert list(rows[0]) == [
        "rank", "name", "club", "points", "opponents_points", "game_score",
        "games", "wins", "byes", "dropped", "late_byes",
    ]  # fmt: skip
    points = [float(r["points"]) for r in rows]
    assert points == sorted(points, reverse=True)
    assert sum(1 for r in rows if r["wins"] == "1") == played.tables.filter(is_bye=False).count()


def test_the_bracket_page_names_the_players(organiser: object) -> None:
    tournament = make_tournament(
        organiser=organiser, format="single_elimination", table_preferred=None, table_allowed=None
    )
    regs = register_players(tournament, 5)
    round_ = publish(services.round_pair_next(tournament=tournament))
    for table in round_.tables.all():
        services.result_enter(table=table, by=None, ranks=[1, 2])
    html = get_page(f"/tournaments/{tournament.pk}/bracket/")
    assert "Quarter-finals" in html
    assert ">Final</text>" in html
    for reg in regs:
        assert reg.player.display_name in html
    assert "bye" in html
    assert Client().get(f"/tournaments/{tournament.pk + 1000}/bracket/").status_code == 404


def test_every_page_names_the_game_and_never_prints_its_id(organiser: object) -> None:
    tournament = make_tournament(
        organiser=organiser,
        game_id="les-7-blasons",
        table_preferred=5,
        table_allowed=(4, 5, 6),
        points_by_rank=(5, 3, 2, 1, 0, 0),
    )
    register_players(tournament, 5)
    publish(services.round_pair_next(tournament=tournament))
    base = f"/tournaments/{tournament.pk}"
    for url in (
        f"{base}/",
        f"{base}/standings/",
        f"{base}/pairings/1/",
        f"{base}/pairings/1/by-name/",
    ):
        html = get_page(url)
        assert "Les 7 Blasons" in html, url
        assert "les-7-blasons" not in html, url
