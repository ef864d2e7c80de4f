"""Self sign-up to a club (off by default) and the arbiters group's admin permissions."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client

from herald.roles import ARBITERS
from tests.tournaments.factories import ClubFactory
from tournaments import services
from tournaments.errors import NotAllowed
from tournaments.models import Club, ClubMembership, Player

pytestmark = pytest.mark.django_db

User = get_user_model()
GOOD = "a-good-long-password-31"


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def club(db: None) -> Club:
    return ClubFactory(name="Le Tripot")


def join_url(club: Club) -> str:
    return f"/clubs/{club.pk}/join/"


def form(**fields: str) -> dict[str, str]:
    base = {
        "username": "gil",
        "display_name": "Gilles Martin",
        "email": "gil@example.org",
        "password1": GOOD,
        "password2": GOOD,
    }
    return {**base, **fields}


def test_a_club_takes_no_sign_ups_by_default(club: Club) -> None:
    assert Club._meta.get_field("allow_signup").default is False
    for response in (Client().get(join_url(club)), Client().post(join_url(club), form())):
        assert response.status_code == 404
        assert b"Le Tripot does not take sign-ups" in response.content
    assert not User.objects.filter(username="gil").exists()
    assert Client().get("/clubs/999999/join/").status_code == 404


def test_the_service_refuses_a_closed_club_too(club: Club) -> None:
    with pytest.raises(NotAllowed, match="does not take sign-ups"):
        services.club_signup(club=club, username="gil", display_name="Gil", password=GOOD)
    assert not User.objects.filter(username="gil").exists()


def test_signing_up_makes_the_account_the_player_and_the_membership(club: Club) -> None:
    club.allow_signup = True
    club.save()
    client = Client()
    page = client.get(join_url(club))
    assert page.status_code == 200
    assert b"Join Le Tripot" in page.content
    response = client.post(join_url(club), form())
    assert response.status_code == 302
    assert response["Location"] == "/me/"
    assert b"Signed in as gil" in client.get("/me/").content
    player = Player.objects.select_related("user").get(user__username="gil")
    assert (player.display_name, player.club, player.user.email) == (
        "Gilles Martin",
        club,
        "gil@example.org",
    )
    assert player.user.check_password(GOOD)
    membership = ClubMembership.objects.get(user=player.user)
    assert (membership.club, membership.role) == (club, "member")
    assert not player.user.is_staff


@pytest.mark.parametrize(
    ("fields", "sentence"),
    [
        ({"password1": "123", "password2": "123"}, b"too short"),
        ({"password2": "something-else-entirely"}, b"didn\xe2\x80\x99t match"),
        ({"display_name": ""}, b"This field is required"),
        ({"username": "taken"}, b"already exists"),
        ({"username": "bad name!"}, b"Enter a valid username"),
        ({"email": "not-mail"}, b"valid email"),
    ],
)
def test_bad_sign_ups_are_a_400_with_a_sentence_and_write_nothing(
    club: Club, fields: dict[str, str], sentence: bytes
) -> None:
    club.allow_signup = True
    club.save()
    User.objects.create_user("taken")
    before = (User.objects.count(), Player.objects.count(), ClubMembership.objects.count())
    response = Client().post(join_url(club), form(**fields))
    assert response.status_code == 400
    assert sentence in response.content, response.content.decode()[:3000]
    after = (User.objects.count(), Player.objects.count(), ClubMembership.objects.count())
    assert after == before


def test_the_arbiters_group_holds_the_admin_permissions_it_needs() -> None:
    group = Group.objects.get(name=ARBITERS)
    codenames = set(group.permissions.values_list("content_type__app_label", "codename"))
    for needed in [
        ("events", "view_stream"),
        ("events", "view_event"),
        ("ratings", "view_verification"),
        ("ratings", "view_rating"),
        ("ratings", "view_dispute"),
        ("ratings", "change_dispute"),
    ]:
        assert needed in codenames
    assert not any(code.startswith(("delete_", "add_")) for _, code in codenames)
    assert not any(app == "auth" for app, _ in codenames)
