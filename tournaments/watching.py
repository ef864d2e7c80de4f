"""Who may watch a tournament's games, and how far behind (events.access's watch rules).

Named in ``settings.HERALD_WATCH_RULES``: the event store asks these rules without importing
the tournaments app (it sits below it). A private game of a tournament table may be watched by
the members of the tournament's club, as its players may; a tournament's ``spectator_delay``
keeps its spectators that many moves behind the game.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from events.models import Stream
from tournaments.models import Table


class TournamentWatchRules:
    """The tournaments app's answer to events.access.WatchRules."""

    def watchable_streams(self, user: Any, stream_ids: set[UUID]) -> set[UUID]:
        """The games among ``stream_ids`` played at a table of a tournament of a club the user
        is a member of (any role)."""
        if not stream_ids:
            return set()
        tables = Table.objects.filter(
            stream_id__in=stream_ids, round__tournament__club__memberships__user_id=user.pk
        )
        return {stream_id for stream_id in tables.values_list("stream_id", flat=True) if stream_id}

    def spectator_delay(self, stream: Stream) -> int:
        """The spectator delay of the tournament whose table plays ``stream`` (0 outside one)."""
        delay = (
            Table.objects.filter(stream_id=stream.pk)
            .values_list("round__tournament__spectator_delay", flat=True)
            .first()
        )
        return int(delay or 0)


RULES = TournamentWatchRules()
