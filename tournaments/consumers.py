"""The tournament pages' socket: ``ws/tournaments/<id>/`` (tournaments.routing, herald.asgi).

Anyone may listen, signed in or not: the frames say only *what kind* of thing changed
(``tournaments.live.KINDS``), never what it changed to. Each page then refetches the regions
that depend on that kind from its fragment views, with its own viewer's rights (a draft round
is never in a public fragment, a player's own table is in their own fragment only).

Frames: ``{"type": "joined", "tournament": id}`` once the socket is in the tournament's group
(from then on no change is missed: a page that reconnects refetches everything after it), then
``{"type": "changed", "kind": kind}`` after each commit that announced ``kind``. A socket on a
tournament that does not exist is accepted and closed at once with code 4404. Clients send
nothing.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from herald.sockets import SocketConsumer
from tournaments import live
from tournaments.models import Tournament

NOT_FOUND = 4404  # the close code for "no such tournament" (HTTP's 404, 4000 + n)


def tournament_exists(pk: int) -> bool:
    return Tournament.objects.filter(pk=pk).exists()


class TournamentConsumer(SocketConsumer):
    """One page's socket on one tournament: the kinds of change, as they commit."""

    tournament_id: int = 0
    group: str = ""

    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["pk"])
        exists = await database_sync_to_async(tournament_exists)(self.tournament_id)
        await self.accept()
        if not exists:
            await self.close(code=NOT_FOUND)
            return
        self.group = live.group_name(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send_json({"type": "joined", "tournament": self.tournament_id})

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Clients have nothing to say; ignore what they send."""

    async def tournament_changed(self, message: dict[str, Any]) -> None:
        """The group's "``kind`` changed" (tournaments.live): one frame to the page."""
        kind = message.get("kind")
        if kind in live.KINDS:
            await self.send_json({"type": "changed", "kind": kind})
