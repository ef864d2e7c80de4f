"""The periodic re-verification: a careful tamper (hash chain recomputed) becomes a dispute.

The tamper is real: an event is edited in the database (on PostgreSQL past the append-only
triggers) and the chain recomputed to the stream's head, so the hash chain checks out and only
a replay shows it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from events.models import Stream
from events.selectors import stream_verify
from events.services import stream_open
from ratings import selectors
from ratings.disputes import dispute_open
from ratings.models import Dispute, RatedGame, RecomputeJob, Verification
from ratings.services import recompute_run
from ratings.tasks import reverify_finished
from ratings.verification import finished_games_reverify, game_verify_and_rate
from tests.conftest import wait_for
from tests.ratings.games import play_stream
from tests.ratings.reference import rate_from_scratch
from tests.ratings.tournament_play import GAME, OPTIONS
from tests.tamper import careful_tamper


def swap_seat(payload: dict[str, Any]) -> None:
    """Say the other player made this move (a two-player game)."""
    payload["seat"] = 1 - payload["seat"]


def rated_games(finished: Callable[..., Any], count: int) -> list[Stream]:
    streams = [finished(2, first=index, bot_seed=f"reverify-{index}") for index in range(count)]
    for stream in streams:
        game_verify_and_rate(stream_id=stream.pk)
    return streams


def counted_ratings(streams: list[Stream]) -> dict[int, Any]:
    games = []
    for stream in streams:
        rated = RatedGame.objects.get(stream_id=stream.pk)
        if rated.status != RatedGame.Status.EXCLUDED:
            games.append((rated.players, rated.ranks))
    return rate_from_scratch(games)


def pool_ratings(stream: Stream) -> dict[int, Any]:
    pool = RatedGame.objects.get(stream_id=stream.pk).pool
    return {r.player_id: (r.mu, r.sigma, r.games) for r in pool.ratings.filter(games__gt=0)}


@pytest.mark.django_db
def test_a_careful_tamper_stays_verified_until_the_periodic_check_disputes_it(
    finished: Callable[..., Any],
) -> None:
    streams = rated_games(finished, 3)
    target = streams[1]
    careful_tamper(target.pk, 3, swap_seat)
    report = stream_verify(Stream.objects.get(pk=target.pk))
    assert report["checks"]["hash_chain"]["ok"] is True  # the chain was recomputed ...
    assert report["ok"] is False  # ... but the replay shows the edit
    assert Verification.objects.get(stream_id=target.pk).ok is True  # nobody looked yet

    assert finished_games_reverify(limit=10) == {"checked": 3, "failed": 1, "disputes": 1}
    record = Verification.objects.get(stream_id=target.pk)
    assert record.ok is False
    assert record.reverified_at is not None
    dispute = Dispute.objects.get(stream_id=target.pk)
    assert (dispute.status, dispute.opened_by, dispute.failed_check) == ("open", None, "replay")
    assert dispute.reason.startswith("Automatic: the replay check failed")
    rated = RatedGame.objects.get(stream_id=target.pk)
    assert rated.status == RatedGame.Status.EXCLUDED
    assert rated.excluded_reason == "verification failed: replay"
    assert selectors.stream_counts(stream_id=target.pk) is True  # until an arbiter rules
    job = RecomputeJob.objects.get()
    assert job.from_stream_id == target.pk
    recompute_run(job_id=job.pk)
    expected = counted_ratings(streams)
    got = pool_ratings(target)
    assert got.keys() == expected.keys()
    for player, values in expected.items():
        assert got[player] == pytest.approx(values, abs=1e-9)

    # Idempotent: the failure is known, so no second dispute and no second hold.
    assert finished_games_reverify(limit=10) == {"checked": 3, "failed": 1, "disputes": 0}
    assert Dispute.objects.filter(stream_id=target.pk).count() == 1
    assert RecomputeJob.objects.count() == 1


@pytest.mark.django_db
def test_a_run_takes_a_bounded_batch_least_recently_checked_first(
    finished: Callable[..., Any],
) -> None:
    streams = rated_games(finished, 3)
    assert finished_games_reverify(limit=2)["checked"] == 2
    never = Verification.objects.get(reverified_at__isnull=True)
    first_two = set(
        Verification.objects.filter(reverified_at__isnull=False).values_list("stream_id", flat=True)
    )
    assert finished_games_reverify(limit=1)["checked"] == 1
    never.refresh_from_db()
    assert never.reverified_at is not None  # the one never checked again came first
    oldest = min(first_two, key=lambda s: Verification.objects.get(stream_id=s).reverified_at)
    before = Verification.objects.get(stream_id=oldest).reverified_at
    assert finished_games_reverify(limit=1)["checked"] == 1
    assert Verification.objects.get(stream_id=oldest).reverified_at > before
    only = finished_games_reverify(stream_ids=[streams[0].pk])
    assert only == {"checked": 1, "failed": 0, "disputes": 0}


@pytest.mark.django_db
def test_a_player_dispute_already_open_is_not_doubled(
    finished: Callable[..., Any], seated: list[User]
) -> None:
    (stream,) = rated_games(finished, 1)
    mine = dispute_open(stream_id=stream.pk, user=seated[0], reason="I saw something odd")
    careful_tamper(stream.pk, 2, swap_seat)
    outcome = finished_games_reverify(stream_ids=[stream.pk])
    assert outcome == {"checked": 1, "failed": 1, "disputes": 1}
    assert list(Dispute.objects.filter(stream_id=stream.pk)) == [mine]
    assert RatedGame.objects.get(stream_id=stream.pk).status == RatedGame.Status.EXCLUDED


def test_the_beat_schedule_runs_the_re_verification() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["ratings-reverify"]
    assert entry["task"] == reverify_finished.name == "ratings.reverify_finished"
    assert entry["schedule"] == settings.HERALD_REVERIFY_EVERY_SECONDS


@pytest.mark.services("postgres", "redis", reason="a real Celery worker on the test database")
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_re_verifies_and_opens_the_dispute(
    celery_worker_process: Any, seated: list[User]
) -> None:
    # A real game (the worker process knows only the registered games, not the toy one).
    stream = play_stream(
        stream_open(game_id=GAME, seats=seated[:4], options=OPTIONS), bot_seed="reverify-worker"
    )  # its end reaches the worker through the outbox: it verifies and rates the game
    wait_for(
        lambda: RatedGame.objects.filter(
            stream_id=stream.pk, status=RatedGame.Status.RATED
        ).exists(),
        timeout=60,
        what="the game verified and rated by the worker",
    )
    careful_tamper(stream.pk, 3, lambda payload: payload.update(seat=(payload["seat"] + 1) % 4))
    reverify_finished.delay(streams=[str(stream.pk)])
    dispute = wait_for(
        lambda: Dispute.objects.filter(stream_id=stream.pk, status="open").first(),
        timeout=60,
        what="the re-verification's dispute",
    )
    assert dispute.opened_by is None
    assert dispute.failed_check == "replay"
    assert Verification.objects.get(stream_id=stream.pk).ok is False
    wait_for(
        lambda: RecomputeJob.objects.filter(status=RecomputeJob.Status.DONE).exists(),
        timeout=60,
        what="the pool re-rated without the game",
    )
    assert RatedGame.objects.get(stream_id=stream.pk).status == RatedGame.Status.EXCLUDED
    assert not RatedGame.objects.get(stream_id=stream.pk).changes.filter(current=True).exists()
