"""Disputes: a seated player (or a failed verification) opens one, an arbiter rules on it.

A ruling is an event appended to the game's stream (``events.services.stream_append_ruling``)
with the arbiter and the reason; nothing is edited. Standings and ratings then follow what the
stream's rulings say (``ratings.selectors.stream_outcome``): the pool is re-rated from the game
on by a recompute job, and the tournament table's result is replaced or discarded.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from engine.core import is_competition_ranking
from events.errors import StreamError, StreamNotFound
from events.models import Event, EventType, Stream, StreamSeat
from events.services import stream_append_ruling, stream_continue_from
from herald.errors import ServiceError
from herald.roles import is_privileged
from ratings import selectors, services
from ratings.models import Dispute, DisputeStatement, RecomputeJob
from tournaments.models import Table

#: Without a tournament (or a tournament window), a game may be disputed this long after it ends.
DEFAULT_WINDOW_MINUTES = 48 * 60


class DisputeError(ServiceError, ValueError):
    """A dispute or ruling that cannot be made; ``code`` is the API's error code (a raise may
    give its own ``code`` and ``status``, as every ``herald.errors.ServiceError`` may)."""

    code = "invalid"
    status = 400


# -- opening -------------------------------------------------------------------------------------


def dispute_window(*, stream_id: uuid.UUID | str) -> dt.timedelta:
    """How long after its end the game may be disputed: its tournament's window, or the default."""
    table = Table.objects.filter(stream_id=stream_id).select_related("round__tournament").first()
    if table is not None:
        return dt.timedelta(minutes=table.round.tournament.dispute_window_minutes)
    minutes = getattr(settings, "HERALD_DISPUTE_WINDOW_MINUTES", DEFAULT_WINDOW_MINUTES)
    return dt.timedelta(minutes=minutes)


def dispute_open(
    *, stream_id: uuid.UUID | str, user: Any, reason: str, move: int | None = None
) -> Dispute:
    """A seated player disputes a finished game, within the window, with a reason and,
    optionally, the move it is about (``move`` n is the game's n-th move, counted from 1)."""
    refusal = dispute_open_refusal(stream_id=stream_id, user=user)
    if refusal is not None:
        raise refusal
    if not reason.strip():
        raise DisputeError(gettext("Say why you dispute the game: the reason is required."))
    if move is not None:
        _check_move(stream_id, move)
    try:
        with transaction.atomic():
            return Dispute.objects.create(
                stream_id=stream_id, opened_by=user, reason=reason, move=move
            )
    except IntegrityError:
        raise _already_open() from None


def dispute_open_refusal(*, stream_id: uuid.UUID | str, user: Any) -> DisputeError | None:
    """Why ``user`` may not dispute the game now (None when they may): not a game, not seated
    in it, not over, its window closed, or a dispute already open on it.

    :func:`dispute_open` raises it; the game's page asks before it offers the form.
    """
    stream = Stream.objects.filter(pk=stream_id).first()
    if stream is None:
        return DisputeError(
            gettext("There is no game stream {stream_id}.").format(stream_id=stream_id),
            code="not_found",
            status=404,
        )
    if not StreamSeat.objects.filter(stream=stream, user_id=user.pk).exists():
        return DisputeError(
            gettext("Only a player seated in this game can dispute it."),
            code="forbidden",
            status=403,
        )
    if not stream.is_finished or stream.finished_at is None:
        return DisputeError(gettext("The game is not over: a game is disputed once it has ended."))
    window = dispute_window(stream_id=stream.pk)
    if timezone.now() > stream.finished_at + window:
        return DisputeError(
            (
                gettext(
                    "The game ended at {finished_at:%Y-%m-%d %H:%M} UTC; disputes were open "
                    "for {minutes} after that, and that time has passed."
                ).format(finished_at=stream.finished_at, minutes=_minutes(window))
            ),
            code="dispute_window_closed",
            status=409,
        )
    if Dispute.objects.filter(stream_id=stream.pk, status=Dispute.Status.OPEN).exists():
        return _already_open()
    return None


def _already_open() -> DisputeError:
    return DisputeError(
        gettext("This game already has an open dispute; the arbiter rules on it first."),
        code="dispute_open",
        status=409,
    )


def moves_played(stream_id: uuid.UUID | str) -> int:
    """How many moves the game has (move n is its n-th ``MoveMade`` event)."""
    return Event.objects.filter(stream_id=stream_id, type=EventType.MOVE_MADE).count()


def _check_move(stream_id: uuid.UUID | str, move: int) -> None:
    played = moves_played(stream_id)
    if not 1 <= move <= played:
        raise DisputeError(
            gettext("The game has {moves} moves: name a move from 1 to {moves}.").format(
                moves=played
            )
        )


def dispute_window_ends(*, stream_id: uuid.UUID | str) -> dt.datetime | None:
    """When disputes on the finished game close (None while it runs)."""
    stream = Stream.objects.filter(pk=stream_id).first()
    if stream is None or stream.finished_at is None:
        return None
    return stream.finished_at + dispute_window(stream_id=stream.pk)


# -- statements ----------------------------------------------------------------------------------


def dispute_statement_add(*, dispute_id: int, user: Any, text: str) -> DisputeStatement:
    """Another player seated in the disputed game says their side, once, while it is open.

    The opener's side is the dispute's reason; the arbiter reads both before ruling.
    """
    dispute = Dispute.objects.filter(pk=dispute_id).first()
    if dispute is None:
        raise DisputeError(
            gettext("There is no dispute {dispute_id}.").format(dispute_id=dispute_id),
            code="not_found",
            status=404,
        )
    if not StreamSeat.objects.filter(stream_id=dispute.stream_id, user_id=user.pk).exists():
        raise DisputeError(
            gettext("Only a player seated in the game adds a statement to its dispute."),
            code="forbidden",
            status=403,
        )
    if dispute.opened_by_id == user.pk:
        raise DisputeError(
            gettext("You opened this dispute: your reason is your statement."),
            code="forbidden",
            status=403,
        )
    if dispute.status != Dispute.Status.OPEN:
        raise DisputeError(
            gettext("This dispute has already been ruled on."), code="ruled", status=409
        )
    if not text.strip():
        raise DisputeError(gettext("Write your statement: it cannot be empty."))
    try:
        with transaction.atomic():
            return DisputeStatement.objects.create(dispute=dispute, author=user, text=text)
    except IntegrityError:
        raise DisputeError(
            gettext("You have already made your statement on this dispute."),
            code="statement_made",
            status=409,
        ) from None


def _minutes(window: dt.timedelta) -> str:
    minutes = int(window.total_seconds() // 60)
    return f"{minutes // 60} h" if minutes % 60 == 0 and minutes >= 60 else f"{minutes} min"


# -- ruling --------------------------------------------------------------------------------------


def dispute_rule(
    *,
    dispute_id: int,
    arbiter: Any,
    ruling: str,
    reason: str,
    ranks: Sequence[int] | None = None,
    scores: Sequence[float] | None = None,
    from_move: int | None = None,
) -> Dispute:
    """An arbiter rules: uphold, annul, amend the result (``ranks``) or replay from ``from_move``.

    The ruling is appended to the stream as an event; ratings are recomputed from the game on
    (a Celery job, queued on commit) and the tournament table follows.
    """
    check_may_rule(arbiter)
    _check_ruling_words(ruling, reason)
    with transaction.atomic():
        dispute = Dispute.objects.select_for_update().filter(pk=dispute_id).first()
        if dispute is None:
            raise DisputeError(
                gettext("There is no dispute {dispute_id}.").format(dispute_id=dispute_id),
                code="not_found",
                status=404,
            )
        if dispute.status != Dispute.Status.OPEN:
            raise DisputeError(
                gettext("This dispute has already been ruled on."), code="ruled", status=409
            )
        check_may_rule(arbiter, dispute)
        data = _ruling_data(
            dispute, ruling=ruling, ranks=ranks, scores=scores, from_move=from_move, arbiter=arbiter
        )
        event = _append_ruling(dispute, arbiter=arbiter, ruling=ruling, reason=reason, data=data)
        dispute.status, dispute.ruling, dispute.ruling_reason = Dispute.Status.RULED, ruling, reason
        dispute.ruled_by, dispute.ruled_at, dispute.ruling_seq = arbiter, timezone.now(), event.seq
        dispute.amended_ranks = data.get("ranks")
        dispute.replay_from = data.get("from_move")
        dispute.new_stream_id = data.get("new_stream")
        dispute.recompute = ratings_follow(
            stream_id=dispute.stream_id, requested_by=arbiter, reason=f"ruling: {dispute}"
        )
        dispute.save()
        services.standings_follow(stream_id=dispute.stream_id, by=arbiter)
    return dispute


def _check_ruling_words(ruling: str, reason: str) -> None:
    if ruling not in Dispute.Ruling.values:
        raise DisputeError(
            gettext("Unknown ruling {ruling}; rulings: {join}.").format(
                ruling=repr(ruling), join=", ".join(Dispute.Ruling.values)
            )
        )
    if not reason.strip():
        raise DisputeError(gettext("A ruling needs a reason the players can read."))


def check_ruling(
    *,
    dispute: Dispute,
    arbiter: Any,
    ruling: str,
    reason: str,
    ranks: Sequence[int] | None = None,
    from_move: int | None = None,
) -> list[int] | None:
    """Refuse, as :func:`dispute_rule` would, a ruling that cannot be made; write nothing.

    The site's preview asks before it shows the consequences; :func:`dispute_rule` checks
    everything again under the dispute's lock when the arbiter confirms. Returns the checked
    ranks of an "amend" ruling (None for the others).
    """
    check_may_rule(arbiter, dispute)
    _check_ruling_words(ruling, reason)
    if dispute.status != Dispute.Status.OPEN:
        raise DisputeError(
            gettext("This dispute has already been ruled on."), code="ruled", status=409
        )
    if ruling == Dispute.Ruling.REPLAY:
        _check_replay_move(dispute.stream_id, from_move)
    if ruling == Dispute.Ruling.AMEND:
        return _checked_ranks(dispute.stream_id, ranks)
    return None


def _check_replay_move(stream_id: uuid.UUID, from_move: int | None) -> None:
    if from_move is None:
        raise DisputeError(gettext("Say from which move the game is replayed (from_move)."))
    played = moves_played(stream_id)
    if not 0 <= from_move < played:
        raise DisputeError(
            gettext("The game has {len} moves: replay from a move between 0 and {value}.").format(
                len=played, value=played - 1
            )
        )


def check_may_rule(user: Any, dispute: Dispute | None = None) -> None:
    """Refuse (403 ``forbidden``) whoever may not rule: the one check of the API and the admin.

    Only arbiters and staff rule (``herald.roles.is_privileged``), and never on a game they
    play in: a seated arbiter or staff member has a stake in the result, so another arbiter or
    staff member rules. Without ``dispute``, only the first part is checked (before the dispute
    is looked up, so that a refused user does not learn which disputes exist).
    """
    if not is_privileged(user):
        raise DisputeError(
            gettext("Only an arbiter or staff member rules on disputes."),
            code="forbidden",
            status=403,
        )
    if dispute is not None and (
        StreamSeat.objects.filter(stream_id=dispute.stream_id, user_id=user.pk).exists()
    ):
        raise DisputeError(
            gettext("You play in this game: another arbiter or staff must rule."),
            code="forbidden",
            status=403,
        )


def _append_ruling(
    dispute: Dispute, *, arbiter: Any, ruling: str, reason: str, data: dict[str, Any]
) -> Any:
    return stream_append_ruling(
        dispute.stream_id, arbiter=arbiter, kind=ruling, reason=reason, data=data
    )


def _ruling_data(
    dispute: Dispute,
    *,
    ruling: str,
    ranks: Sequence[int] | None,
    scores: Sequence[float] | None,
    from_move: int | None,
    arbiter: Any,
) -> dict[str, Any]:
    """The ruling event's data, checked: amended ranks, or the continuation stream."""
    data: dict[str, Any] = {"dispute": dispute.pk}
    if ruling == Dispute.Ruling.AMEND:
        data["ranks"] = _checked_ranks(dispute.stream_id, ranks)
        if scores:
            data["scores"] = [float(s) for s in scores]
    if ruling == Dispute.Ruling.REPLAY:
        if from_move is None:
            raise DisputeError(gettext("Say from which move the game is replayed (from_move)."))
        continuation = stream_continue(
            stream_id=dispute.stream_id, after_move=from_move, arbiter=arbiter
        )
        data.update(from_move=from_move, new_stream=str(continuation.pk))
    return data


def _checked_ranks(stream_id: uuid.UUID, ranks: Sequence[int] | None) -> list[int]:
    seats = StreamSeat.objects.filter(stream_id=stream_id).count()
    if ranks is None or len(ranks) != seats:
        raise DisputeError(
            gettext("Give one rank per seat ({seats}) to amend the result.").format(seats=seats)
        )
    values = [int(r) for r in ranks]
    if not is_competition_ranking(values):
        raise DisputeError(
            gettext(
                "Ranks are 1-based with ties sharing a place and the next place skipped "
                "(e.g. 1, 1, 3); got {join}."
            ).format(join=", ".join(map(str, values)))
        )
    return values


def ratings_follow(
    *, stream_id: uuid.UUID | str, requested_by: Any = None, reason: str = ""
) -> RecomputeJob | None:
    """Make the pool count the game as its rulings say, and re-rate from it on (a job)."""
    stream = Stream.objects.filter(pk=stream_id).first()
    rated = selectors.rated_game_of(stream_id=stream_id)
    if stream is None or rated is None:
        return None  # not verified yet: verification enters it with its rulings applied
    outcome = selectors.stream_outcome(stream=stream)
    if outcome.counts and outcome.ranks is not None:
        services.rated_game_count_again(stream_id=rated.stream_id, ranks=outcome.ranks)
    else:
        services.rated_game_exclude(stream_id=rated.stream_id, reason=outcome.reason)
    return services.recompute_request(
        pool=rated.pool, reason=reason or "a ruling", from_game=rated, requested_by=requested_by
    )


# -- replay from move n: the event store opens the new stream ------------------------------------


def stream_continue(*, stream_id: uuid.UUID | str, after_move: int, arbiter: Any) -> Stream:
    """Open the stream that continues ``stream_id`` after its move ``after_move``: the event
    store's :func:`events.services.stream_continue_from` (it copies the moves and reshuffles
    what no seat has seen), its refusals as :class:`DisputeError`."""
    try:
        return stream_continue_from(stream_id=stream_id, after_move=after_move, by=arbiter)
    except StreamNotFound as exc:
        raise DisputeError(exc.detail, code="not_found", status=404) from None
    except StreamError as exc:
        raise DisputeError(exc.detail) from None
