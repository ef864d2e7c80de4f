"""The SQL of the append: lock a stream row, insert events, move the stream's head.

These statements are written in SQL: building them with the ORM cost more CPU than everything
else in an append. Values pass through their model fields' own conversion
(``get_db_prep_save``), so the statements are the same on both databases; what differs sits
behind one small interface, :class:`EventStore`, with a PostgreSQL and a SQLite
implementation chosen by ``connection.vendor`` (:func:`event_store`):

- PostgreSQL locks the row with ``SELECT … FOR UPDATE`` and sends the append as one statement,
  the stream's UPDATE in a ``WITH`` clause of the events' INSERT (one round trip less while
  the row is locked). psycopg prepares both after a few runs (settings.py).
- SQLite has no row locks (a write transaction serialises writers: settings.py) and runs the
  UPDATE, then the INSERT.

PostgreSQL can also append without the lock (:meth:`EventStore.append_at_version`): the stream
row is read with no lock and no transaction, the move validated, then one statement moves the
head only if the version is still the one read and inserts the event only if it did. That
statement is a transaction by itself, so a move costs two statements instead of BEGIN, the
lock, the append and COMMIT (the services fall back to the lock when the head moved meanwhile).

The services (:mod:`events.services`) decide what to write; this module only writes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from django.db import connection

from events.models import Event, Stream

_EVENT_FIELDS = [f for f in Event._meta.concrete_fields if not f.primary_key]
_EVENT_COLUMNS = ", ".join(f.column for f in _EVENT_FIELDS)
_EVENT_ROW = "(" + ", ".join(["%s"] * len(_EVENT_FIELDS)) + ")"
_SNAPSHOT = Stream._meta.get_field("snapshot")

# What the lock query brings of the stream row; the other JSON columns (options, result...)
# stay deferred: Django loads a deferred column if something reads it.
LOCKED_COLUMNS = (
    "game", "engine_version", "status", "version", "head_hash", "seed", "hash_format",
    "snapshot_version", "snapshot_engine", "context",
)  # fmt: skip
_CONTEXT = Stream._meta.get_field("context")


def head_columns(*, finished: bool = False, snapshot: bool = True) -> list[str]:
    """The stream columns an append changes: version and head hash, the result once
    ``finished``, the snapshot unless told not to."""
    columns = ["version", "head_hash", "snapshot_version"]
    if finished:
        columns += ["status", "result", "finished_at"]
    if snapshot:
        columns += ["snapshot", "snapshot_engine"]
    return columns


def lock_sql() -> str:
    """The lock query without its locking clause: the stream row's :data:`LOCKED_COLUMNS`,
    the seq and request digest of the key's first use, and the snapshot unless the caller's
    cached version is the stream's."""
    stream, event = f'"{Stream._meta.db_table}"', f'"{Event._meta.db_table}"'
    used = f"FROM {event} WHERE {event}.stream_id = {stream}.id AND idempotency_key = %s"
    columns = ", ".join(f'{stream}."{name}"' for name in LOCKED_COLUMNS)
    return (
        f"SELECT {columns}, (SELECT seq {used}), (SELECT request_digest {used}),"
        f" CASE WHEN {stream}.version = %s THEN NULL ELSE {stream}.snapshot END"
        f" FROM {stream} WHERE {stream}.id = %s"
    )


def update_stream_sql(stream: Stream, columns: Sequence[str]) -> tuple[str, list[Any]]:
    """UPDATE these columns of the stream row from the instance's values."""
    fields = [Stream._meta.get_field(name) for name in columns]
    assignments = ", ".join(f"{f.column} = %s" for f in fields)
    values = [f.get_db_prep_save(getattr(stream, f.attname), connection) for f in fields]
    values.append(Stream._meta.pk.get_db_prep_value(stream.pk, connection))
    return f"UPDATE {Stream._meta.db_table} SET {assignments} WHERE id = %s", values


def insert_events_sql(events: Sequence[Event]) -> tuple[str, list[Any]]:
    """INSERT the events in one statement, returning their ids in the same order."""
    rows = ", ".join([_EVENT_ROW] * len(events))
    values = [
        f.get_db_prep_save(getattr(e, f.attname), connection) for e in events for f in _EVENT_FIELDS
    ]
    return (
        f"INSERT INTO {Event._meta.db_table} ({_EVENT_COLUMNS}) VALUES {rows} RETURNING id",
        values,
    )


class EventStore:
    """The append's statements on one database; subclasses say how that database locks the
    row and sends the append. Call them inside the caller's transaction."""

    lock_query: str = lock_sql()
    read_query: str = lock_sql()
    #: Whether :meth:`append_at_version` can write a move without the row lock.
    appends_at_version: bool = False

    def lock_stream(
        self,
        pk: UUID,
        idempotency_key: str | None = None,
        *,
        cached_version: int | None = None,
        lock: bool = True,
    ) -> Stream | None:
        """Lock the stream row and load it (None when there is no such stream); with
        ``lock=False``, only read it, as it was when the query began.

        The same query says whether the key was used (``stream.key_seq`` and
        ``stream.key_digest``, None for a new key: the (stream, key) unique index answers
        the subqueries directly) and brings the snapshot only when ``cached_version``, the
        version of this process's cached state, is not the stream's: it is not sent for
        nothing. Deferred columns are loaded by Django if something reads them.
        """
        db_pk = Stream._meta.pk.get_db_prep_value(pk, connection)
        with connection.cursor() as cursor:
            cursor.execute(
                self.lock_query if lock else self.read_query,
                [idempotency_key, idempotency_key, cached_version, db_pk],
            )
            row = cursor.fetchone()
        if row is None:
            return None
        *columns, key_seq, key_digest, snapshot = row
        values = dict(zip(LOCKED_COLUMNS, columns, strict=True), id=pk)
        # The context (small: where the game belongs) says whether a move is followed.
        values["context"] = _CONTEXT.from_db_value(values["context"], None, connection)
        if cached_version != values["version"]:
            values["snapshot"] = _SNAPSHOT.from_db_value(snapshot, None, connection)
        names = [f.attname for f in Stream._meta.concrete_fields if f.attname in values]
        stream = Stream.from_db(connection.alias, names, [values[name] for name in names])
        stream.key_seq, stream.key_digest = key_seq, key_digest
        return stream

    def save_head(self, stream: Stream, columns: Sequence[str]) -> None:
        """Write these columns of the stream's new head (:func:`head_columns`) in one UPDATE."""
        sql, values = update_stream_sql(stream, columns)
        with connection.cursor() as cursor:
            cursor.execute(sql, values)

    def append(self, stream: Stream, events: Sequence[Event], columns: Sequence[str]) -> None:
        """Insert the events and update these columns of the stream's head; set the events'
        ids (RETURNING keeps the VALUES order)."""
        update, update_values = update_stream_sql(stream, columns)
        insert, insert_values = insert_events_sql(events)
        with connection.cursor() as cursor:
            self._execute_append(cursor, (update, update_values), (insert, insert_values))
            ids = [row[0] for row in cursor.fetchall()]
        for event, pk in zip(events, ids, strict=True):
            event.pk = pk
            event._state.adding = False
            event._state.db = connection.alias

    def _execute_append(
        self, cursor: Any, update: tuple[str, list[Any]], insert: tuple[str, list[Any]]
    ) -> None:
        raise NotImplementedError

    def append_at_version(
        self, stream: Stream, event: Event, columns: Sequence[str], version: int
    ) -> bool:
        """Insert ``event`` and update these columns of the stream's head in one statement,
        only if the stored version is still ``version``; False, with nothing written, if it is
        not. Raises IntegrityError if the event's idempotency key is already used."""
        raise NotImplementedError


def _insert_at_head_sql() -> str:
    """INSERT one event's values, selected from the ``head`` CTE: one row if it updated the
    stream, none if not. A value selected without a table has no type of its own, so each is
    cast to its column's type (without a length: the column's own limit still refuses)."""
    values = ", ".join(f"%s::{f.db_type(connection).partition('(')[0]}" for f in _EVENT_FIELDS)
    return (
        f"INSERT INTO {Event._meta.db_table} ({_EVENT_COLUMNS}) SELECT {values} FROM head"
        " RETURNING id"
    )


class PostgresEventStore(EventStore):
    """PostgreSQL: the row is locked ``FOR UPDATE``; the append is one statement (the UPDATE
    in a WITH clause of the INSERT, which runs even though nothing reads it). A move may also
    be appended without the lock (:meth:`append_at_version`)."""

    lock_query = lock_sql() + " FOR UPDATE"
    appends_at_version = True
    _insert_at_head: str | None = None

    def _execute_append(
        self, cursor: Any, update: tuple[str, list[Any]], insert: tuple[str, list[Any]]
    ) -> None:
        cursor.execute(f"WITH head AS ({update[0]}) {insert[0]}", update[1] + insert[1])

    def append_at_version(
        self, stream: Stream, event: Event, columns: Sequence[str], version: int
    ) -> bool:
        update, values = update_stream_sql(stream, columns)
        if self._insert_at_head is None:
            self._insert_at_head = _insert_at_head_sql()
        values.append(version)
        values += [f.get_db_prep_save(getattr(event, f.attname), connection) for f in _EVENT_FIELDS]
        with connection.cursor() as cursor:
            # The UPDATE's WHERE is checked again on the newest row if another append
            # committed meanwhile (READ COMMITTED): at most one of two racers matches.
            cursor.execute(
                f"WITH head AS ({update} AND version = %s RETURNING 1) {self._insert_at_head}",
                values,
            )
            row = cursor.fetchone()
        if row is None:
            return False
        event.pk = row[0]
        event._state.adding = False
        event._state.db = connection.alias
        return True


class SqliteEventStore(EventStore):
    """SQLite: no row lock (the write transaction serialises writers); UPDATE, then INSERT."""

    def _execute_append(
        self, cursor: Any, update: tuple[str, list[Any]], insert: tuple[str, list[Any]]
    ) -> None:
        cursor.execute(*update)
        cursor.execute(*insert)


_STORES: dict[str, EventStore] = {
    "postgresql": PostgresEventStore(),
    "sqlite": SqliteEventStore(),
}


def event_store() -> EventStore:
    """The store of the default database (PostgreSQL or SQLite: Herald runs on no other)."""
    try:
        return _STORES[connection.vendor]
    except KeyError:
        raise NotImplementedError(
            f"the event store runs on PostgreSQL or SQLite, not {connection.vendor}"
        ) from None
