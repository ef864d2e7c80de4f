"""``manage.py demo``: tournaments played to the end by bots, verified and rated, once."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

import engine
from events.models import Stream, StreamStatus
from herald import demo
from ratings.models import Dispute, RatedGame, Rating, Verification
from tournaments.models import Result, Tournament

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
    tournaments = Tournament.objects.all()
    assert {t.game_id for t in tournaments} == {game.id for game in engine.games()}
    assert all(t.status == Tournament.Status.FINISHED for t in tournaments)
    open_games = Stream.objects.filter(status=StreamStatus.LIVE)
    assert sorted(stream.game for stream in open_games) == sorted(g.id for g in engine.games())
    for stream in open_games:  # to try in two browsers: the accounts that log in, seated
        seated = set(stream.seats.values_list("user__username", flat=True))
        assert (
            {demo.PLAYER, demo.ORGANISER} <= seated <= {demo.PLAYER, demo.ORGANISER, demo.ARBITER}
        )
        assert stream.public
        assert stream.version == 1
    streams = Stream.objects.exclude(pk__in=open_games)
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
    assert password not in again.getvalue()  # printed once
    assert Tournament.objects.count() == tournaments.count()
