"""Changing a stored game behind the event store's back, as a test of what notices it must.

On PostgreSQL the append-only triggers (events/migrations/0002, 0006) refuse such edits: they
are switched off inside the tampering transaction only, as a person with the table owner's
rights could do. SQLite has no such triggers (the models refuse changes, and raw SQL goes
around them), so the same edits are plain UPDATEs there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction

from events.hashing import event_hash
from events.models import GENESIS_HASH, Event, Stream

_TRIGGERS = {"events_event": "events_event_append_only", "events_stream": "events_stream_guard"}


@contextmanager
def _guards_off(*tables: str) -> Iterator[Any]:
    """A cursor in a transaction where the guard triggers of ``tables`` are off (PostgreSQL)."""
    postgres = connection.vendor == "postgresql"
    with transaction.atomic(), connection.cursor() as cursor:
        if postgres:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending FK checks before ALTER
            for table in tables:
                cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER {_TRIGGERS[table]}")
        yield cursor
        if postgres:
            for table in reversed(tables):
                cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER {_TRIGGERS[table]}")


def _write_events(cursor: Any, events: list[Event]) -> None:
    """UPDATE the events' payload and hashes, each value in its field's own database form."""
    fields = [Event._meta.get_field(name) for name in ("payload", "prev_hash", "hash")]
    assignments = ", ".join(f"{field.column} = %s" for field in fields)
    for event in events:
        values = [
            field.get_db_prep_save(getattr(event, field.attname), connection) for field in fields
        ]
        cursor.execute(f"UPDATE events_event SET {assignments} WHERE id = %s", [*values, event.pk])


def stream_tamper(stream_id: Any, **columns: Any) -> None:
    """Set ``columns`` of a stream row, past its guard trigger (events/migrations/0006)."""
    with _guards_off("events_stream"):
        Stream.objects.filter(pk=stream_id).update(**columns)


def event_tamper(stream_id: Any, seq: int, edit: Callable[[dict[str, Any]], None]) -> None:
    """Edit event ``seq``'s payload in place, leaving its hash as it was: the chain breaks there."""
    event = Event.objects.get(stream_id=stream_id, seq=seq)
    edit(event.payload)
    with _guards_off("events_event") as cursor:
        _write_events(cursor, [event])


def careful_tamper(stream_id: Any, seq: int, edit: Callable[[dict[str, Any]], None]) -> None:
    """Edit event ``seq``'s payload and recompute the hash chain from it to the stream's head.

    What someone with the database's owner rights and the source code could do: the chain
    then checks out, and only replaying the game shows the edit.
    """
    stream = Stream.objects.get(pk=stream_id)
    events = list(Event.objects.filter(stream_id=stream_id).order_by("seq"))
    edit(events[seq - 1].payload)
    previous = events[seq - 2].hash if seq > 1 else GENESIS_HASH
    for event in events[seq - 1 :]:
        event.prev_hash = previous
        event.hash = event_hash(event, seed=stream.seed, hash_format=stream.hash_format)
        previous = event.hash
    with _guards_off("events_event", "events_stream") as cursor:
        _write_events(cursor, events[seq - 1 :])
        Stream.objects.filter(pk=stream_id).update(head_hash=previous)
