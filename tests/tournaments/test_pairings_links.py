"""The pairings page links each table to its game once the round is released (a stream per
table), and says nothing of a game before."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import make_tournament, register_players
from tournaments import services
from tournaments.models import Club

pytestmark = pytest.mark.django_db


def test_each_released_table_links_to_its_game(organiser: Any, club: Club) -> None:
    tournament = make_tournament(organiser=organiser, club=club, game_id="les-7-blasons")
    register_players(tournament, 7)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    url = reverse("tournament-pages:pairings", args=[tournament.pk, round_.number])
    assert "Open the game" not in Client().get(url).content.decode()
    services.round_release(round_=round_, by=organiser)
    html = Client().get(url).content.decode()
    tables = list(round_.tables.filter(is_bye=False).order_by("number"))
    assert tables
    links = re.findall(r'<p class="game-link"><a href="([^"]+)">Open the game</a>', html)
    assert links == [reverse("play:table", args=[t.stream_id]) for t in tables]
