"""A recompute rates a big history in one pass: as rating it game by game, all or nothing."""

from __future__ import annotations

import datetime as dt
import threading
import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from ratings import services
from ratings.models import RatedGame, Rating, RatingChange, RecomputeJob
from tests.conftest import wait_for
from tests.ratings.reference import rate_from_scratch

T0 = dt.datetime(2026, 11, 1, 20, 0, tzinfo=dt.UTC)
RANKS = ([1, 2, 3, 4], [2, 1, 4, 3], [1, 1, 3, 4], [4, 3, 2, 1], [3, 1, 2, 2], [1, 2, 2, 4])


def make_pool(games: int, players: int = 12) -> tuple[int, list[tuple[list[int], list[int]]]]:
    """``games`` 4-player games among ``players`` entered in one pool, waiting; the pool id."""
    users = get_user_model()
    ids = [users.objects.create_user(f"rc{i}").pk for i in range(players)]
    schedule = []
    for index in range(games):
        seated = [ids[(index * 5 + k * 7 + index // players) % players] for k in range(4)]
        if len(set(seated)) < 4:
            seated = [ids[(index + k) % players] for k in range(4)]
        schedule.append((seated, list(RANKS[(index * 7) % len(RANKS)])))
    pool_id = 0
    for minute, (seated, ranks) in enumerate(schedule):
        entry = services.rated_game_register(
            stream_id=uuid.uuid4(),
            game="blazon",
            edition="standard",
            completed_at=T0 + dt.timedelta(minutes=minute),
            players=seated,
            ranks=ranks,
        )
        pool_id = entry.pool_id
    return pool_id, schedule


def ratings_of(pool_id: int) -> dict[int, tuple[float, float, int]]:
    return {r.player_id: (r.mu, r.sigma, r.games) for r in Rating.objects.filter(pool_id=pool_id)}


def current_changes(pool_id: int) -> list[tuple[Any, ...]]:
    return list(
        RatingChange.objects.filter(pool_id=pool_id, current=True)
        .order_by("sequence", "seat")
        .values_list(
            "game_id", "sequence", "player_id", "seat", "rank",
            "mu_before", "sigma_before", "mu_after", "sigma_after",
        )
    )  # fmt: skip


def snapshot(pool_id: int) -> dict[str, Any]:
    """Everything a rating pass writes in the pool: ratings, every change, every game's state."""
    return {
        "ratings": ratings_of(pool_id),
        "changes": list(
            RatingChange.objects.filter(pool_id=pool_id)
            .order_by("pk")
            .values_list("pk", "current", "sequence", "mu_after", "sigma_after")
        ),
        "games": list(
            RatedGame.objects.filter(pool_id=pool_id)
            .order_by("pk")
            .values_list("pk", "status", "sequence", "rated_at", "ranks")
        ),
    }


def assert_as_bare_trueskill(pool_id: int, games: list[tuple[list[int], list[int]]]) -> None:
    expected = rate_from_scratch(games)
    got = {p: v for p, v in ratings_of(pool_id).items() if v[2]}
    assert got.keys() == expected.keys()
    for player, (mu, sigma, count) in expected.items():
        assert got[player][0] == pytest.approx(mu, abs=1e-9)
        assert got[player][1] == pytest.approx(sigma, abs=1e-9)
        assert got[player][2] == count


@pytest.mark.django_db
def test_a_recompute_over_many_games_equals_rating_them_one_by_one() -> None:
    pool_id, games = make_pool(150)
    while services.pool_rate_pending(pool_id=pool_id, limit=1):
        pass  # one game per transaction, the slow way
    one_by_one = (ratings_of(pool_id), current_changes(pool_id))
    assert len(one_by_one[1]) == 150 * 4
    assert_as_bare_trueskill(pool_id, games)

    pool = RatedGame.objects.filter(pool_id=pool_id).first().pool  # type: ignore[union-attr]
    job = services.recompute_request(pool=pool, reason="check the whole history")
    services.recompute_run(job_id=job.pk, batch=7)  # chunks that do not divide the games

    assert (ratings_of(pool_id), current_changes(pool_id)) == one_by_one  # exactly, bit for bit
    assert RatingChange.objects.filter(pool_id=pool_id, current=False).count() == 150 * 4
    job.refresh_from_db()
    assert (job.status, job.done, job.total) == (RecomputeJob.Status.DONE, 150, 150)
    sequences = RatedGame.objects.filter(pool_id=pool_id).order_by("completed_at", "stream_id")
    assert list(sequences.values_list("sequence", flat=True)) == list(range(1, 151))


@pytest.mark.django_db
def test_a_recompute_from_a_game_in_the_middle_rates_a_late_game_before_it_too() -> None:
    pool_id, games = make_pool(40)
    late = RatedGame.objects.filter(pool_id=pool_id).order_by("completed_at")[10]
    RatedGame.objects.filter(pk=late.pk).update(status=RatedGame.Status.EXCLUDED)
    services.pool_rate_all_pending(pool_id=pool_id)
    RatedGame.objects.filter(pk=late.pk).update(status=RatedGame.Status.READY)  # verified late
    ruled = RatedGame.objects.filter(pool_id=pool_id).order_by("completed_at")[25]
    services.rated_game_count_again(stream_id=ruled.stream_id, ranks=[4, 3, 2, 1])
    games[25] = (games[25][0], [4, 3, 2, 1])
    job = services.recompute_request(pool=ruled.pool, reason="amended", from_game=ruled)
    services.recompute_run(job_id=job.pk, batch=4)
    assert_as_bare_trueskill(pool_id, games)
    job.refresh_from_db()
    assert (job.done, job.total) == (15, 15), "progress counts the job's games, from the ruled one"


@pytest.mark.django_db
def test_a_fault_mid_recompute_leaves_nothing_half_written() -> None:
    pool_id, games = make_pool(60)
    services.pool_rate_all_pending(pool_id=pool_id)
    # A stored game that cannot be rated, two thirds of the way: the pass has rated and written
    # 40 games (8 chunks of 5) when it meets it.
    broken = RatedGame.objects.filter(pool_id=pool_id).order_by("completed_at")[40]
    RatedGame.objects.filter(pk=broken.pk).update(ranks=[1, 2, 3])
    before = snapshot(pool_id)
    job = services.recompute_request(pool=broken.pool, reason="full check")

    with pytest.raises(ValueError, match="4 ratings but 3 ranks"):
        services.recompute_run(job_id=job.pk, batch=5)

    assert snapshot(pool_id) == before, "no change, rating or game state of the pass remains"
    job.refresh_from_db()
    assert job.status == RecomputeJob.Status.FAILED
    assert "3 ranks" in job.error
    assert job.done == 0

    RatedGame.objects.filter(pk=broken.pk).update(ranks=games[40][1])  # repaired: run it again
    services.recompute_run(job_id=job.pk, batch=5)
    job.refresh_from_db()
    assert (job.status, job.done, job.total) == (RecomputeJob.Status.DONE, 60, 60)
    assert_as_bare_trueskill(pool_id, games)


@pytest.mark.services("postgres", reason="a second session watching, and killing, the recompute's")
@pytest.mark.django_db(transaction=True)
def test_progress_shows_while_the_pass_is_open_and_a_killed_session_leaves_the_pool_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pool_id, games = make_pool(40)
    services.pool_rate_all_pending(pool_id=pool_id)
    before = snapshot(pool_id)
    pool = RatedGame.objects.filter(pool_id=pool_id).first().pool  # type: ignore[union-attr]
    # Created directly: recompute_request's outbox would run it eagerly on commit, here.
    job = RecomputeJob.objects.create(pool=pool, reason="watched")
    # The pass holds its transaction open after its last write (as a fault test's worker does).
    monkeypatch.setenv("HERALD_FAULT_PAUSE_RATING", "8")
    session: dict[str, Any] = {}

    def worker() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                session["pid"] = cursor.fetchone()[0]
            services.recompute_run(job_id=job.pk, batch=5)
        except Exception as exc:  # the killed session's error, as the worker would see it
            session["error"] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=worker)
    thread.start()
    try:
        running = wait_for(
            lambda: RecomputeJob.objects.filter(
                pk=job.pk, status=RecomputeJob.Status.RUNNING, done=40
            ).first(),
            timeout=60,
            interval=0.02,
            what="the job's progress at 40/40 while its pass is still open",
        )
        assert running.total == 40
        # Every chunk is written in the pass's transaction, and none of it is visible yet.
        assert snapshot(pool_id) == before
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [session["pid"]])
    finally:
        thread.join(timeout=60)
    assert not thread.is_alive()
    assert "error" in session, "the killed session's commit failed"
    assert snapshot(pool_id) == before, "a killed recompute leaves the pool as it was"

    monkeypatch.delenv("HERALD_FAULT_PAUSE_RATING")
    services.recompute_run(job_id=job.pk)  # the redelivered task starts the job over
    job.refresh_from_db()
    assert (job.status, job.done, job.total) == (RecomputeJob.Status.DONE, 40, 40)
    assert_as_bare_trueskill(pool_id, games)
    assert RatingChange.objects.filter(pool_id=pool_id, current=False).count() == 40 * 4
