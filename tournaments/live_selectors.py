"""Reads of the live pages (issue #18): the round on the projector, its clock, my table.

Kept beside ``tournaments.selectors`` (which they build on) so that the live pages' reads are
in one place; nothing here writes. The clock's arithmetic is :func:`timer_remaining`, a pure
function of the stored figures and "now", so the page, the fragment and the tests agree.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils import timezone

from tournaments import selectors
from tournaments.models import Result, Round, RoundTimer, Table, Tournament

#: The round's length when the organiser starts the clock without saying (minutes).
DEFAULT_ROUND_MINUTES = 50


def round_published(tournament: Tournament) -> Round | None:
    """The latest released (published) round, or None before the first is published."""
    return tournament.rounds.filter(state=Round.State.RELEASED).order_by("-number").first()


def round_unfinished(round_: Round) -> bool:
    """True while a played table of ``round_`` has no confirmed result."""
    return (
        round_.tables.filter(is_bye=False).exclude(results__status=Result.Status.CONFIRMED).exists()
    )


def round_on_screen(tournament: Tournament) -> Round | None:
    """The round the projector shows: the published round while results are missing; None
    between rounds (the standings then) and once the tournament is finished."""
    round_ = round_published(tournament)
    if round_ is None or tournament.status == Tournament.Status.FINISHED:
        return None
    return round_ if round_unfinished(round_) else None


# -- the round's clock ---------------------------------------------------------------------------
def timer_remaining(
    *,
    duration: int,
    extension: int,
    started_at: dt.datetime | None,
    paused_at: dt.datetime | None,
    paused_seconds: int,
    now: dt.datetime,
) -> float:
    """Seconds left on a clock (negative once over): the whole length when not started."""
    total = duration + extension
    if started_at is None:
        return float(total)
    until = paused_at if paused_at is not None else now
    elapsed = (until - started_at).total_seconds() - paused_seconds
    return total - max(elapsed, 0.0)


def timer_remaining_now(timer: RoundTimer, now: dt.datetime | None = None) -> float:
    return timer_remaining(
        duration=timer.duration_seconds,
        extension=timer.extension_seconds,
        started_at=timer.started_at,
        paused_at=timer.paused_at,
        paused_seconds=timer.paused_seconds,
        now=now or timezone.now(),
    )


@dataclass(frozen=True)
class TimerView:
    """What a page shows of a round's clock. ``state``: idle, running, paused or over;
    ``remaining``: whole seconds left (0 when over), from which the page counts down while
    running; ``total``: the length with its extensions; ``extension``: minutes added."""

    round_number: int
    state: str
    remaining: int
    total: int
    extension: int

    @property
    def running(self) -> bool:
        return self.state == "running"

    @property
    def text(self) -> str:
        """ "47:05" (the page's script keeps it counting down while running)."""
        minutes, seconds = divmod(max(self.remaining, 0), 60)
        return f"{minutes:02d}:{seconds:02d}"


def timer_view(round_: Round, now: dt.datetime | None = None) -> TimerView:
    """The clock of ``round_`` as a page shows it (idle at the default length if never set)."""
    timer = RoundTimer.objects.filter(round=round_).first()
    if timer is None:
        total = DEFAULT_ROUND_MINUTES * 60
        return TimerView(round_.number, "idle", total, total, 0)
    left = timer_remaining_now(timer, now)
    total = timer.duration_seconds + timer.extension_seconds
    if timer.started_at is None:
        state = "idle"
    elif left <= 0:
        state = "over"
    elif timer.paused_at is not None:
        state = "paused"
    else:
        state = "running"
    # Rounded up: a clock showing 00:00 is over, not one second short of it.
    remaining = max(int(-(-left // 1)), 0)
    return TimerView(round_.number, state, remaining, total, timer.extension_seconds // 60)


# -- a player's own table ------------------------------------------------------------------------
@dataclass(frozen=True)
class MySeat:
    """Where a signed-in registered player sits in the published round (``table`` None: no
    round published yet; ``is_bye``: a bye this round)."""

    round_number: int | None
    table: Table | None
    table_number: int | None
    seat: int | None  # 1-based, as printed on the pairings
    opponents: list[str]
    is_bye: bool
    stream_id: Any
    result_in: bool
    next_round: int  # the round whose pairings the player waits for


def my_registration(user: Any, tournament: Tournament) -> Any:
    """The user's registration in ``tournament`` (None: not signed in or not registered)."""
    if not user.is_authenticated:
        return None
    return tournament.registrations.filter(player__user_id=user.pk).select_related("player").first()


def my_seat(user: Any, tournament: Tournament) -> MySeat | None:
    """The user's place in the published round; None when they are not registered."""
    registration = my_registration(user, tournament)
    if registration is None:
        return None
    round_ = round_published(tournament)
    # The round after the last published one: a draft or a confirmed round is not public.
    upcoming = (round_.number + 1) if round_ is not None else 1
    if round_ is None:
        return MySeat(None, None, None, None, [], False, None, False, upcoming)
    table = (
        round_.tables.filter(seats__registration=registration)
        .prefetch_related("seats__registration__player", "results")
        .first()
    )
    if table is None:  # not seated this round (dropped, late entry, not checked in)
        return MySeat(round_.number, None, None, None, [], False, None, False, upcoming)
    seats = sorted(table.seats.all(), key=lambda seat: seat.seat)
    mine = next(seat for seat in seats if seat.registration_id == registration.pk)
    return MySeat(
        round_number=round_.number,
        table=table,
        table_number=table.number,
        seat=mine.seat + 1,
        opponents=[
            seat.registration.player.display_name
            for seat in seats
            if seat.registration_id != registration.pk
        ],
        is_bye=table.is_bye,
        stream_id=table.stream_id,
        result_in=selectors.table_confirmed_result(table) is not None,
        next_round=round_.number + 1,
    )


def report_url(tournament: Tournament, table: Table) -> str:
    """The phone report page of a paper table (the results part's page)."""
    return reverse("tournament-pages:table-report", args=[tournament.pk, table.pk])
