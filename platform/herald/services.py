"""Platform services: heartbeats, health and API tokens."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import redis
from django.conf import settings
from django.db import connection
from django.utils import timezone
from knox.models import AuthToken

from herald.layers import layer_status
from herald.models import Heartbeat


def heartbeat_record(*, token: str, worker: str = "") -> Heartbeat:
    """Store the heartbeat for ``token`` once; a redelivered task finds the existing row."""
    beat, _ = Heartbeat.objects.get_or_create(token=token, defaults={"worker": worker})
    return beat


@dataclass(frozen=True)
class Health:
    """What /healthz reports: each dependency is "ok", "eager" (the broker: tasks run
    in-process), "in-memory" (the channel layer: one process) or a sentence saying what failed."""

    database: str
    broker: str
    channel_layer: str

    @property
    def ok(self) -> bool:
        return (
            self.database == "ok"
            and self.broker in {"ok", "eager"}
            and self.channel_layer in {"ok", "in-memory"}
        )


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

    try:
        client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2)
        client.ping()
    except Exception as exc:
        return f"down: {exc.__class__.__name__}: {exc}".strip()[:300]
    return "ok"


def health_check() -> Health:
    """Check the database, the Celery broker and the channel layer right now."""
    return Health(
        database=_database_status(), broker=_broker_status(), channel_layer=layer_status()
    )


def token_issue(user: Any) -> tuple[AuthToken, str]:
    """A new API token for ``user`` and the token itself, the only time it is known.

    It expires ``HERALD_TOKEN_TTL_HOURS`` from now; the user's expired tokens are removed.
    Only the token's digest is stored.
    """
    AuthToken.objects.filter(user=user, expiry__lte=timezone.now()).delete()
    ttl = timedelta(hours=settings.HERALD_TOKEN_TTL_HOURS)
    token, key = AuthToken.objects.create(user=user, expiry=ttl)
    return token, key


def token_revoke(token: AuthToken) -> None:
    """Revoke one API token (logout)."""
    AuthToken.objects.filter(digest=token.digest).delete()


def tokens_revoke_all(user: Any) -> int:
    """Revoke every API token of ``user`` (logout everywhere, a new password); how many."""
    deleted, _ = AuthToken.objects.filter(user_id=user.pk).delete()
    return deleted


def tokens_purge_expired() -> int:
    """Delete expired API tokens (they are refused anyway); how many went."""
    deleted, _ = AuthToken.objects.filter(expiry__lte=timezone.now()).delete()
    return deleted
