"""Ratings benchmark: the pipeline's throughput, the rating step's overhead, a big recompute.

Runs in a throw-away test database, never the development database: PostgreSQL's
``test_<name>`` for DATABASE_URL's database, or when DATABASE_URL is unset for
``BENCH_DATABASE_URL``'s (default postgres://postgres@127.0.0.1:5432/herald_ratings_bench)
when that server answers; SQLite in memory otherwise.
Prints:

1. games verified and rated per second through the pipeline (13 Couronnes games played by
   random bots through the event store, then ``game_verify_and_rate`` for each, as the
   worker's task does), and games rated per second by the rating services alone;
2. the pure rating step (``rate_ranks``) against a bare ``trueskill`` call on the same games,
   one run, with the overhead ratio;
3. a recompute of ``--recompute`` (default 10,000) 4-player games from the first one, against
   the bare ``trueskill`` calls for the same games in the same run (before and after it, the
   faster counting): the time, the ratio, issue #19's aim (within 2x) and "met" / "not met",
   and the largest difference of the recomputed ratings from bare trueskill (within 1e-9).

    python bench/ratings.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mydb python bench/ratings.py --recompute 10000
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "herald.settings")
#: Where the recompute's aim is measured when DATABASE_URL names no database (``make bench``
#: on a machine with PostgreSQL, as bench/append.py and bench/live.py do): the bulk reads and
#: writes are PostgreSQL's. Without it, SQLite in memory (slower here: about 3.4x, not 1.7x).
BENCH_DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/herald_ratings_bench"
)


def _postgres_answers(url: str) -> bool:
    try:
        psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", connect_timeout=3).close()
    except psycopg.Error:
        return False
    return True


if "DATABASE_URL" not in os.environ and _postgres_answers(BENCH_DATABASE_URL):
    os.environ["DATABASE_URL"] = BENCH_DATABASE_URL

import django  # noqa: E402

django.setup()

import trueskill  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

import ratings.tasks  # noqa: E402, F401  (registers the tasks the outbox names)
from engine.core import Rng  # noqa: E402
from events.states import state_cache  # noqa: E402
from ratings import services  # noqa: E402
from ratings.models import RatedGame, Rating, RatingPool, RecomputeJob  # noqa: E402
from ratings.rating import EnvParams, Skill, rate_ranks  # noqa: E402
from ratings.verification import game_verify_and_rate  # noqa: E402
from tests.ratings.games import play_to_end  # noqa: E402

T0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
RANK_PATTERNS = ([1, 2, 3, 4], [2, 1, 4, 3], [1, 1, 3, 4], [4, 3, 2, 1], [3, 1, 2, 2], [1, 2, 2, 4])


def timed(label: str, work: Callable[[], int]) -> tuple[int, float]:
    start = time.perf_counter()
    count = work()
    seconds = time.perf_counter() - start
    print(f"  {label:<58} {count:>7} in {seconds:8.3f} s = {count / seconds:10.1f}/s")
    return count, seconds


def schedule(players: list[int], count: int, seed: str) -> list[tuple[list[int], list[int]]]:
    """``count`` 4-player games among ``players`` (random tables and rank patterns)."""
    rng = Rng(seed)
    games = []
    for _ in range(count):
        seated = rng.shuffled(players)[:4]
        games.append((seated, list(rng.choice(RANK_PATTERNS))))
    return games


def make_players(count: int, prefix: str) -> list[int]:
    users = get_user_model()
    users.objects.bulk_create(users(username=f"{prefix}{i}") for i in range(count))
    return list(
        users.objects.filter(username__startswith=prefix)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def register(games: list[tuple[list[int], list[int]]], game_id: str) -> int:
    for index, (players, ranks) in enumerate(games):
        services.rated_game_register(
            stream_id=uuid.uuid4(),
            game=game_id,
            edition="bench",
            completed_at=T0 + dt.timedelta(seconds=index),
            players=players,
            ranks=ranks,
        )
    return len(games)


# -- 1. the pipeline --------------------------------------------------------------------------


def bench_pipeline(games: int) -> None:
    print(f"1. pipeline ({games} games of 13 Couronnes, 4 players, max_turns=3)")
    users = get_user_model()
    players = [users.objects.create_user(f"pipe{i}") for i in range(8)]
    streams = []
    # Games end without enqueuing their verification: the timed loop below does that work.
    settings.HERALD_OUTBOX_ROUTES = {"game.ended": "events.outbox_noop"}
    start = time.perf_counter()
    for index in range(games + 1):
        seated = [players[(index + k * 2) % len(players)] for k in range(4)]
        streams.append(
            play_to_end(
                seated, game_id="13-couronnes", bot_seed=f"bench-{index}", options={"max_turns": 3}
            )
        )
    played = time.perf_counter() - start
    moves = sum(stream.version for stream in streams)
    print(f"  (set-up: {games} games, {moves} events, played in {played:.2f} s)")
    state_cache.clear()
    settings.HERALD_OUTBOX_ROUTES = {"game.ended": "ratings.verify_game"}
    warm_up = streams.pop(0)  # the first call imports tournaments (scipy...): not timed
    game_verify_and_rate(stream_id=warm_up.pk)

    def verify_and_rate() -> int:
        for stream in streams:
            outcome = game_verify_and_rate(stream_id=stream.pk)
            assert outcome.verification is not None
            assert outcome.verification.ok
        return len(streams)

    timed("verified (replay + checks) and rated, one game per task", verify_and_rate)
    rated = RatedGame.objects.filter(status=RatedGame.Status.RATED).count()
    assert rated == games + 1, f"{rated} of {games + 1} games rated"

    many = schedule(make_players(64, "svc"), 500, "services")
    register(many, "services-only")
    pool = RatingPool.objects.get(game="services-only")

    def one_at_a_time() -> int:
        done = 0
        while services.pool_rate_pending(pool_id=pool.pk, limit=1):
            done += 1
        return done

    timed("rated by the services, one game per transaction", one_at_a_time)
    again = schedule(make_players(64, "svb"), 500, "batched")
    register(again, "services-batched")
    batched = RatingPool.objects.get(game="services-batched")
    timed(
        f"rated by the services, {services.RATE_BATCH} games per transaction",
        lambda: services.pool_rate_all_pending(pool_id=batched.pk),
    )


# -- 2. the pure rating step against bare trueskill --------------------------------------------


def bench_pure(count: int) -> None:
    print(f"2. pure rating step against a bare trueskill call ({count} 4-player games, one run)")
    games = schedule(list(range(64)), count, "pure")
    params = EnvParams()

    def bare() -> int:
        env = trueskill.TrueSkill()
        ratings: dict[int, Any] = {}
        for players, ranks in games:
            groups = [(ratings.get(p) or env.create_rating(),) for p in players]
            for player, team in zip(players, env.rate(groups, ranks=ranks), strict=True):
                ratings[player] = team[0]
        return len(games)

    def ours() -> int:
        ratings: dict[int, Skill] = {}
        prior = Skill(params.mu, params.sigma)
        for players, ranks in games:
            before = [ratings.get(p, prior) for p in players]
            for player, skill in zip(players, rate_ranks(params, before, ranks), strict=True):
                ratings[player] = skill
        return len(games)

    # Interleaved runs, best of each: other processes on the machine disturb single runs.
    bare_runs, our_runs = [], []
    for _ in range(3):
        bare_runs.append(timed("bare trueskill.TrueSkill().rate", bare)[1])
        our_runs.append(timed("ratings.rating.rate_ranks", ours)[1])
    ratio = min(our_runs) / min(bare_runs)
    print(
        f"  best of 3: bare {count / min(bare_runs):.1f}/s, rate_ranks {count / min(our_runs):.1f}/s"
    )
    print(f"  overhead ratio rate_ranks / bare trueskill (best runs): {ratio:.3f}")


# -- 3. a recompute of a big pool --------------------------------------------------------------


#: The aim of issue #19: a recompute within this many times the bare trueskill calls' time.
RECOMPUTE_AIM = 2.0


def bare_trueskill(games: list[tuple[list[int], list[int]]]) -> dict[int, Any]:
    """Rate ``games`` in order with bare ``trueskill`` calls only: the yardstick."""
    env = trueskill.TrueSkill()
    ratings: dict[int, Any] = {}
    for players, ranks in games:
        groups = [(ratings.get(p) or env.create_rating(),) for p in players]
        for player, team in zip(players, env.rate(groups, ranks=ranks), strict=True):
            ratings[player] = team[0]
    return ratings


def bench_recompute(count: int) -> None:
    print(f"3. recompute of {count} 4-player games")
    games = schedule(make_players(200, "rc"), count, "recompute")
    pool = services.pool_get_or_create(game="recompute", edition="bench")

    def enter() -> int:  # set-up, in bulk: the service enters one game per call
        RatedGame.objects.bulk_create(
            RatedGame(
                pool=pool,
                stream_id=uuid.uuid4(),
                completed_at=T0 + dt.timedelta(seconds=index),
                players=players,
                ranks=ranks,
            )
            for index, (players, ranks) in enumerate(games)
        )
        return len(games)

    timed("games entered in the pool (bulk set-up)", enter)
    timed("rated the first time (batched)", lambda: services.pool_rate_all_pending(pool_id=pool.pk))
    # The yardstick on either side of the recompute, the faster one counting (machine noise).
    expected: dict[int, Any] = {}

    def bare() -> int:
        expected.update(bare_trueskill(games))
        return len(games)

    _, bare_before = timed("bare trueskill calls for the same games", bare)
    job = RecomputeJob.objects.create(pool=pool, reason="benchmark")  # run here, not enqueued
    _, took = timed(
        "recompute job from the first game", lambda: services.recompute_run(job_id=job.pk).done
    )
    _, bare_after = timed("bare trueskill calls for the same games, again", bare)
    job.refresh_from_db()
    print(f"  job: {job.status}, {job.done}/{job.total}")
    worst = max(
        max(abs(r.mu - expected[r.player_id].mu), abs(r.sigma - expected[r.player_id].sigma))
        for r in Rating.objects.filter(pool=pool)
    )
    print(f"  largest difference from bare trueskill (mu or sigma): {worst:.1e} (must be <= 1e-9)")
    yardstick = min(bare_before, bare_after)
    ratio = took / yardstick
    verdict = "met" if ratio <= RECOMPUTE_AIM and worst <= 1e-9 else "not met"
    print(
        f"  recompute {took:.2f} s, bare trueskill {yardstick:.2f} s for the same games: "
        f"ratio {ratio:.2f}x (aim <= {RECOMPUTE_AIM:g}x): {verdict}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pipeline", type=int, default=100, help="games through the pipeline")
    parser.add_argument("--pure", type=int, default=2000, help="games for the pure step")
    parser.add_argument("--recompute", type=int, default=10_000, help="games to recompute")
    args = parser.parse_args()
    setup_test_environment()
    settings.CELERY_TASK_ALWAYS_EAGER = True
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    vendor = connection.vendor
    print(f"database: {vendor} (throw-away test database), Python {sys.version.split()[0]}")
    try:
        bench_pipeline(args.pipeline)
        bench_pure(args.pure)
        bench_recompute(args.recompute)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
