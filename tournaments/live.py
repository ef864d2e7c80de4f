"""Telling the pages that show a tournament that it changed (issue #18's live pages).

Services call :func:`announce` after a write that changes what a tournament's pages show (a
round published, a result confirmed, a player checked in, the timer started). The message
goes out when the transaction commits, on the channel group of :func:`group_name`, and the
tournament pages' socket (``ws/tournaments/<id>/``, :mod:`tournaments.consumers`) forwards
it; each page then re-draws the regions that depend on that kind (``live.js``). Nothing
secret travels: a page redraws from its own fragment views with its own viewer's rights, the
message names only what changed.

A message lost (Redis away at that moment) costs a page nothing it cannot recover: the page
refetches every region when its socket reconnects, and the next change redraws it anyway.
So there is no outbox here, unlike a game stream's "advanced" messages (events.live).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction

from herald.layers import group_send

logger = logging.getLogger(__name__)

#: What changed, as the pages understand it.
KINDS = frozenset({"registrations", "round", "results", "standings", "timer", "status"})

#: The group message's type: TournamentConsumer.tournament_changed.
CHANGED = "tournament.changed"


def group_name(tournament_id: int) -> str:
    """The channel group of the pages that show tournament ``tournament_id``."""
    return f"tournament-{int(tournament_id)}"


def changed_message(kind: str) -> dict[str, Any]:
    """The group message: the kind of change, nothing else."""
    return {"type": CHANGED, "kind": kind}


def announce(tournament_id: int, kind: str) -> None:
    """Tell the pages of ``tournament_id`` that ``kind`` (one of :data:`KINDS`) changed.

    Safe to call inside a transaction: the message is sent on commit, never for a rolled
    back write (outside a transaction, at once). ``HERALD_LIVE_SEND = "off"`` sends nothing
    (a server with no sockets to serve).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind of change: {kind!r}")
    if getattr(settings, "HERALD_LIVE_SEND", "direct") == "off":
        return
    group = group_name(tournament_id)
    transaction.on_commit(lambda: send_changed(group, kind))


def send_changed(group: str, kind: str) -> bool:
    """group_send the message now; False (logged) when the channel layer fails. Never raises:
    the write it follows has committed."""
    try:
        group_send(group, changed_message(kind))
    except Exception as exc:
        logger.warning("%s changed (%s): not sent live (%s)", group, kind, exc)
        return False
    return True
