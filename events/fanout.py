"""One listener per stream and process: it takes each commit's message from the channel layer
once and hands it to every socket of that stream the process serves.

Each socket used to join the stream's group itself. A commit then woke every socket of the
stream through Channels' dispatch loop: a message queued per socket, the socket's receive task
remade, ``asyncio.wait``'s futures and callbacks, all before the first table was drawn. At 1,250
sockets on one daphne (bench/live.py, level 3) those short-lived objects made most of the young
generation, whose collections held up the push's p99 (docs/operations.md). Now the process
subscribes to each stream once, and a commit costs each socket a plain call of its handler.

The order a socket promises its client stays: a ``joined`` frame at some version, then every
later version. The listener is subscribed before the socket sends ``joined``; the socket starts
taking messages once its own start is done (:meth:`StreamListener.start`), so no frame comes
before the ones its start sends; a commit the listener took in between is handed to it then, as
the listener's latest version, and the socket's handler drops a version it shows already.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from dataclasses import dataclass, field
from typing import Any, Protocol

from channels.layers import get_channel_layer

from events.live import ADVANCED, advanced_message, stream_group
from herald.quietgc import collector

logger = logging.getLogger(__name__)

#: Seconds a listener whose last socket left stays subscribed. A page reloaded comes back
#: within it and finds the subscription made; and an unsubscribe made at once could land after
#: the subscribe of the next socket's listener (channels_redis's pub/sub layer keeps one
#: subscription per group and process), which would then hear nothing.
LINGER = 10.0

#: Seconds before listening again after the layer failed to give a message. The sockets keep
#: their frames' order meanwhile; the next frame after a gap carries the whole table (a table
#: page) or a version the client sees it missed (events.consumers).
RETRY_AFTER = 1.0


class Follower(Protocol):
    """A socket of the stream: its handler for a group message (``{"type": "stream.advanced",
    ...}``), as Channels would call it."""

    async def handle_message(self, message: dict[str, Any]) -> None: ...


@dataclass(eq=False)
class StreamListener:
    """This process's subscription to one stream's group, and the sockets it feeds."""

    stream_id: str
    layer: Any
    #: The sockets it feeds, and whether each has started (False while it opens).
    members: dict[Follower, bool] = field(default_factory=dict)
    #: The version of the latest message taken from the layer (0: none yet).
    latest: int = 0
    channel: str = ""
    subscribed: asyncio.Future[None] = field(init=False)
    task: asyncio.Task[None] | None = None
    closing: asyncio.Task[None] | None = None
    linger: asyncio.TimerHandle | None = None

    def __post_init__(self) -> None:
        self.subscribed = asyncio.get_running_loop().create_future()

    def listen(self) -> None:
        """Subscribe and start taking messages (once)."""
        self.task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        try:
            self.channel = await self.layer.new_channel(prefix="stream.")
            await self.layer.group_add(stream_group(self.stream_id), self.channel)
        except Exception as exc:  # the layer away: told to the sockets waiting (follow)
            self.subscribed.set_exception(exc)
            return
        self.subscribed.set_result(None)
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except Exception as exc:  # Redis away (the core layer): listen again after a pause
                logger.warning("stream %s: no message from the layer (%s)", self.stream_id, exc)
                await asyncio.sleep(RETRY_AFTER)
                continue
            await self.hand_out(message)

    async def hand_out(self, message: dict[str, Any]) -> None:
        """``message`` to each started socket, one after the other: the first one's drawing
        (play.batches) draws the stream's sockets at once, so the others' are ready when
        their turn comes."""
        if message.get("type") == ADVANCED:
            self.latest = max(self.latest, int(message["version"]))
        with collector.busy():
            for socket, started in list(self.members.items()):
                if not started or socket not in self.members:
                    continue
                try:
                    await socket.handle_message(message)
                except Exception:  # one socket's fault must not cost the others their frame
                    logger.exception("stream %s: a socket failed on %s", self.stream_id, message)

    def start(self, socket: Follower, shown: int) -> dict[str, Any] | None:
        """``socket`` takes the next messages. The message to hand it now, when the listener
        took a later version than the one it announced (``shown``) while it opened."""
        if socket not in self.members:
            return None  # it closed while it opened
        self.members[socket] = True
        if self.latest > shown:
            return advanced_message(self.stream_id, self.latest)
        return None

    def idle(self) -> bool:
        return not self.members

    async def close(self) -> None:
        """Leave the group and stop."""
        if self.channel:
            with contextlib.suppress(Exception):
                await self.layer.group_discard(stream_group(self.stream_id), self.channel)
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task


class StreamListeners:
    """The listeners of this process, by event loop and stream."""

    def __init__(self) -> None:
        self._by_loop: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, dict[str, StreamListener]
        ] = weakref.WeakKeyDictionary()

    def _here(self) -> dict[str, StreamListener]:
        return self._by_loop.setdefault(asyncio.get_running_loop(), {})

    def listener(self, stream_id: str) -> StreamListener | None:
        """The stream's listener on the running loop, if any."""
        return self._here().get(stream_id)

    async def follow(self, stream_id: str, socket: Follower) -> StreamListener:
        """The stream's listener, subscribed, with ``socket`` among its members (not started:
        :meth:`StreamListener.start`). Raises what subscribing raised (the layer away)."""
        listeners = self._here()
        while True:
            listener = listeners.get(stream_id)
            if listener is not None and listener.closing is not None:
                await asyncio.shield(listener.closing)  # then a listener of its own
                continue
            if listener is None:
                listener = StreamListener(stream_id, get_channel_layer())
                listeners[stream_id] = listener
                listener.listen()
            break
        if listener.linger is not None:
            listener.linger.cancel()
            listener.linger = None
        listener.members[socket] = False
        try:
            await asyncio.shield(listener.subscribed)
        except BaseException:
            self.leave(stream_id, socket)
            failed = listener.subscribed.done() and listener.subscribed.exception() is not None
            if failed and listeners.get(stream_id) is listener:
                del listeners[stream_id]  # the next socket tries afresh
            raise
        return listener

    def leave(self, stream_id: str, socket: Follower) -> None:
        """``socket`` takes no more messages; the listener closes :data:`LINGER` seconds after
        its last socket left, unless another came meanwhile."""
        listeners = self._here()
        listener = listeners.get(stream_id)
        if listener is None:
            return
        listener.members.pop(socket, None)
        if listener.idle() and listener.linger is None and listener.closing is None:
            loop = asyncio.get_running_loop()
            listener.linger = loop.call_later(LINGER, self._close_if_idle, listeners, listener)

    async def close_all(self) -> None:
        """Close every listener of the running loop (a loop that ends: tests, a shutdown)."""
        listeners = self._here()
        for listener in list(listeners.values()):
            if listener.linger is not None:
                listener.linger.cancel()
            await (listener.closing or listener.close())
        listeners.clear()

    def _close_if_idle(
        self, listeners: dict[str, StreamListener], listener: StreamListener
    ) -> None:
        listener.linger = None
        if not listener.idle() or listener.closing is not None:
            return

        async def close() -> None:
            try:
                await listener.close()
            finally:
                if listeners.get(listener.stream_id) is listener:
                    del listeners[listener.stream_id]

        listener.closing = asyncio.ensure_future(close())


#: This process's stream listeners (events.consumers.StreamConsumer and its subclasses).
listeners = StreamListeners()
