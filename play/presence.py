"""Presence at the table: which seats have their player connected, across server processes.

Each open table socket of a seated player (play.consumers.TableConsumer) holds one entry,
``"<seat>|<channel name>"``, that expires ``3 × HERALD_PRESENCE_HEARTBEAT`` seconds after its
last renewal; the socket renews it every heartbeat and removes it when it closes. A seat is
connected while it has an entry, so two tabs of one player count once and the seat goes away
when the last closes. If a server process dies, its sockets' entries are not removed: they
expire, and the next heartbeat of any socket on the stream (in another process) notices.

Where the entries live follows the channel layer, since presence must reach the same
processes the layer does:

- the Redis layer (``channels_redis``): a sorted set per stream in the layer's Redis (score:
  the entry's expiry time), and beside it the seats last announced. One Lua script removes
  the expired entries, adds or removes the caller's, computes the seats and swaps them for the
  announced ones, atomically, so of the sockets that see a change at once exactly one
  announces it;
- the in-memory layer (``make run``, one process): the same in a dictionary.

Every update answers ``(changed, seats)``: ``seats`` one boolean per seat, ``changed`` when
they differ from the seats last announced (the caller then sends them to the stream's
presence group). Presence is public: everyone at the table sees who is connected.

The heartbeat is one per stream and server process (:class:`StreamBeats`), not one per
socket: it renews the entries of all the stream's sockets in that process in one update. A
hall of 250 tables with four players and a spectator each then costs a socket server 17 updates
a second rather than 83.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import threading
import time
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, cast
from uuid import UUID

import redis
import redis.asyncio as aioredis
from channels.layers import get_channel_layer
from django.conf import settings

from herald.layers import blocking_pool, is_redis_layer

PRESENCE = "stream.presence"  # the group message's type: TableConsumer.stream_presence
BEATS_TO_EXPIRE = 3  # an entry outlives this many missed heartbeats
KEEP_SECONDS = 6 * 3600  # an idle stream's keys leave Redis after this long

logger = logging.getLogger(__name__)


def heartbeat() -> float:
    """Seconds between two renewals of a socket's entry (``HERALD_PRESENCE_HEARTBEAT``)."""
    return float(getattr(settings, "HERALD_PRESENCE_HEARTBEAT", 15.0))


def lifetime() -> float:
    """Seconds an entry lives without renewal."""
    return BEATS_TO_EXPIRE * heartbeat()


def presence_group(stream_id: UUID | str) -> str:
    """The channel-layer group of a stream's table sockets, for presence messages (its own
    group: the event store's version-only sockets have no use for them)."""
    return f"presence.{UUID(str(stream_id)).hex}"


def presence_message(seats: list[bool]) -> dict[str, Any]:
    """The group message: one boolean per seat."""
    return {"type": PRESENCE, "seats": list(seats)}


def member(seat: int, channel: str) -> str:
    """A socket's entry: its seat and its channel name (unique per socket)."""
    return f"{seat}|{channel}"


def seats_of(members: list[str], players: int) -> list[bool]:
    """One boolean per seat: whether some entry names it."""
    seats = [False] * players
    for entry in members:
        seat, _, _ = entry.partition("|")
        if seat.isdigit() and int(seat) < players:
            seats[int(seat)] = True
    return seats


def entries_of(add: str | Iterable[str] | None) -> tuple[str, ...]:
    """The entries to add: none, one, or several."""
    if add is None:
        return ()
    if isinstance(add, str):
        return (add,)
    return tuple(add)


class PresenceStore(Protocol):
    """Where entries live; ``now`` is a Unix time (tests pass their own)."""

    async def update(
        self,
        stream_id: str,
        players: int,
        *,
        add: str | Iterable[str] | None = None,
        remove: str | None = None,
        now: float | None = None,
    ) -> tuple[bool, list[bool]]:
        """Drop expired entries, add (or renew) ``add`` (one entry or several), remove
        ``remove``; the seats, and whether they differ from the ones last announced (which
        they then replace)."""
        ...

    def seats(self, stream_id: str, players: int, *, now: float | None = None) -> list[bool]:
        """The seats connected now (synchronous: for drawing a page)."""
        ...


@dataclass
class MemoryPresence:
    """Entries in this process (the in-memory channel layer serves one process only)."""

    entries: dict[str, dict[str, float]] = field(default_factory=dict)
    announced: dict[str, list[bool]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def update(
        self,
        stream_id: str,
        players: int,
        *,
        add: str | Iterable[str] | None = None,
        remove: str | None = None,
        now: float | None = None,
    ) -> tuple[bool, list[bool]]:
        now = time.time() if now is None else now
        with self.lock:
            entries = self._live(stream_id, now)
            for entry in entries_of(add):
                entries[entry] = now + lifetime()
            if remove is not None:
                entries.pop(remove, None)
            seats = seats_of(list(entries), players)
            changed = self.announced.get(stream_id) != seats
            self.announced[stream_id] = seats
            if not entries:
                self.entries.pop(stream_id, None)
            return changed, seats

    def seats(self, stream_id: str, players: int, *, now: float | None = None) -> list[bool]:
        now = time.time() if now is None else now
        with self.lock:
            entries = self.entries.get(stream_id, {})
            return seats_of([m for m, until in entries.items() if until > now], players)

    def _live(self, stream_id: str, now: float) -> dict[str, float]:
        entries = self.entries.setdefault(stream_id, {})
        for name in [m for m, until in entries.items() if until <= now]:
            del entries[name]
        return entries


# KEYS: the entries (sorted set), the seats last announced (a string of 0 and 1).
# ARGV: now, the entries' expiry, the entry to remove ("" none), the number of seats, how long
# the keys stay, then the entries to add or renew (none, one or several).
UPDATE_SCRIPT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
for i = 6, #ARGV do redis.call('ZADD', KEYS[1], ARGV[2], ARGV[i]) end
if ARGV[3] ~= '' then redis.call('ZREM', KEYS[1], ARGV[3]) end
local players = tonumber(ARGV[4])
local seats = {}
for i = 1, players do seats[i] = '0' end
for _, entry in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local seat = tonumber(string.match(entry, '^(%d+)|'))
  if seat and seat < players then seats[seat + 1] = '1' end
end
local shown = table.concat(seats)
local before = redis.call('GET', KEYS[2])
redis.call('SET', KEYS[2], shown, 'EX', ARGV[5])
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('EXPIRE', KEYS[1], ARGV[5]) end
if before == shown then return {0, shown} end
return {1, shown}
"""


@dataclass
class RedisPresence:
    """Entries in the channel layer's Redis, shared by every server process."""

    url: str
    prefix: str
    _sync: redis.Redis | None = None
    _async: tuple[asyncio.AbstractEventLoop, Any] | None = None

    def keys(self, stream_id: str) -> list[str]:
        hexed = UUID(stream_id).hex
        return [f"{self.prefix}:presence:{hexed}", f"{self.prefix}:presence-shown:{hexed}"]

    def _script(self) -> Any:
        # A client belongs to the event loop it was made on (daphne has one; tests make more).
        # The script is sent by its digest (EVALSHA), and in full only when Redis lacks it.
        loop = asyncio.get_running_loop()
        if self._async is None or self._async[0] is not loop:
            client = aioredis.Redis(connection_pool=blocking_pool(self.url))
            self._async = (loop, client.register_script(UPDATE_SCRIPT))
        return self._async[1]

    async def update(
        self,
        stream_id: str,
        players: int,
        *,
        add: str | Iterable[str] | None = None,
        remove: str | None = None,
        now: float | None = None,
    ) -> tuple[bool, list[bool]]:
        now = time.time() if now is None else now
        answer = await cast(
            Awaitable[list[Any]],
            self._script()(
                keys=self.keys(stream_id),
                args=[
                    repr(now),
                    repr(now + lifetime()),
                    remove or "",
                    players,
                    KEEP_SECONDS,
                    *entries_of(add),
                ],
            ),
        )
        changed, shown = int(answer[0]), answer[1]
        text = shown.decode() if isinstance(shown, bytes) else str(shown)
        return bool(changed), [c == "1" for c in text]

    def seats(self, stream_id: str, players: int, *, now: float | None = None) -> list[bool]:
        now = time.time() if now is None else now
        if self._sync is None:
            self._sync = redis.Redis.from_url(self.url, socket_timeout=2)
        live = cast(list[bytes], self._sync.zrangebyscore(self.keys(stream_id)[0], now, "+inf"))
        return seats_of([entry.decode() for entry in live], players)


_stores: dict[tuple[str, str], PresenceStore] = {}
_memory = MemoryPresence()


def presence_store() -> PresenceStore:
    """The store that matches the default channel layer (settings.CHANNEL_LAYERS)."""
    layer = settings.CHANNEL_LAYERS.get("default", {})
    if not is_redis_layer(str(layer.get("BACKEND", ""))):
        return _memory
    config = layer.get("CONFIG", {})
    host = config.get("hosts", [""])[0]
    url = host if isinstance(host, str) else str(host.get("address", ""))
    prefix = str(config.get("prefix", "asgi"))
    key = (url, prefix)
    if key not in _stores:
        _stores[key] = RedisPresence(url=url, prefix=prefix)
    return _stores[key]


def seats_connected(stream_id: UUID | str, players: int) -> list[bool]:
    """Which seats of the stream have their player connected now (for drawing the table).
    All False when the store cannot be read: the live page corrects it from its socket."""
    try:
        return presence_store().seats(str(stream_id), players)
    except (redis.RedisError, OSError):
        return [False] * players


async def announce(
    stream_id: str,
    players: int,
    *,
    add: str | Iterable[str] | None = None,
    remove: str | None = None,
) -> list[bool] | None:
    """Update the stream's entries (:meth:`PresenceStore.update`); when the seats connected
    changed, send them to the stream's table sockets in every process. The seats as they are
    now, or None when the store could not be reached (presence then waits for the next beat).
    """
    try:
        changed, seats = await presence_store().update(stream_id, players, add=add, remove=remove)
        if changed:
            layer = get_channel_layer()
            if layer is not None:
                await layer.group_send(presence_group(stream_id), presence_message(seats))
    except Exception as exc:  # Redis away
        logger.warning("table %s: presence not updated (%s)", stream_id, exc)
        return None
    return seats


class Beating(Protocol):
    """A table socket, as its stream's heartbeat sees it."""

    entry: str | None  # its presence entry; None for a spectator


@dataclass
class StreamBeats:
    """One heartbeat per stream in this server process, for all its table sockets here.

    Each beat renews the entries of the stream's sockets in this process in one update, which
    on the way expires the entries of sockets whose process died and announces the change. A
    stream's beat starts with its first socket here and stops with its last.

    The first beat comes at a random point of the first heartbeat. Streams whose sockets
    opened together (every page of a hall reconnecting after a restart) would otherwise beat
    together for as long as they stay: a burst of Redis round trips on the event loop every
    heartbeat, which the moves drawn meanwhile would wait for.
    """

    sockets: dict[str, set[Beating]] = field(default_factory=dict)
    beats: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    # Held by a beat from reading the entries until Redis has them, so that a socket that
    # left is not renewed after its entry was removed.
    locks: dict[str, asyncio.Lock] = field(default_factory=dict)

    def join(self, stream_id: str, players: int, socket: Beating) -> None:
        """``socket`` is open on the stream: its entry is renewed from now on."""
        self.sockets.setdefault(stream_id, set()).add(socket)
        if stream_id not in self.beats:
            self.locks[stream_id] = asyncio.Lock()
            self.beats[stream_id] = asyncio.create_task(self._beat(stream_id, players))

    async def leave(self, stream_id: str, socket: Beating) -> None:
        """``socket`` closes: its entry is no longer renewed (a beat under way has finished
        when this returns, so the entry may be removed then); the beat stops with the last."""
        sockets = self.sockets.get(stream_id)
        if sockets is None:
            return
        sockets.discard(socket)
        async with self.locks[stream_id]:
            pass
        if sockets or self.sockets.get(stream_id) is not sockets:
            return  # others remain, or a socket closing with it stopped the beat already
        del self.sockets[stream_id]
        del self.locks[stream_id]
        beat = self.beats.pop(stream_id)
        beat.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await beat

    def entries(self, stream_id: str) -> list[str]:
        """The presence entries of the stream's sockets in this process."""
        return [s.entry for s in self.sockets.get(stream_id, ()) if s.entry is not None]

    async def _beat(self, stream_id: str, players: int) -> None:
        every = heartbeat()
        await asyncio.sleep(every * random.random())
        while True:
            async with self.locks[stream_id]:
                await announce(stream_id, players, add=self.entries(stream_id))
            await asyncio.sleep(every)


beats = StreamBeats()
