"""The game stream's socket (ws/games/<uuid>/) on real ASGI server processes and Redis.

Sockets are opened with a real WebSocket client (the ``websockets`` package) on a daphne
process serving herald.asgi on the test database, authenticated by a session cookie made by a
real login; moves are POSTed to the HTTP API of a server process, and the frame must come
through the Redis channel layer after the commit, from the same process or from another one.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import requests
from django.contrib.auth.models import User
from django.test import Client
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from events.consumers import FORBIDDEN
from events.models import Stream
from events.services import stream_open
from tests.users import make_user, token_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.services("postgres", "redis", reason="server processes on the test database"),
]

GAME = "blazon"
PASSWORD = "a long enough password 42"


def session_cookie(username: str) -> str:
    """A session cookie from a real login (Django's login view, the password checked)."""
    client = Client()
    response = client.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert response.status_code == 302, response.content[:500]
    return f"sessionid={client.cookies['sessionid'].value}"


def open_socket(
    server: Any, stream: Stream, cookie: str = "", origin: str = ""
) -> ClientConnection:
    headers = {"Cookie": cookie} if cookie else {}
    return connect(
        f"{server.ws_url}/ws/games/{stream.pk}/",
        origin=origin or server.url,  # type: ignore[arg-type]
        additional_headers=headers,
        open_timeout=10,
    )


def frame(socket: ClientConnection, timeout: float = 10.0) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(socket.recv(timeout=timeout))
    return data


def close_code(socket: ClientConnection) -> int | None:
    with pytest.raises(ConnectionClosed) as closed:
        socket.recv(timeout=10)
    return closed.value.rcvd.code if closed.value.rcvd else None


def play_one_move(server: Any, stream: Stream, tokens: dict[int, str]) -> int:
    """The seat to act plays its first legal move over the server's HTTP API; the new version."""
    for seat, token in tokens.items():
        headers = {"Authorization": f"Token {token}"}
        view = requests.get(
            f"{server.url}/api/v1/streams/{stream.pk}/view", headers=headers, timeout=10
        )
        assert view.status_code == 200, view.text
        moves = view.json().get("legal_moves")
        if moves:
            answer = requests.post(
                f"{server.url}/api/v1/streams/{stream.pk}/moves",
                json={"move": moves[0], "expected_version": view.json()["version"]},
                headers={**headers, "Idempotency-Key": f"live-{stream.pk}-{seat}"},
                timeout=10,
            )
            assert answer.status_code == 201, answer.text
            version: int = answer.json()["version"]
            return version
    raise AssertionError("no seat has a legal move")


@pytest.fixture
def players() -> list[User]:
    return [make_user(name, password=PASSWORD) for name in ("ann", "bob")]


@pytest.fixture
def private_game(players: list[User]) -> Stream:
    return stream_open(game_id=GAME, seats=players, public=False)


@pytest.fixture
def tokens(players: list[User]) -> dict[int, str]:
    return {seat: token_for(user) for seat, user in enumerate(players)}


def test_a_seated_player_joins_and_gets_the_frame_after_a_move(
    asgi_server: Any, private_game: Stream, tokens: dict[int, str]
) -> None:
    with open_socket(asgi_server, private_game, session_cookie("ann")) as socket:
        joined = frame(socket)
        assert joined == {"type": "joined", "stream": str(private_game.pk), "version": 1}
        version = play_one_move(asgi_server, private_game, tokens)
        assert frame(socket) == {
            "type": "advanced",
            "stream": str(private_game.pk),
            "version": version,
        }


def test_the_frame_crosses_from_one_server_process_to_another(
    asgi_server: Any, asgi_server_factory: Any, private_game: Stream, tokens: dict[int, str]
) -> None:
    other = asgi_server_factory()
    with (
        open_socket(asgi_server, private_game, session_cookie("ann")) as on_a,
        open_socket(other, private_game, session_cookie("bob")) as on_b,
    ):
        assert frame(on_a)["type"] == frame(on_b)["type"] == "joined"
        version = play_one_move(other, private_game, tokens)  # POSTed to process B
        expected = {"type": "advanced", "stream": str(private_game.pk), "version": version}
        assert frame(on_a) == expected  # the socket on process A
        assert frame(on_b) == expected


def test_an_outsider_is_closed_with_4403_and_gets_no_frame(
    asgi_server: Any, private_game: Stream
) -> None:
    make_user("eve", password=PASSWORD)
    with open_socket(asgi_server, private_game, session_cookie("eve")) as socket:
        assert close_code(socket) == FORBIDDEN


def test_an_anonymous_visitor_is_refused_a_private_game(
    asgi_server: Any, private_game: Stream
) -> None:
    with open_socket(asgi_server, private_game) as socket:
        assert close_code(socket) == FORBIDDEN


def test_an_anonymous_visitor_may_watch_a_public_game(
    asgi_server: Any, players: list[User], tokens: dict[int, str]
) -> None:
    public = stream_open(game_id=GAME, seats=players, public=True)
    with open_socket(asgi_server, public) as socket:
        assert frame(socket)["type"] == "joined"
        version = play_one_move(asgi_server, public, tokens)
        advanced = frame(socket)
        # What a spectator learns: the stream moved on, nothing of the move or the hands.
        assert advanced == {"type": "advanced", "stream": str(public.pk), "version": version}


def test_an_arbiter_may_watch_a_private_game(asgi_server: Any, private_game: Stream) -> None:
    make_user("arbiter", groups=("arbiters",), password=PASSWORD)
    with open_socket(asgi_server, private_game, session_cookie("arbiter")) as socket:
        assert frame(socket)["type"] == "joined"


def test_an_unknown_stream_is_closed_with_4403(asgi_server: Any, players: list[User]) -> None:
    missing = Stream(pk="00000000-0000-4000-8000-000000000000")
    with open_socket(asgi_server, missing, session_cookie("ann")) as socket:
        assert close_code(socket) == FORBIDDEN


def test_a_socket_from_another_sites_page_is_refused(
    asgi_server: Any, private_game: Stream
) -> None:
    """A page on another site cannot open a socket with the player's cookie (Origin check)."""
    with pytest.raises(InvalidStatus) as refused:
        open_socket(asgi_server, private_game, session_cookie("ann"), origin="http://evil.test")
    assert refused.value.response.status_code == 403


def test_healthz_of_the_server_reports_the_redis_channel_layer(asgi_server: Any) -> None:
    body = requests.get(f"{asgi_server.url}/healthz", timeout=10).json()
    assert body == {"database": "ok", "broker": "ok", "channel_layer": "ok"}
