"""The real services: PostgreSQL, Redis, and a task round-tripped through a Celery worker."""

import uuid
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection

from herald.models import Heartbeat
from herald.tasks import record_heartbeat
from tests.conftest import WorkerProcess, wait_for


@pytest.mark.services("postgres")
@pytest.mark.django_db
def test_database_is_postgresql() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()
    assert version.startswith("PostgreSQL")
    Heartbeat.objects.create(token="pg")
    assert Heartbeat.objects.filter(token="pg").exists()


@pytest.mark.services("redis")
def test_cache_is_redis_and_round_trips(redis_client: Any) -> None:
    key = f"test-{uuid.uuid4().hex}"
    cache.set(key, {"answer": 42}, timeout=30)
    assert cache.get(key) == {"answer": 42}
    # The value really is in Redis, not in this process's memory.
    assert redis_client.exists(cache.make_and_validate_key(key)) or redis_client.keys(f"*{key}*")
    cache.delete(key)
    assert cache.get(key) is None


@pytest.mark.services("postgres", "redis")
@pytest.mark.django_db(transaction=True)
def test_task_round_trips_through_a_real_worker(celery_worker_process: WorkerProcess) -> None:
    token = uuid.uuid4().hex
    record_heartbeat.delay(token)
    beat = wait_for(
        lambda: Heartbeat.objects.filter(token=token).first(), timeout=60, what="the heartbeat row"
    )
    # Written by the worker process, not by this one: it names its host.
    assert beat.worker.startswith(celery_worker_process.queue)
