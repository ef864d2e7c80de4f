"""After a commit, the table sockets of one stream in this process are drawn together.

Every table socket of a stream gets the same "advanced to version v" message. Drawn one by
one, each socket makes its own trip to the database thread (a thread hop and a wake-up of the
event loop) and the seats of one table queue behind other tables' drawings, so the last seat
waits longest. Instead the first socket of a stream to handle the message draws, in one trip,
every viewer of that stream this process serves (play.consumers.draw_for, from one moment of
the stream); the other sockets await that trip and send their own drawing from it. Each
distinct viewer is drawn once (a seat open in two tabs; spectators who share the public
drawing). A socket that opened after the trip began draws alone, as before.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from asgiref.sync import sync_to_async
from django.db import close_old_connections, connections

from play.drawpool import DrawingPool, Drawn, DrawViewers, pool_size

T = TypeVar("T")


class Viewer(Protocol):
    """What a batch needs of a socket."""

    def viewer_key(self) -> Hashable:
        """Equal for sockets whose drawings are equal (the same user, seat, language and
        presence)."""
        ...

    def viewer(self) -> dict[str, Any]:
        """The keyword arguments of its drawing, besides the stream and version."""
        ...


#: Seconds between two upkeeps of the drawing thread's database connections.
UPKEEP_EVERY = 1.0
_upkept_at = -UPKEEP_EVERY


def upkeep_connections() -> None:
    """Django's per-request care of persistent connections (``close_old_connections``: the
    ``conn_max_age`` limit, and with ``conn_health_checks`` a ``SELECT 1`` before the next
    query), at most once a second, and at once after a database error.

    Channels' ``database_sync_to_async`` does it before and after every call: one health check
    round trip per move per socket server, in the one thread that draws every table of the
    process (bench/live.py, level 2: a fifth of reading a move). A connection that broke meanwhile
    fails the drawings of at most that second; their sockets then ask the page to fetch."""
    global _upkept_at
    now = time.monotonic()
    broken = any(
        connection.errors_occurred for connection in connections.all(initialized_only=True)
    )
    if broken or now - _upkept_at >= UPKEEP_EVERY:
        close_old_connections()
        _upkept_at = now


def upkept(work: Callable[[], T]) -> Callable[[], T]:
    """``work`` after :func:`upkeep_connections`, for a database thread."""

    def run() -> T:
        upkeep_connections()
        return work()

    return run


def draw_each(
    draw: Callable[..., Drawn],
    stream_id: str,
    version: int,
    viewers: dict[Hashable, dict[str, Any]],
    failed: Callable[[Exception], Exception] = lambda exc: exc,
) -> dict[Hashable, Drawn | Exception]:
    """Each viewer's ``draw(stream_id=…, version=…, **viewer)``; a viewer whose drawing failed
    gets ``failed(exc)`` instead (its socket decides what it means)."""
    drawn: dict[Hashable, Drawn | Exception] = {}
    for key, viewer in viewers.items():
        try:
            drawn[key] = draw(stream_id=stream_id, version=version, **viewer)
        except Exception as exc:
            drawn[key] = failed(exc)
    return drawn


@dataclass
class Batch:
    """One trip to the database thread: the drawings of a stream at ``version`` or later."""

    version: int
    keys: set[Hashable]
    task: asyncio.Task[dict[Hashable, Drawn | Exception]]


@dataclass
class StreamBatches:
    """The table sockets of each stream in this process, and each stream's latest batch."""

    draw: Callable[..., Drawn]  # draw(user, stream_id, *, version, **viewer): in a thread
    #: What a drawing process draws a batch with (play.consumers.draw_viewers: ``draw`` for
    #: each viewer), when ``HERALD_DRAWING_PROCESSES`` asks for some (play.drawpool); None:
    #: always in this process.
    pooled: DrawViewers | None = None
    #: What a drawing process reads when a stream's first socket here opens (the stream's
    #: moment: play.consumers.read_ahead), so that the first move reads only its events.
    read_ahead: Callable[[str], None] | None = None
    members: dict[str, set[Viewer]] = field(default_factory=dict)
    batches: dict[str, Batch] = field(default_factory=dict)
    trips: int = 0
    pool: DrawingPool | None = None

    def drawing_pool(self) -> DrawingPool | None:
        """The drawing processes, started now if not yet (the server starts them as it starts:
        play.consumers.start_drawing_processes); None: draw in this process."""
        if self.pool is None and self.pooled is not None and pool_size() > 0:
            self.pool = DrawingPool(pool_size())
            self.pool.start()
        return self.pool

    def join(self, stream_id: str, socket: Viewer) -> None:
        # The stream's moment is read in its drawing process as its first socket opens, not
        # with the first move that every seat waits for (the processes start with the server,
        # or else here).
        pool = self.drawing_pool()
        if pool is not None and self.read_ahead is not None and stream_id not in self.members:
            pool.prepare(stream_id, self.read_ahead)
        self.members.setdefault(stream_id, set()).add(socket)

    def leave(self, stream_id: str, socket: Viewer) -> None:
        members = self.members.get(stream_id)
        if members is not None:
            members.discard(socket)
            if not members:
                del self.members[stream_id]
                self.batches.pop(stream_id, None)

    async def drawing(self, stream_id: str, socket: Viewer, version: int) -> Drawn:
        """The socket's drawing at ``version`` or later, from the stream's batch (started now
        if none covers this version and socket). Raises what its drawing raised."""
        key = socket.viewer_key()
        batch = self.batches.get(stream_id)
        if batch is None or batch.version < version or key not in batch.keys:
            batch = self._start(stream_id, version, socket)
        # A socket that stops waiting (it closed) must not cancel the others' drawings.
        result = (await asyncio.shield(batch.task))[key]
        if isinstance(result, Exception):
            raise result
        return result

    def _start(self, stream_id: str, version: int, asking: Viewer) -> Batch:
        sockets = self.members.get(stream_id, set()) | {asking}
        viewers = {socket.viewer_key(): socket.viewer() for socket in sockets}
        draw = self.draw

        def draw_all() -> dict[Hashable, Drawn | Exception]:
            return draw_each(draw, stream_id, version, viewers)

        self.trips += 1
        pool = self.drawing_pool()
        if pool is not None and self.pooled is not None:
            drawings = pool.draw(
                stream_id, version, viewers, job=self.pooled, in_thread=upkept(draw_all)
            )
        else:
            drawings = sync_to_async(upkept(draw_all), thread_sensitive=True)()
        task = asyncio.ensure_future(drawings)
        batch = Batch(version=version, keys=set(viewers), task=task)
        self.batches[stream_id] = batch
        return batch
