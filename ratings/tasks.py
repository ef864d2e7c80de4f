"""Celery tasks of the ratings app: verify a finished game, rate a pool, recompute a pool.

Each takes ids, calls a service and is idempotent, so ``acks_late`` redelivery after a worker
dies is harmless: the services do their work in transactions and check what is already done.
"""

from __future__ import annotations

from celery import shared_task

from ratings import services


@shared_task(name="ratings.rate_pool", acks_late=True)
def rate_pool(pool_id: int) -> int:
    """Rate every game of the pool that waits, in completion order; returns how many."""
    return services.pool_rate_all_pending(pool_id=pool_id)


@shared_task(name="ratings.recompute_pool", acks_late=True)
def recompute_pool(job_id: int) -> int:
    """Run a recompute job; returns the games it rated."""
    return services.recompute_run(job_id=job_id).done
