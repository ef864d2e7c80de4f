"""What every WebSocket consumer of Herald shares (events, play and tournaments build on it)."""

from __future__ import annotations

import logging
from typing import Any

from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from herald.quietgc import collector

logger = logging.getLogger(__name__)

#: What the ASGI server raises when a frame is sent on a socket that has closed: daphne
#: (autobahn's Disconnected), and the spec's server-specific IOError for the others.
CLOSED = (Disconnected, OSError)


class SocketConsumer(AsyncJsonWebsocketConsumer):
    """A JSON socket whose frames to a client that has just left are dropped.

    A client can close its socket at any moment, and the server tells the consumer so
    (``websocket.disconnect``) only on its next turn. A group message that arrives in between
    (a move, a presence change: a crowd leaving at once sends one per leaver) would send on a
    closed socket, which raises inside the server and logs "Exception inside application".
    Nothing is lost: the client is gone, and a page that comes back asks for the version it
    missed."""

    gone = False

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Handle one message (a frame, a group message) as :meth:`handle_message` says,
        marked busy for the process's quiet collector (herald.quietgc, unless
        ``HERALD_QUIET_GC`` is false): no garbage collection starts while a socket works, so
        none lands in a move's push."""
        if settings.HERALD_QUIET_GC:
            collector.start()
        with collector.busy():
            await self.handle_message(message)

    async def handle_message(self, message: dict[str, Any]) -> None:
        """Channels' dispatch: the message to its handler."""
        await super().dispatch(message)

    async def send_json(self, content: Any, close: bool = False) -> None:
        """Send ``content`` as a JSON frame, unless the client has left."""
        if self.gone:
            return
        try:
            await super().send_json(content, close=close)
        except CLOSED as exc:
            self.gone = True
            logger.debug("socket %s closed before its frame: %s", self.channel_name, exc)
