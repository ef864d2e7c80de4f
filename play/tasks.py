"""Celery tasks of the play app: the house bot's move.

The outbox sends ``stream.turn`` entries here (``settings.HERALD_OUTBOX_ROUTES``): one per move
of a stream with a house bot, written in the move's transaction (events.services.TURN_NOTICE).
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from play.services import house_bot_move as house_bot_move_service


@shared_task(name="play.house_bot_move", acks_late=True)
def house_bot_move(stream: str, **_: Any) -> int | None:
    """If a house bot is to act on ``stream``, make its move; the version it stored, or None.

    Idempotent: a redelivered message finds the move made (the same idempotency key and move)
    or the turn gone. The payload's ``version`` is not needed: the service reads the stream.
    """
    outcome = house_bot_move_service(stream_id=stream)
    return None if outcome is None else outcome.version
