"""Changing a stored game behind the event store's back, as a test of what notices it must."""

from __future__ import annotations

from typing import Any

from django.db import connection, transaction

from events.models import Stream


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
