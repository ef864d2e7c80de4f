"""One version of a stream as the table sockets of a process draw it: read once, drawn many times.

After a commit every table socket of the stream draws the table for its own viewer
(play.consumers). What those drawings read from the database is the same for all of them: the
stream row (with its snapshot, hence the state), each seat's player by name, the tournament
table, the last events. A process reads it once per version (:func:`moment_at`) and each of its
sockets draws from it, so a move costs one set of queries per socket server rather than one per
socket; what stays per socket is the viewer's own view, legal moves and template.

A moment holds the newest version a socket of this process asked for; a socket asking for an
older version is drawn the newer one (it skips a version, as a drawing made after a later
commit always did). Facts that change without a new version (a display name edited, the
tournament's spectator delay) reach the sockets within :data:`FACTS_FOR`. Bounded (least
recently used stream out) and per process.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any
from uuid import UUID

from django.db import connection

from events.access import StreamAccess, access_to_stream, stream_spectator_delay
from events.errors import StreamNotFound
from events.models import Event, Stream
from events.states import hold_state
from play.selectors import LAST_MOVES, StreamFacts, stream_facts


@dataclass
class Moment:
    """A stream at one version, with what every drawing of it reads."""

    stream: Stream
    facts: StreamFacts
    recent: tuple[Event, ...]  # the last LAST_MOVES events up to the stream's version
    facts_read_at: float = 0.0  # time.monotonic() when the facts were read
    #: The spectator delay the previous moment read, lent with its facts (None: ask).
    lent_delay: int | None = None
    #: The spectators (by user id) found not to be arbiters since the facts were read, lent
    #: with them: a spectator's drawing otherwise asks the database on every move (a round
    #: trip in the one thread that draws every table of the process; at bench/live.py's level
    #: 3, where each table has one, about a tenth of that thread's time). Only "not an
    #: arbiter" is kept: a spectator made arbiter is drawn the hidden view within
    #: :data:`FACTS_FOR` (a page reloaded at once), and an arbiter whose role is taken away
    #: is asked again on the next move, as before.
    not_arbiters: set[Any] = field(default_factory=set)

    @property
    def version(self) -> int:
        return int(self.stream.version)

    @cached_property
    def spectator_delay(self) -> int:
        """The watch rules' delay for the stream's plain spectators: asked when one is drawn,
        then lent to the next moments with the facts. It is a setting of the tournament, like
        the names: asked on every move, it was a three-table query per move in a socket server
        (about a millisecond of its thread, a tenth of a move's work at bench/live.py's level
        3), and an organiser who changes it reaches the open sockets within
        :data:`FACTS_FOR`, as a page reloaded reaches it at once."""
        if self.lent_delay is not None:
            return self.lent_delay
        return stream_spectator_delay(self.stream)

    def known_delay(self) -> int | None:
        """The spectator delay if this moment has it already (asked, or lent)."""
        known = self.__dict__.get("spectator_delay", self.lent_delay)
        return None if known is None else int(known)

    def access(self, user: Any, seat: int | None) -> StreamAccess:
        """``user``'s access at this moment (StreamNotFound when they may not see it)."""
        if seat is not None:
            return access_to_stream(user, self.stream, seat)
        who = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
        found = who is not None and who in self.not_arbiters
        access = access_to_stream(
            user, self.stream, None, known_delay=self.spectator_delay, not_arbiter=found
        )
        if who is not None and not found and not access.privileged:
            self.not_arbiters.add(who)
        return access


#: Seconds a moment's facts (seats' names, the tournament table, the spectator delay) serve
#: the stream's next versions before they are read again: they never change with a move, and
#: a display name edited or a delay changed meanwhile reaches the sockets within this time.
FACTS_FOR = 60.0


def read_moment(stream_id: UUID, previous: Moment | None = None) -> Moment:
    """The stream as it is now (StreamNotFound when there is none). One query when the
    ``previous`` moment of the stream lends its facts and events and the stream has moved on
    since, five at most otherwise."""
    if previous is not None:
        moment = _moment_after(stream_id, previous)
        if moment is not None:
            return moment
    stream = Stream.objects.filter(pk=stream_id).first()
    if stream is None:
        raise StreamNotFound(f"there is no game stream {stream_id}")
    after = max(stream.version - LAST_MOVES, 0)
    kept: tuple[Event, ...] = ()
    if previous is not None and previous.version <= stream.version:
        kept = tuple(e for e in previous.recent if e.seq > after)
        after = max(after, previous.version)
    fresh = Event.objects.filter(stream=stream, seq__gt=after, seq__lte=stream.version)
    recent = kept + tuple(fresh.order_by("seq"))
    return _moment(stream, recent, previous)


class _NewestEvents:
    """The statement behind :func:`_moment_after`, written once per process.

    ``Event.objects.select_related("stream").filter(stream_id=…, seq__gt=…).order_by("-seq")``
    cut to :data:`LAST_MOVES`, without the ORM: compiling that query took about half of a
    moment's read, once per move in every socket server. The rows' values pass through the
    converters the ORM would apply (the backend's, then each field's: JSON parsed, dates made
    aware), so the models are the ones the queryset built.
    """

    def __init__(self) -> None:
        self.sql = ""
        self.event_fields = list(Event._meta.concrete_fields)
        self.stream_fields = list(Stream._meta.concrete_fields)
        self.event_names = [f.attname for f in self.event_fields]
        self.stream_names = [f.attname for f in self.stream_fields]
        self.converters: list[list[Any]] = []
        self.columns: list[Any] = []

    def prepare(self) -> None:
        quote = connection.ops.quote_name
        event, stream = Event._meta.db_table, Stream._meta.db_table
        fields = [(event, f) for f in self.event_fields] + [(stream, f) for f in self.stream_fields]
        self.columns = [f.get_col(table) for table, f in fields]
        self.converters = [
            connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            for col in self.columns
        ]
        selected = ", ".join(f"{quote(table)}.{quote(f.column)}" for table, f in fields)
        of_stream = f"{quote(event)}.{quote(Event._meta.get_field('stream').column)}"
        seq = f"{quote(event)}.{quote(Event._meta.get_field('seq').column)}"
        self.sql = (
            f"SELECT {selected} FROM {quote(event)} INNER JOIN {quote(stream)}"
            f" ON {of_stream} = {quote(stream)}.{quote(Stream._meta.pk.column)}"
            f" WHERE {of_stream} = %s AND {seq} > %s ORDER BY {seq} DESC LIMIT %s"
        )

    def read(self, stream_id: UUID, after: int) -> tuple[list[Event], Stream | None]:
        """The stream's events after seq ``after``, newest first, and its row (None if no
        event)."""
        if not self.sql:
            self.prepare()
        db_id = Event._meta.get_field("stream").get_db_prep_value(stream_id, connection)
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [db_id, after, LAST_MOVES])
            rows = cursor.fetchall()
        split = len(self.event_fields)
        events = [
            Event.from_db(connection.alias, self.event_names, self._converted(row[:split]))
            for row in rows
        ]
        if not rows:
            return events, None
        # Every row carries the stream row: the first one's is built, once.
        values = self._converted(rows[0][split:], offset=split)
        return events, Stream.from_db(connection.alias, self.stream_names, values)

    def _converted(self, values: Sequence[Any], offset: int = 0) -> list[Any]:
        converted = []
        for index, stored in enumerate(values, start=offset):
            value = stored
            for convert in self.converters[index]:
                value = convert(value, self.columns[index], connection)
            converted.append(value)
        return converted


_newest_events = _NewestEvents()


def _moment_after(stream_id: UUID, previous: Moment) -> Moment | None:
    """The stream's next moment in one query: its newest events since ``previous`` (at most
    :data:`LAST_MOVES`), with the stream row joined. One statement sees one snapshot of the
    database, and an append writes its events and the row's version together, so the newest
    event read is the row's version. None when there is no newer event (the caller reads the
    row alone: a stream gone, or one that did not move)."""
    newest, stream = _newest_events.read(stream_id, previous.version)
    if stream is None or newest[0].seq != stream.version:
        return None
    after = max(stream.version - LAST_MOVES, 0)
    kept = tuple(e for e in previous.recent if e.seq > after)
    return _moment(stream, kept + tuple(reversed(newest)), previous)


def _moment(stream: Stream, recent: tuple[Event, ...], previous: Moment | None) -> Moment:
    """The moment of ``stream`` with its ``recent`` events; the facts lent by ``previous``
    while they are fresh, else read (three queries)."""
    if previous is not None and time.monotonic() - previous.facts_read_at < FACTS_FOR:
        facts, read_at = previous.facts, previous.facts_read_at
        delay, not_arbiters = previous.known_delay(), previous.not_arbiters
    else:
        facts, read_at, delay, not_arbiters = stream_facts(stream), time.monotonic(), None, set()
    # The state now, in place of the parsed snapshot (events.states.hold_state): the moment
    # lives until the table's next move. A state that does not decode is left to the drawing,
    # which reports it as it always did.
    with contextlib.suppress(Exception):
        hold_state(stream)
    return Moment(
        stream=stream,
        facts=facts,
        recent=recent,
        facts_read_at=read_at,
        lent_delay=delay,
        not_arbiters=not_arbiters,
    )


class Moments:
    """The newest moment read of each stream, for the sockets of this process."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._items: OrderedDict[UUID, Moment] = OrderedDict()
        self._lock = threading.Lock()
        self.reads = 0

    def at_least(self, stream_id: UUID, version: int) -> Moment:
        """A moment of the stream at ``version`` or later: the one held, or read now."""
        with self._lock:
            held = self._items.get(stream_id)
            if held is not None and held.version >= version:
                self._items.move_to_end(stream_id)
                return held
        moment = read_moment(stream_id, held)
        with self._lock:
            self.reads += 1
            held = self._items.get(stream_id)
            if held is None or held.version < moment.version:
                self._items[stream_id] = moment
                self._items.move_to_end(stream_id)
                while len(self._items) > self.size:
                    self._items.popitem(last=False)
        return moment

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.reads = 0


moments = Moments()


def moment_at(stream_id: UUID | str, version: int) -> Moment:
    """The stream at ``version`` or later, read at most once per version in this process."""
    return moments.at_least(UUID(str(stream_id)), version)
