"""The demo accounts open what README.md promises them, and a player is refused the rest.

The demo is run in the test database (a smaller night, the same code path as
``manage.py demo``); each account logs in through the site's login page with the password the
demo generated, then opens its pages over Django's test client.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

import engine
from events.models import Stream
from herald import demo
from ratings.models import Dispute
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo_night(monkeypatch: pytest.MonkeyPatch, settings: Any) -> dict[str, Any]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    small = {game.id: demo.DemoPlan(players=8, rounds=1) for game in engine.games()}
    small["13-couronnes"] = demo.DemoPlan(players=8, rounds=1, options={"max_turns": 4})
    monkeypatch.setattr(demo, "PLANS", small)
    return demo.demo_populate(say=lambda _: None)


def logged_in(username: str, password: str) -> Client:
    client = Client()
    response = client.post("/accounts/login/", {"username": username, "password": password})
    assert response.status_code == 302, f"{username} could not log in"
    assert response["Location"] == "/me/"
    return client


def opens(client: Client, url: str, *expected: bytes) -> None:
    response = client.get(url)
    assert response.status_code == 200, f"{url}: {response.status_code}"
    for text in expected:
        assert text in response.content, f"{url} lacks {text!r}"


def refused(client: Client, url: str) -> None:
    response = client.get(url)
    if url.startswith("/admin/"):  # the admin sends non-staff to its own login page
        assert response.status_code == 302, f"{url}: {response.status_code}"
        assert response["Location"].startswith("/admin/login/")
    else:
        assert response.status_code in {403, 404}, f"{url}: {response.status_code}"


def test_each_demo_account_opens_what_the_readme_promises(demo_night: dict[str, Any]) -> None:
    password = demo_night["password"]
    assert password
    assert demo_night["fresh"] == ["admin", "arbiter", "organiser", "player", "player2"]
    tournament = Tournament.objects.order_by("pk").first()
    stream = Stream.objects.order_by("created_at").first()
    dispute = Dispute.objects.get()
    invitations = f"/tournaments/{tournament.pk}/invitations/"
    arbiter_pages = [
        ("/admin/", b"Game streams"),
        ("/admin/events/stream/", b"Select game stream to view"),
        (f"/admin/events/stream/{stream.pk}/change/", b"hash"),
        (f"/admin/events/stream/{stream.pk}/replay/?at=1", b"event"),
        ("/admin/events/event/", b"event"),
        ("/admin/ratings/dispute/", b"dispute"),
        (f"/admin/ratings/dispute/{dispute.pk}/change/", b"Rule on this dispute"),
        (f"/admin/ratings/dispute/{dispute.pk}/ruling/", b"ruling"),
        ("/admin/ratings/verification/", b"verification"),
        ("/admin/ratings/rating/", b"rating"),
    ]

    admin = logged_in("admin", password)
    opens(admin, "/me/", b"admin")
    for url, text in arbiter_pages:
        opens(admin, url, text)
    opens(admin, "/admin/auth/user/", b"organiser")
    opens(admin, invitations, b"Demo Player")

    arbiter = logged_in("arbiter", password)
    opens(arbiter, "/me/", b"arbiter")
    for url, text in arbiter_pages:
        opens(arbiter, url, text)
    assert b"have permission to view or edit anything" not in arbiter.get("/admin/").content
    assert arbiter.get("/admin/auth/user/").status_code == 403  # people are staff's business

    organiser = logged_in("organiser", password)
    opens(organiser, "/me/", b"organiser")
    opens(organiser, invitations, b"Demo Player", b"Random bot 06")
    opens(organiser, f"/tournaments/{tournament.pk}/pairings/1/", invitations.encode())
    refused(organiser, "/admin/")
    night = {"name": "Next Thursday", "game": "blazon", "club": demo.CLUB, "rounds_planned": 3}
    made = organiser.post("/api/v1/tournaments", night, content_type="application/json")
    assert made.status_code == 201, made.content  # runs the club's tournaments

    player = logged_in("player", password)
    opens(player, "/me/", b"player")
    opens(player, f"/tournaments/{tournament.pk}/standings/", b"Demo Player")
    refused(player, invitations)
    night = {"name": "Mine", "game": "blazon", "club": demo.CLUB}
    assert (
        player.post("/api/v1/tournaments", night, content_type="application/json").status_code
        == 403
    )
    for url, _ in arbiter_pages:
        refused(player, url)


def test_the_demo_player_sits_in_every_demo_tournament(demo_night: dict[str, Any]) -> None:
    player = demo_night["player"]
    for tournament in demo_night["tournaments"]:
        assert tournament.registrations.filter(player__user=player).exists(), tournament.name
    assert not demo_night["organiser"].is_staff
    assert demo_night["arbiter"].is_staff
    assert demo_night["arbiter"].groups.filter(name="arbiters").exists()
