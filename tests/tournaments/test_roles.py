"""Club roles: only a club's organisers (and staff) create and run its tournaments, and a club
registers only its own members. Every forbidden path is tried through the API on a real
database, and leaves nothing written."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from events.models import Stream
from tests.api import client_for
from tests.tournaments.factories import (
    GAME,
    ClubFactory,
    UserFactory,
    make_player,
    make_tournament,
    register_players,
)
from tests.users import make_user
from tournaments import selectors, services
from tournaments.errors import NotAllowed
from tournaments.models import Club, ClubMembership, Player, Registration, Round, Tournament

pytestmark = pytest.mark.django_db


def assert_forbidden(response: Any, words: str = "") -> None:
    assert response.status_code == 403, response.content
    body = response.json()
    assert body["error"] == "forbidden"
    assert words in body["detail"]
    assert body["detail"].endswith(".")


@pytest.fixture
def other_club() -> Club:
    return ClubFactory(name="La Tour")


@pytest.fixture
def rival(other_club: Club) -> Any:
    """An organiser, but of another club."""
    user = UserFactory(username="rival")
    services.club_member_add(club=other_club, user=user, role="organiser")
    return user


@pytest.fixture
def member(club: Club) -> Any:
    """A plain member of the tournament's club (no organiser role)."""
    player = make_player(club=club, display_name="Maud Member")
    return player.user


# -- creating a tournament ---------------------------------------------------------------------
def test_a_player_cannot_create_a_tournament_with_or_without_a_club(
    club: Club, member: Any
) -> None:
    player = client_for(member)
    body = {"name": "Mine", "game": GAME}
    assert_forbidden(player.post("/api/v1/tournaments", body), "Only staff")
    assert_forbidden(
        player.post("/api/v1/tournaments", {**body, "club": club.name}),
        "Only the organisers of Les Pions",
    )
    assert_forbidden(
        player.post("/api/v1/tournaments", {**body, "club": "My Own Club"}), "no club called"
    )
    assert not Tournament.objects.exists()
    assert not Club.objects.filter(name="My Own Club").exists()  # no club made on the way


def test_an_organiser_creates_for_their_club_only(organiser: Any, other_club: Club) -> None:
    api = client_for(organiser)
    refused = api.post("/api/v1/tournaments", {"name": "X", "game": GAME, "club": "La Tour"})
    assert_forbidden(refused, "Only the organisers of La Tour")
    created = api.post("/api/v1/tournaments", {"name": "X", "game": GAME, "club": "Les Pions"})
    assert created.status_code == 201, created.content
    assert Tournament.objects.get().club.name == "Les Pions"


def test_staff_create_tournaments_for_any_club_or_none(db: None) -> None:
    staff = client_for(UserFactory(username="staff", is_staff=True))
    for extra in ({}, {"club": "Brand New Club"}):
        response = staff.post("/api/v1/tournaments", {"name": "Open", "game": GAME, **extra})
        assert response.status_code == 201, response.content
    assert Club.objects.filter(name="Brand New Club").exists()


# -- running one -------------------------------------------------------------------------------
def test_being_listed_as_organiser_is_not_enough_without_the_club_role(
    tournament: Tournament, organiser: Any, club: Club
) -> None:
    """A tournament made before the roles existed, or an organiser who lost the role."""
    register_players(tournament, 8)
    services.club_member_add(club=club, user=organiser, role="member")
    assert tournament.organisers.filter(pk=organiser.pk).exists()
    api = client_for(organiser)
    assert_forbidden(api.post(f"/api/v1/tournaments/{tournament.pk}/rounds", {}), "Les Pions")
    assert not tournament.rounds.exists()


def test_another_clubs_organiser_cannot_run_the_tournament(
    tournament: Tournament, rival: Any
) -> None:
    regs = register_players(tournament, 8)
    api = client_for(rival)
    base = f"/api/v1/tournaments/{tournament.pk}"
    assert_forbidden(
        api.post(f"{base}/rounds", {}),
        "Only the organisers of Les Pions (or staff) may pair rounds",
    )
    assert_forbidden(api.post(f"{base}/registrations", {"username": "newbie", "display_name": "N"}))
    csv_text = "display_name,username\nNew,newbie\n"
    assert_forbidden(api.post(f"{base}/registrations/import", {"csv": csv_text}))
    assert_forbidden(api.patch(base, {"name": "Taken"}))
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    assert_forbidden(api.post(f"/api/v1/rounds/{round_.pk}/release"))
    table = round_.tables.filter(is_bye=False).first()
    assert table is not None
    url = f"/api/v1/tables/{table.pk}/results"
    assert_forbidden(api.post(url, {"ranks": [1, 2, 3, 4], "decide": True}))
    assert Round.objects.get(pk=round_.pk).state == Round.State.CONFIRMED
    assert not table.results.exists()
    assert tournament.registrations.count() == len(regs)
    assert not get_user_model().objects.filter(username="newbie").exists()
    assert Tournament.objects.get(pk=tournament.pk).name == tournament.name


def test_a_player_cannot_release_a_round_and_open_its_game_streams(
    tournament: Tournament,
) -> None:
    regs = register_players(tournament, 8)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    player = client_for(regs[0].player.user)
    assert_forbidden(player.post(f"/api/v1/rounds/{round_.pk}/release"), "Only the organisers")
    assert not Stream.objects.exists()
    assert not round_.tables.exclude(stream_id=None).exists()


def test_the_services_check_the_user_they_are_given(tournament: Tournament, rival: Any) -> None:
    """Not only the API: a service told who acts refuses a user who does not run it."""
    register_players(tournament, 8)
    with pytest.raises(NotAllowed):
        services.round_pair_next(tournament=tournament, by=rival)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    with pytest.raises(NotAllowed):
        services.round_release(round_=round_, by=rival)
    with pytest.raises(NotAllowed):
        services.result_enter(table=round_.tables.first(), by=rival, ranks=[1, 2, 3, 4])
    with pytest.raises(NotAllowed):
        services.players_import_csv(tournament=tournament, text="x", by=rival)
    with pytest.raises(NotAllowed):
        services.registration_create(tournament=tournament, player=make_player(), by=rival)


def test_an_arbiter_rules_on_a_result_without_running_the_tournament(
    tournament: Tournament,
) -> None:
    register_players(tournament, 4)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    arbiter = make_user("judge", groups=(selectors.ARBITERS,))
    result = services.result_enter(table=round_.tables.get(), by=arbiter, ranks=[2, 1, 3, 4])
    assert result.decided_by == arbiter


# -- registering existing accounts -------------------------------------------------------------
def test_an_organiser_cannot_register_another_clubs_player_or_the_admin(
    tournament: Tournament, organiser: Any, other_club: Club
) -> None:
    theirs = make_player(club=other_club, display_name="Théo of La Tour")
    admin = get_user_model().objects.create_superuser("root", password="x")
    api = client_for(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/registrations"
    for username in (theirs.user.username, "root"):
        response = api.post(url, {"username": username, "display_name": "Renamed"})
        assert_forbidden(response, "is not a member of Les Pions")
    assert not tournament.registrations.exists()
    assert Player.objects.get(pk=theirs.pk).display_name == "Théo of La Tour"
    assert not Player.objects.filter(user=admin).exists()  # no profile made for the admin
    assert not ClubMembership.objects.filter(club=tournament.club, user=theirs.user).exists()


def test_an_organiser_registers_a_member_without_renaming_them(
    tournament: Tournament, organiser: Any, member: Any
) -> None:
    url = f"/api/v1/tournaments/{tournament.pk}/registrations"
    response = client_for(organiser).post(url, {"username": member.username, "display_name": "X"})
    assert response.status_code == 201, response.content
    assert response.json()["name"] == "Maud Member"
    assert Player.objects.get(user=member).display_name == "Maud Member"


def test_an_organiser_registers_themself_in_their_clubs_tournament_only(
    tournament: Tournament, organiser: Any
) -> None:
    staff_made = make_tournament(organiser=UserFactory(is_staff=True), club=None, name="Open")
    api = client_for(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/registrations"
    response = api.post(url, {"username": "organiser", "display_name": "Org"})
    assert response.status_code == 201, response.content
    assert response.json()["name"] == "Org"  # a profile made for an account that had none
    refused = api.post(
        f"/api/v1/tournaments/{staff_made.pk}/registrations", {"username": "organiser"}
    )
    assert_forbidden(refused, "Only staff may register players: Open has no club.")


def test_new_players_join_the_club_but_not_under_another_clubs_name(
    tournament: Tournament, organiser: Any, other_club: Club
) -> None:
    api = client_for(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/registrations"
    refused = api.post(url, {"username": "spy", "display_name": "Spy", "club": "La Tour"})
    assert_forbidden(refused, "La Tour is another club")
    assert not get_user_model().objects.filter(username="spy").exists()
    made = api.post(url, {"username": "newbie", "display_name": "New", "club": "Far Away"})
    assert made.status_code == 201, made.content
    user = get_user_model().objects.get(username="newbie")
    clubs = set(ClubMembership.objects.filter(user=user).values_list("club__name", "role"))
    assert clubs == {("Les Pions", "member"), ("Far Away", "member")}


def test_an_import_names_every_account_of_another_club_and_writes_nothing(
    tournament: Tournament, organiser: Any, member: Any, other_club: Club
) -> None:
    theirs = make_player(club=other_club, display_name="Théo of La Tour")
    get_user_model().objects.create_superuser("root", password="x")
    text = (
        "display_name,username,email,club,seed\n"
        f"Maud again,{member.username},,,\n"
        f"Mine now,{theirs.user.username},,,\n"
        "Fresh,fresh,,,\n"
        "Admin,root,,,\n"
    )
    url = f"/api/v1/tournaments/{tournament.pk}/registrations/import"
    response = client_for(organiser).post(url, {"csv": text})
    assert response.status_code == 400, response.content
    lines = response.json()["lines"]
    assert [line.split(":")[0] for line in lines] == ["line 3", "line 5"]
    assert "is not a member of Les Pions" in lines[0]
    assert not Registration.objects.exists()
    assert not get_user_model().objects.filter(username="fresh").exists()
    assert Player.objects.get(pk=theirs.pk).display_name == "Théo of La Tour"
    foreign = text.replace(f"Mine now,{theirs.user.username},,,\n", "").replace(
        "Admin,root,,,\n", ""
    )
    response = client_for(organiser).post(url, {"csv": foreign + "Spy,spy,,La Tour,\n"})
    assert response.status_code == 400
    assert "La Tour is another club" in response.json()["detail"]
    response = client_for(organiser).post(url, {"csv": foreign})
    assert response.status_code == 201, response.content
    assert [r["name"] for r in response.json()] == ["Maud Member", "Fresh"]  # Maud keeps her name


# -- the admin ---------------------------------------------------------------------------------
def test_staff_name_organisers_in_the_admin(club: Club, member: Any) -> None:
    admin = Client()
    admin.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    membership = ClubMembership.objects.get(club=club, user=member)
    page = admin.get(f"/admin/tournaments/club/{club.pk}/change/")
    assert page.status_code == 200
    assert b"Organiser" in page.content
    changed = admin.post(
        f"/admin/tournaments/clubmembership/{membership.pk}/change/",
        {"club": club.pk, "user": member.pk, "role": "organiser"},
    )
    assert changed.status_code == 302, changed.content
    assert selectors.user_organises_club(member, club)
