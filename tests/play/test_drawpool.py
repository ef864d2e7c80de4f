"""A socket server's drawings in drawing processes (play.drawpool, ``HERALD_DRAWING_PROCESSES``):
a real process draws each viewer exactly what the socket server's own thread draws, a stream
always in the same process, and a drawing process that dies costs a late frame, not a lost
one: its batch is drawn in the server's thread and the next batch starts a new process."""

from __future__ import annotations

import asyncio
import os
import signal
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import override_settings

from events.access import access_stream_for_user
from events.errors import StreamNotFound
from events.services import stream_open
from play import drawpool
from play.batches import StreamBatches
from play.consumers import draw_for, draw_viewers, read_ahead
from play.drawpool import DrawingPool, portable_failure, portable_user
from play.moments import moments
from play.rendering import public_drawings, render_table
from tests.conftest import run_async
from tests.play.test_live_access import tournament_game
from tests.play.test_moments import PRESENT, FakeSocket
from tests.ratings.games import play_stream
from tests.users import make_user

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # A drawing process opens its own connection to the test database: SQLite's in-memory
    # test database is this process's alone.
    pytest.mark.services("postgres", reason="drawing processes share the test database"),
]


@pytest.fixture
def pooled() -> Iterator[StreamBatches]:
    """A process's batches drawn by two drawing processes."""
    moments.clear()
    public_drawings.clear()
    with override_settings(HERALD_DRAWING_PROCESSES=2):
        batches = StreamBatches(draw=draw_for, pooled=draw_viewers, read_ahead=read_ahead)
        try:
            yield batches
        finally:
            if batches.pool is not None:
                batches.pool.shutdown()


def as_drawn_here(user: Any, stream: Any) -> tuple[int, str] | None:
    public_drawings.clear()
    return render_table(access_stream_for_user(user, stream.pk), "en", PRESENT)


def draw_everyone(batches: StreamBatches, stream: Any, sockets: list[FakeSocket]) -> list[Any]:
    async def everyone() -> list[Any]:
        return await asyncio.gather(
            *(batches.drawing(str(stream.pk), s, stream.version) for s in sockets)
        )

    return run_async(everyone)


def seated_table(
    pooled: StreamBatches, names: tuple[str, ...], moves: int
) -> tuple[Any, list[Any], list[FakeSocket]]:
    """A public game of Les 7 Blasons ``moves`` in, its seats' sockets joined to ``pooled``."""
    users = [make_user(name) for name in names]
    stream = play_stream(
        stream_open(game_id="les-7-blasons", seats=users, public=True), stop_after=moves
    )
    sockets = [FakeSocket(user, seat) for seat, user in enumerate(users)]
    for socket in sockets:
        pooled.join(str(stream.pk), socket)
    return stream, users, sockets


def set_up(pooled: StreamBatches) -> None:
    """Wait until the drawing processes can draw (until then the server's thread draws)."""
    assert pooled.pool is not None
    pooled.pool.wait_ready(timeout=60)


def executor_of(pooled: StreamBatches, stream: Any) -> Any:
    """The stream's drawing process's executor."""
    pool = pooled.pool
    assert pool is not None
    executor = pool._executors[pool._index(str(stream.pk))]
    assert executor is not None
    return executor


def test_a_drawing_process_draws_each_viewer_what_the_thread_draws(
    pooled: StreamBatches,
) -> None:
    stream, _, sockets = seated_table(pooled, ("Anouk", "Basile", "Coline"), moves=7)
    arbiter = make_user("Arbiter-dp", groups=("arbiters",))
    for watcher in (FakeSocket(None, None), FakeSocket(arbiter, None)):
        pooled.join(str(stream.pk), watcher)
        sockets.append(watcher)
    set_up(pooled)
    for _ in range(3):  # the process's moment carried from move to move, as the thread's
        drawn = draw_everyone(pooled, stream, sockets)
        for socket, got in zip(sockets, drawn, strict=True):
            assert got == as_drawn_here(socket.user, stream)
        stream = play_stream(stream, stop_after=1)
    assert pooled.pool is not None
    assert pooled.pool.started == 2  # both processes started with the first socket (no server)
    assert pooled.trips == 3
    assert pooled.pool.drawn_here == 0


def test_until_its_process_can_draw_a_streams_batches_are_drawn_here(
    pooled: StreamBatches,
) -> None:
    """A process takes a second or more to start (spawn, Django's set-up): the first moves
    after a server starts are drawn in its thread, not held until then."""
    stream, _, sockets = seated_table(pooled, ("Jade", "Kylian", "Lison"), moves=4)
    pool = pooled.pool
    assert pool is not None
    assert not pool._can_draw(pool._index(str(stream.pk)))  # spawned a moment ago
    drawn = draw_everyone(pooled, stream, sockets)
    assert pool.drawn_here == 1
    for socket, got in zip(sockets, drawn, strict=True):
        assert got == as_drawn_here(socket.user, stream)
    set_up(pooled)
    stream = play_stream(stream, stop_after=1)
    drawn = draw_everyone(pooled, stream, sockets)
    assert pool.drawn_here == 1  # this one in its process
    assert drawn[1] == as_drawn_here(sockets[1].user, stream)


def hang(stream_id: str, version: int, viewers: dict[Any, Any]) -> dict[Any, Any]:
    """(In a drawing process.) A drawing that never ends, as a query nobody answers."""
    time.sleep(120)  # longer than the test waits: without the timeout its batch fails
    return {}


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (killed and reaped, or a zombie)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state == "Z"


def moment_reads() -> int:
    """(In a drawing process.) How many moments it has read."""
    return moments.reads


def test_a_streams_first_socket_has_its_drawing_process_read_the_moment_ahead(
    pooled: StreamBatches,
) -> None:
    """As a socket opening reads the stream's moment in a server that draws in its thread, so
    the first move waits for its new events alone (play.moments)."""
    stream, users, sockets = seated_table(pooled, ("Gwenn", "Hugo", "Iris"), moves=3)
    set_up(pooled)
    executor = executor_of(pooled, stream)
    assert executor.submit(moment_reads).result(timeout=60) == 1  # read once, ahead
    stream = play_stream(stream, stop_after=1)
    drawn = draw_everyone(pooled, stream, sockets)
    assert drawn[0] == as_drawn_here(users[0], stream)
    assert executor.submit(moment_reads).result(timeout=60) == 2


def test_each_stream_is_drawn_by_one_process_and_its_refusals_come_back() -> None:
    pool = DrawingPool(3)
    some = [str(uuid.uuid4()) for _ in range(12)]
    assert [pool._index(s) for s in some] == [pool._index(s) for s in some]
    assert len({pool._index(s) for s in some}) > 1
    # A failure crosses the process boundary as words, a refusal as itself.
    refused = portable_failure(StreamNotFound("there is no game stream x"))
    assert isinstance(refused, StreamNotFound)
    other = portable_failure(KeyError("seat"))
    assert isinstance(other, RuntimeError)
    assert "KeyError" in str(other)
    assert portable_user(AnonymousUser()) is None


def test_a_private_game_still_refuses_a_spectator_who_may_not_watch_it(
    pooled: StreamBatches,
) -> None:
    stream, _, _ = tournament_game(tag="dp")
    stranger = FakeSocket(make_user("Stranger-dp"), None)
    pooled.join(str(stream.pk), stranger)
    with pytest.raises(StreamNotFound):
        draw_everyone(pooled, stream, [stranger])


def test_a_drawing_process_that_dies_is_replaced_and_its_batch_drawn_here(
    pooled: StreamBatches,
) -> None:
    """Its batch and its streams' next ones are drawn in this process's thread for
    RESTART_AFTER seconds (a process that cannot start is not started on every move); then a
    new process draws them."""
    stream, _, sockets = seated_table(pooled, ("Doriane", "Elouan", "Flavie"), moves=5)
    set_up(pooled)
    draw_everyone(pooled, stream, sockets)
    pool = pooled.pool
    assert pool is not None
    assert pool.drawn_here == 0
    index = pool._index(str(stream.pk))
    for pid in list(executor_of(pooled, stream)._processes):
        os.kill(pid, signal.SIGKILL)
    time.sleep(0.5)

    def next_move_drawn_as_here() -> None:
        nonlocal stream
        stream = play_stream(stream, stop_after=1)
        drawn = draw_everyone(pooled, stream, sockets)
        for socket, got in zip(sockets, drawn, strict=True):
            assert got == as_drawn_here(socket.user, stream)

    next_move_drawn_as_here()  # its batch, in this process's thread
    assert pool._executors[index] is None
    next_move_drawn_as_here()  # still here: no process started meanwhile
    assert pool.started == 2
    assert pool.drawn_here == 2
    pool._down_until[index] = 0.0  # RESTART_AFTER has gone by
    next_move_drawn_as_here()  # starts a new process, and is drawn here while it starts
    assert pool.started == 3
    assert pool._executors[index] is not None
    set_up(pooled)
    drawn_here = pool.drawn_here
    next_move_drawn_as_here()
    assert pool.drawn_here == drawn_here  # by the new process


def test_a_drawing_process_that_hangs_is_killed_and_its_batch_drawn_here(
    pooled: StreamBatches, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that does not answer within HUNG_AFTER (a query stuck on a database that
    stopped answering) would hold its streams' frames for as long as it hangs."""
    monkeypatch.setattr(drawpool, "HUNG_AFTER", 1.0)
    stream, _, sockets = seated_table(pooled, ("Maelys", "Nolan", "Oriane"), moves=2)
    set_up(pooled)
    pool = pooled.pool
    assert pool is not None
    index = pool._index(str(stream.pk))
    set_up_future = pool._set_up[index]
    assert set_up_future is not None
    pid = set_up_future.result()
    assert not gone(pid)
    pooled.pooled = hang  # the batch's job in the drawing process: it never ends
    drawn = draw_everyone(pooled, stream, sockets)
    for socket, got in zip(sockets, drawn, strict=True):  # drawn here instead
        assert got == as_drawn_here(socket.user, stream)
    assert pool.drawn_here == 1
    assert pool._executors[index] is None
    deadline = time.monotonic() + 30
    while not gone(pid):
        assert time.monotonic() < deadline, "the hung drawing process was not killed"
        time.sleep(0.1)
