"""A socket server's drawings in processes of their own (``HERALD_DRAWING_PROCESSES``).

A socket server draws every move's table once per viewer (play.batches), and those drawings are
nearly all of its work. In one process they run one after another on one thread, under the
same lock (the GIL) as the event loop that sends the frames: moves that arrive together queue
behind each other's drawings on one core, however many cores the machine has
(docs/operations.md, "Live tables at scale"). With ``HERALD_DRAWING_PROCESSES=N`` the process
keeps its sockets, its event loop and its batches, and hands each batch to one of N drawing
processes: each stream always to the same one (its caches, play.moments and the fragments,
stay warm), so moves at different tables are drawn side by side, on as many cores.

A drawing process draws exactly as the socket server's own thread does
(play.consumers.draw_for): it reads the stream's moment, checks the viewer's access and draws
their seat's view or the public one. It is handed each viewer's user as the socket knew it
when it opened (its id and standing, not a session), as the thread was.

When a drawing process dies (killed, out of memory) or hangs (:data:`HUNG_AFTER`; it is then
killed), the batches it held are drawn in the socket server's own thread, and so are its
streams' next batches for :data:`RESTART_AFTER` seconds; the first batch after that starts a
new process. A frame is late, none is lost, and a process that cannot start (a broken setting)
is not started again on every move. Until a new drawing process has set Django up (a second or
two), its streams are drawn in the socket server's thread too: the first moves after a start or
a restart wait for their drawings, not for a process's start. 0, the default, draws in the
socket server's thread (``make run``, tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any
from uuid import UUID

import django
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

from events.errors import StreamNotFound
from herald.warmup import warm_up

logger = logging.getLogger(__name__)

#: Seconds a batch may wait for its drawing process (its queue included: some 15 ms a batch on
#: a loaded 2-core machine) before the process is taken for hung (a query that never ends,
#: a database that stopped answering) and killed: its batches are then drawn in the server's
#: thread, as a dead process's are, and their sockets fall back to fetching the fragment if
#: that fails too. Without it a hung process held its streams' frames for as long as it hung.
HUNG_AFTER = 10.0

#: Seconds a dead drawing process's streams are drawn in the server's own thread before a new
#: process is started for them.
RESTART_AFTER = 5.0

#: One viewer's drawing: (the version drawn, the table's HTML); None for a game not drawn yet.
Drawn = tuple[int, str] | None
Drawings = dict[Hashable, Drawn | Exception]
#: draw_viewers(stream_id, version, viewers) -> Drawings, in a drawing process: a module's
#: function (it is handed over by name), play.consumers.draw_viewers.
DrawViewers = Callable[[str, int, dict[Hashable, dict[str, Any]]], Drawings]


def pool_size() -> int:
    """How many drawing processes a socket server starts (``HERALD_DRAWING_PROCESSES``)."""
    return max(int(getattr(settings, "HERALD_DRAWING_PROCESSES", 0) or 0), 0)


def portable_user(user: Any) -> Any:
    """``user`` as it can be handed to another process: the model instance behind Channels'
    lazy scope user (its fields as read when the socket opened), or None for a visitor who
    is not logged in (the drawings take None as anonymous)."""
    wrapped = getattr(user, "_wrapped", user)
    if wrapped is None or not getattr(wrapped, "is_authenticated", False):
        return None
    return wrapped


def portable_failure(exc: Exception) -> Exception:
    """What a drawing that failed tells the socket server: StreamNotFound as it is (the socket
    closes), any other failure as a RuntimeError with its words (the socket asks its page to
    fetch the fragment; the drawing process logged the traceback)."""
    if isinstance(exc, StreamNotFound):
        return StreamNotFound(str(exc))
    return RuntimeError(f"{type(exc).__name__}: {exc}")


def _start_process(database: str) -> None:
    """A drawing process's start: Django set up on the socket server's own database (its name
    as the server uses it: a test run's is not the settings'), and warmed as a server's
    (herald.warmup)."""
    django.setup()
    settings.DATABASES[DEFAULT_DB_ALIAS]["NAME"] = database
    warm_up()


def _ready() -> int:
    """(In a drawing process, once it has set up.) Its process id."""
    return os.getpid()


def _announcer(index: int, size: int, since: float) -> Callable[[Future[int]], None]:
    """What logs that drawing process ``index`` can draw, or that it died starting."""

    def announce(set_up: Future[int]) -> None:
        if set_up.cancelled() or set_up.exception() is not None:
            logger.warning("drawing process %d of %d died as it started", index + 1, size)
        else:
            took = time.monotonic() - since
            logger.info(
                "drawing process %d of %d (pid %d) can draw (set up in %.1f s)",
                index + 1,
                size,
                set_up.result(),
                took,
            )

    return announce


class DrawingPool:
    """N drawing processes, each stream drawn by the same one; started with the server."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._executors: list[ProcessPoolExecutor | None] = [None] * size
        self._down_until = [0.0] * size  # time.monotonic() before which none is started
        # Done once the process has set Django up and can draw (or has died trying).
        self._set_up: list[Future[int] | None] = [None] * size
        self._lock = threading.Lock()
        self.started = 0  # processes started (a test counts the restarts)
        self.drawn_here = 0  # batches drawn in the socket server's thread: starting or down

    def _index(self, stream_id: str) -> int:
        return UUID(str(stream_id)).int % self.size

    def _executor(self, index: int) -> ProcessPoolExecutor | None:
        """The index's executor, started now if it has none (None while a dead one's
        :data:`RESTART_AFTER` runs)."""
        with self._lock:
            executor = self._executors[index]
            if executor is None:
                if time.monotonic() < self._down_until[index]:
                    return None
                executor = ProcessPoolExecutor(
                    max_workers=1,
                    # A fresh interpreter: a fork of a server with threads and sockets is not.
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_process,
                    initargs=(connections[DEFAULT_DB_ALIAS].settings_dict["NAME"],),
                )
                # Start it now, not at the first move; done once it can draw.
                set_up = self._set_up[index] = executor.submit(_ready)
                set_up.add_done_callback(_announcer(index, self.size, time.monotonic()))
                self._executors[index] = executor
                self.started += 1
            return executor

    def start(self) -> None:
        """Start every drawing process (the server as it starts, else its first socket)."""
        for index in range(self.size):
            self._executor(index)

    def _can_draw(self, index: int) -> bool:
        ready = self._set_up[index]
        return ready is not None and ready.done()

    def wait_ready(self, timeout: float) -> None:
        """Block until every started drawing process can draw (tests); TimeoutError if one
        cannot within ``timeout`` seconds."""
        for ready in list(self._set_up):
            if ready is not None:
                ready.exception(timeout=timeout)  # a start that failed counts as over

    def prepare(self, stream_id: str, job: Callable[[str], None]) -> None:
        """Have the stream's drawing process run ``job(stream_id)`` when it is free, without
        waiting for it (a stream's moment read ahead of its first move)."""
        executor = self._executor(self._index(stream_id))
        if executor is None:  # down: the first move reads it
            return
        try:
            executor.submit(job, stream_id)
        except (BrokenProcessPool, RuntimeError):  # dead or shut: the first move reads it
            logger.warning("table %s: its drawing process could not read ahead", stream_id)

    def _drop(self, index: int, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executors[index] is broken:
                self._executors[index] = None
                self._down_until[index] = time.monotonic() + RESTART_AFTER
        broken.shutdown(wait=False, cancel_futures=True)

    async def draw(
        self,
        stream_id: str,
        version: int,
        viewers: dict[Hashable, dict[str, Any]],
        *,
        job: DrawViewers,
        in_thread: Callable[[], Drawings],
    ) -> Drawings:
        """The viewers' drawings by ``job`` in the stream's drawing process; by ``in_thread``
        (in the socket server's own drawing thread) while that process starts, or if it
        died."""
        index = self._index(stream_id)
        executor = self._executor(index)
        if executor is None or not self._can_draw(index):  # died lately, or still starting
            self.drawn_here += 1
            return await sync_to_async(in_thread, thread_sensitive=True)()
        handed = {
            key: {**viewer, "user": portable_user(viewer["user"])}
            for key, viewer in viewers.items()
        }
        try:
            future: Future[Drawings] = executor.submit(job, stream_id, version, handed)
            return await asyncio.wait_for(asyncio.wrap_future(future), HUNG_AFTER)
        except BrokenProcessPool:
            logger.warning("table %s: its drawing process died; drawn here", stream_id)
        except TimeoutError:
            logger.error(
                "table %s: its drawing process has not drawn a move in %g s; taken for hung,"
                " it is stopped and the move drawn here",
                stream_id,
                HUNG_AFTER,
            )
            self._stop(index)
        self._drop(index, executor)
        self.drawn_here += 1
        return await sync_to_async(in_thread, thread_sensitive=True)()

    def _stop(self, index: int) -> None:
        """Kill drawing process ``index`` (its executor then fails the batches it holds, which
        are drawn here)."""
        set_up = self._set_up[index]
        if set_up is None or not set_up.done() or set_up.exception() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(set_up.result(), signal.SIGKILL)

    def shutdown(self) -> None:
        with self._lock:
            executors, self._executors = self._executors, [None] * self.size
        for executor in executors:
            if executor is not None:
                executor.shutdown(wait=True, cancel_futures=True)
