"""The table page's socket: ``ws/games/<uuid>/table/`` (play.routing, herald.asgi).

The event store's socket (events.consumers.StreamConsumer) with what the page needs:

- ``{"type": "joined", "stream", "version"}`` once the socket is in the stream's group, the
  version being the one the viewer is shown (a delayed spectator's is behind the stream's);
- ``{"type": "table", "stream", "version", "html"}`` after each commit: the table's root
  element drawn for *this socket's user* (their seat's view, or the public one), in their
  language, exactly as ``/games/<id>/fragment`` draws it (play.rendering.render_table). So a
  seat's hand only ever travels on that seat's own socket; the group message says only the
  version (events.live). When the drawing fails, ``{"type": "advanced", ...}`` instead: the
  page then fetches the fragment;
- ``{"type": "presence", "seats": [true, false, ...]}`` on joining and whenever a seat's
  player connects or goes (play.presence; across processes through the presence group).

Why a consumer of play's and not a hook in events' one: the drawing is play's, and events sits
below play (pyproject's import contract), so the table socket subclasses the store's socket
and the store's stays the plain, version-only socket API clients use.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Hashable
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.utils import translation

from events.access import access_stream_for_user
from events.consumers import FORBIDDEN, StreamConsumer
from events.errors import StreamNotFound
from play import presence as presences
from play.batches import StreamBatches, draw_each, upkeep_connections
from play.drawpool import portable_failure
from play.moments import moment_at
from play.rendering import public_drawings, public_key, render_table

logger = logging.getLogger(__name__)


def language_of(scope: dict[str, Any]) -> str:
    """The language the socket's user reads, by LocaleMiddleware's rule: the switcher's cookie,
    else the browser's Accept-Language, else the site's default."""
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    asked = SimpleNamespace(
        COOKIES=scope.get("cookies") or {}, META={"HTTP_ACCEPT_LANGUAGE": accept}
    )
    try:
        return str(translation.get_language_from_request(asked))
    except Exception:  # a malformed header: the default, as a page would fall back to
        return str(settings.LANGUAGE_CODE)


def draw_for(
    user: Any,
    stream_id: str,
    *,
    seat: int | None,
    version: int,
    language: str,
    presence: list[bool] | None,
) -> tuple[int, str] | None:
    """(In a database thread.) The table for ``user``, at their ``seat`` (found when the
    socket opened: seats never change), drawn at ``version`` or later from what this process
    read once for every socket of the stream (play.moments); StreamNotFound when they may no
    longer see the stream."""
    moment = moment_at(stream_id, version)
    return render_table(moment.access(user, seat), language, presence, moment)


def draw_viewers(
    stream_id: str, version: int, viewers: dict[Hashable, dict[str, Any]]
) -> dict[Hashable, tuple[int, str] | Exception | None]:
    """(In a drawing process, play.drawpool.) Each viewer's :func:`draw_for` at ``version`` or
    later; a viewer whose drawing failed gets its failure, in words another process can read
    (play.drawpool.portable_failure)."""
    upkeep_connections()
    return draw_each(draw_for, stream_id, version, viewers, failed=_failure_told)


def _failure_told(exc: Exception) -> Exception:
    """A drawing's failure, logged here (a drawing process's log) unless it is a refusal."""
    if not isinstance(exc, StreamNotFound):
        logger.error("table drawing failed", exc_info=exc)
    return portable_failure(exc)


def read_ahead(stream_id: str) -> None:
    """(In a drawing process, play.drawpool.) The stream's moment read now, as a socket opening
    reads it in this process (TableConsumer.open_stream): the first move's drawings then read
    its new events alone."""
    upkeep_connections()
    with contextlib.suppress(StreamNotFound):
        moment_at(stream_id, 0)


#: This process's table sockets by stream, drawn together after each commit.
batches = StreamBatches(draw=draw_for, pooled=draw_viewers, read_ahead=read_ahead)


def start_drawing_processes() -> None:
    """Start this socket server's drawing processes, if ``HERALD_DRAWING_PROCESSES`` asks for
    some (herald.asgi, as the server starts): each takes a second or two to set Django up, time
    in which its tables are drawn in the server's own thread, so it is spent before the first
    socket rather than during the first moves."""
    batches.drawing_pool()


class TableConsumer(StreamConsumer):
    """One table page's socket: its user's own drawing after each commit, and presence."""

    seat: int | None = None
    players: int = 0
    shown: int = 0  # the version of the last drawing sent (or announced on joining)
    language: str = ""
    entry: str | None = None  # this socket's presence entry, for a seated player
    presence: list[bool] | None = None
    presence_group: str = ""
    beating: bool = False  # whether its stream's heartbeat renews its entry

    def open_stream(self, user: Any, stream_id: str) -> int | None:
        try:
            access = access_stream_for_user(user, stream_id)
        except StreamNotFound:
            return None
        self.seat = access.seat
        self.players = access.stream.players
        self.shown = access.shown_version
        self.language = language_of(self.scope)
        # The stream's moment, read now while the players sit down (once per stream and
        # process: the next sockets find it held), so that the first move's drawings read the
        # new events alone (one query) rather than the stream from scratch (five), in the
        # moment that every seat waits for them. A stream gone meanwhile: the first move's
        # drawing says so.
        with contextlib.suppress(StreamNotFound):
            moment_at(stream_id, self.shown)
        return self.shown

    async def joined(self) -> None:
        self.presence_group = presences.presence_group(self.stream_id)
        await self.channel_layer.group_add(self.presence_group, self.channel_name)
        if self.seat is not None:
            self.entry = presences.member(self.seat, self.channel_name)
        batches.join(self.stream_id, self)
        seats = await self.announce(add=self.entry)
        await self.send_json({"type": "presence", "seats": seats})
        presences.beats.join(self.stream_id, self.players, self)
        self.beating = True

    async def disconnect(self, code: int) -> None:
        await super().disconnect(code)
        batches.leave(self.stream_id, self)
        if self.beating:
            await presences.beats.leave(self.stream_id, self)
        if self.presence_group:
            if self.entry is not None:
                await self.announce(remove=self.entry)
            await self.channel_layer.group_discard(self.presence_group, self.channel_name)

    async def stream_advanced(self, message: dict[str, Any]) -> None:
        """A commit: draw the table for this socket's user and send it, unless what is sent
        already shows that version (a drawing made after a later commit) or newer."""
        version = int(message["version"])
        if version <= self.shown:
            return
        if self.seat is None and self.presence is not None:
            # A spectator: the public drawing of this version, if another socket of this
            # process drew it already, costs no query. Only a spectator shown the stream's
            # own version ever stores it (a delayed one stores the older version it sees).
            shared = public_drawings.get(
                public_key(self.stream_id, version, self.language, self.presence)
            )
            if shared is not None:
                self.shown = version
                await self.send_frame(shared)
                return
        try:
            drawn = await batches.drawing(self.stream_id, self, version)
        except StreamNotFound:  # no longer allowed to watch (e.g. left the club)
            await self.close(code=FORBIDDEN)
            return
        except Exception:
            logger.exception("table %s: no drawing for version %s", self.stream_id, message)
            drawn = None
        if drawn is None:  # the page fetches the fragment instead
            await super().stream_advanced(message)
            return
        if drawn[0] <= self.shown:  # a delayed spectator whose shown version did not move
            return
        self.shown = drawn[0]
        await self.send_frame(drawn)

    def viewer_key(self) -> Hashable:
        """Sockets with equal keys get equal drawings (play.batches)."""
        user = self.scope.get("user")
        who = user.pk if getattr(user, "is_authenticated", False) else None
        return (who, self.seat, self.language, tuple(self.presence or ()))

    def viewer(self) -> dict[str, Any]:
        """This socket's drawing's arguments (play.consumers.draw_for), as they are now."""
        presence = list(self.presence) if self.presence is not None else None
        user = self.scope.get("user")
        return {"user": user, "seat": self.seat, "language": self.language, "presence": presence}

    async def send_frame(self, drawn: tuple[int, str]) -> None:
        """A ``table`` frame: the drawing and the version it shows."""
        version, html = drawn
        await self.send_json(
            {"type": "table", "stream": self.stream_id, "version": version, "html": html}
        )

    async def stream_presence(self, message: dict[str, Any]) -> None:
        """The seats connected changed (play.presence): tell the page."""
        self.presence = [bool(seat) for seat in message["seats"]]
        await self.send_json({"type": "presence", "seats": self.presence})

    async def announce(self, *, add: str | None = None, remove: str | None = None) -> list[bool]:
        """Update this socket's presence entry (play.presence.announce); the seats as they are
        now, as far as this socket knows when the store cannot be reached."""
        seats = await presences.announce(self.stream_id, self.players, add=add, remove=remove)
        if seats is not None:
            self.presence = seats
        return list(self.presence or [False] * self.players)
