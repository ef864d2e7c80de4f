"""The tournament pages' socket (``ws/tournaments/<id>/``) on a real ASGI server process and
the Redis channel layer, spoken to with real WebSockets: anyone may listen; a change
announced inside a transaction arrives once it commits, never for one rolled back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import transaction
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.play.test_live_frames import cookie_for
from tests.tournaments.live.night import publish_round, register_named
from tournaments import live, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 15.0  # seconds a frame may take on a loaded machine before the test gives up
QUIET = 0.5  # seconds a socket is listened to for a frame that must not come


@contextmanager
def tournament_socket(server: Any, pk: int, user: Any = None) -> Iterator[ClientConnection]:
    headers = {"Cookie": cookie_for(user)} if user is not None else {}
    with connect(
        f"{server.ws_url}/ws/tournaments/{pk}/",
        origin=server.url,
        additional_headers=headers,
        open_timeout=WAIT,
    ) as connection:
        yield connection


def frame(connection: ClientConnection, timeout: float = WAIT) -> dict[str, Any]:
    return dict(json.loads(connection.recv(timeout=timeout)))


def nothing_more(connection: ClientConnection) -> None:
    with pytest.raises(TimeoutError):
        connection.recv(timeout=QUIET)


def test_anyone_may_listen_and_hears_only_kinds(
    asgi_server: Any, organiser: Any, tournament: Tournament
) -> None:
    register_named(tournament)
    with (
        tournament_socket(asgi_server, tournament.pk) as visitor,
        tournament_socket(asgi_server, tournament.pk, organiser) as desk,
    ):
        for socket in (visitor, desk):
            assert frame(socket) == {"type": "joined", "tournament": tournament.pk}
        publish_round(tournament, organiser)  # round_release announces "round"
        for socket in (visitor, desk):
            assert frame(socket) == {"type": "changed", "kind": "round"}


class Undone(Exception):
    """The failure that rolls a write back."""


def announce_then_fail(pk: int, kind: str) -> None:
    with transaction.atomic():
        live.announce(pk, kind)
        raise Undone


def test_a_change_arrives_after_commit_and_never_for_a_rollback(
    asgi_server: Any, tournament: Tournament
) -> None:
    with tournament_socket(asgi_server, tournament.pk) as socket:
        assert frame(socket)["type"] == "joined"
        with transaction.atomic():
            live.announce(tournament.pk, "standings")
            nothing_more(socket)  # not before the commit
        assert frame(socket) == {"type": "changed", "kind": "standings"}

        with pytest.raises(Undone):
            announce_then_fail(tournament.pk, "results")
        live.announce(tournament.pk, "timer")  # outside a transaction: at once
        assert frame(socket) == {"type": "changed", "kind": "timer"}  # "results" never came
        nothing_more(socket)


def test_each_tournament_hears_its_own_changes(
    asgi_server: Any, organiser: Any, tournament: Tournament
) -> None:
    other = services.tournament_create(
        name="Another night", game_id=tournament.game_id, organiser=organiser,
        club=tournament.club, table_preferred=4, table_allowed=[3, 4, 5],
        points_by_rank=[4, 2, 1, 0, 0], pairing_seed="other",
    )  # fmt: skip
    with (
        tournament_socket(asgi_server, tournament.pk) as mine,
        tournament_socket(asgi_server, other.pk) as theirs,
    ):
        frame(mine), frame(theirs)
        live.announce(other.pk, "registrations")
        assert frame(theirs) == {"type": "changed", "kind": "registrations"}
        nothing_more(mine)


def test_a_socket_on_no_tournament_is_closed_with_4404(asgi_server: Any) -> None:
    with tournament_socket(asgi_server, 999_999) as socket, pytest.raises(ConnectionClosed):
        socket.recv(timeout=WAIT)
    assert socket.close_code == 4404


def test_an_unknown_kind_is_a_programming_error(tournament: Tournament) -> None:
    with pytest.raises(ValueError, match="unknown kind"):
        live.announce(tournament.pk, "everything")
