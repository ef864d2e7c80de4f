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

Drawn = tuple[int, str] | None
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
    members: dict[str, set[Viewer]] = field(default_factory=dict)
    batches: dict[str, Batch] = field(default_factory=dict)
    trips: int = 0

    def join(self, stream_id: str, socket: Viewer) -> None:
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
            drawn: dict[Hashable, Drawn | Exception] = {}
            for key, viewer in viewers.items():
                try:
                    drawn[key] = draw(stream_id=stream_id, version=version, **viewer)
                except Exception as exc:  # that viewer's socket decides what it means
                    drawn[key] = exc
            return drawn

        self.trips += 1
        task = asyncio.ensure_future(sync_to_async(upkept(draw_all), thread_sensitive=True)())
        batch = Batch(version=version, keys=set(viewers), task=task)
        self.batches[stream_id] = batch
        return batch
