"""Live updates of a game stream: "the stream advanced to version v", sent after commit.

Every append (a move, a reshuffle, a ruling) calls :func:`announce_advanced` inside its
transaction. Once the transaction commits, the stream's channel-layer group gets one small
message; each socket on the stream (:class:`events.consumers.StreamConsumer`) turns it into a
frame for its client. Nothing is sent for a transaction that rolls back, and the message says
only the stream and its version: no move, no card, nothing a seat keeps hidden.

The message is sent straight from the committing process (one Redis call, no extra row in the
append's transaction: docs/operations.md has bench/append.py's figures).
If the channel layer fails then, an outbox entry (topic "stream.advanced") takes the message to
a Celery task that sends it, and the outbox sweeper retries it while Redis is down. A message
lost anyway costs a client nothing it cannot recover: a page that sees a gap in the versions, or
reconnects, asks for what it missed.
"""

from __future__ import annotations

import logging
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import transaction

from events.outbox import outbox_publish
from herald.layers import group_send

logger = logging.getLogger(__name__)

ADVANCED = "stream.advanced"  # the group message's type: StreamConsumer.stream_advanced


def stream_group(stream_id: UUID | str) -> str:
    """The channel-layer group of a stream's sockets (a valid group name: letters, digits, dots)."""
    return f"stream.{UUID(str(stream_id)).hex}"


def advanced_message(stream_id: UUID | str, version: int) -> dict[str, Any]:
    """The group message: the stream and its new version, nothing else."""
    return {"type": ADVANCED, "stream": str(stream_id), "version": int(version)}


def announce_advanced(stream_id: UUID | str, version: int) -> None:
    """Once the caller's transaction commits, tell the stream's sockets it is at ``version``.

    ``HERALD_LIVE_SEND``: "direct" (the default: group_send on commit, the outbox if that
    fails), "outbox" (an outbox entry in the transaction, always; a Celery task sends it) or
    "off" (no live messages: a server with no sockets to serve).
    """
    mode = getattr(settings, "HERALD_LIVE_SEND", "direct")
    stream, at = str(stream_id), int(version)
    if mode == "direct":
        transaction.on_commit(lambda: send_advanced(stream, at))
    elif mode == "outbox":
        outbox_publish(topic=ADVANCED, payload={"stream": stream, "version": at})


def send_advanced(stream_id: str, version: int, *, fallback: bool = True) -> bool:
    """group_send the message now; on a channel-layer fault, hand it to the outbox (``fallback``)
    and return False. Never raises: the append it follows has committed."""
    try:
        group_send(stream_group(stream_id), advanced_message(stream_id, version))
    except Exception as exc:
        logger.warning("stream %s advanced to %s: not sent live (%s)", stream_id, version, exc)
        if fallback:
            _send_later(stream_id, version)
        return False
    return True


def _send_later(stream_id: str, version: int) -> None:
    try:
        with transaction.atomic():
            outbox_publish(topic=ADVANCED, payload={"stream": stream_id, "version": version})
    except Exception as exc:  # the database too: the page will resync on its next frame
        logger.warning("stream %s advanced to %s: not queued either (%s)", stream_id, version, exc)
