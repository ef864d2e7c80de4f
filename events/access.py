"""The one door to a stream: who is asking, which seat they hold, what they may see.

Roles (``herald.roles``): staff (``is_staff``) and arbiters (group "arbiters") see everything
at any time; organisers (group "organisers") may open streams; a seated player sees their own
seat's hidden information; anyone else (including anonymous users on a public stream) is a
spectator and sees only public information until the game ends.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Q
from django.utils.translation import gettext
from knox.models import AuthToken
from knox.settings import CONSTANTS
from rest_framework import exceptions

from events.errors import StreamNotFound
from events.models import Stream, StreamSeat
from herald.authentication import INACTIVE, ExpiringTokenAuthentication, token_key_of, token_match
from herald.roles import ARBITERS, in_group, is_privileged


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
    found = getattr(user, "seat_found", None)
    if found is not None and found[0] == stream_id:  # SeatTokenAuthentication looked it up
        seat: int | None = found[1]
        return seat
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
        raise StreamNotFound(
            gettext("there is no game stream {stream_id}").format(stream_id=stream_id)
        )
    access = StreamAccess(stream=stream, user=user, seat=seat_of(user, stream.pk))
    if not stream.public and access.seat is None and not access.privileged:
        raise StreamNotFound(
            gettext("there is no game stream {stream_id}").format(stream_id=stream_id)
        )
    return access


def streams_visible_to(user: Any, stream_ids: Iterable[UUID | str]) -> set[UUID]:
    """Which of ``stream_ids`` the user may see, by :func:`access_stream_for_user`'s rule.

    For lists that name many games at once (a rating history): a public stream, or a private
    one the user plays in, or any stream for arbiters and staff. Unknown ids are left out.
    """
    wanted = set(stream_ids)
    streams = Stream.objects.filter(pk__in=wanted)
    if not is_privileged(user):
        visible = Q(public=True)
        if getattr(user, "is_authenticated", False):
            visible |= Q(seats__user_id=user.pk)
        streams = streams.filter(visible)
    return set(streams.values_list("pk", flat=True).distinct())


# The user's columns the move endpoint reads; the others stay deferred (Django loads a
# deferred column if something reads it).
USER_COLUMNS = frozenset({"id", "username", "is_active", "is_staff", "is_superuser"})


class SeatTokenAuthentication(ExpiringTokenAuthentication):
    """Token authentication that also finds the user's seat at the URL's stream.

    For the move endpoint: one query instead of two on every move. The query finds the stored
    tokens sharing the token's first characters, with their user and seat; the digest and the
    expiry are checked here, by :func:`herald.authentication.token_match`, so it answers exactly
    as ``ExpiringTokenAuthentication`` (same refusals). The seat is left on the user as
    ``seat_found = (stream_id, seat or None)``, which :func:`seat_of` then uses.
    """

    stream_id: UUID | None = None

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        kwargs = (request.parser_context or {}).get("kwargs", {})
        stream_id = kwargs.get("stream_id")
        self.stream_id = stream_id if isinstance(stream_id, UUID) else None
        return super().authenticate(request)

    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        if self.stream_id is None:
            return super().authenticate_credentials(token)
        key = token_key_of(token)
        user_model = get_user_model()
        fields = [f for f in user_model._meta.concrete_fields if f.attname in USER_COLUMNS]
        columns = ", ".join(f"u.{f.column}" for f in fields)
        stream_pk = StreamSeat._meta.get_field("stream").get_db_prep_value(
            self.stream_id, connection
        )
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT t.digest, t.expiry, {columns}, (SELECT min(s.seat)"
                f"  FROM {StreamSeat._meta.db_table} s"
                "  WHERE s.stream_id = %s AND s.user_id = u.id)"
                f" FROM {AuthToken._meta.db_table} t JOIN {user_model._meta.db_table} u"
                "  ON u.id = t.user_id WHERE t.token_key = %s",
                [stream_pk, key[: CONSTANTS.TOKEN_KEY_LENGTH]],
            )
            rows = cursor.fetchall()
        digest, expiry, *values, seat = token_match(key, ((r[0], r[1], r) for r in rows))
        user = user_model.from_db(
            connection.alias,
            [f.attname for f in fields],
            [f.to_python(value) for f, value in zip(fields, values, strict=True)],
        )
        if not user.is_active:
            raise exceptions.AuthenticationFailed(INACTIVE)
        user.seat_found = (self.stream_id, seat)
        return user, AuthToken(
            digest=digest, token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH], user=user, expiry=expiry
        )
