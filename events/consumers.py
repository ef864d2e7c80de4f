"""The game stream's socket: ``ws/games/<uuid>/`` (routing in events.routing, herald.asgi).

A socket is for someone who may see the stream (events.access: its seated players, arbiters
and staff, anyone on a public stream, whoever the watch rules admit); anyone else is accepted and closed at once with code
4403 (a WebSocket refusal before the handshake carries no code a page could read). An accepted
socket joins its stream's listener in this process (events.fanout: one subscription to the
stream's group per process) and is told the stream's version (a ``joined`` frame); then, each
time an append commits, ``{"type": "advanced", "stream": ..., "version": v}``. The frames
say only what any viewer of the stream may know. Clients send nothing yet.

This is the version-only socket, for API clients. The table page's socket
(``ws/games/<uuid>/table/``, play.consumers.TableConsumer) is this one with each viewer's
drawing in its frames and presence: the drawing belongs to play, which events may not import.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async

from events.access import access_stream_for_user
from events.errors import StreamNotFound
from events.fanout import listeners
from herald.sockets import SocketConsumer

FORBIDDEN = 4403  # the close code for "you may not watch this stream" (HTTP's 403, 4000 + n)
CONNECT_FAILED = 1011  # the server's fault while the socket opened (RFC 6455's internal error)


def stream_version_for(user: Any, stream_id: str) -> int | None:
    """The stream's version if ``user`` may see the stream, else None."""
    try:
        return access_stream_for_user(user, stream_id).stream.version
    except StreamNotFound:
        return None


class StreamConsumer(SocketConsumer):
    """One client's socket on one game stream.

    Subclasses (play.consumers.TableConsumer) change what a viewer is told through three
    hooks: :meth:`open_stream` (who is asking and the version they are shown), :meth:`joined`
    (after the ``joined`` frame) and :meth:`stream_advanced` (each commit).
    """

    stream_id: str = ""
    following: bool = False  # among its stream listener's sockets (events.fanout)

    async def handle_message(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its thread hop to close stale database connections
        before every message (``aclose_old_connections``): this socket reads the database only
        through ``database_sync_to_async``, which closes them in its own thread, so each move
        costs a socket one trip to the database thread instead of two."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.stream_id = str(self.scope["url_route"]["kwargs"]["stream_id"])
        version = await database_sync_to_async(self.open_stream)(
            self.scope.get("user"), self.stream_id
        )
        await self.accept()
        if version is None:
            await self.close(code=FORBIDDEN)
            return
        # This process's listener for the stream is subscribed from here on (events.fanout),
        # so a client that waits for the ``joined`` frame before fetching the stream sees every
        # later version announced.
        listener = await listeners.follow(self.stream_id, self)
        self.following = True
        try:
            await self.send_json({"type": "joined", "stream": self.stream_id, "version": version})
            await self.joined()
        except BaseException:  # Channels calls no disconnect() for a connect() that failed
            await self.disconnect(CONNECT_FAILED)
            raise
        # Only now the commits: no frame before the ones the start sends. One taken while the
        # socket opened comes first, as the listener's latest version.
        missed = listener.start(self, version)
        if missed is not None:
            await self.handle_message(missed)

    def open_stream(self, user: Any, stream_id: str) -> int | None:
        """(In a database thread.) The version to announce to ``user``, or None when they may
        not see the stream."""
        return stream_version_for(user, stream_id)

    async def joined(self) -> None:
        """Called once the stream's listener is subscribed and the socket told its version; the
        stream's messages reach the socket when this has returned."""

    async def disconnect(self, code: int) -> None:
        """The socket closed: it takes no more of the stream's messages. Subclasses call this
        first, so that none reaches them while they tidy up."""
        if self.following:
            listeners.leave(self.stream_id, self)
            self.following = False

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Clients have nothing to say yet (moves go to the HTTP API); ignore what they send."""

    async def stream_advanced(self, message: dict[str, Any]) -> None:
        """The group's "stream advanced to version v" (events.live): one frame to the client."""
        await self.send_json(
            {"type": "advanced", "stream": message["stream"], "version": message["version"]}
        )
