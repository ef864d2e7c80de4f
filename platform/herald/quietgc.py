"""A socket server's garbage collections at quiet moments, not in the middle of a move's push.

Python collects its young objects when enough have been made since the last collection: in a
socket server, that is while a move is being drawn (the drawings make most of the objects),
so every collection lands inside some move's push and holds it up. With the thresholds of
herald.warmup, bench/live.py's level 2 measured a young collection of 3-12 ms every half
second and a middle one of 17-34 ms every six seconds in the socket server: about one move in
ten waited for a collection.

:class:`QuietCollector` collects at a quiet moment instead. Its sockets mark what they handle
(:meth:`QuietCollector.busy`: a move's drawing and frames, a presence change); a timer on the
event loop looks every :data:`TICK` seconds and, once young objects reached the threshold a
collection would have run at, collects when no socket has handled anything for
:data:`QUIET_FOR` seconds (or once the sockets have worked for :data:`BUSY_AT_MOST` seconds
without a pause). Which generation it collects follows Python's own rule (the middle
one after ``threshold1`` young collections, all of them after ``threshold2`` middle ones), so
collections are as frequent as before, only moved. A move that arrives during one waits for
the rest of it, which is far rarer than waiting for all of it every time.

Python's own collections stay on as a safety net, at :data:`SAFETY_FACTOR` times the young
threshold: a server too busy ever to be quiet still collects, in longer and rarer pauses.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Iterator

#: Seconds between two looks at the young generation.
TICK = 0.01
#: Seconds without any socket's work before a collection may start (the frames just handed
#: to the server have left by then).
QUIET_FOR = 0.002
#: Seconds of work without a quiet moment after which a due collection runs all the same:
#: pushes overlapping one another without a pause (a server at its limit), or a handler that
#: never ended (its task dropped with its loop), must not put collections off for good.
BUSY_AT_MOST = 0.25
#: Python's own young threshold, while the collector runs, as a multiple of the collector's.
SAFETY_FACTOR = 4


class QuietCollector:
    """Collects this process's garbage when its sockets are idle (one per process)."""

    def __init__(self) -> None:
        self.thresholds: tuple[int, int, int] | None = None  # the collector's: Python's before
        self.working = 0  # handlers under way
        self.quiet_since = 0.0  # time.monotonic() when the last one ended
        self.busy_since = 0.0  # time.monotonic() when the first of those under way began
        self.loop: asyncio.AbstractEventLoop | None = None
        self.collections = [0, 0, 0]  # made here, by generation

    def start(self) -> None:
        """Start collecting at quiet moments on the running event loop (once per loop; the
        first socket of a process calls it). Python's own threshold becomes the safety net."""
        loop = asyncio.get_running_loop()
        if self.loop is loop:
            return
        if self.thresholds is None:
            self.thresholds = gc.get_threshold()
        young, middle, full = self.thresholds
        gc.set_threshold(young * SAFETY_FACTOR, middle, full)
        self.loop = loop
        self.quiet_since = time.monotonic()
        loop.call_later(TICK, self._tick, loop)

    def stop(self) -> None:
        """Give collections back to Python, at the thresholds it had."""
        if self.thresholds is not None:
            gc.set_threshold(*self.thresholds)
        self.thresholds = None
        self.loop = None

    @contextlib.contextmanager
    def busy(self) -> Iterator[None]:
        """A socket's work under way: no collection starts until it ends (or until the work
        has gone on for :data:`BUSY_AT_MOST` seconds)."""
        if not self.working:
            self.busy_since = time.monotonic()
        self.working += 1
        try:
            yield
        finally:
            self.working -= 1
            if not self.working:
                self.quiet_since = time.monotonic()

    def _tick(self, loop: asyncio.AbstractEventLoop) -> None:
        if self.loop is not loop:
            return  # stopped, or started again on another loop
        self.collect_if_due()
        loop.call_later(TICK, self._tick, loop)

    def collect_if_due(self) -> int | None:
        """Collect now if the young objects reached the threshold and nothing is under way
        (or the work has gone on too long); the generation collected, or None."""
        if self.thresholds is None:
            return None
        now = time.monotonic()
        if self.working:
            if now - self.busy_since < BUSY_AT_MOST:
                return None
        elif now - self.quiet_since < QUIET_FOR:
            return None
        young, middle, full = self.thresholds
        made, young_collections, middle_collections = gc.get_count()
        # Python's rule (gc_collect_generations): a generation is due past its threshold.
        if made <= young:
            return None
        if middle_collections > full:
            generation = 2
        elif young_collections > middle:
            generation = 1
        else:
            generation = 0
        gc.collect(generation)
        self.collections[generation] += 1
        return generation


#: This process's collector.
collector = QuietCollector()
