"""Open games: the services (create, join, leave, start, cancel, bounds, bad input), the lobby
pages for an anonymous visitor and a logged-in player, and the demo's open games."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import authenticate
from django.test import Client
from django.urls import reverse

import engine
from events.models import Stream
from events.services import TURN_NOTICE
from herald import demo
from herald.roles import HOUSE_BOTS
from play import services
from play.drawings import DRAWINGS
from play.models import OpenGame, OpenSeat
from play.services import LobbyError, OpenGameConflict, OpenGameNotFound, OpenGameSetup
from tests.users import make_user
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

SEPT = "les-7-blasons"


def setup(**changes: Any) -> OpenGameSetup:
    """A 3-seat game of Les 7 Blasons with default options, unless told otherwise."""
    fields: dict[str, Any] = {"game_id": SEPT, "players": 3, "options": {}}
    fields.update(changes)
    return OpenGameSetup(**fields)


def seats_of(open_game: OpenGame) -> list[tuple[int, str, bool]]:
    rows = OpenSeat.objects.filter(open_game=open_game).select_related("user").order_by("number")
    return [(seat.number, seat.user.get_username(), seat.house_bot) for seat in rows]


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


# -- services ---------------------------------------------------------------------------------


def test_the_creator_takes_seat_one_and_house_bots_the_last_seats() -> None:
    aline = make_user("aline")
    made = services.open_game_create(by=aline, setup=setup(players=4, house_bots=2))
    assert made.is_open
    assert made.public
    assert made.stream is None
    assert seats_of(made) == [(0, "aline", False), (2, "house-bot", True), (3, "house-bot-2", True)]
    bot = made.seats.get(number=2).user
    assert not bot.is_active
    assert not bot.has_usable_password()
    assert bot.groups.filter(name=HOUSE_BOTS).exists()
    assert bot.player.display_name == "House bot"
    assert made.options == engine.get(SEPT).normalize_options({})


def test_joining_fills_the_lowest_free_seat_and_the_last_seat_starts_the_game() -> None:
    aline, bastien = make_user("aline"), make_user("bastien")
    made = services.open_game_create(by=aline, setup=setup(house_bots=1))
    services.open_game_join(open_game_id=made.pk, user=bastien)
    made.refresh_from_db()
    assert made.state == OpenGame.State.STARTED
    assert made.started_at is not None
    stream = Stream.objects.get(pk=made.stream_id)
    seated = list(stream.seats.order_by("seat").values_list("user__username", flat=True))
    assert seated == ["aline", "bastien", "house-bot"]
    assert stream.game == SEPT
    assert stream.public
    assert stream.context == {"open_game": made.pk, TURN_NOTICE: True, "house_bots": [2]}
    with pytest.raises(OpenGameConflict, match="already started"):
        services.open_game_join(open_game_id=made.pk, user=make_user("colette"))
    with pytest.raises(OpenGameConflict, match="already started"):
        services.open_game_leave(open_game_id=made.pk, user=bastien)


def test_a_game_of_people_only_follows_no_turns() -> None:
    people = [make_user(name) for name in ("aline", "bastien", "colette")]
    made = services.open_game_create(by=people[0], setup=setup())
    for person in people[1:]:
        services.open_game_join(open_game_id=made.pk, user=person)
    made.refresh_from_db()
    assert made.stream.context == {"open_game": made.pk}  # no turn notices: no bot


def test_a_player_takes_one_seat_only_and_a_full_game_takes_nobody() -> None:
    aline = make_user("aline")
    made = services.open_game_create(by=aline, setup=setup(players=3))
    with pytest.raises(OpenGameConflict, match="already have a seat"):
        services.open_game_join(open_game_id=made.pk, user=aline)
    assert OpenSeat.objects.filter(open_game=made).count() == 1


def test_leaving_gives_the_seat_back_and_the_last_person_leaving_cancels() -> None:
    aline, bastien = make_user("aline"), make_user("bastien")
    made = services.open_game_create(by=aline, setup=setup(players=4, house_bots=1))
    services.open_game_join(open_game_id=made.pk, user=bastien)
    services.open_game_leave(open_game_id=made.pk, user=bastien)
    assert [seat[1] for seat in seats_of(made)] == ["aline", "house-bot"]
    with pytest.raises(LobbyError, match="no seat"):
        services.open_game_leave(open_game_id=made.pk, user=bastien)
    services.open_game_leave(open_game_id=made.pk, user=aline)
    made.refresh_from_db()
    assert made.state == OpenGame.State.CANCELLED  # the bot alone waits for nobody
    with pytest.raises(OpenGameConflict, match="cancelled"):
        services.open_game_join(open_game_id=made.pk, user=bastien)


def test_the_creator_starts_early_with_house_bots_in_the_free_seats() -> None:
    aline, bastien = make_user("aline"), make_user("bastien")
    made = services.open_game_create(by=aline, setup=setup(players=5))
    services.open_game_join(open_game_id=made.pk, user=bastien)
    with pytest.raises(LobbyError, match="Only the player who set this game up") as refused:
        services.open_game_start(open_game_id=made.pk, by=bastien)
    assert refused.value.status == 403
    services.open_game_start(open_game_id=made.pk, by=aline)
    made.refresh_from_db()
    assert [seat[1] for seat in seats_of(made)] == [
        "aline", "bastien", "house-bot", "house-bot-2", "house-bot-3",
    ]  # fmt: skip
    assert made.stream.players == 5
    assert made.stream.context["house_bots"] == [2, 3, 4]


def test_start_now_plays_at_once_against_the_house_bot() -> None:
    aline = make_user("aline")
    made = services.open_game_create(by=aline, setup=setup(players=3, start_now=True))
    assert made.state == OpenGame.State.STARTED
    assert [seat[2] for seat in seats_of(made)] == [False, True, True]


def test_a_game_with_nobody_seated_does_not_start() -> None:
    admin = make_user("boss", staff=True)
    made = services.open_game_create(by=admin, setup=setup(house_bots=1, take_seat=False))
    with pytest.raises(LobbyError, match="at least one person"):
        services.open_game_start(open_game_id=made.pk, by=admin)
    assert OpenGame.objects.get(pk=made.pk).is_open
    with pytest.raises(LobbyError, match="at least one person"):
        services.open_game_create(by=admin, setup=setup(take_seat=False, start_now=True))


@pytest.mark.parametrize(
    ("changes", "sentence"),
    [
        ({"players": 2}, "Les 7 Blasons is for 3 to 7 players, not 2."),
        ({"players": 8}, "Les 7 Blasons is for 3 to 7 players, not 8."),
        ({"options": {"tie_rule": "loudest"}}, "Option 'tie_rule' must be one of"),
        ({"options": {"colour": "red"}}, "Unknown option 'colour'"),
        ({"options": {"variants": [5]}}, "Option 'variants' allows only 1, 2, 3, 4"),
        ({"house_bots": 3}, "A game of 3 seats takes 0 to 2 house bots."),
        ({"house_bots": -1}, "A game of 3 seats takes 0 to 2 house bots."),
        ({"game_id": "chess"}, "chess cannot be played at the table yet."),
        ({"edition": "deluxe"}, "Les 7 Blasons has no edition 'deluxe'"),
        ({"club_id": 999}, "A club-only game is for a club you belong to."),
    ],
)
def test_bad_set_ups_are_refused_with_a_sentence_and_nothing_is_written(
    changes: dict[str, Any], sentence: str
) -> None:
    with pytest.raises(LobbyError) as refused:
        services.open_game_create(by=make_user("aline"), setup=setup(**changes))
    assert refused.value.status == 400
    assert sentence in refused.value.detail
    assert not OpenGame.objects.exists()


def test_a_club_only_game_is_seen_and_joined_by_the_club_s_members_only() -> None:
    club = tournaments.club_get_or_create(name="Les Remparts")
    aline, bastien, outsider = make_user("aline"), make_user("bastien"), make_user("outsider")
    for member in (aline, bastien):
        tournaments.club_member_add(club=club, user=member)
    made = services.open_game_create(by=aline, setup=setup(club_id=club.pk, house_bots=1))
    assert not made.public
    assert made.club == club
    with pytest.raises(OpenGameNotFound) as refused:
        services.open_game_join(open_game_id=made.pk, user=outsider)
    assert refused.value.status == 404
    assert list(services.open_games_visible_to(outsider)) == []
    services.open_game_join(open_game_id=made.pk, user=bastien)
    made.refresh_from_db()
    assert made.stream is not None
    assert not made.stream.public


def test_an_unknown_open_game_is_a_404() -> None:
    with pytest.raises(OpenGameNotFound, match="no open game 4242"):
        services.open_game_join(open_game_id=4242, user=make_user("aline"))


# -- pages ------------------------------------------------------------------------------------


def test_an_anonymous_visitor_sees_public_games_and_is_asked_to_log_in() -> None:
    aline = make_user("aline")
    services.open_game_create(by=aline, setup=setup(house_bots=1))
    club = tournaments.club_get_or_create(name="Les Remparts")
    tournaments.club_member_add(club=club, user=aline)
    services.open_game_create(by=aline, setup=setup(players=4, club_id=club.pk))
    page = Client().get(reverse("play:lobby"))
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count("data-open-game=") == 1  # the club's game is not listed to strangers
    assert "Les 7 Blasons" in html
    assert "House bot" in html
    assert "free seat" in html
    assert "Log in to take a seat" in html
    assert "data-join" not in html
    assert reverse("play:lobby-new", args=[SEPT]) not in html  # setting up needs an account
    assert 'aria-current="page">Play<' in html


def test_a_player_takes_a_seat_from_the_lobby_and_the_last_one_goes_to_the_table() -> None:
    aline, bastien, colette = make_user("aline"), make_user("bastien"), make_user("colette")
    made = services.open_game_create(by=aline, setup=setup())
    bastien_client = client_for(bastien)
    lobby = bastien_client.get(reverse("play:lobby")).content.decode()
    assert reverse("play:lobby-join", args=[made.pk]) in lobby
    joined = bastien_client.post(reverse("play:lobby-join", args=[made.pk]))
    assert joined.status_code == 302
    assert joined["Location"] == reverse("play:lobby") + f"#open-{made.pk}"
    waiting = bastien_client.get(reverse("play:lobby-fragment"))
    assert waiting["Cache-Control"] == "no-store"
    assert "data-seated" in waiting.content.decode()
    assert "Leave my seat" in waiting.content.decode()
    last = client_for(colette).post(reverse("play:lobby-join", args=[made.pk]))
    made.refresh_from_db()
    assert last.status_code == 302
    assert last["Location"] == reverse("play:table", args=[made.stream_id])
    # The others' lobby now lists the game as being played, with their way back to the table.
    after = bastien_client.get(reverse("play:lobby-fragment")).content.decode()
    assert f'data-started-game="{made.pk}"' in after
    assert "Back to my table" in after


def test_refusals_are_pages_with_their_sentence_and_status() -> None:
    aline = make_user("aline")
    made = services.open_game_create(by=aline, setup=setup())
    client = client_for(aline)
    again = client.post(reverse("play:lobby-join", args=[made.pk]))
    assert again.status_code == 409
    assert "You already have a seat in this game." in again.content.decode()
    missing = client.post(reverse("play:lobby-join", args=[9999]))
    assert missing.status_code == 404
    assert client.get(reverse("play:lobby-join", args=[made.pk])).status_code == 405
    anonymous = Client().post(reverse("play:lobby-join", args=[made.pk]))
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/accounts/login/")
    assert OpenSeat.objects.filter(open_game=made).count() == 1


def test_the_set_up_form_offers_the_engine_s_options_at_their_defaults() -> None:
    client = client_for(make_user("aline"))
    page = client.get(reverse("play:lobby-new", args=[SEPT]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="players"' in html
    assert '<option value="3" selected>3</option>' in html
    assert '<option value="7">7</option>' in html
    assert '<option value="8"' not in html
    assert 'name="option_tie_rule"' in html
    assert '<option value="cascade" selected>' in html
    assert html.count('name="option_variants"') == 4  # one checkbox per variant, none ticked
    assert 'name="option_variants" value="1" checked' not in html
    assert "Fill the empty seats with house bots and start now" in html
    assert Client().get(reverse("play:lobby-new", args=[SEPT])).status_code == 302  # log in
    assert client.get(reverse("play:lobby-new", args=["chess"])).status_code == 404


def test_the_set_up_form_opens_the_game_or_says_what_is_wrong() -> None:
    aline = make_user("aline")
    client = client_for(aline)
    url = reverse("play:lobby-new", args=[SEPT])
    form = {"players": "4", "option_tie_rule": "strict", "option_variants": ["1", "3"]}
    form |= {"who": "public", "house_bots": "1"}
    made = client.post(url, form)
    game = OpenGame.objects.get()
    assert made.status_code == 302
    assert made["Location"].endswith(f"#open-{game.pk}")
    assert game.options == {"tie_rule": "strict", "variants": [1, 3]}
    assert [seat[1] for seat in seats_of(game)] == ["aline", "house-bot"]
    lobby = client.get(reverse("play:lobby")).content.decode()
    assert "Variants: 1, 3" in lobby
    assert "Tied highest cards: Strict" in lobby
    bad = client.post(url, {**form, "players": "9"})
    assert bad.status_code == 400
    assert "Select a valid choice" in bad.content.decode()
    too_many = client.post(url, {**form, "house_bots": "4"})
    assert too_many.status_code == 400
    assert OpenGame.objects.count() == 1
    started = client.post(url, {**form, "house_bots": "0", "start_now": "on"})
    game = OpenGame.objects.latest("pk")
    assert game.state == OpenGame.State.STARTED
    assert started["Location"] == reverse("play:table", args=[game.stream_id])


def test_the_lobby_in_french() -> None:
    make_user("aline")
    services.open_game_create(by=make_user("bastien"), setup=setup(house_bots=1))
    page = Client().get(reverse("play:lobby"), HTTP_ACCEPT_LANGUAGE="fr")
    html = page.content.decode()
    assert "Parties ouvertes" in html
    assert "place libre" in html
    assert "Jouer" in html


# -- the demo ---------------------------------------------------------------------------------


def test_the_demo_opens_a_game_of_each_drawn_game_for_two_people(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    small = {game.id: demo.DemoPlan(players=8, rounds=1) for game in engine.games()}
    small["13-couronnes"] = demo.DemoPlan(players=8, rounds=1, options={"max_turns": 4})
    monkeypatch.setattr(demo, "PLANS", small)
    made = demo.demo_populate(say=lambda _: None)
    assert "player2" in made["fresh"]
    assert authenticate(username="player2", password=made["password"]) is not None
    games = {game.game: game for game in OpenGame.objects.filter(state=OpenGame.State.OPEN)}
    assert set(games) == set(DRAWINGS)
    sept = games[SEPT]
    assert sept.public
    assert sept.players == 3
    assert seats_of(sept) == [(2, "house-bot", True)]
    # The two demo players take the two free seats: the game starts, the bot in the third.
    for name in ("player", "player2"):
        user = authenticate(username=name, password=made["password"])
        services.open_game_join(open_game_id=sept.pk, user=user)
    sept.refresh_from_db()
    assert sept.state == OpenGame.State.STARTED


def test_several_house_bots_are_told_apart_in_the_lobby() -> None:
    services.open_game_create(by=make_user("aline"), setup=setup(players=4, house_bots=2))
    html = Client().get(reverse("play:lobby")).content.decode()
    assert "House bot</li>" in html
    assert "House bot 2</li>" in html
    french = Client().get(reverse("play:lobby"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Bot de la maison 2</li>" in french


def test_staff_see_open_games_and_their_seats_in_the_admin() -> None:
    made = services.open_game_create(by=make_user("aline"), setup=setup(house_bots=1))
    boss = make_user("boss", staff=True)
    boss.is_superuser = True
    boss.save(update_fields=["is_superuser"])
    staff = client_for(boss)
    listing = staff.get("/admin/play/opengame/")
    assert listing.status_code == 200
    page = staff.get(f"/admin/play/opengame/{made.pk}/change/")
    assert page.status_code == 200
    assert "house-bot" in page.content.decode()
