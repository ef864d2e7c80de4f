"""Celery tasks of the tournaments app. Each takes ids, calls a service and is idempotent."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from tournaments import services


@shared_task(name="tournaments.table_report_from_game", acks_late=True)
def table_report_from_game(table_id: int, **_: Any) -> int | None:
    """A Herald table reports itself from its finished game; returns the result's id.

    Idempotent: once the game's result is in the table's result stream, running it again
    changes nothing (``services.table_report_from_game``)."""
    result = services.table_report_from_game(table_id=table_id)
    return None if result is None else result.pk
