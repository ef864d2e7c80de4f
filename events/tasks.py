"""Celery tasks of the event store: the outbox sweeper and a placeholder handler.

Tasks take ids, load, and call a service; they are idempotent (redelivery is harmless).
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from events.services import outbox_sweep


@shared_task(name="events.sweep_outbox", acks_late=True)
def sweep_outbox() -> int:
    """Send the outbox entries left pending (broker outage, crash after commit)."""
    return outbox_sweep()


@shared_task(name="events.outbox_noop", acks_late=True)
def outbox_noop(**payload: Any) -> dict[str, Any]:
    """Stands in for topics no app handles yet (e.g. before ratings routes "game.ended")."""
    return payload
