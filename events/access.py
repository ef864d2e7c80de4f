"""The one door to a stream: who is asking, which seat they hold, what they may see.

Roles: staff (``is_staff``) and arbiters (group "arbiters") see everything at any time;
organisers (group "organisers") may open streams; a seated player sees their own seat's
hidden information; anyone else (including anonymous users on a public stream) is a
spectator and sees only public information until the game ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any
from uuid import UUID

from events.errors import StreamNotFound
from events.models import Stream, StreamSeat

ARBITERS = "arbiters"
ORGANISERS = "organisers"


def in_group(user: Any, name: str) -> bool:
    """True when ``user`` is authenticated and in the Django group ``name``."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.groups.filter(name=name).exists())


def is_privileged(user: Any) -> bool:
    """Staff and arbiters see every stream's hidden information, at any time."""
    return bool(getattr(user, "is_staff", False)) or in_group(user, ARBITERS)


def can_open_streams(user: Any) -> bool:
    """Organisers, arbiters and staff may open streams."""
    return is_privileged(user) or in_group(user, ORGANISERS)


@dataclass
class StreamAccess:
    """A user's standing at one stream."""

    stream: Stream
    user: Any
    seat: int | None

    @cached_property
    def privileged(self) -> bool:
        """Staff, or an arbiter who is not playing in this game (a player sees as a player)."""
        if getattr(self.user, "is_staff", False):
            return True
        return self.seat is None and in_group(self.user, ARBITERS)

    @property
    def sees_everything(self) -> bool:
        """Arbiters and staff always; everyone once the game is over."""
        return self.stream.is_finished or self.privileged

    @property
    def viewer_seat(self) -> int | None:
        """The seat whose hidden information this user may see (None: public only)."""
        return self.seat


def seat_of(user: Any, stream_id: UUID | str) -> int | None:
    """The user's seat at the stream, or None (not seated, anonymous, or no such stream)."""
    if not getattr(user, "is_authenticated", False):
        return None
    seats = StreamSeat.objects.filter(stream_id=stream_id, user=user).values_list("seat", flat=True)
    return min(seats, default=None)


def access_stream_for_user(user: Any, stream_id: UUID | str) -> StreamAccess:
    """The stream and the user's seat; StreamNotFound if it does not exist or is not visible.

    A private stream is visible only to its players, arbiters and staff.
    """
    try:
        stream = Stream.objects.filter(pk=stream_id).first()
    except (ValueError, TypeError):
        stream = None
    if stream is None:
        raise StreamNotFound(f"there is no game stream {stream_id}")
    access = StreamAccess(stream=stream, user=user, seat=seat_of(user, stream.pk))
    if not stream.public and access.seat is None and not access.privileged:
        raise StreamNotFound(f"there is no game stream {stream_id}")
    return access
