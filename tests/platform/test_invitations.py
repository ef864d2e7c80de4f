"""Invitations (issue #14): a player an organiser registers or imports claims the account.

The services make the links (digest stored, never the token); the claim page sets a password
once; the organisers' sheet prints fresh links with their QR codes and voids the old ones.
Through Django's test client on the real database.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
import segno
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.utils import timezone

from herald.invitations import invitation_create, token_digest
from herald.models import Invitation
from tests.tournaments.factories import ClubFactory, UserFactory, make_tournament
from tournaments import services
from tournaments.models import Club, Tournament

pytestmark = pytest.mark.django_db

User = get_user_model()
GOOD = "tables-and-crowns-2026"


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def club(db: None) -> Club:
    return ClubFactory(name="Les Pions")


@pytest.fixture
def organiser(club: Club) -> Any:
    user = UserFactory(username="orga")
    services.club_member_add(club=club, user=user, role="organiser")
    return user


@pytest.fixture
def tournament(organiser: Any, club: Club) -> Tournament:
    return make_tournament(organiser=organiser, club=club, name="Jeudi")


def claim_url(token: str) -> str:
    return f"/accounts/invite/{token}/"


def sheet_url(tournament: Tournament) -> str:
    return f"/tournaments/{tournament.pk}/invitations/"


def as_user(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def printed_links(page: Any) -> dict[str, str]:
    """Username → the claim path printed on the sheet for them (cards without one left out)."""
    links = {}
    for card in page.content.decode().split('<section class="invitation-card')[1:]:
        username = re.search(r"<strong>([^<]+)</strong>", card).group(1)
        link = re.search(r'href="http://testserver(/accounts/invite/[^"]+/)"', card)
        if link:
            links[username] = link.group(1)
    return links


# -- made by the services where players are made ----------------------------------------------


def test_registering_a_new_player_makes_an_invitation_stored_as_a_digest(
    tournament: Tournament, organiser: Any
) -> None:
    reg = services.registration_enter(
        tournament=tournament, by=organiser, username="cam", display_name="Camille"
    )
    user = reg.player.user
    assert not user.has_usable_password()
    invitation = Invitation.objects.get(user=user)
    assert invitation.created_by == organiser
    assert invitation.used_at is None
    assert invitation.voided_at is None
    days = (invitation.expires_at - invitation.created_at).days
    assert 29 <= days <= 30
    assert re.fullmatch(r"[0-9a-f]{64}", invitation.digest)


def test_the_database_never_holds_the_token(tournament: Tournament, organiser: Any) -> None:
    user = services.player_create(username="dom", display_name="Dom").user
    issued = invitation_create(user=user, by=organiser)
    assert Invitation.objects.get(pk=issued.invitation.pk).digest == token_digest(issued.token)
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM herald_invitation")
        rows = cursor.fetchall()
    assert issued.token not in repr(rows)


def test_a_csv_import_makes_one_invitation_per_new_account_in_bulk(
    tournament: Tournament, organiser: Any
) -> None:
    existing = User.objects.create_user("old", password=GOOD)
    services.player_for_user(user=existing)
    services.club_member_add(club=tournament.club, user=existing)
    text = (
        "display_name,username,email,club,seed\n"
        + "".join(f"Player {i},p{i},,,\n" for i in range(5))
        + "Old Hand,old,,,\n"
    )
    services.players_import_csv(tournament=tournament, text=text, by=organiser)
    invited = set(Invitation.objects.values_list("user__username", flat=True))
    assert invited == {f"p{i}" for i in range(5)}  # not the account that was already there
    assert set(Invitation.objects.values_list("created_by", flat=True)) == {organiser.pk}


def test_a_self_made_account_gets_no_invitation(club: Club) -> None:
    club.allow_signup = True
    club.save()
    player = services.club_signup(club=club, username="eve", display_name="Eve", password=GOOD)
    assert not Invitation.objects.filter(user=player.user).exists()


# -- claiming -------------------------------------------------------------------------------


@pytest.fixture
def invited(tournament: Tournament, organiser: Any) -> tuple[Any, str]:
    reg = services.registration_enter(
        tournament=tournament, by=organiser, username="fanny", display_name="Fanny Durand"
    )
    issued = invitation_create(user=reg.player.user, by=organiser)
    return reg.player.user, issued.token


def test_the_claim_page_shows_the_username_and_sets_a_password(invited: tuple[Any, str]) -> None:
    user, token = invited
    client = Client()
    page = client.get(claim_url(token))
    assert page.status_code == 200
    assert b"fanny" in page.content
    assert b"Fanny Durand" in page.content
    assert page["Referrer-Policy"] == "same-origin"
    done = client.post(claim_url(token), {"new_password1": GOOD, "new_password2": GOOD})
    assert done.status_code == 302
    assert done["Location"] == "/me/"
    assert client.get("/me/").status_code == 200  # logged in
    user.refresh_from_db()
    assert user.check_password(GOOD)
    assert Invitation.objects.get(digest=token_digest(token)).used_at is not None
    assert Client().login(username="fanny", password=GOOD)


def test_a_weak_password_is_refused_by_the_validators_and_the_link_stays(
    invited: tuple[Any, str],
) -> None:
    user, token = invited
    page = Client().post(claim_url(token), {"new_password1": "123", "new_password2": "123"})
    assert page.status_code == 400
    assert b"too short" in page.content
    assert b"entirely numeric" in page.content
    user.refresh_from_db()
    assert not user.has_usable_password()
    assert Client().get(claim_url(token)).status_code == 200


def test_a_link_works_once(invited: tuple[Any, str]) -> None:
    _, token = invited
    Client().post(claim_url(token), {"new_password1": GOOD, "new_password2": GOOD})
    again = Client().post(
        claim_url(token), {"new_password1": "x" + GOOD, "new_password2": "x" + GOOD}
    )
    assert again.status_code == 410
    assert b"already used" in again.content
    assert Client().login(username="fanny", password=GOOD)  # the second try changed nothing


@pytest.mark.parametrize(
    ("spoil", "sentence"),
    [
        ("expire", b"has expired"),
        ("void", b"replaced by a newer one"),
        ("password", b"already has a password"),
        ("unknown", b"not valid"),
    ],
)
def test_an_unusable_link_is_a_4xx_page_with_a_sentence(
    invited: tuple[Any, str], spoil: str, sentence: bytes
) -> None:
    user, token = invited
    if spoil == "expire":
        Invitation.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    elif spoil == "void":
        invitation_create(user=user)
    elif spoil == "password":
        user.set_password(GOOD)
        user.save()
    else:
        token = token[:-3] + "xyz"
    for response in (
        Client().get(claim_url(token)),
        Client().post(claim_url(token), {"new_password1": GOOD, "new_password2": GOOD}),
    ):
        assert response.status_code == 410
        assert sentence in response.content
        assert b"<h1>" in response.content  # the site's page, not a blank answer
    user.refresh_from_db()
    assert user.has_usable_password() == (spoil == "password")


def test_a_silly_token_is_refused_without_a_500() -> None:
    for token in ["a" * 300, "%00", "..%2F"]:
        assert Client().get(claim_url(token)).status_code in {404, 410}


# -- the organisers' sheet ----------------------------------------------------------------------


@pytest.fixture
def three(tournament: Tournament, organiser: Any) -> list[Any]:
    text = "display_name,username,email,club,seed\n" + "".join(
        f"Joueur {i},j{i},,,\n" for i in range(3)
    )
    return [
        reg.player.user
        for reg in services.players_import_csv(tournament=tournament, text=text, by=organiser)
    ]


def test_the_sheet_is_for_the_clubs_organisers_and_staff(
    tournament: Tournament, three: list[Any]
) -> None:
    anonymous = Client().get(sheet_url(tournament))
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/accounts/login/")
    player = as_user(three[0]).get(sheet_url(tournament))
    assert player.status_code == 403
    assert b"Only the organisers" in player.content
    elsewhere = UserFactory(username="other-orga")
    services.club_member_add(club=ClubFactory(name="Ailleurs"), user=elsewhere, role="organiser")
    assert as_user(elsewhere).post(sheet_url(tournament), {"action": "print"}).status_code == 403
    assert Invitation.objects.filter(voided_at__isnull=False).count() == 0  # nothing reissued
    staff = User.objects.create_user("staffer", is_staff=True)
    assert as_user(staff).get(sheet_url(tournament)).status_code == 200


def test_looking_at_the_sheet_prints_no_link_and_changes_nothing(
    tournament: Tournament, organiser: Any, three: list[Any]
) -> None:
    page = as_user(organiser).get(sheet_url(tournament))
    assert page.status_code == 200
    assert b"Joueur 0" in page.content
    assert b"/accounts/invite/" not in page.content
    assert b"Not claimed yet" in page.content
    assert Invitation.objects.filter(voided_at=None).count() == 3


def test_printing_makes_fresh_links_with_qr_codes_and_voids_the_old_ones(
    tournament: Tournament, organiser: Any, three: list[Any]
) -> None:
    old = {i.user_id: i.pk for i in Invitation.objects.all()}
    client = as_user(organiser)
    first = client.post(sheet_url(tournament), {"action": "print"})
    assert first.status_code == 200
    links = printed_links(first)
    assert set(links) == {"j0", "j1", "j2"}
    text = first.content.decode()
    qrs = re.findall(r'<img class="qr" src="(data:image/svg\+xml[^"]+)"', text)
    assert len(qrs) == 3
    assert segno.make(f"http://testserver{links['j0']}", error="m").svg_data_uri(
        scale=4, border=2
    ) in {q.replace("&amp;", "&").replace("&#x27;", "'") for q in qrs}
    assert Invitation.objects.filter(pk__in=old.values(), voided_at__isnull=False).count() == 3
    second = client.post(sheet_url(tournament), {"action": "print"})
    fresh = printed_links(second)
    assert Client().get(links["j0"]).status_code == 410  # the first print's link is void now
    claim = Client().post(fresh["j0"], {"new_password1": GOOD, "new_password2": GOOD})
    assert claim.status_code == 302
    third = client.post(sheet_url(tournament), {"action": "print"})
    assert set(printed_links(third)) == {"j1", "j2"}  # a claimed account gets no new link
    assert b"Claimed on" in third.content


def test_reissue_makes_one_players_link_only(
    tournament: Tournament, organiser: Any, three: list[Any]
) -> None:
    target = three[1]
    page = as_user(organiser).post(sheet_url(tournament), {"action": "reissue", "user": target.pk})
    assert page.status_code == 200
    assert set(printed_links(page)) == {"j1"}
    assert Invitation.objects.filter(voided_at=None, used_at=None).count() == 3
    assert Invitation.objects.filter(user=target, voided_at__isnull=False).count() == 1
    outsider = User.objects.create_user("outsider")
    invitation_create(user=outsider)
    nobody = as_user(organiser).post(
        sheet_url(tournament), {"action": "reissue", "user": outsider.pk}
    )
    assert printed_links(nobody) == {}  # not a player of this tournament: left alone
    assert Invitation.objects.get(user=outsider).voided_at is None
    junk = as_user(organiser).post(sheet_url(tournament), {"action": "reissue", "user": "x"})
    assert junk.status_code == 200
    assert printed_links(junk) == {}


def test_the_pairings_sheet_links_organisers_to_the_invitations(
    tournament: Tournament, organiser: Any, three: list[Any]
) -> None:
    for user in three:
        services.registration_check_in(registration=tournament.registrations.get(player__user=user))
    more = "display_name,username,email,club,seed\nJoueur 3,j3,,,\n"
    for reg in services.players_import_csv(tournament=tournament, text=more, by=organiser):
        services.registration_check_in(registration=reg)
    services.round_pair_next(tournament=tournament, by=organiser)
    url = f"/tournaments/{tournament.pk}/pairings/1/"
    assert sheet_url(tournament).encode() in as_user(organiser).get(url).content
    assert sheet_url(tournament).encode() not in Client().get(url).content


def test_fresh_links_can_be_mailed_to_players_with_an_address(
    tournament: Tournament, organiser: Any, settings: Any
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    text = "display_name,username,email,club,seed\nAnne,anne,anne@example.org,,\nBen,ben,,,\n"
    services.players_import_csv(tournament=tournament, text=text, by=organiser)
    anne_old = Invitation.objects.get(user__username="anne")
    page = as_user(organiser).post(sheet_url(tournament), {"action": "email"})
    assert page.status_code == 200
    assert b"1 invitation e-mailed" in page.content
    assert b"1 unclaimed player has no e-mail address" in page.content
    assert printed_links(page) == {}  # mailed, not shown
    assert [m.to for m in mail.outbox] == [["anne@example.org"]]
    body = mail.outbox[0].body
    assert mail.outbox[0].subject == "Your Herald account is waiting for you"
    assert "Your username is anne." in body
    link = re.search(r"http://testserver(/accounts/invite/\S+/)", body).group(1)
    anne_old.refresh_from_db()
    assert anne_old.voided_at is not None  # the mailed link replaces the older one
    claim = Client().post(link, {"new_password1": GOOD, "new_password2": GOOD})
    assert claim.status_code == 302
    player = as_user(UserFactory(username="nobody")).post(
        sheet_url(tournament), {"action": "email"}
    )
    assert player.status_code == 403
    assert len(mail.outbox) == 1
