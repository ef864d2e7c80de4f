"""Platform tasks."""

from celery import shared_task

from herald.services import heartbeat_record, tokens_purge_expired


@shared_task(name="herald.record_heartbeat", acks_late=True)
def record_heartbeat(token: str) -> int:
    """Record that a worker ran a task carrying ``token``; returns the row id."""
    return heartbeat_record(token=token, worker=record_heartbeat.request.hostname or "").pk


@shared_task(name="herald.purge_expired_tokens", acks_late=True)
def purge_expired_tokens() -> int:
    """Delete expired API tokens (hourly, from beat); returns how many went."""
    return tokens_purge_expired()
