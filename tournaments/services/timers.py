"""The round's clock on the projector (issue #18): start, pause, resume, extend, reset.

Each service is for those who run the tournament (``check_organiser``), locks the clock's
row, refuses what makes no sense now (pausing a clock that does not run) with a sentence, and
announces ``"timer"`` so that every screen and phone redraws it from the server's figures.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tournaments import live, live_selectors
from tournaments.errors import InvalidInput, WrongState
from tournaments.models import Round, RoundTimer
from tournaments.services.permissions import check_organiser

#: The longest round or extension the clock takes, in minutes (a whole evening).
MAX_MINUTES = 600


def _minutes(minutes: int, what: str) -> int:
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= MAX_MINUTES:
        raise InvalidInput(
            gettext("{what} must be a whole number of minutes from 1 to {most}.").format(
                what=what, most=MAX_MINUTES
            )
        )
    return minutes


def _locked_timer(round_: Round, by: AbstractBaseUser | None, action: str) -> RoundTimer:
    """The round's clock, locked (made at the default length when the round has none)."""
    check_organiser(by, round_.tournament, action)
    locked = Round.objects.select_for_update().get(pk=round_.pk)
    if locked.state != Round.State.RELEASED:
        raise WrongState(
            gettext("Round {number} is not published: its clock waits until it is.").format(
                number=locked.number
            )
        )
    timer, _ = RoundTimer.objects.select_for_update().get_or_create(
        round=locked,
        defaults={"duration_seconds": live_selectors.DEFAULT_ROUND_MINUTES * 60},
    )
    return timer


def _saved(timer: RoundTimer, round_: Round) -> RoundTimer:
    timer.save()
    live.announce(round_.tournament_id, "timer")
    return timer


@transaction.atomic
def timer_start(
    *,
    round_: Round,
    minutes: int = live_selectors.DEFAULT_ROUND_MINUTES,
    by: AbstractBaseUser | None,
) -> RoundTimer:
    """Start the round's clock for ``minutes``; refused while it runs or stands paused."""
    length = _minutes(minutes, gettext("A round's length"))
    timer = _locked_timer(round_, by, "start the round's clock")
    if timer.started_at is not None:
        raise WrongState(
            gettext("Round {number}'s clock is already started: reset it first.").format(
                number=round_.number
            )
        )
    timer.duration_seconds = length * 60
    timer.extension_seconds = 0
    timer.paused_seconds = 0
    timer.paused_at = None
    timer.started_at = timezone.now()
    return _saved(timer, round_)


@transaction.atomic
def timer_pause(*, round_: Round, by: AbstractBaseUser | None) -> RoundTimer:
    """Stop the clock where it is; refused unless it runs."""
    timer = _locked_timer(round_, by, "pause the round's clock")
    if timer.started_at is None or timer.paused_at is not None:
        raise WrongState(
            gettext("Round {number}'s clock is not running.").format(number=round_.number)
        )
    timer.paused_at = timezone.now()
    return _saved(timer, round_)


@transaction.atomic
def timer_resume(*, round_: Round, by: AbstractBaseUser | None) -> RoundTimer:
    """Let a paused clock run on from where it stood."""
    timer = _locked_timer(round_, by, "resume the round's clock")
    if timer.paused_at is None or timer.started_at is None:
        raise WrongState(
            gettext("Round {number}'s clock is not paused.").format(number=round_.number)
        )
    stood = (timezone.now() - timer.paused_at).total_seconds()
    timer.paused_seconds += max(round(stood), 0)
    timer.paused_at = None
    return _saved(timer, round_)


@transaction.atomic
def timer_extend(*, round_: Round, minutes: int, by: AbstractBaseUser | None) -> RoundTimer:
    """Add ``minutes`` to the round (a clock that ran out runs again, from those minutes)."""
    added = _minutes(minutes, gettext("An extension"))
    timer = _locked_timer(round_, by, "extend the round")
    if timer.started_at is None:
        raise WrongState(
            gettext(
                "Round {number}'s clock is not started: start it with the length you want."
            ).format(number=round_.number)
        )
    left = live_selectors.timer_remaining_now(timer, timer.paused_at or timezone.now())
    if left < 0:  # over: the extension counts from now, not from when it ran out
        timer.extension_seconds += round(-left)
    timer.extension_seconds += added * 60
    return _saved(timer, round_)


@transaction.atomic
def timer_reset(*, round_: Round, by: AbstractBaseUser | None) -> RoundTimer:
    """Back to a clock not started, at the length it had (extensions dropped)."""
    timer = _locked_timer(round_, by, "reset the round's clock")
    timer.started_at = None
    timer.paused_at = None
    timer.paused_seconds = 0
    timer.extension_seconds = 0
    return _saved(timer, round_)
