"""Who may watch a game and how far behind (events.access with tournaments.watching's rules):
a private game of a tournament table is open to the tournament club's members, on the page,
the API's reads and the lists of games, and to nobody else; a tournament's spectator delay
keeps plain spectators N moves behind (the view, the page, the last moves), never its players,
arbiters or staff, and nobody once the game is over."""

from __future__ import annotations

import html as htmllib
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import engine
from events.access import access_stream_for_user, delayed_version, streams_visible_to
from events.errors import StreamNotFound
from events.models import Event, EventType, Stream
from events.selectors import stream_view
from events.services import stream_open
from events.states import replay_stream, state_at
from tests.ratings.games import play_stream
from tests.tournaments.factories import make_tournament
from tests.users import make_user
from tournaments.models import Club, ClubMembership, Round, Table, Tournament

pytestmark = pytest.mark.django_db

GAME = engine.get("les-7-blasons")


def tournament_game(
    *, public: bool = False, delay: int = 0, moves: int = 0, tag: str = "t"
) -> tuple[Stream, list[Any], Tournament]:
    """A game of Les 7 Blasons at table 1 of round 1 of a club's tournament."""
    club = Club.objects.create(name=f"Club {tag}")
    tournament = make_tournament(
        name=f"Night {tag}", game_id="les-7-blasons", club=club, organiser=make_user(f"o-{tag}")
    )
    Tournament.objects.filter(pk=tournament.pk).update(spectator_delay=delay)
    users = [make_user(f"{tag}-p{i}") for i in range(3)]
    stream = stream_open(
        game_id="les-7-blasons",
        seats=users,
        public=public,
        context={"tournament": tournament.pk},
    )
    round_ = Round.objects.create(tournament=tournament, stage=tournament.stages.get(), number=1)
    Table.objects.create(round=round_, number=1, stream_id=stream.pk)
    if moves:
        play_stream(stream, stop_after=moves)
    return Stream.objects.get(pk=stream.pk), users, tournament


def member_of(tournament: Tournament, name: str) -> Any:
    user = make_user(name)
    ClubMembership.objects.create(club=tournament.club, user=user)
    return user


def client_for(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def shown_version(html: str) -> int:
    tag = re.search(r"<section class=\"game-table[^\"]*\"[^>]*data-version=\"(\d+)\"", html)
    assert tag is not None
    return int(tag.group(1))


# -- who may watch ---------------------------------------------------------------------------


def test_a_club_member_watches_a_private_tournament_game_on_every_door() -> None:
    stream, _, tournament = tournament_game(tag="club")
    member = member_of(tournament, "club-member")
    client = client_for(member)
    assert client.get(reverse("play:table", args=[stream.pk])).status_code == 200
    assert client.get(reverse("play:fragment", args=[stream.pk])).status_code == 200
    view = client.get(f"/api/v1/streams/{stream.pk}/view")
    assert view.status_code == 200
    assert view.json()["seat"] is None
    assert "hand" not in view.json()["view"]  # a spectator: the public view
    assert client.get(f"/api/v1/streams/{stream.pk}").status_code == 200
    assert streams_visible_to(member, [stream.pk]) == {stream.pk}
    access = access_stream_for_user(member, stream.pk)
    assert access.seat is None
    assert not access.sees_everything


@pytest.mark.parametrize("who", ["stranger", "other-club", "anonymous"])
def test_nobody_else_watches_it(who: str) -> None:
    stream, _, _ = tournament_game(tag=f"closed-{who}")
    user = None
    if who == "stranger":
        user = make_user("a-stranger")
    elif who == "other-club":
        user = make_user("elsewhere")
        ClubMembership.objects.create(club=Club.objects.create(name="Other club"), user=user)
    client = client_for(user)
    assert client.get(reverse("play:table", args=[stream.pk])).status_code == 404
    assert client.get(reverse("play:fragment", args=[stream.pk])).status_code == 404
    assert client.get(f"/api/v1/streams/{stream.pk}/view").status_code in {403, 404}
    assert streams_visible_to(user, [stream.pk]) == set()
    with pytest.raises(StreamNotFound):
        access_stream_for_user(user, stream.pk)


def test_a_private_game_outside_any_tournament_stays_with_its_players() -> None:
    users = [make_user(f"solo-{i}") for i in range(3)]
    stream = stream_open(game_id="les-7-blasons", seats=users, public=False)
    _, _, tournament = tournament_game(tag="beside")
    member = member_of(tournament, "beside-member")
    assert streams_visible_to(member, [stream.pk]) == set()
    assert client_for(member).get(reverse("play:table", args=[stream.pk])).status_code == 404
    assert client_for(users[0]).get(reverse("play:table", args=[stream.pk])).status_code == 200


# -- the spectator delay ---------------------------------------------------------------------


def move_seqs(stream: Stream) -> list[int]:
    events = Event.objects.filter(stream=stream, type=EventType.MOVE_MADE).order_by("seq")
    return list(events.values_list("seq", flat=True))


def test_the_delayed_version_is_before_the_nth_last_move() -> None:
    stream, _, _ = tournament_game(public=True, delay=2, moves=5, tag="ver")
    seqs = move_seqs(stream)
    assert len(seqs) == 5
    assert delayed_version(stream, 0) == stream.version
    assert delayed_version(stream, 2) == seqs[-2] - 1 == stream.version - 2
    assert delayed_version(stream, 5) == seqs[0] - 1 == 1  # the setup: GameCreated
    assert delayed_version(stream, 9) == 1  # fewer moves than the delay: the setup


def test_a_spectator_sees_the_game_two_moves_behind_and_its_players_do_not() -> None:
    stream, users, tournament = tournament_game(public=True, delay=2, moves=7, tag="lag")
    behind = stream.version - 2
    spectator = access_stream_for_user(make_user("watcher"), stream.pk)
    assert spectator.spectator_delay == 2
    assert spectator.shown_version == behind
    seen = stream_view(spectator)
    assert seen["version"] == behind
    past, _ = replay_stream(stream, until=behind)
    assert seen["view"] == GAME.view(past, None)
    assert seen["view"] != GAME.view(state_at(stream, stream.version), None)
    # The anonymous visitor of a public game, a club member: the same delayed game.
    for client in (client_for(None), client_for(member_of(tournament, "lag-member"))):
        page = client.get(reverse("play:table", args=[stream.pk])).content.decode()
        assert shown_version(page) == behind
        fragment = client.get(reverse("play:fragment", args=[stream.pk])).content.decode()
        assert shown_version(fragment) == behind
        assert client.get(f"/api/v1/streams/{stream.pk}/view").json()["version"] == behind
    # Last moves: the spectator's stop at the delayed version (one line per move up to it).
    page = client_for(None).get(reverse("play:table", args=[stream.pk])).content.decode()
    lines = re.findall(r"<ol class=\"last-moves\"[^>]*>(.*?)</ol>", page, flags=re.S)
    seat_page = client_for(users[0]).get(reverse("play:table", args=[stream.pk])).content
    seat_lines = re.findall(
        r"<ol class=\"last-moves\"[^>]*>(.*?)</ol>", seat_page.decode(), flags=re.S
    )
    spectator_moves = [htmllib.unescape(x) for x in re.findall(r"<li>(.*?)</li>", lines[0])]
    seat_moves = [htmllib.unescape(x) for x in re.findall(r"<li>(.*?)</li>", seat_lines[0])]
    # Seven moves: the seat reads moves 7 to 2 (newest first), the spectator 5 to 1.
    assert len(seat_moves) == 6
    assert len(spectator_moves) == 5
    assert spectator_moves[:4] == seat_moves[2:]
    # Players, an arbiter and staff: no delay.
    arbiter = make_user("lag-arbiter", groups=("arbiters",))
    for user in (users[1], arbiter, make_user("lag-staff", staff=True)):
        access = access_stream_for_user(user, stream.pk)
        assert access.shown_version == stream.version
        assert stream_view(access)["version"] == stream.version


def test_no_delay_once_the_game_is_over() -> None:
    stream, _, _ = tournament_game(public=True, delay=3, moves=10_000, tag="over")
    assert stream.is_finished
    spectator = access_stream_for_user(None, stream.pk)
    assert spectator.spectator_delay == 0
    assert stream_view(spectator)["version"] == stream.version
    page = client_for(None).get(reverse("play:table", args=[stream.pk])).content.decode()
    assert shown_version(page) == stream.version
    assert "data-result=" in page


def test_a_game_outside_a_tournament_has_no_delay() -> None:
    users = [make_user(f"free-{i}") for i in range(3)]
    stream = play_stream(stream_open(game_id="les-7-blasons", seats=users), stop_after=4)
    assert access_stream_for_user(None, stream.pk).shown_version == stream.version


def test_the_delay_is_a_tournament_field_in_the_admin() -> None:
    _, _, tournament = tournament_game(tag="admin")
    admin = make_user("the-admin", staff=True)
    admin.is_superuser = True
    admin.save()
    client = client_for(admin)
    page = client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk]))
    assert page.status_code == 200
    assert 'name="spectator_delay"' in page.content.decode()
