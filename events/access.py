"""The one door to a stream: who is asking, which seat they hold, what they may see.

Roles (``herald.roles``): staff (``is_staff``) and arbiters (group "arbiters") see everything
at any time; organisers (group "organisers") may open streams; a seated player sees their own
seat's hidden information; anyone else (including anonymous users on a public stream) is a
spectator and sees only public information until the game ends.

Who else may watch a private stream, and how far behind a spectator is kept, belong to the
apps above this one (a tournament's club, a tournament's spectator delay): they are asked
through the watch rules named in ``settings.HERALD_WATCH_RULES`` (dotted paths, like
``AUTHENTICATION_BACKENDS``), so events imports none of them and every door to a stream (the
pages, the API reads, the sockets, the lists of games) applies the same rule from here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any, Protocol
from uuid import UUID

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Q
from django.utils.module_loading import import_string
from django.utils.translation import gettext
from knox.models import AuthToken
from knox.settings import CONSTANTS
from rest_framework import exceptions

from events.errors import StreamNotFound
from events.models import Event, EventType, Stream, StreamSeat
from herald.authentication import INACTIVE, ExpiringTokenAuthentication, token_key_of, token_match
from herald.roles import ARBITERS, in_group, is_privileged


class WatchRules(Protocol):
    """What an app above events says about watching streams (``HERALD_WATCH_RULES``)."""

    def watchable_streams(self, user: Any, stream_ids: set[UUID]) -> set[UUID]:
        """Which of these (private) streams ``user`` may watch as a spectator."""
        ...

    def spectator_delay(self, stream: Stream) -> int:
        """How many moves behind the game a spectator of ``stream`` is kept (0: none)."""
        ...


@cache
def _rules(paths: tuple[str, ...]) -> tuple[WatchRules, ...]:
    return tuple(import_string(path) for path in paths)


def watch_rules() -> tuple[WatchRules, ...]:
    """The watch rules of ``settings.HERALD_WATCH_RULES``, imported once."""
    return _rules(tuple(getattr(settings, "HERALD_WATCH_RULES", ())))


def watchable_streams(user: Any, stream_ids: Iterable[UUID]) -> set[UUID]:
    """Which of ``stream_ids`` the watch rules open to ``user`` as a spectator (none for an
    anonymous visitor: a private game is watched by people the rules know)."""
    wanted = set(stream_ids)
    if not wanted or not getattr(user, "is_authenticated", False):
        return set()
    found: set[UUID] = set()
    for rules in watch_rules():
        found |= rules.watchable_streams(user, wanted - found)
    return found


@dataclass
class StreamAccess:
    """A user's standing at one stream."""

    stream: Stream
    user: Any
    seat: int | None
    #: The watch rules' delay for this stream when the caller has it already (a table
    #: socket's moment, play.moments); asked of the rules otherwise.
    known_delay: int | None = None
    #: False when the caller found lately that the user is not an arbiter (a table socket's
    #: moment, play.moments); asked of the database otherwise. Never True: an arbiter's
    #: standing is asked every time, so one whose role is taken away sees no more.
    not_arbiter: bool = False

    @cached_property
    def privileged(self) -> bool:
        """Staff, or an arbiter who is not playing in this game (a player sees as a player)."""
        if getattr(self.user, "is_staff", False):
            return True
        if self.seat is not None or self.not_arbiter:
            return False
        return in_group(self.user, ARBITERS)

    @property
    def sees_everything(self) -> bool:
        """Arbiters and staff always; everyone once the game is over."""
        return self.stream.is_finished or self.privileged

    @property
    def viewer_seat(self) -> int | None:
        """The seat whose hidden information this user may see (None: public only)."""
        return self.seat

    @cached_property
    def spectator_delay(self) -> int:
        """How many moves behind the game this user is shown it: the watch rules' delay for a
        plain spectator of a game in play; 0 for its players, arbiters, staff, and for
        everyone once the game is over."""
        if self.seat is not None or self.privileged or self.stream.is_finished:
            return 0
        if self.known_delay is not None:
            return self.known_delay
        return stream_spectator_delay(self.stream)

    @cached_property
    def shown_version(self) -> int:
        """The stream version this user is shown: the stream's own, or for a delayed
        spectator the last version before the ``spectator_delay``-th last move (the setup
        while fewer moves have been played)."""
        return delayed_version(self.stream, self.spectator_delay)


def stream_spectator_delay(stream: Stream) -> int:
    """How many moves behind the game the watch rules keep a plain spectator of ``stream``."""
    return max((rules.spectator_delay(stream) for rules in watch_rules()), default=0)


def delayed_version(stream: Stream, delay: int) -> int:
    """The version of ``stream`` as it was ``delay`` moves ago (its version when 0)."""
    if delay <= 0:
        return stream.version
    moves = Event.objects.filter(stream=stream, type=EventType.MOVE_MADE).order_by("-seq")
    seqs = list(moves.values_list("seq", flat=True)[:delay])
    if not seqs:
        return stream.version
    return seqs[-1] - 1


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

    A private stream is visible only to its players, arbiters, staff and whoever the watch
    rules let watch it (a tournament game's club members).
    """
    try:
        stream = Stream.objects.filter(pk=stream_id).first()
    except (ValueError, TypeError):
        stream = None
    if stream is None:
        raise StreamNotFound(
            gettext("there is no game stream {stream_id}").format(stream_id=stream_id)
        )
    return access_to_stream(user, stream, seat_of(user, stream.pk))


def access_to_stream(
    user: Any,
    stream: Stream,
    seat: int | None,
    *,
    known_delay: int | None = None,
    not_arbiter: bool = False,
) -> StreamAccess:
    """:func:`access_stream_for_user`'s rule for a stream row already read and the user's seat
    already found (a table socket knows both: seats never change once a stream is open), the
    spectator delay when known (:attr:`StreamAccess.known_delay`), and whether the user was
    found lately not to be an arbiter (:attr:`StreamAccess.not_arbiter`); StreamNotFound when
    the user may not see it."""
    access = StreamAccess(
        stream=stream, user=user, seat=seat, known_delay=known_delay, not_arbiter=not_arbiter
    )
    if (
        not stream.public
        and access.seat is None
        and not access.privileged
        and not watchable_streams(user, [stream.pk])
    ):
        raise StreamNotFound(
            gettext("there is no game stream {stream_id}").format(stream_id=stream.pk)
        )
    return access


def streams_visible_to(user: Any, stream_ids: Iterable[UUID | str]) -> set[UUID]:
    """Which of ``stream_ids`` the user may see, by :func:`access_stream_for_user`'s rule.

    For lists that name many games at once (a rating history): a public stream, or a private
    one the user plays in or the watch rules let them watch, or any stream for arbiters and
    staff. Unknown ids are left out.
    """
    wanted = set(stream_ids)
    streams = Stream.objects.filter(pk__in=wanted)
    if is_privileged(user):
        return set(streams.values_list("pk", flat=True))
    visible = Q(public=True)
    if getattr(user, "is_authenticated", False):
        visible |= Q(seats__user_id=user.pk)
    found = set(streams.filter(visible).values_list("pk", flat=True).distinct())
    private = set(streams.exclude(pk__in=found).values_list("pk", flat=True))
    return found | watchable_streams(user, private)


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
