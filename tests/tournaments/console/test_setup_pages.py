"""The setup part's pages over the test client: creating a tournament from the game's
defaults, its settings, registration, the join link, check-in. Organisers get the pages,
members a 403 sentence, visitors the login page; bad input is a 4xx sentence and nothing is
written."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from play.services import house_bots_ensure
from tests.tournaments.factories import PlayerFactory, UserFactory, register_players
from tournaments import services
from tournaments.errors import NotAllowed
from tournaments.models import Club, Registration, Tournament

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def member(club: Club) -> Any:
    user = UserFactory(username="member")
    services.club_member_add(club=club, user=user)
    PlayerFactory(user=user, club=club, display_name="Mia Member")
    return user


def create_form(**changes: Any) -> dict[str, Any]:
    """What the create form posts for 13 Couronnes with its defaults (tables of 3, 4, 5)."""
    data: dict[str, Any] = {
        "name": "Jeudi des Couronnes",
        "game": "13-couronnes",
        "format": "swiss",
        "table_allowed": ["3", "4"],
        "table_preferred": "4",
        "points_1": "3",
        "points_2": "2",
        "points_3": "1",
        "points_4": "0",
        "tiebreaker_1": "game_score",
        "tiebreaker_2": "opponents_points",
        "rounds_planned": "3",
        "bye_points": "2",
        "late_entry_award": "half_bye",
        "spectator_delay": "0",
        "dispute_window_minutes": "30",
        "option_max_turns": "150",
        "player_cap": "",
        "check_in_opens_at": "",
        "check_in_closes_at": "",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


# -- creating --------------------------------------------------------------------------------
def test_step_one_chooses_the_game_and_step_two_starts_from_its_defaults(
    organiser: Any, club: Club
) -> None:
    client = signed_in(organiser)
    first = client.get("/tournaments/new/").content.decode()
    assert 'name="game"' in first
    assert 'name="points_1"' not in first
    second = client.get(f"/tournaments/new/?game=blazon&club={club.pk}&format=swiss")
    page = second.content.decode()
    assert second.status_code == 200
    # Blazon: 2 to 4 players, tables of 3, 4 allowed; 4th place earns 0.
    assert 'name="table_allowed" value="3"' in page
    assert 'name="points_4"' in page
    assert 'name="points_5"' not in page
    assert 'name="option_abatement"' in page
    assert "JSON" not in page
    # A link naming only the game (the club and format are the only choices) works too.
    assert client.get("/tournaments/new/?game=les-7-blasons").status_code == 200


def test_the_organiser_creates_a_tournament_from_the_form(organiser: Any, club: Club) -> None:
    client = signed_in(organiser)
    response = client.post("/tournaments/new/", create_form(club=club.pk))
    assert response.status_code == 302
    made = Tournament.objects.get(name="Jeudi des Couronnes")
    assert response["Location"] == f"/tournaments/{made.pk}/console/"
    assert made.table_allowed == [3, 4]
    assert made.points_by_rank == [3, 2, 1, 0]
    assert made.tiebreakers == ["game_score", "opponents_points"]
    assert made.late_entry_award == "half_bye"
    assert made.options["max_turns"] == 150
    assert made.club == club
    assert made.table_mode == "herald"  # the default when the form says nothing


def test_a_night_with_physical_cards_is_created_and_moved_to_herald_from_its_settings(
    organiser: Any, club: Club
) -> None:
    client = signed_in(organiser)
    form = client.get("/tournaments/new/?game=13-couronnes&format=swiss").content.decode()
    assert 'name="table_mode" value="paper"' in form
    assert 'name="table_mode" value="herald" required id="id_table_mode_0" checked' in form or (
        'value="herald"' in form and "checked" in form
    )
    assert (
        client.post("/tournaments/new/", create_form(club=club.pk, table_mode="paper")).status_code
        == 302
    )
    made = Tournament.objects.get(name="Jeudi des Couronnes")
    assert made.table_mode == "paper"
    register_players(made, 8)
    draft = services.round_pair_next(tournament=made, by=organiser)
    assert all(t.on_paper for t in draft.tables.filter(is_bye=False))
    url = f"/tournaments/{made.pk}/console/settings/"
    assert 'value="paper" id="id_table_mode_1" checked' in client.get(url).content.decode() or (
        client.get(url).context["form"]["table_mode"].value() == "paper"
    )
    assert client.post(url, create_form(table_mode="herald")).status_code == 302
    made.refresh_from_db()
    assert made.table_mode == "herald"
    # the draft not yet published follows: its tables play on Herald now
    assert not any(t.on_paper for t in draft.tables.filter(is_bye=False))
    refused = client.post(url, create_form(table_mode="carrier-pigeon"))
    assert refused.status_code == 400


def test_a_refill_post_starts_again_from_the_new_games_defaults(organiser: Any, club: Club) -> None:
    client = signed_in(organiser)
    data = create_form(club=club.pk, game="les-7-blasons", refill="1")
    response = client.post("/tournaments/new/", data)
    page = response.content.decode()
    assert response.status_code == 200
    assert 'name="points_7"' in page  # Les 7 Blasons seats up to 7
    assert 'value="Jeudi des Couronnes"' in page  # the name typed is kept
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("changes", "sentence"),
    [
        ({"table_preferred": "5"}, "must be one of the allowed sizes"),
        ({"points_1": "", "points_2": "2"}, "This field is required"),
        ({"points_1": "1", "points_2": "3"}, "must not grow with the rank"),
        ({"tiebreaker_2": "game_score"}, "chosen twice"),
        ({"option_max_turns": "0"}, "greater than or equal to 1"),
        ({"table_allowed": ["9"]}, "Select a valid choice"),
    ],
)
def test_bad_settings_are_refused_with_a_sentence_and_nothing_is_made(
    organiser: Any, club: Club, changes: dict[str, Any], sentence: str
) -> None:
    response = signed_in(organiser).post("/tournaments/new/", create_form(club=club.pk, **changes))
    assert response.status_code == 400
    assert sentence in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_member_may_not_create_and_a_visitor_logs_in(member: Any, club: Club) -> None:
    response = signed_in(member).post("/tournaments/new/", create_form(club=club.pk))
    assert response.status_code == 403
    assert "organisers" in response.content.decode()
    assert Client().get("/tournaments/new/").status_code == 302
    assert not Tournament.objects.exists()


def test_another_clubs_organiser_may_not_create_for_this_club(club: Club) -> None:
    other = UserFactory(username="other")
    services.club_member_add(
        club=Club.objects.create(name="Ailleurs"), user=other, role="organiser"
    )
    response = signed_in(other).post("/tournaments/new/", create_form(club=club.pk))
    assert response.status_code == 400  # the club is not one of theirs to choose
    assert not Tournament.objects.exists()


def test_the_index_and_the_club_page_link_the_create_form_for_organisers(
    organiser: Any, member: Any, club: Club
) -> None:
    link = 'href="/tournaments/new/'
    assert link in signed_in(organiser).get("/tournaments/").content.decode()
    assert link in signed_in(organiser).get(f"/clubs/{club.pk}/").content.decode()
    assert link not in signed_in(member).get("/tournaments/").content.decode()
    assert link not in Client().get(f"/clubs/{club.pk}/").content.decode()


# -- settings --------------------------------------------------------------------------------
def test_the_settings_page_changes_what_may_change(
    organiser: Any, member: Any, tournament: Tournament
) -> None:
    url = f"/tournaments/{tournament.pk}/console/settings/"
    page = signed_in(organiser).get(url).content.decode()
    assert 'value="Thursday night' in page
    data = create_form(name="Renamed", player_cap="8", check_in_opens_at="2030-01-01T19:00")
    assert signed_in(member).post(url, data).status_code == 403
    response = signed_in(organiser).post(url, data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.player_cap) == ("Renamed", 8)
    assert tournament.check_in_opens_at is not None
    bad = create_form(check_in_opens_at="2030-01-01T19:00", check_in_closes_at="2030-01-01T18:00")
    refused = signed_in(organiser).post(url, bad)
    assert refused.status_code == 400
    assert "close after it opens" in refused.content.decode()


# -- registration ----------------------------------------------------------------------------
def test_the_organiser_adds_a_member_and_a_new_player(
    organiser: Any, member: Any, tournament: Tournament
) -> None:
    client = signed_in(organiser)
    base = f"/tournaments/{tournament.pk}/console/players/"
    page = client.get(base).content.decode()
    assert "Mia Member" in page  # offered in the members' list
    assert client.post(base + "add/", {"member": member.player.pk}).status_code == 302
    new = {"username": "zoe", "display_name": "Zoé Nouvelle", "seed": "3"}
    assert client.post(base + "add/", new).status_code == 302
    names = set(tournament.registrations.values_list("player__display_name", flat=True))
    assert names == {"Mia Member", "Zoé Nouvelle"}
    again = client.post(base + "add/", new)
    assert again.status_code == 400
    assert "already registered" in again.content.decode()


def test_an_empty_add_is_a_400_sentence(organiser: Any, tournament: Tournament) -> None:
    response = signed_in(organiser).post(f"/tournaments/{tournament.pk}/console/players/add/", {})
    assert response.status_code == 400
    assert "Choose a member of the club" in response.content.decode()


def test_a_csv_import_shows_its_per_line_errors_and_imports_nothing(
    organiser: Any, tournament: Tournament
) -> None:
    url = f"/tournaments/{tournament.pk}/console/players/import/"
    text = "display_name,username\nAna,ana\nBob,ana\nCyd,\n"
    response = signed_in(organiser).post(url, {"csv_text": text})
    page = response.content.decode()
    assert response.status_code == 400
    assert "line 3: the username &#x27;ana&#x27; appears twice" in page
    assert "line 4: display_name and username are both required" in page
    assert not tournament.registrations.exists()
    good = SimpleUploadedFile("players.csv", b"display_name,username\nAna,ana\nBob,bob\n")
    assert signed_in(organiser).post(url, {"csv_file": good}).status_code == 302
    assert tournament.registrations.count() == 2


def test_a_csv_over_the_limit_is_a_413(
    organiser: Any, tournament: Tournament, settings: Any
) -> None:
    settings.HERALD_IMPORT_MAX_BYTES = 64
    big = SimpleUploadedFile("big.csv", b"display_name,username\n" + b"Ana,ana\n" * 40)
    url = f"/tournaments/{tournament.pk}/console/players/import/"
    response = signed_in(organiser).post(url, {"csv_file": big})
    assert response.status_code == 413
    assert "Split it" in response.content.decode()
    assert not tournament.registrations.exists()


def test_ticks_drops_and_re_adds(organiser: Any, member: Any, tournament: Tournament) -> None:
    reg = services.registration_create(tournament=tournament, player=member.player)
    base = f"/tournaments/{tournament.pk}/console/players/{reg.pk}/"
    client = signed_in(organiser)
    assert signed_in(member).post(base + "check-in/").status_code == 403
    assert client.post(base + "check-in/").status_code == 302
    reg.refresh_from_db()
    assert reg.checked_in
    assert client.post(base + "drop/").status_code == 302
    again = client.post(base + "drop/")
    assert again.status_code == 409
    assert "already dropped out" in again.content.decode()
    assert client.post(base + "readd/").status_code == 302
    reg.refresh_from_db()
    assert not reg.is_dropped
    assert client.post(base + "explode/").status_code == 400


def test_a_registration_of_another_tournament_is_a_404(
    organiser: Any, member: Any, club: Club, tournament: Tournament
) -> None:
    other = services.tournament_create(
        name="Other", game_id="blazon", organiser=organiser, club=club
    )
    reg = services.registration_create(tournament=other, player=member.player)
    url = f"/tournaments/{tournament.pk}/console/players/{reg.pk}/drop/"
    assert signed_in(organiser).post(url).status_code == 404
    reg.refresh_from_db()
    assert not reg.is_dropped


# -- the join link, the hub section and the poster ---------------------------------------------
def test_the_hub_shows_the_join_link_and_its_qr_code(
    organiser: Any, tournament: Tournament
) -> None:
    page = signed_in(organiser).get(f"/tournaments/{tournament.pk}/console/").content.decode()
    assert f"/tournaments/{tournament.pk}/join/{tournament.join_token}/" in page
    assert "<svg" in page
    poster = signed_in(organiser).get(f"/tournaments/{tournament.pk}/console/poster/")
    assert poster.status_code == 200
    assert poster.content.decode().count("<svg") == 2


def test_a_player_joins_by_the_link_and_a_renewed_link_voids_it(
    organiser: Any, tournament: Tournament
) -> None:
    walk_in = UserFactory(username="walkin")
    url = f"/tournaments/{tournament.pk}/join/{tournament.join_token}/"
    assert "Register me" in signed_in(walk_in).get(url).content.decode()
    response = signed_in(walk_in).post(url)
    assert response.status_code == 302
    assert tournament.registrations.filter(player__user=walk_in).exists()
    renew = f"/tournaments/{tournament.pk}/console/join-link/"
    assert signed_in(organiser).post(renew).status_code == 302
    stale = signed_in(UserFactory(username="late")).post(url)
    assert stale.status_code == 404
    assert "no longer" in stale.content.decode()


def test_a_house_bot_may_not_be_registered(organiser: Any, tournament: Tournament) -> None:
    (bot,) = house_bots_ensure(1)
    with pytest.raises(NotAllowed, match="house bots"):
        services.registration_create(tournament=tournament, player=bot.player, by=organiser)
    with pytest.raises(NotAllowed, match="house bots"):
        services.registration_create(tournament=tournament, player=bot.player, by=None)
    assert not tournament.registrations.filter(player__user=bot).exists()


def test_a_visitor_signs_up_by_the_link_only_where_the_club_allows(
    club: Club, tournament: Tournament
) -> None:
    url = f"/tournaments/{tournament.pk}/join/{tournament.join_token}/"
    form = {
        "username": "newbie",
        "display_name": "Newbie",
        "password1": "a-long-pass-9",
        "password2": "a-long-pass-9",
    }
    assert Client().post(url, form).status_code == 302  # to the login page
    assert not Registration.objects.exists()
    club.allow_signup = True
    club.save()
    assert 'name="password1"' in Client().get(url).content.decode()
    client = Client()
    response = client.post(url, form)
    assert response.status_code == 302
    assert response["Location"] == f"/tournaments/{tournament.pk}/check-in/"
    assert Registration.objects.get().player.display_name == "Newbie"


# -- check-in ------------------------------------------------------------------------------
def test_a_player_checks_in_from_the_tournament_page_while_the_window_is_open(
    member: Any, tournament: Tournament
) -> None:
    reg = services.registration_create(tournament=tournament, player=member.player)
    tournament.check_in_opens_at = timezone.now() + dt.timedelta(hours=1)
    tournament.save()
    client = signed_in(member)
    overview = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Check-in opens on" in overview
    refused = client.post(f"/tournaments/{tournament.pk}/check-in/")
    assert refused.status_code == 409
    reg.refresh_from_db()
    assert not reg.checked_in
    tournament.check_in_opens_at = None
    tournament.save()
    assert "I am here" in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert client.post(f"/tournaments/{tournament.pk}/check-in/").status_code == 302
    reg.refresh_from_db()
    assert reg.checked_in


def test_check_in_asks_a_visitor_to_log_in(tournament: Tournament) -> None:
    response = Client().get(f"/tournaments/{tournament.pk}/check-in/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
