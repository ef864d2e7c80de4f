"""The game page (/games/<stream>/): public facts for whoever may see the stream, the API's
404 for whoever may not, the data attributes FRONTEND.md promises, and no hidden information
(another seat's hand, the seed) for a player or a spectator of a running game."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse, set_script_prefix

from events.access import access_stream_for_user
from events.models import Stream
from events.services import stream_open
from events.states import current_state
from herald.roles import ARBITERS
from play.drawings import DRAWINGS
from play.rendering import render_table
from tests.busy_player import Busy, busy_player
from tests.platform.test_me import contains_code, hand_codes_hidden_from, text
from tests.users import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def busy() -> Busy:
    return busy_player()


def get(stream_id: Any, user: Any = None) -> Any:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(reverse("play:table", args=[stream_id]))


@pytest.fixture
def summary_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The busy player's game (13 Couronnes) shown as a game with no live table yet: its page
    is then the game's public facts, the page every game not drawn at the table gets."""
    monkeypatch.delitem(DRAWINGS, "13-couronnes")


def root(html: str) -> dict[str, str]:
    """The data attributes FRONTEND.md promises on the table's root element (the summary's
    root, or a drawn table's, which carries more)."""
    tag = re.search(r'<section class="game-table[^"]*"([^>]*)>', html)
    assert tag is not None
    found = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', tag.group(1)))
    return {name: found[name] for name in ("stream", "version", "seat")}


def publicly_revealed(stream: Stream) -> set[str]:
    """The cards a law had revealed to everyone (they went back to the hand, seen by all: the
    last moves may name them)."""
    moves = [e.payload.get("move") or {} for e in stream.events.filter(type="MoveMade")]
    return {card for move in moves if move.get("type") == "reveal" for card in move["cards"]}


@pytest.mark.usefixtures("summary_only")
def test_a_seated_player_sees_the_game_with_their_seat(busy: Busy) -> None:
    stream = Stream.objects.get(pk=busy.running.pk)
    response = get(stream.pk, busy.player.user)
    assert response.status_code == 200
    html = response.content.decode()
    seat = stream.seats.get(user=busy.player.user).seat
    assert root(html) == {
        "stream": str(stream.pk),
        "version": str(stream.version),
        "seat": str(seat),
    }
    table = busy.running_table
    words = text(html)
    assert f"Spring cup, round {table.round.number}, table {table.number}" in words
    assert "13 Couronnes" in words
    assert "In play" in words
    names = [
        s.registration.player.display_name
        for s in table.seats.select_related("registration__player").order_by("seat")
    ]
    body = html[html.index("<tbody>") :]
    rows = [text(row) for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S)]
    assert [row.split()[0] for row in rows] == [str(n) for n in range(1, len(names) + 1)]
    assert all(name in row for name, row in zip(names, rows, strict=True))
    assert "data-result" not in html


def test_anyone_sees_a_public_game_as_a_spectator(busy: Busy) -> None:
    for user in (None, make_user("passer-by")):
        response = get(busy.running.pk, user)
        assert response.status_code == 200
        assert root(response.content.decode())["seat"] == ""


def test_a_private_game_is_a_404_except_for_its_players_arbiters_and_staff() -> None:
    players = [make_user(f"seat{i}") for i in range(3)]
    stream = stream_open(game_id="13-couronnes", seats=players, public=False)
    assert get(stream.pk).status_code == 404
    assert get(stream.pk, make_user("stranger")).status_code == 404
    assert get(stream.pk, players[2]).status_code == 200
    assert root(get(stream.pk, players[2]).content.decode())["seat"] == "2"
    for user in (make_user("judge", groups=(ARBITERS,)), make_user("boss", staff=True)):
        response = get(stream.pk, user)
        assert response.status_code == 200
        assert root(response.content.decode())["seat"] == ""


def test_an_unknown_game_is_a_404_page_with_a_sentence() -> None:
    missing = uuid.uuid4()
    response = get(missing)
    assert response.status_code == 404
    assert Client().get("/games/not-a-uuid/").status_code == 404


@pytest.mark.usefixtures("summary_only")
def test_a_finished_game_shows_ranks_and_carries_its_result(busy: Busy) -> None:
    stream = Stream.objects.get(pk=busy.finished[0].pk)
    html = get(stream.pk).content.decode()
    assert root(html)["seat"] == ""
    panel = re.search(r'<section class="game-over" data-result="([^"]*)"', html)
    assert panel is not None
    assert json.loads(panel.group(1).replace("&quot;", '"')) == stream.result
    assert "Finished" in text(html)
    body = html[html.index("<tbody>") :]
    rows = [text(row).split() for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S)]
    ranks = [int(row[-2]) for row in rows]
    assert ranks == stream.result["ranks"]


@pytest.mark.parametrize("who", ["player", "spectator"])
def test_no_other_hand_and_no_seed_on_a_running_game(busy: Busy, who: str) -> None:
    """Planted markers: the opponents' cards in hand (not in this viewer's own view) and the
    seed, taken from the engine's state, are searched for in the page."""
    stream = Stream.objects.get(pk=busy.running.pk)
    user = busy.player.user if who == "player" else None
    seat = stream.seats.get(user=busy.player.user).seat if who == "player" else None
    hidden = hand_codes_hidden_from(stream, seat) - publicly_revealed(stream)
    assert len(hidden) >= 6
    html = get(stream.pk, user).content.decode()
    assert ('class="tc-hand"' in html) == (who == "player")  # the live table, drawn for them
    assert [code for code in hidden if contains_code(html, code)] == []
    assert stream.seed not in html
    # The search would see a leak: the same codes are found in the state's own dump.
    assert all(contains_code(repr(current_state(stream).hands), code) for code in hidden)


@pytest.mark.parametrize("game_id", sorted(DRAWINGS))
def test_the_table_names_its_addresses_under_the_prefix_it_is_served_at(game_id: str) -> None:
    """The fragment and moves addresses on the table's root are reversed once per stream and
    kept (play.selectors.table_urls): a Herald served under a script prefix (as a WSGI or ASGI
    handler sets it per request) must still get addresses under that prefix, not the ones kept
    from a drawing served at the root."""
    users = [make_user(f"addr-{game_id[:4]}-{n}") for n in range(3)]
    stream = stream_open(game_id=game_id, seats=users, public=True)
    expected = {
        "fragment": reverse("play:fragment", args=[stream.pk]),
        "moves": reverse("stream-moves", args=[stream.pk]),
    }
    try:
        for prefix in ("/", "/club/", "/"):
            set_script_prefix(prefix)
            drawn = render_table(access_stream_for_user(users[0], stream.pk), "en", [True] * 3)
            assert drawn is not None
            tag = re.search(r'<section class="game-table[^"]*"([^>]*)>', drawn[1])
            assert tag is not None
            found = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', tag.group(1)))
            assert {name: found[name] for name in expected} == {
                name: prefix.rstrip("/") + url for name, url in expected.items()
            }
    finally:
        set_script_prefix("/")
