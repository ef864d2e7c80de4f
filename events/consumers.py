"""The game stream's socket: ``ws/games/<uuid>/`` (routing in events.routing, herald.asgi).

A socket is for someone who may see the stream (events.access: its seated players, arbiters
and staff, anyone on a public stream, whoever the watch rules admit); anyone else is accepted and closed at once with code
4403 (a WebSocket refusal before the handshake carries no code a page could read). An accepted
socket joins the stream's group and is told the stream's version (a ``joined`` frame); then,
each time an append commits, ``{"type": "advanced", "stream": ..., "version": v}``. The frames
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
from events.live import stream_group
from herald.sockets import SocketConsumer

FORBIDDEN = 4403  # the close code for "you may not watch this stream" (HTTP's 403, 4000 + n)


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
    group: str = ""

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
        self.group = stream_group(self.stream_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        # After group_add: from here on no commit is missed, so a client that waits for this
        # frame before fetching the stream sees every later version announced.
        await self.send_json({"type": "joined", "stream": self.stream_id, "version": version})
        await self.joined()

    def open_stream(self, user: Any, stream_id: str) -> int | None:
        """(In a database thread.) The version to announce to ``user``, or None when they may
        not see the stream."""
        return stream_version_for(user, stream_id)

    async def joined(self) -> None:
        """Called once the socket is in the stream's group and told its version."""

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Clients have nothing to say yet (moves go to the HTTP API); ignore what they send."""

    async def stream_advanced(self, message: dict[str, Any]) -> None:
        """The group's "stream advanced to version v" (events.live): one frame to the client."""
        await self.send_json(
            {"type": "advanced", "stream": message["stream"], "version": message["version"]}
        )
