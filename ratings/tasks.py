"""Celery tasks of the ratings app: verify a finished game, rate a pool, recompute a pool.

Each takes ids, calls a service and is idempotent, so ``acks_late`` redelivery after a worker
dies is harmless: the services do their work in transactions and check what is already done.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings

from ratings import reported, services, verification


@shared_task(name="ratings.verify_game", acks_late=True)
def verify_game(stream: str, **_: Any) -> dict[str, Any]:
    """Verify the finished game of stream id ``stream``, then rate its pool (outbox "game.ended").

    The outbox sends its entry's payload as keyword arguments (``stream=<id>``); extra keys
    are ignored so the payload can grow.
    """
    outcome = verification.game_verify_and_rate(stream_id=stream)
    checked = outcome.verification
    return {
        "stream": stream,
        "ok": None if checked is None else checked.ok,
        "skipped": outcome.skipped,
        "dispute": None if outcome.dispute is None else outcome.dispute.pk,
    }


@shared_task(name="ratings.rate_pool", acks_late=True)
def rate_pool(pool_id: int) -> int:
    """Rate every game of the pool that waits, in completion order; returns how many."""
    return services.pool_rate_all_pending(pool_id=pool_id)


@shared_task(name="ratings.recompute_pool", acks_late=True)
def recompute_pool(job_id: int, **_: Any) -> int:
    """Run a recompute job (outbox "ratings.recompute"); returns the games it rated.

    Idempotent: a job already done is not run again, so a redelivered message rates nothing.
    """
    return services.recompute_run(job_id=job_id).done


@shared_task(name="ratings.sweep", acks_late=True)
def sweep() -> dict[str, int]:
    """Catch up on work a lost message left behind: unverified finished games, waiting games."""
    return verification.ratings_sweep()


@shared_task(name="ratings.reverify_finished", acks_late=True)
def reverify_finished(batch: int | None = None, streams: list[str] | None = None) -> dict[str, int]:
    """Check again the finished games verified longest ago (beat, hourly by default).

    ``batch`` defaults to ``settings.HERALD_REVERIFY_BATCH``; ``streams`` limits the run to
    those stream ids. A new failure opens a dispute and holds the game (the service says how).
    """
    limit = batch if batch is not None else settings.HERALD_REVERIFY_BATCH
    return verification.finished_games_reverify(limit=limit, stream_ids=streams)


@shared_task(name="ratings.rate_table_result", acks_late=True)
def rate_table_result(table: int, **_: Any) -> int | None:
    """Rate a paper table's confirmed result in its pool, marked reported (outbox
    "table.result", payload ``table=<id>``); returns the pool's game id. Idempotent."""
    game = reported.reported_table_rate(table_id=table)
    return None if game is None else game.pk
