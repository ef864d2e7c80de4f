"""Celery tasks of the event store: the outbox sweeper and a placeholder handler.

Tasks take ids, load, and call a service; they are idempotent (redelivery is harmless).
A task the outbox sent marks its entry done when it succeeds (``task_success`` below), so the
sweeper sends again only the entries whose task never finished.
"""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task
from celery.signals import task_success

from events.live import advanced_message, stream_group
from events.outbox import outbox_entry_of, outbox_sweep, outbox_task_done
from herald.layers import group_send


@shared_task(name="events.sweep_outbox", acks_late=True)
def sweep_outbox() -> int:
    """Send the outbox entries left pending (broker outage, crash after commit, killed worker)."""
    return outbox_sweep()


@shared_task(name="events.outbox_noop", acks_late=True)
def outbox_noop(**payload: Any) -> dict[str, Any]:
    """Stands in for topics no app handles yet (e.g. before ratings routes "game.ended")."""
    return payload


@shared_task(name="events.send_stream_advanced", acks_late=True)
def send_stream_advanced(*, stream: str, version: int) -> bool:
    """The outbox's fallback for a live message the committing process could not send: send it
    now. Raises while the channel layer is down, so the entry stays undone and is sent again."""
    group_send(stream_group(stream), advanced_message(stream, version))
    return True


@task_success.connect
def _outbox_entry_done(sender: Task | None = None, **_: Any) -> None:
    """Whatever task an outbox entry was routed to, its success marks the entry done."""
    entry_id = None if sender is None else outbox_entry_of(sender.request)
    if entry_id is not None:
        outbox_task_done(entry_id=entry_id)
