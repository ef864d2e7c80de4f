"""Platform services: heartbeats and health."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import connection

from herald.models import Heartbeat


def heartbeat_record(*, token: str, worker: str = "") -> Heartbeat:
    """Store the heartbeat for ``token`` once; a redelivered task finds the existing row."""
    beat, _ = Heartbeat.objects.get_or_create(token=token, defaults={"worker": worker})
    return beat


@dataclass(frozen=True)
class Health:
    """What /healthz reports: each dependency is "ok", "eager" or a sentence saying what failed."""

    database: str
    broker: str

    @property
    def ok(self) -> bool:
        return self.database == "ok" and self.broker in {"ok", "eager"}


def _database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return f"down: {exc.__class__.__name__}: {exc}".strip()[:300]
    return "ok"


def _broker_status() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    import redis

    try:
        client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2)
        client.ping()
    except Exception as exc:
        return f"down: {exc.__class__.__name__}: {exc}".strip()[:300]
    return "ok"


def health_check() -> Health:
    """Check the database and the Celery broker right now."""
    return Health(database=_database_status(), broker=_broker_status())
