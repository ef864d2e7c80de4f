"""The outbox: work for Celery written in the transaction of the fact that caused it.

An entry (:class:`events.models.OutboxEntry`) is written with the fact (a game's end, a
ruling), sent on commit to the Celery task its topic is routed to, and sent again by the sweep
when the broker was down or the task never reported done. Tasks must be idempotent.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from events.models import OutboxEntry
from herald.celery import app

logger = logging.getLogger(__name__)

BROKER_TIMEOUT = 2.0  # seconds to reach the broker before leaving an entry to the sweeper
DEFAULT_OUTBOX_ROUTES = {
    "game.ended": "events.outbox_noop",
    "ruling.made": "events.outbox_noop",
    # A paper tournament table's result changed (tournaments.services.results); the ratings
    # app routes it to its pool (settings.HERALD_OUTBOX_ROUTES).
    "table.result": "events.outbox_noop",
    # A move of a stream whose turns are followed (events.services.TURN_NOTICE).
    "stream.turn": "events.outbox_noop",
    # A live message the committing process could not send (events.live).
    "stream.advanced": "events.send_stream_advanced",
}
OUTBOX_ENTRY_HEADER = "herald_outbox_entry"  # task message header naming the outbox entry


def outbox_routes() -> dict[str, str]:
    """Topic → Celery task name: the defaults, extended by ``settings.HERALD_OUTBOX_ROUTES``."""
    return {**DEFAULT_OUTBOX_ROUTES, **getattr(settings, "HERALD_OUTBOX_ROUTES", {})}


def outbox_publish(*, topic: str, payload: Mapping[str, Any]) -> OutboxEntry:
    """Write an entry in the caller's transaction; it is sent to Celery once that commits.

    If the broker is down then, the entry stays pending and the sweeper sends it later.
    """
    if topic not in outbox_routes():
        raise ValueError(f"no Celery task is routed for outbox topic {topic!r}")
    entry = OutboxEntry.objects.create(topic=topic, payload=dict(payload))
    transaction.on_commit(lambda: outbox_dispatch(entry_id=entry.pk))
    return entry


def outbox_dispatch(*, entry_id: int) -> bool:
    """Send one pending entry to its task and mark it dispatched; False if it stays pending."""
    with transaction.atomic():
        entry = (
            OutboxEntry.objects.select_for_update(skip_locked=True)
            .filter(pk=entry_id, dispatched_at__isnull=True)
            .first()
        )
        return entry is not None and _send(entry)


def outbox_sweep(*, limit: int = 100) -> int:
    """Send the entries nobody else is sending now; returns how many went out.

    Those are the pending ones (the broker was down) and the ones dispatched more than
    ``HERALD_OUTBOX_REDELIVER_AFTER`` seconds ago whose task never reported done: its worker
    was killed, and the broker would hand the message out again only after its visibility
    timeout (an hour). Tasks are idempotent, so a slow task sent twice is harmless; an entry
    is sent again at most ``HERALD_OUTBOX_MAX_ATTEMPTS`` times in all.
    """
    sent = 0
    with transaction.atomic():
        for entry in _sweepable_entries()[:limit]:
            if entry.dispatched_at is not None:
                logger.warning(
                    "outbox entry %s sent again: its task has not reported done since %s",
                    entry.pk,
                    entry.dispatched_at.isoformat(),
                )
            sent += _send(entry)
    return sent


def _sweepable_entries() -> Any:
    """Pending entries, and dispatched ones left undone for too long, oldest first, locked."""
    stale = timezone.now() - timedelta(seconds=settings.HERALD_OUTBOX_REDELIVER_AFTER)
    redeliver = Q(dispatched_at__lte=stale, attempts__lt=settings.HERALD_OUTBOX_MAX_ATTEMPTS)
    return (
        OutboxEntry.objects.select_for_update(skip_locked=True)
        .filter(done_at__isnull=True)
        .filter(Q(dispatched_at__isnull=True) | redeliver)
        .order_by("id")
    )


def _send(entry: OutboxEntry) -> bool:
    """Enqueue the entry's task; record success or the error. Never raises for a broker fault."""
    entry.attempts += 1
    try:
        _enqueue(outbox_routes()[entry.topic], entry.payload, entry_id=entry.pk)
    except Exception as exc:
        entry.last_error = f"{exc.__class__.__name__}: {exc}"[:1000]
        OutboxEntry.objects.filter(pk=entry.pk).update(
            attempts=entry.attempts, last_error=entry.last_error
        )
        logger.warning("outbox entry %s not sent (will retry): %s", entry.pk, entry.last_error)
        return False
    entry.dispatched_at = timezone.now()
    OutboxEntry.objects.filter(pk=entry.pk).update(
        attempts=entry.attempts, dispatched_at=entry.dispatched_at, last_error=""
    )
    return True


def _enqueue(name: str, kwargs: dict[str, Any], *, entry_id: int) -> None:
    """Publish one task message, failing fast when the broker is down (the sweeper retries).

    Without the explicit connection, kombu would retry for many seconds inside the request
    that finished the game. The message carries the entry's id in a header, so that the
    worker can mark the entry done when the task succeeds (``outbox_task_done``).
    """
    headers = {OUTBOX_ENTRY_HEADER: entry_id}
    task = app.tasks.get(name)
    if app.conf.task_always_eager and task is not None:
        task.apply_async(kwargs=kwargs, headers=headers)
        return
    with app.connection_for_write() as connection:
        connection.ensure_connection(max_retries=1, interval_start=0, timeout=BROKER_TIMEOUT)
        if task is not None:
            task.apply_async(kwargs=kwargs, headers=headers, connection=connection, retry=False)
        else:
            app.send_task(name, kwargs=kwargs, headers=headers, connection=connection, retry=False)


def outbox_entry_of(request: Any) -> int | None:
    """The outbox entry a Celery task request was sent for, or None (not sent by the outbox).

    A worker exposes custom message headers as attributes of the request; an eager call
    keeps them in ``request.headers``.
    """
    entry_id = getattr(request, OUTBOX_ENTRY_HEADER, None)
    if entry_id is None:
        entry_id = (getattr(request, "headers", None) or {}).get(OUTBOX_ENTRY_HEADER)
    return None if entry_id is None else int(entry_id)


def outbox_task_done(*, entry_id: int) -> bool:
    """Mark the entry done (its task succeeded): the sweeper no longer sends it. Idempotent."""
    done = OutboxEntry.objects.filter(pk=entry_id, done_at__isnull=True)
    return bool(done.update(done_at=timezone.now()))
