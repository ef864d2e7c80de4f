"""The pipeline with real Celery worker processes on PostgreSQL and Redis, including faults.

End to end: bots play a tournament through the API; the session's worker verifies and rates
every game; the leaderboard equals rating the same games in order with bare ``trueskill``.
Faults: each test starts its own redis-server on a spare port and its own workers, and stops or
kills only those. Workers send the periodic sweeps themselves (no beat process anywhere).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.db import connection, transaction
from rest_framework.test import APIClient

from events.models import Event, OutboxEntry, Stream
from events.services import outbox_sweep, stream_open
from ratings import services as ratings_services
from ratings.models import Dispute, RatedGame, RatingChange, RatingPool, RecomputeJob, Verification
from ratings.tasks import recompute_pool
from tests.conftest import wait_for
from tests.ratings.games import play_stream
from tests.ratings.reference import rate_from_scratch
from tests.ratings.tournament_play import (
    GAME,
    OPTIONS,
    club_players,
    play_through_api,
    round_open,
    round_streams,
    tournament_start,
)
from tests.ratings.workers import RedisServer, broker, fault_worker, free_port
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Result, Table

pytestmark = [
    pytest.mark.services("postgres", "redis", reason="real Celery workers on the test database"),
    pytest.mark.django_db(transaction=True),
]


# Rows are always selected by this test's pool or streams: a shared worker may still be
# verifying another test's games while this one runs.


def reference_ratings() -> dict[int, Any]:
    """The pool's counted games in completion order, rated with bare trueskill."""
    rated = RatedGame.objects.filter(pool__game=GAME).exclude(status=RatedGame.Status.EXCLUDED)
    ordered = rated.order_by("completed_at", "stream_id")
    return rate_from_scratch((game.players, game.ranks) for game in ordered)


def pool_ratings() -> dict[int, Any]:
    pool = RatingPool.objects.get(game=GAME)
    return {r.player_id: (r.mu, r.sigma, r.games) for r in pool.ratings.filter(games__gt=0)}


def assert_ratings(got: dict[int, Any], expected: dict[int, Any]) -> None:
    assert got.keys() == expected.keys()
    for player, values in expected.items():
        assert got[player] == pytest.approx(values, abs=1e-9), player


def all_rated(streams: list[Stream]) -> bool:
    ids = [s.pk for s in streams]
    return RatedGame.objects.filter(
        stream_id__in=ids, status=RatedGame.Status.RATED
    ).count() == len(ids)


def exactly_once(streams: list[Stream]) -> None:
    for stream in streams:
        current = RatingChange.objects.filter(stream_id=stream.pk, current=True)
        assert current.count() == stream.seats.count(), stream.pk
        assert not RatingChange.objects.filter(stream_id=stream.pk, current=False).exists()


@pytest.fixture
def organiser() -> User:
    return User.objects.create_user("organiser", is_staff=True)


@pytest.fixture
def arbiter() -> User:
    user = User.objects.create_user("arbiter")
    user.groups.add(Group.objects.get_or_create(name="arbiters")[0])
    return user


# -- end to end, with the session's worker --------------------------------------------------


def play_round(tournament: Any, organiser: Any, number: int) -> list[Stream]:
    round_ = round_open(tournament, organiser)
    streams = round_streams(round_)
    for stream in streams:
        play_through_api(stream, seed=f"round-{number}")
    wait_for(lambda: all_rated(streams), timeout=60, what=f"round {number} verified and rated")
    wait_for(
        lambda: not tournament_selectors.tables_missing_results(tournament),
        timeout=30,
        what=f"round {number}'s table results from the streams",
    )
    return [Stream.objects.get(pk=stream.pk) for stream in streams]


@pytest.fixture
def played_tournament(celery_worker_process: Any, organiser: User) -> dict[str, Any]:
    players = club_players(8)
    tournament = tournament_start(players, organiser)
    rounds = [play_round(tournament, organiser, number) for number in (1, 2)]
    tournament_services.tournament_finish(tournament=tournament)
    return {"tournament": tournament, "rounds": rounds, "players": players}


def test_bots_play_through_the_api_and_the_worker_verifies_and_rates_in_order(
    played_tournament: dict[str, Any],
) -> None:
    streams = list(itertools.chain(*played_tournament["rounds"]))
    ids = [stream.pk for stream in streams]
    assert Verification.objects.filter(ok=True, stream_id__in=ids).count() == len(ids) == 4
    assert_ratings(pool_ratings(), reference_ratings())
    pool = RatingPool.objects.get(game=GAME)
    board = APIClient().get(f"/api/v1/ratings/pools/{pool.pk}/leaderboard").json()["rows"]
    expected = reference_ratings()
    by_name = {User.objects.get(pk=p).username: values for p, values in expected.items()}
    assert {row["username"]: (row["mu"], row["sigma"], row["games"]) for row in board} == {
        name: pytest.approx(values, abs=1e-9) for name, values in by_name.items()
    }
    club = played_tournament["players"][0].club
    mine = APIClient().get(f"/api/v1/ratings/pools/{pool.pk}/leaderboard?club={club.pk}").json()
    assert {row["username"] for row in mine["rows"]} == {
        p.user.username for p in played_tournament["players"] if p.club_id == club.pk
    }
    sequences = (
        RatedGame.objects.filter(stream_id__in=ids)
        .order_by("completed_at")
        .values_list("sequence", flat=True)
    )
    assert list(sequences) == [1, 2, 3, 4]


def test_a_dispute_overturned_in_round_one_re_rates_later_games_and_changes_standings(
    played_tournament: dict[str, Any], arbiter: User
) -> None:
    tournament = played_tournament["tournament"]
    first_round = played_tournament["rounds"][0]
    target = min(first_round, key=lambda s: s.finished_at)
    later = RatedGame.objects.filter(pool__game=GAME, completed_at__gt=target.finished_at).count()
    assert later == 3
    before = {
        line.registration: line.points
        for line in tournament_selectors.tournament_standings(tournament)
    }
    player = target.seats.get(seat=0).user
    client = APIClient()
    client.force_authenticate(player)
    opened = client.post(
        "/api/v1/disputes", {"stream": str(target.pk), "reason": "a crown was miscounted"},
        format="json",
    )  # fmt: skip
    assert opened.status_code == 201, opened.json()
    client.force_authenticate(arbiter)
    ruled = client.post(
        f"/api/v1/disputes/{opened.json()['id']}/ruling",
        {"ruling": "annul", "reason": "the deal was wrong"},
        format="json",
    )
    assert ruled.status_code == 200, ruled.json()
    job_id = ruled.json()["recompute"]["id"]
    wait_for(
        lambda: RecomputeJob.objects.get(pk=job_id).status == RecomputeJob.Status.DONE,
        timeout=60,
        what="the recompute job",
    )
    job = client.get(f"/api/v1/ratings/recomputes/{job_id}").json()
    assert (job["done"], job["total"], job["progress"]) == (3, 3, 1.0)
    assert RatedGame.objects.get(stream_id=target.pk).status == RatedGame.Status.EXCLUDED
    superseded = RatingChange.objects.filter(pool__game=GAME, current=False)
    assert superseded.count() == 4 * (1 + later)
    assert_ratings(pool_ratings(), reference_ratings())
    table = Table.objects.get(stream_id=target.pk)
    assert not table.results.filter(status=Result.Status.CONFIRMED).exists()
    after = {
        line.registration: line.points
        for line in tournament_selectors.tournament_standings(tournament)
    }
    seated = set(table.seats.values_list("registration_id", flat=True))
    for registration, points in before.items():
        if registration in seated:
            assert after[registration] <= points
        else:
            assert after[registration] == points, "other tables' players keep their points"
    table_points = sum(tournament.points_by_rank[:4])
    assert sum(before.values()) - sum(after.values()) == pytest.approx(table_points)
    assert after != before


# -- faults: a private redis-server and private workers ---------------------------------------


@pytest.fixture
def private_redis() -> Iterator[RedisServer]:
    server = RedisServer()
    server.start()
    yield server
    server.stop()


def open_games(users: list[User], count: int) -> list[Stream]:
    return [
        stream_open(game_id=GAME, seats=users[index % 2 : index % 2 + 4], options=OPTIONS)
        for index in range(count)
    ]


@pytest.fixture
def users() -> list[User]:
    return [User.objects.create_user(f"fault{i}") for i in range(6)]


def test_kill_9_in_the_middle_of_rating_then_each_game_is_rated_exactly_once(
    private_redis: RedisServer, users: list[User], tmp_path: Path
) -> None:
    paused = fault_worker(private_redis, tmp_path / "paused.log", HERALD_FAULT_PAUSE_RATING="120")
    paused.start()
    paused.wait_ready()
    streams = open_games(users, 2)
    try:
        with broker(private_redis.url):
            play_stream(streams[0], bot_seed="kill")
            wait_for(
                lambda: "fault pause" in paused.log_text(), timeout=60, what="the rating pause"
            )
            paused.kill()
            left = RatingChange.objects.filter(stream_id=streams[0].pk)
            assert not left.exists(), "the killed rating left nothing behind"
            entry = RatedGame.objects.get(stream_id=streams[0].pk)
            assert entry.status == RatedGame.Status.READY
            play_stream(streams[1], bot_seed="kill")
        restarted = fault_worker(private_redis, tmp_path / "restarted.log")
        restarted.start()
        wait_for(lambda: all_rated(streams), timeout=90, what="both games rated after restart")
        wait_for(
            lambda: restarted.log_text().count("ratings.verify_game") >= 4,
            timeout=60,
            what="the killed task redelivered and run again",
        )
    finally:
        paused.kill()
        if "restarted" in locals():
            restarted.stop()
    exactly_once(streams)
    assert_ratings(pool_ratings(), reference_ratings())


def test_a_task_killed_mid_run_is_redone_within_a_minute_by_a_new_worker_without_beat(
    private_redis: RedisServer, users: list[User], tmp_path: Path
) -> None:
    """kill -9 mid-rating; the broker keeps the message for its production visibility timeout
    (an hour), and no beat runs: the new worker's own outbox sweep sends the task again."""
    paused = fault_worker(
        private_redis, tmp_path / "paused.log",
        HERALD_FAULT_PAUSE_RATING="120", HERALD_WORKER_SWEEPS="false",
    )  # fmt: skip
    paused.start()
    paused.wait_ready()
    stream = open_games(users, 1)[0]
    try:
        with broker(private_redis.url):
            play_stream(stream, bot_seed="no-beat")
        wait_for(lambda: "fault pause" in paused.log_text(), timeout=60, what="the rating pause")
        paused.kill()
        killed_at = time.monotonic()
        assert RatedGame.objects.get(stream_id=stream.pk).status == RatedGame.Status.READY
        entry = OutboxEntry.objects.get(payload__stream=str(stream.pk))
        assert entry.dispatched_at is not None
        assert entry.done_at is None, "the killed task never reported done"
        fresh = fault_worker(private_redis, tmp_path / "fresh.log", FAULT_VISIBILITY_TIMEOUT="3600")
        fresh.start()
        left = 60 - (time.monotonic() - killed_at)
        wait_for(lambda: all_rated([stream]), timeout=left, what="the game rated again")
        assert time.monotonic() - killed_at < 60
        wait_for(
            lambda: OutboxEntry.objects.get(pk=entry.pk).done_at, timeout=10, what="entry done"
        )
    finally:
        paused.kill()
        if "fresh" in locals():
            fresh.stop()
    assert f"outbox entry {entry.pk} sent again" in fresh.log_text()
    exactly_once([stream])
    assert_ratings(pool_ratings(), reference_ratings())


def test_redis_stopped_while_games_finish_loses_nothing(
    private_redis: RedisServer, users: list[User], tmp_path: Path
) -> None:
    worker = fault_worker(private_redis, tmp_path / "worker.log")
    worker.start()
    worker.wait_ready()
    streams = open_games(users, 3)
    try:
        with broker(private_redis.url):
            play_stream(streams[0], bot_seed="outage")
            wait_for(lambda: all_rated(streams[:1]), timeout=60, what="the first game rated")
            private_redis.stop()
            for stream in streams[1:]:
                play_stream(stream, bot_seed="outage")
            pending = OutboxEntry.objects.filter(
                dispatched_at__isnull=True, payload__stream__in=[str(s.pk) for s in streams]
            )
            assert pending.count() == 2
            assert all(entry.last_error for entry in pending)
            ids = [stream.pk for stream in streams]
            assert Verification.objects.filter(stream_id__in=ids).count() == 1
            private_redis.start()

            def swept() -> bool:
                outbox_sweep()
                return not pending.all().exists()  # a fresh query: the queryset above is cached

            wait_for(
                swept,
                timeout=60,
                what="the sweeper sending every pending entry",
            )
            wait_for(lambda: all_rated(streams), timeout=90, what="every game rated")
    finally:
        worker.stop()
    assert Verification.objects.filter(ok=True, stream_id__in=ids).count() == 3
    exactly_once(streams)
    assert_ratings(pool_ratings(), reference_ratings())


def test_a_tampered_stream_fails_verification_in_the_worker_and_opens_a_dispute(
    private_redis: RedisServer, users: list[User], tmp_path: Path
) -> None:
    # No sweeps from this worker: the test sends the entry itself, once the stream is tampered.
    worker = fault_worker(private_redis, tmp_path / "worker.log")
    worker.start()
    worker.wait_ready()
    stream = open_games(users, 1)[0]
    try:
        with broker(f"redis://127.0.0.1:{free_port()}/0"):  # nobody there: the entry waits
            play_stream(stream, bot_seed="tamper")
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("ALTER TABLE events_event DISABLE TRIGGER events_event_append_only")
            cursor.execute(
                "UPDATE events_event SET payload = jsonb_set(payload, '{seat}', '3') "
                "WHERE stream_id = %s AND seq = 3",
                [stream.pk],
            )
            cursor.execute("ALTER TABLE events_event ENABLE TRIGGER events_event_append_only")
        assert Event.objects.get(stream=stream, seq=3).payload["seat"] == 3
        with broker(private_redis.url):
            assert outbox_sweep() >= 1
            wait_for(
                lambda: Verification.objects.filter(stream_id=stream.pk).exists(),
                timeout=60,
                what="the verification",
            )
    finally:
        worker.stop()
    verification = Verification.objects.get(stream_id=stream.pk)
    assert verification.ok is False
    assert verification.checks["hash_chain"]["ok"] is False

    dispute = Dispute.objects.get(stream_id=stream.pk)
    assert (dispute.status, dispute.failed_check, dispute.opened_by) == ("open", "hash_chain", None)
    assert "event 3" in dispute.reason
    assert RatedGame.objects.get(stream_id=stream.pk).status == RatedGame.Status.EXCLUDED
    assert not RatingChange.objects.filter(stream_id=stream.pk).exists()


def test_a_recompute_job_whose_message_is_lost_runs_after_the_outbox_sweep_and_rates_once(
    private_redis: RedisServer, users: list[User], tmp_path: Path
) -> None:
    """The broker is down when the job is requested: the job and its outbox entry are written,
    the message is not sent. The outbox sweep sends it; the job runs; run again, it rates
    nothing more (the task is idempotent)."""
    # No sweeps from this worker: the test sweeps itself, once the broker is back.
    worker = fault_worker(private_redis, tmp_path / "worker.log", HERALD_WORKER_SWEEPS="false")
    worker.start()
    worker.wait_ready()
    streams = open_games(users, 2)
    try:
        with broker(private_redis.url):
            for stream in streams:
                play_stream(stream, bot_seed="recompute")
            wait_for(lambda: all_rated(streams), timeout=90, what="both games rated")
        pool = RatedGame.objects.get(stream_id=streams[0].pk).pool
        with broker(f"redis://127.0.0.1:{free_port()}/0"):  # nobody there: the message is lost
            job = ratings_services.recompute_request(pool=pool, reason="lost message")
        entry = OutboxEntry.objects.get(topic="ratings.recompute", payload__job_id=job.pk)
        assert entry.dispatched_at is None
        assert entry.last_error
        time.sleep(1)
        assert RecomputeJob.objects.get(pk=job.pk).status == RecomputeJob.Status.QUEUED
        with broker(private_redis.url):
            assert outbox_sweep() >= 1
            wait_for(
                lambda: RecomputeJob.objects.get(pk=job.pk).status == RecomputeJob.Status.DONE,
                timeout=60,
                what="the recompute job run after the sweep",
            )
        wait_for(lambda: OutboxEntry.objects.get(pk=entry.pk).done_at, timeout=10, what="done")
    finally:
        worker.stop()
    done = RecomputeJob.objects.get(pk=job.pk)
    assert done.total == done.done == 2
    changes = RatingChange.objects.filter(pool=pool)
    rows, current = changes.count(), changes.filter(current=True).count()
    recompute_pool.apply(kwargs={"job_id": job.pk})  # the same message delivered twice
    assert (changes.count(), changes.filter(current=True).count()) == (rows, current)
    assert RecomputeJob.objects.get(pk=job.pk).finished_at == done.finished_at
    assert current == 8  # each game's four seats, rated once by the recompute
    assert_ratings(pool_ratings(), reference_ratings())
