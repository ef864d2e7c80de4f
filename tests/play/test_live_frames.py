"""The table socket (play.consumers.TableConsumer) on real ASGI server processes and the Redis
channel layer, spoken to with real WebSockets (the ``websockets`` package): each socket gets
its own user's drawing after a move, in its language; presence frames follow players across
two processes, and a process that dies takes its players' presence with it; a private
tournament game's socket admits the club and no one else; a delayed spectator's frames lag."""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from websockets.asyncio.client import connect as aconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from engine.sept_blasons.cards import STANDARD
from events.services import stream_append_move, stream_open
from events.states import current_state, game_of
from play.sept_blasons import colour_class
from tests.conftest import run_async
from tests.play.test_live_access import member_of, tournament_game
from tests.users import make_user

pytestmark = pytest.mark.django_db(transaction=True)

HOUSES = STANDARD.colours
WAIT = 15.0  # seconds a frame may take on a loaded machine before the test gives up


def cookie_for(user: Any) -> str:
    if user is None:
        return ""
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


class TableSocket:
    """A socket on a stream's table, keeping the frames it reads (in order)."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.frames: list[dict[str, Any]] = []
        self.read = 0  # frames before this one were matched by next_frame already

    def next_frame(self, kind: str, **expected: Any) -> dict[str, Any]:
        """The first frame of type ``kind`` (with the ``expected`` values) after the last one
        matched, read from the socket when not received yet."""
        while True:
            for index in range(self.read, len(self.frames)):
                frame = self.frames[index]
                if frame["type"] == kind and all(frame.get(k) == v for k, v in expected.items()):
                    self.read = index + 1
                    return frame
            self.frames.append(json.loads(self.connection.recv(timeout=WAIT)))


@contextmanager
def table_socket(server: Any, stream: Any, user: Any, language: str = "") -> Iterator[TableSocket]:
    """A socket on the stream's table as ``user`` (None: anonymous)."""
    headers = {"Cookie": cookie_for(user)} if user is not None else {}
    if language:
        headers["Accept-Language"] = language
    with connect(
        f"{server.ws_url}/ws/games/{stream.pk}/table/",
        origin=server.url,
        additional_headers=headers,
        open_timeout=WAIT,
    ) as connection:
        yield TableSocket(connection)


def next_frame(socket: TableSocket, kind: str, **expected: Any) -> dict[str, Any]:
    return socket.next_frame(kind, **expected)


def read_until_closed(socket: TableSocket) -> None:
    """Read frames until the socket closes (raises ConnectionClosed then)."""
    while True:
        socket.frames.append(json.loads(socket.connection.recv(timeout=WAIT)))


def move_once(stream: Any) -> int:
    """The seat to act plays its first legal move (through the service, as the API does)."""
    stream.refresh_from_db()
    game = game_of(stream)
    state = current_state(stream)
    seat = game.to_act(state)[0]
    move = game.legal_moves(state, seat)[0].to_json()
    outcome = stream_append_move(
        stream_id=stream.pk, seat=seat, move=move, expected_version=stream.version
    )
    return int(outcome.version)


def hand_classes(html: str) -> list[str]:
    """The colour class of each card of the hand drawn in ``html`` (none: no hand)."""
    hand = re.search(r'<ul class="hand">(.*?)</ul>', html, flags=re.S)
    if hand is None:
        return []
    return re.findall(r'<button type="button" class="card (blason-[a-z-]+)"', hand.group(1))


def root_of(html: str) -> dict[str, str]:
    tag = re.search(r"<section class=\"game-table[^\"]*\"([^>]*)>", html)
    assert tag is not None
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', tag.group(1)))


@pytest.fixture(scope="session")
def pooled_asgi_server(asgi_server_factory: Any) -> Any:
    """A live ASGI server that draws its tables in two drawing processes (play.drawpool)."""
    # INFO: it logs when its drawing processes can draw.
    return asgi_server_factory(HERALD_DRAWING_PROCESSES="2", LOG_LEVEL="INFO")


def drawing_processes(server: Any) -> list[int]:
    """The server process's drawing processes (children spawned by multiprocessing)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError, ValueError):
            continue
        if parent == server.process.pid and "spawn_main" in command:
            found.append(int(entry.name))
    return found


def wait_until_drawing_processes_can_draw(server: Any, count: int = 2) -> None:
    """Until the server has logged that its ``count`` drawing processes have set up."""
    deadline = time.monotonic() + 60  # two spawns and Django set-ups on a loaded machine
    while server.log_text().count(" can draw (set up in ") < count:
        assert time.monotonic() < deadline, server.log_text()[-3000:]
        time.sleep(0.1)


@pytest.mark.parametrize("server_name", ["asgi_server", "pooled_asgi_server"])
def test_each_socket_gets_its_own_users_drawing_after_a_move(
    server_name: str, request: pytest.FixtureRequest
) -> None:
    """Whether the server draws in its own thread or in drawing processes."""
    asgi_server = request.getfixturevalue(server_name)
    users = [make_user(name) for name in ("Agathe", "Basile", "Cunegonde")]
    stream = stream_open(game_id="les-7-blasons", seats=users, public=True)
    with (
        table_socket(asgi_server, stream, users[0]) as seat0,
        table_socket(asgi_server, stream, users[1]) as seat1,
        table_socket(asgi_server, stream, users[2], language="fr") as seat2_fr,
        table_socket(asgi_server, stream, None) as spectator,
    ):
        for socket in (seat0, seat1, seat2_fr, spectator):
            assert next_frame(socket, "joined")["version"] == stream.version
        # The spectator connected last: it is told the three players are there.
        next_frame(spectator, "presence", seats=[True, True, True])
        if server_name == "pooled_asgi_server":  # until then its own thread would draw
            wait_until_drawing_processes_can_draw(asgi_server)
        version = move_once(stream)
        frames = {
            name: next_frame(socket, "table", version=version)
            for name, socket in (
                ("seat0", seat0),
                ("seat1", seat1),
                ("seat2", seat2_fr),
                ("spectator", spectator),
            )
        }
        # The frame is the fragment, byte for byte (one drawing: play.rendering.render_table),
        # while everyone is still connected (presence is drawn too).
        request = urllib.request.Request(
            f"{asgi_server.url}/games/{stream.pk}/fragment",
            headers={"Cookie": cookie_for(users[1])},
        )
        with urllib.request.urlopen(request, timeout=WAIT) as answer:
            fragment = answer.read().decode()
    stream.refresh_from_db()
    state = current_state(stream)
    for seat, name in enumerate(("seat0", "seat1", "seat2")):
        html = frames[name]["html"]
        assert frames[name]["stream"] == str(stream.pk)
        assert root_of(html)["seat"] == str(seat)
        assert root_of(html)["version"] == str(version)
        # Its own hand, whole, and no card of another seat's.
        assert hand_classes(html) == [colour_class(HOUSES[seat])] * len(state.hands[seat])
    assert hand_classes(frames["spectator"]["html"]) == []
    assert root_of(frames["spectator"]["html"])["seat"] == ""
    assert "Votre main" in frames["seat2"]["html"]
    assert "Your hand" in frames["seat0"]["html"]
    assert stream.seed not in json.dumps(frames)
    assert fragment == frames["seat1"]["html"]
    # The pooled server drew in its drawing processes (spawned as it started).
    if server_name == "pooled_asgi_server":
        assert len(drawing_processes(asgi_server)) >= 2
    else:
        assert drawing_processes(asgi_server) == []


def test_presence_follows_players_across_two_processes(
    asgi_server: Any, asgi_server_factory: Any
) -> None:
    other = asgi_server_factory()
    users = [make_user(name) for name in ("Dorine", "Eloi", "Fulbert")]
    stream = stream_open(game_id="les-7-blasons", seats=users, public=False)
    with table_socket(asgi_server, stream, users[0]) as seat0:
        next_frame(seat0, "presence", seats=[True, False, False])
        with table_socket(other, stream, users[1]) as seat1:
            next_frame(seat0, "presence", seats=[True, True, False])
            next_frame(seat1, "presence", seats=[True, True, False])
            # A move made in this process reaches the socket of the other one, and back.
            version = move_once(stream)
            next_frame(seat1, "table", version=version)
            next_frame(seat0, "table", version=version)
        next_frame(seat0, "presence", seats=[True, False, False])  # seat 1 closed its page


def test_the_players_of_a_dead_process_go_away_after_the_heartbeat_bound(
    asgi_server_factory: Any,
) -> None:
    beat = "0.5"  # an entry then lives 1.5 s without renewal
    staying = asgi_server_factory(HERALD_PRESENCE_HEARTBEAT=beat)
    dying = asgi_server_factory(HERALD_PRESENCE_HEARTBEAT=beat)
    users = [make_user(name) for name in ("Gilda", "Hubert", "Ida")]
    stream = stream_open(game_id="les-7-blasons", seats=users, public=False)
    with table_socket(staying, stream, users[0]) as seat0:
        next_frame(seat0, "presence", seats=[True, False, False])
        with table_socket(dying, stream, users[2]) as seat2:
            next_frame(seat0, "presence", seats=[True, False, True])
            dying.process.kill()  # no goodbye: its sockets' entries stay until they expire
            dying.process.wait(timeout=WAIT)
            with pytest.raises(ConnectionClosed):  # its frames end with the process
                read_until_closed(seat2)
        next_frame(seat0, "presence", seats=[True, False, False])


def test_a_private_tournament_game_admits_its_club_and_refuses_strangers(
    asgi_server: Any,
) -> None:
    stream, _, tournament = tournament_game(tag="ws-club")
    member = member_of(tournament, "ws-member")
    with table_socket(asgi_server, stream, member) as watching:
        assert next_frame(watching, "joined")["version"] == stream.version
    for stranger in (make_user("ws-stranger"), None):
        with table_socket(asgi_server, stream, stranger) as refused:
            with pytest.raises(ConnectionClosed) as closed:
                refused.connection.recv(timeout=WAIT)
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code == 4403


def test_a_delayed_spectators_frames_lag_two_moves_and_a_players_do_not(
    asgi_server: Any,
) -> None:
    stream, users, _ = tournament_game(public=True, delay=2, moves=3, tag="ws-lag")
    with (
        table_socket(asgi_server, stream, None) as spectator,
        table_socket(asgi_server, stream, users[0]) as seat0,
    ):
        assert next_frame(spectator, "joined")["version"] == stream.version - 2
        assert next_frame(seat0, "joined")["version"] == stream.version
        for _ in range(2):
            version = move_once(stream)
            frame = next_frame(spectator, "table", version=version - 2)
            assert root_of(frame["html"])["version"] == str(version - 2)
            next_frame(seat0, "table", version=version)


CROWD = 300  # sockets arriving at once: more than a Redis pool's default 100 connections


def test_a_crowd_of_sockets_arriving_and_leaving_at_once_is_served(asgi_server: Any) -> None:
    """A hall of phones opening the same game at once (or reconnecting after a server restart):
    every socket is admitted and told the seats connected, and leaving all at once breaks
    nothing; the server's Redis pools wait for a connection rather than failing."""
    users = [make_user(name) for name in ("Crowd-A", "Crowd-B", "Crowd-C")]
    stream = stream_open(game_id="les-7-blasons", seats=users, public=True)
    url = f"{asgi_server.ws_url}/ws/games/{stream.pk}/table/"

    async def one() -> str:
        async with aconnect(url, origin=asgi_server.url, open_timeout=60) as socket:
            while True:
                frame = json.loads(await asyncio.wait_for(socket.recv(), 60))
                if frame["type"] == "presence":
                    return str(frame["type"])

    async def crowd() -> list[Any]:
        return await asyncio.gather(*(one() for _ in range(CROWD)), return_exceptions=True)

    for _ in range(2):  # arriving, then again after all left at once
        answers = run_async(crowd)
        assert [a for a in answers if a != "presence"] == []
    log = asgi_server.log_text()
    assert "Too many connections" not in log
    assert "Exception inside application" not in log
