"""Telling the pages that show a tournament that it changed (issue #18's live pages).

Services call :func:`announce` after a write that changes what a tournament's pages show (a
round published, a result confirmed, a player checked in, the timer started). The message
goes out when the transaction commits, on the channel group of :func:`group_name`, and the
tournament pages' socket re-draws what it names. Nothing secret travels: a page redraws
from its own selectors with its own viewer's rights, the message names only what changed.
"""

from __future__ import annotations

#: What changed, as the pages understand it.
KINDS = frozenset({"registrations", "round", "results", "standings", "timer", "status"})


def group_name(tournament_id: int) -> str:
    """The channel group of the pages that show tournament ``tournament_id``."""
    return f"tournament-{tournament_id}"


def announce(tournament_id: int, kind: str) -> None:
    """Tell the pages of ``tournament_id`` that ``kind`` (one of :data:`KINDS`) changed.

    Safe to call inside a transaction: the message is sent on commit, never for a rolled
    back write. Until the live pages exist this only checks ``kind``.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind of change: {kind!r}")
