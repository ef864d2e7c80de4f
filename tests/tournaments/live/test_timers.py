"""The round's clock: its arithmetic (a pure function of the stored figures and "now") and the
services that start, pause, resume, extend and reset it, with their refusals."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.factories import UserFactory
from tests.tournaments.live.night import publish_round, register_named
from tournaments import live_selectors, services
from tournaments.errors import InvalidInput, NotAllowed, WrongState
from tournaments.models import Round, RoundTimer, Tournament

T0 = dt.datetime(2026, 12, 1, 20, 0, tzinfo=dt.UTC)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def test_a_clock_not_started_shows_its_whole_length() -> None:
    left = live_selectors.timer_remaining(
        duration=3000, extension=60, started_at=None, paused_at=None, paused_seconds=0, now=at(99)
    )
    assert left == 3060


def test_a_paused_clock_stands_still_and_pauses_over_do_not_count() -> None:
    figures = {"duration": 600, "extension": 300, "started_at": T0, "paused_seconds": 100}
    running = live_selectors.timer_remaining(**figures, paused_at=None, now=at(400))
    assert running == 900 - 300
    paused = [
        live_selectors.timer_remaining(**figures, paused_at=at(400), now=at(later))
        for later in (400, 500, 5000)
    ]
    assert paused == [600, 600, 600]


@given(st.integers(1, 36000), st.integers(0, 3600), st.integers(0, 7200), st.integers(0, 7200))
def test_the_time_left_falls_one_second_a_second_while_running(
    duration: int, extension: int, paused: int, elapsed: int
) -> None:
    figures = {
        "duration": duration, "extension": extension, "started_at": T0,
        "paused_at": None, "paused_seconds": paused,
    }  # fmt: skip
    now = at(paused + elapsed)
    left = live_selectors.timer_remaining(**figures, now=now)
    later = live_selectors.timer_remaining(**figures, now=now + dt.timedelta(seconds=1))
    assert left == duration + extension - elapsed
    assert later == left - 1


pytestmark_db = pytest.mark.django_db


@pytest.fixture
def published(organiser: Any, tournament: Tournament) -> Round:
    register_named(tournament)
    return publish_round(tournament, organiser)


def figures(round_: Round) -> RoundTimer:
    return RoundTimer.objects.get(round=round_)


@pytestmark_db
def test_start_pause_resume_extend_reset(organiser: Any, published: Round) -> None:
    services.timer_start(round_=published, minutes=30, by=organiser)
    timer = figures(published)
    assert timer.duration_seconds == 1800
    assert timer.started_at is not None
    assert live_selectors.timer_view(published).state == "running"

    services.timer_pause(round_=published, by=organiser)
    paused = live_selectors.timer_view(published)
    assert paused.state == "paused"
    assert (
        live_selectors.timer_view(published, now=timezone.now() + dt.timedelta(hours=1)) == paused
    )

    services.timer_extend(round_=published, minutes=5, by=organiser)
    extended = live_selectors.timer_view(published)
    assert extended.remaining == paused.remaining + 300
    assert extended.extension == 5

    services.timer_resume(round_=published, by=organiser)
    assert live_selectors.timer_view(published).state == "running"
    services.timer_extend(round_=published, minutes=1, by=organiser)
    assert live_selectors.timer_view(published).total == 1800 + 360

    services.timer_reset(round_=published, by=organiser)
    reset = live_selectors.timer_view(published)
    assert (reset.state, reset.remaining, reset.extension) == ("idle", 1800, 0)


@pytestmark_db
def test_an_extension_of_a_clock_that_ran_out_counts_from_now(
    organiser: Any, published: Round
) -> None:
    services.timer_start(round_=published, minutes=10, by=organiser)
    RoundTimer.objects.filter(round=published).update(
        started_at=timezone.now() - dt.timedelta(minutes=25)
    )
    assert live_selectors.timer_view(published).state == "over"
    services.timer_extend(round_=published, minutes=5, by=organiser)
    view = live_selectors.timer_view(published)
    assert view.state == "running"
    assert 290 <= view.remaining <= 300


@pytestmark_db
@pytest.mark.parametrize(
    ("action", "error"),
    [
        (lambda r, by: services.timer_pause(round_=r, by=by), WrongState),
        (lambda r, by: services.timer_resume(round_=r, by=by), WrongState),
        (lambda r, by: services.timer_extend(round_=r, minutes=5, by=by), WrongState),
        (lambda r, by: services.timer_start(round_=r, minutes=0, by=by), InvalidInput),
        (lambda r, by: services.timer_start(round_=r, minutes=601, by=by), InvalidInput),
        (lambda r, by: services.timer_start(round_=r, minutes=True, by=by), InvalidInput),
    ],
)
def test_what_makes_no_sense_now_is_refused_with_a_sentence(
    organiser: Any, published: Round, action: Any, error: type[Exception]
) -> None:
    with pytest.raises(error) as refused:
        action(published, organiser)
    assert str(refused.value).endswith(".")
    assert RoundTimer.objects.filter(round=published, started_at__isnull=False).count() == 0


@pytestmark_db
def test_a_started_clock_is_not_started_again(organiser: Any, published: Round) -> None:
    services.timer_start(round_=published, minutes=30, by=organiser)
    with pytest.raises(WrongState, match="reset it first"):
        services.timer_start(round_=published, minutes=40, by=organiser)
    assert figures(published).duration_seconds == 1800


@pytestmark_db
def test_only_those_who_run_the_tournament_touch_its_clock(published: Round) -> None:
    member = UserFactory(username="member")
    with pytest.raises(NotAllowed):
        services.timer_start(round_=published, minutes=30, by=member)
    assert not RoundTimer.objects.filter(round=published).exists()


@pytestmark_db
def test_a_round_not_published_has_no_clock(organiser: Any, tournament: Tournament) -> None:
    register_named(tournament)
    draft = services.round_pair_next(tournament=tournament, by=organiser)
    with pytest.raises(WrongState, match="not published"):
        services.timer_start(round_=draft, minutes=30, by=organiser)
