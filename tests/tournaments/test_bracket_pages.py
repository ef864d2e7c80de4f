"""The bracket page drawn as a bracket: rounds named, seeds "(3)" and places "1st" apart, the
champion named, and its live region's fragment drawing the same bracket."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client

from tests.tournaments.factories import make_tournament, register_players
from tests.tournaments.test_brackets import finish_round
from tournaments import services
from tournaments.errors import WrongState
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def bracket_tournament(
    organiser: Any, fmt: str, players: int
) -> tuple[Tournament, list[Registration]]:
    fields: dict[str, Any] = {"format": fmt}
    if fmt != "knockout":
        fields |= {"table_preferred": None, "table_allowed": None}
    tournament = make_tournament(organiser=organiser, **fields)
    return tournament, register_players(tournament, players)


def play_all(tournament: Tournament) -> None:
    """Every bracket round paired and played (lower registration id wins) to a champion."""
    while True:
        try:
            round_ = services.round_pair_next(tournament=tournament)
        except WrongState:
            return
        finish_round(round_)


def page(url: str) -> str:
    response = Client().get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def texts(html: str, css_class: str) -> list[str]:
    """The text of every SVG <text> of ``css_class``."""
    found = re.findall(rf'<text class="{css_class}"[^>]*>([^<]*)</text>', html)
    return [unescape(text) for text in found]


def test_eight_players_played_out_name_the_rounds_the_champion_and_keep_seeds_from_places(
    organiser: Any,
) -> None:
    tournament, regs = bracket_tournament(organiser, "single_elimination", 8)
    play_all(tournament)
    html = page(f"/tournaments/{tournament.pk}/bracket/")
    assert texts(html, "round-title") == ["Quarter-finals", "Semi-finals", "Final"]
    champion = min(regs, key=lambda r: r.id).player.display_name
    assert re.search(rf"Champion: <strong>{re.escape(champion)}</strong>", html)
    # Seeds in brackets, places as ranks, each in its own class: never the same text.
    seeds, places = texts(html, "seed"), texts(html, "place")
    assert sorted(set(seeds)) == sorted(f"({n})" for n in range(1, 9))
    assert set(places) == {"1st", "2nd"}
    assert len(places) == 2 * 7  # every match decided
    assert not set(seeds) & set(places)
    # The winners are emphasised: one winner's line per match, and the champion's name in
    # the final's.
    assert html.count('class="slot winner"') == 7
    final = html[html.index('data-match="W3-1"') :]
    final = final[: final.index("</svg>")]
    winner = final[final.index('class="slot winner"') :]
    assert texts(winner[: winner.index("</g>")], "name") == [champion]
    assert html.count('<polyline class="connector filled"') == 6


def test_six_players_draw_byes_and_empty_slots_say_where_they_come_from(organiser: Any) -> None:
    tournament, _ = bracket_tournament(organiser, "single_elimination", 6)
    services.round_pair_next(tournament=tournament)  # a draft round shows nothing new
    html = page(f"/tournaments/{tournament.pk}/bracket/")
    assert html.count("bye-match") == 2
    assert texts(html, "name").count("bye") == 2
    assert "Winner of W1-2" in texts(html, "name")
    assert "Champion" not in html
    assert texts(html, "place") == []


def test_double_elimination_names_winners_losers_and_grand_final(organiser: Any) -> None:
    tournament, _ = bracket_tournament(organiser, "double_elimination", 8)
    finish_round(services.round_pair_next(tournament=tournament))
    html = page(f"/tournaments/{tournament.pk}/bracket/")
    titles = texts(html, "round-title")
    assert titles[:3] == ["Winners' round 1", "Winners' semi-finals", "Winners' final"]
    assert "Losers' final" in titles
    assert titles[-1] == "Grand final"
    assert "Loser of W2-1" in texts(html, "name")


def test_a_knockout_draws_tables_of_four_with_the_top_two_going_on(organiser: Any) -> None:
    tournament, _ = bracket_tournament(organiser, "knockout", 16)
    stage = tournament.stages.get()
    stage.advance = 2
    stage.save()
    finish_round(services.round_pair_next(tournament=tournament))
    html = page(f"/tournaments/{tournament.pk}/bracket/")
    assert texts(html, "round-title") == ["Round 1", "Round 2", "Final table"]
    assert "The top 2 of each table go on to the next round." in html
    assert sorted(texts(html, "place")) == sorted(["1st", "2nd", "3rd", "4th"] * 4)
    assert html.count('class="slot goes-on"') == 4  # the 2nd of each first-round table
    assert html.count('class="slot winner"') == 4


def test_the_bracket_is_a_live_region_whose_fragment_draws_the_same(organiser: Any) -> None:
    tournament, _ = bracket_tournament(organiser, "single_elimination", 4)
    finish_round(services.round_pair_next(tournament=tournament))
    full = page(f"/tournaments/{tournament.pk}/bracket/")
    fragment_url = f"/tournaments/{tournament.pk}/bracket/fragment/"
    assert f'data-live-kinds="round results" data-live-src="{fragment_url}"' in full
    response = Client().get(fragment_url)
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    fragment = response.content.decode()
    assert "<html" not in fragment
    assert 'class="bracket-region"' in fragment
    region = full[full.index('<div class="bracket-region"') :]
    assert fragment.strip().split("\n", 2)[-1][:2000] in region
    other = make_tournament(organiser=organiser)
    assert Client().get(f"/tournaments/{other.pk}/bracket/fragment/").status_code == 404
