"""``manage.py demo``: tournaments played to the end by bots, verified and rated, once."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import Client

import engine
from events.models import Stream
from herald import demo
from ratings.models import Dispute, RatedGame, Rating, Verification
from tournaments.models import Player, Result, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_plans(monkeypatch: pytest.MonkeyPatch) -> None:
    """A smaller night than the real demo's, so the test stays short; same code path."""
    small = {game.id: demo.DemoPlan(players=8, rounds=1) for game in engine.games()}
    small["13-couronnes"] = demo.DemoPlan(players=8, rounds=2, options={"max_turns": 5})
    monkeypatch.setattr(demo, "PLANS", small)


@pytest.mark.usefixtures("small_plans")
def test_demo_fills_an_empty_database_once() -> None:
    out = StringIO()
    call_command("demo", "--if-empty", stdout=out)
    assert "Demo ready" in out.getvalue()
    password = re.search(r"with the password (\S+) \(generated now", out.getvalue()).group(1)
    assert len(password) >= 16
    assert authenticate(username=demo.ADMIN, password=password) is not None
    assert authenticate(username=demo.ARBITER, password=password) is not None
    assert authenticate(username=demo.ADMIN, password="herald-demo") is None  # no fixed one
    open_night = Tournament.objects.get(name=demo.OPEN_NIGHT)
    tournaments = Tournament.objects.exclude(pk=open_night.pk)
    assert {t.game_id for t in tournaments} == {game.id for game in engine.games()}
    assert all(t.status == Tournament.Status.FINISHED for t in tournaments)
    streams = Stream.objects.all()
    assert streams.exists()
    assert all(stream.is_finished for stream in streams)
    assert Verification.objects.filter(ok=True).count() == streams.count()
    assert RatedGame.objects.filter(status=RatedGame.Status.RATED).count() == streams.count()
    assert Rating.objects.filter(games__gt=0).count() >= 8
    assert Result.objects.filter(status=Result.Status.CONFIRMED).count() == streams.count()
    assert Dispute.objects.filter(status=Dispute.Status.OPEN).count() == 1
    again = StringIO()
    call_command("demo", "--if-empty", stdout=again)
    assert "nothing to do" in again.getvalue()
    assert Tournament.objects.filter(name=demo.OPEN_NIGHT).count() == 1
    assert password not in again.getvalue()  # printed once
    assert Tournament.objects.count() == tournaments.count() + 1


@pytest.mark.usefixtures("small_plans")
def test_the_demo_leaves_a_night_open_whose_join_link_registers_the_demo_player() -> None:
    """On a fresh ``make run`` the organiser runs a night in the browser: 13 Couronnes, open
    for registration, eleven players entered; the demo player joins by the link it prints."""
    out = StringIO()
    call_command("demo", "--if-empty", stdout=out)
    night = Tournament.objects.get(name=demo.OPEN_NIGHT)
    assert night.status == Tournament.Status.REGISTRATION
    assert (night.game_id, night.table_allowed, night.rounds_planned) == ("13-couronnes", [3, 4], 3)
    assert night.table_mode == "paper"
    assert night.registrations.count() == demo.OPEN_NIGHT_ENTERED
    assert not night.registrations.filter(checked_in=True).exists()
    assert night.organisers.filter(username=demo.ORGANISER).exists()
    link = f"/tournaments/{night.pk}/join/{night.join_token}/"
    assert link in out.getvalue()
    player = Player.objects.get(user__username=demo.PLAYER)
    assert not night.registrations.filter(player=player).exists()
    client = Client()
    client.force_login(player.user)
    assert "Register me" in client.get(link).content.decode()
    assert client.post(link).status_code == 302
    assert night.registrations.filter(player=player).exists()
    organiser = Client()
    organiser.force_login(night.organisers.get())
    assert organiser.get(f"/tournaments/{night.pk}/console/players/").status_code == 200
