"""Changing a stored game behind the event store's back, as a test of what notices it must."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.db import connection, transaction

from events.hashing import event_hash
from events.models import GENESIS_HASH, Event, Stream


def stream_tamper(stream_id: Any, **columns: Any) -> None:
    """Set ``columns`` of a stream row, past its guard trigger (events/migrations/0006).

    The trigger refuses such edits on PostgreSQL; it is switched off inside this transaction
    only, as a person with the table owner's rights could do.
    """
    postgres = connection.vendor == "postgresql"
    with transaction.atomic(), connection.cursor() as cursor:
        if postgres:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending FK checks before ALTER
            cursor.execute("ALTER TABLE events_stream DISABLE TRIGGER events_stream_guard")
        Stream.objects.filter(pk=stream_id).update(**columns)
        if postgres:
            cursor.execute("ALTER TABLE events_stream ENABLE TRIGGER events_stream_guard")


def careful_tamper(stream_id: Any, seq: int, edit: Callable[[dict[str, Any]], None]) -> None:
    """Edit event ``seq``'s payload and recompute the hash chain from it to the stream's head.

    What someone with the database's owner rights and the source code could do: the chain
    then checks out, and only replaying the game shows the edit. PostgreSQL only (the append-
    only triggers are switched off inside this transaction).
    """
    stream = Stream.objects.get(pk=stream_id)
    events = list(Event.objects.filter(stream_id=stream_id).order_by("seq"))
    edit(events[seq - 1].payload)
    previous = events[seq - 2].hash if seq > 1 else GENESIS_HASH
    for event in events[seq - 1 :]:
        event.prev_hash = previous
        event.hash = event_hash(event, seed=stream.seed, hash_format=stream.hash_format)
        previous = event.hash
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE events_event DISABLE TRIGGER events_event_append_only")
        cursor.execute("ALTER TABLE events_stream DISABLE TRIGGER events_stream_guard")
        for event in events[seq - 1 :]:
            cursor.execute(
                "UPDATE events_event SET payload = %s::jsonb, prev_hash = %s, hash = %s"
                " WHERE id = %s",
                [json.dumps(event.payload), event.prev_hash, event.hash, event.pk],
            )
        cursor.execute(
            "UPDATE events_stream SET head_hash = %s WHERE id = %s", [previous, stream_id]
        )
        cursor.execute("ALTER TABLE events_stream ENABLE TRIGGER events_stream_guard")
        cursor.execute("ALTER TABLE events_event ENABLE TRIGGER events_event_append_only")
