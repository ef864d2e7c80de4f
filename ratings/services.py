"""Writes of the ratings app: pools, entering games, rating them in order, recomputing.

Ordering rule: a pool's games are rated in completion order (``completed_at``, then stream id),
one at a time, while holding the pool row's lock (``SELECT … FOR UPDATE``). A game that arrives
late (verified after games that finished later were rated) or that a ruling changes rewinds the
pool to it: the later games' changes are superseded and the stored history is rated again, so
the ratings always equal rating the pool's counted games from scratch in completion order.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from django.contrib.auth import get_user_model
from django.db import (
    DEFAULT_DB_ALIAS,
    DatabaseError,
    IntegrityError,
    connection,
    connections,
    transaction,
)
from django.db.models import Case, Count, F, Max, Min, OuterRef, Q, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext

from events.models import Stream
from events.outbox import outbox_publish
from herald.errors import ServiceError
from herald.roles import HOUSE_BOTS
from ratings import bulk
from ratings.models import RatedGame, Rating, RatingChange, RatingPool, RecomputeJob
from ratings.rating import EnvParams, Skill, edition_family, rate_ranks
from ratings.selectors import stream_outcome
from tournaments import services as tournament_services
from tournaments.errors import TournamentError
from tournaments.models import Table

logger = logging.getLogger(__name__)

#: The outbox topic of recompute jobs (routed to ``ratings.recompute_pool`` in settings).
RECOMPUTE_TOPIC = "ratings.recompute"

#: Games rated per transaction: big enough to amortise the lock, small enough to show progress.
RATE_BATCH = 200


class RatingError(ServiceError, ValueError):
    """A request the ratings app cannot carry out, in a sentence a person understands."""


# -- pools ---------------------------------------------------------------------------------------


def pool_get_or_create(*, game: str, edition: str) -> RatingPool:
    """The pool of ``game`` and the family of ``edition``, created with default parameters."""
    family = edition_family(edition)
    try:
        with transaction.atomic():
            pool, _ = RatingPool.objects.get_or_create(game=game, edition_family=family)
    except IntegrityError:  # another worker created it between our SELECT and INSERT
        pool = RatingPool.objects.get(game=game, edition_family=family)
    return pool


# -- entering games ------------------------------------------------------------------------------


def rated_game_register(
    *,
    stream_id: uuid.UUID,
    game: str,
    edition: str,
    completed_at: dt.datetime,
    players: Sequence[int],
    ranks: Sequence[int],
    counted: bool = True,
    excluded_reason: str = "",
    source: str = "verified",  # RatedGame.Source
) -> RatedGame:
    """Enter a finished game in its pool, once (a second call returns the first row).

    ``players`` are user ids in seat order and ``ranks`` their 1-based ranks. A game that must
    not count (annulled, held by a dispute, or with a player in two seats) is entered
    ``excluded`` with the reason, so the pool's history still shows it. ``source`` marks a
    paper table's reported result (``RatedGame.Source.REPORTED``: not replay-verified); a
    pool set to rate verified games only enters such a game excluded.
    """
    if len(players) != len(ranks):
        raise RatingError(
            gettext("{len} players but {len2} ranks: one rank per seat").format(
                len=len(players), len2=len(ranks)
            )
        )
    never = never_counted(players)
    if counted and never:
        counted, excluded_reason = False, never
    pool = pool_get_or_create(game=game, edition=edition)
    if counted and source == RatedGame.Source.REPORTED and pool.verified_only:
        counted, excluded_reason = False, VERIFIED_ONLY_REASON
    status = RatedGame.Status.READY if counted else RatedGame.Status.EXCLUDED
    try:
        with transaction.atomic():
            rated, _ = RatedGame.objects.get_or_create(
                stream_id=stream_id,
                defaults={
                    "pool": pool,
                    "completed_at": completed_at,
                    "players": list(players),
                    "ranks": list(ranks),
                    "status": status,
                    "excluded_reason": "" if counted else excluded_reason,
                    "source": source,
                },
            )
    except IntegrityError:  # a redelivered task registered it at the same moment
        rated = RatedGame.objects.get(stream_id=stream_id)
    return rated


#: Why a reported game is not rated in a pool set to rate verified games only.
VERIFIED_ONLY_REASON = "the pool rates verified games only (this one was reported)"


def never_counted(players: Sequence[int]) -> str:
    """Why a game with these seats (user ids) is never rated, whatever its rulings, or "":
    a player in two seats, or a house bot at the table (``herald.roles.HOUSE_BOTS``: its
    moves are a program's, so the people's ratings would measure the bot)."""
    if len(set(players)) != len(players):
        return "a player sat in two seats of this game"
    bots = get_user_model().objects.filter(pk__in=list(players), groups__name=HOUSE_BOTS)
    if bots.exists():
        return "a house bot played in this game"
    return ""


# -- rating in order -----------------------------------------------------------------------------


class _InOrder(Protocol):
    """Anything with a place in a pool's completion order (a RatedGame or one of its rows)."""

    @property
    def completed_at(self) -> dt.datetime: ...

    @property
    def stream_id(self) -> uuid.UUID: ...


def _order_after(game: _InOrder) -> Q:
    """Games of the pool at or after ``game`` in completion order."""
    return Q(completed_at__gt=game.completed_at) | Q(
        completed_at=game.completed_at, stream_id__gte=game.stream_id
    )


def _at_or_after(game: _InOrder, start: _InOrder) -> bool:
    """``_order_after`` in Python: UUIDs compare as PostgreSQL and SQLite order them."""
    return (game.completed_at, game.stream_id) >= (start.completed_at, start.stream_id)


def _ordered(queryset: Any) -> Any:
    return queryset.order_by("completed_at", "stream_id")


def pool_rate_pending(*, pool_id: int, limit: int = RATE_BATCH) -> int:
    """Rate up to ``limit`` waiting games of the pool in completion order; return how many.

    Runs in one transaction holding the pool's lock, so two workers never rate the same pool at
    once and a worker that dies mid-way leaves nothing half-rated. A waiting game that
    completed before games already rated rewinds the pool to it first.
    """
    with transaction.atomic():
        pool = RatingPool.objects.select_for_update().get(pk=pool_id)
        rated = _rate_waiting(pool, limit=limit)
        _pause_for_fault_tests(rated)
    return len(rated)


def pool_rate_all_pending(*, pool_id: int) -> int:
    """Rate every waiting game of the pool, a batch per transaction; return how many."""
    total = 0
    while rated := pool_rate_pending(pool_id=pool_id):
        total += rated
    return total


#: What a rating pass reads of each waiting game (a row, not a model instance).
_GAME_FIELDS = ("pk", "stream_id", "completed_at", "players", "ranks")


def _waiting(pool: RatingPool, limit: int | None) -> list[Any]:
    rows = _ordered(pool.games.filter(status=RatedGame.Status.READY)).values_list(
        *_GAME_FIELDS, named=True
    )
    return list(rows if limit is None else rows[:limit])


def _rate_waiting(
    pool: RatingPool,
    *,
    limit: int | None = None,
    chunk: int = RATE_BATCH,
    on_chunk: Callable[[Sequence[Any]], None] | None = None,
) -> list[Any]:
    """Rate the pool's waiting games in order (the first ``limit``, or all); return them.

    Caller holds the pool's lock in a transaction. A waiting game that completed before games
    already rated rewinds the pool to it first. Everything the pass needs is read in a few
    queries (the games, their players' ratings, the last sequence); the games are rated in
    memory, each ``chunk`` of them written with one insert of its changes and one update of
    its games (``ratings.bulk``), and ``on_chunk`` told; the ratings are written once at the
    end. The transaction makes the pass all or nothing.
    """
    games = _waiting(pool, limit)
    if not games:
        return []
    if pool.games.filter(_order_after(games[0]), sequence__isnull=False).exists():
        _rewind(pool, games[0])  # it completed before games already rated, or was changed
        games = _waiting(pool, limit)
    ratings = _ratings_for(pool, {p for game in games for p in game.players})
    sequence = _last_sequence(pool)
    params = pool.params
    now = timezone.now()
    for first in range(0, len(games), max(chunk, 1)):
        part = games[first : first + max(chunk, 1)]
        changes: list[bulk.ChangeRow] = []
        positions: list[tuple[int, int]] = []
        for game in part:
            sequence += 1
            positions.append((game.pk, sequence))
            changes.extend(
                _rate_one(pool.pk, params, game=game, ratings=ratings, sequence=sequence, now=now)
            )
        bulk.insert_changes(changes)
        bulk.mark_games_rated(positions, now)
        if on_chunk is not None:
            on_chunk(part)
    for rating in ratings.values():
        rating.updated_at = now
    bulk.update_ratings(list(ratings.values()))
    return games


def _rate_one(
    pool_id: int,
    params: EnvParams,
    *,
    game: Any,
    ratings: dict[int, Rating],
    sequence: int,
    now: dt.datetime,
) -> list[bulk.ChangeRow]:
    """Rate one game in memory: update its players' ``ratings``, return its changes."""
    before = [ratings[player].skill for player in game.players]
    after = rate_ranks(params, before, game.ranks)
    changes = []
    for seat, (player, rank, old, new) in enumerate(
        zip(game.players, game.ranks, before, after, strict=True)
    ):
        changes.append(
            bulk.ChangeRow(
                pool_id=pool_id,
                game_id=game.pk,
                stream_id=game.stream_id,
                sequence=sequence,
                player_id=player,
                seat=seat,
                rank=rank,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                current=True,
                recorded_at=now,
            )
        )
        rating = ratings[player]
        rating.mu, rating.sigma, rating.games = new.mu, new.sigma, rating.games + 1
    return changes


def _ratings_for(pool: RatingPool, players: Iterable[int]) -> dict[int, Rating]:
    """The pool's Rating rows of ``players``, creating the missing ones at the pool's prior."""
    wanted = set(players)
    found = {r.player_id: r for r in Rating.objects.filter(pool=pool, player_id__in=wanted)}
    missing = [
        Rating(pool=pool, player_id=p, mu=pool.mu, sigma=pool.sigma, games=0)
        for p in sorted(wanted - found.keys())
    ]
    if missing:
        Rating.objects.bulk_create(missing)
        found.update(
            (r.player_id, r)
            for r in Rating.objects.filter(pool=pool, player_id__in=[m.player_id for m in missing])
        )
    return found


def _last_sequence(pool: RatingPool) -> int:
    last = pool.games.filter(status=RatedGame.Status.RATED).aggregate(last=Max("sequence"))
    return int(last["last"] or 0)


def _rewind(pool: RatingPool, start: _InOrder) -> None:
    """Undo the ratings of ``start`` and every later game; the counted ones wait to be rated again.

    Their changes are kept but marked not current (one UPDATE: the only one the append-only
    history allows); each affected player's rating goes back to the ``after`` of their last
    current change (or the pool's prior). Caller holds the pool's lock.
    """
    later = pool.games.filter(_order_after(start))
    first = later.filter(sequence__isnull=False).aggregate(first=Min("sequence"))["first"]
    players: set[int] = set()
    if first is not None:
        # Sequences follow completion order (a rewind clears them from its game on), so the
        # current changes of ``later`` are those from its first sequence on: a plain range,
        # whatever the planner knows about a pool just loaded (a join here went nested-loop).
        changes = RatingChange.objects.filter(pool=pool, current=True, sequence__gte=first)
        players = set(changes.order_by().values_list("player_id", flat=True).distinct())
        changes.update(current=False)
    later.filter(Q(sequence__isnull=False) | Q(status=RatedGame.Status.RATED)).update(
        sequence=None,
        rated_at=None,
        status=Case(
            When(status=RatedGame.Status.RATED, then=Value(str(RatedGame.Status.READY))),
            default=F("status"),
        ),
    )
    if players:
        _restore_ratings(pool, players)


def _restore_ratings(pool: RatingPool, players: Iterable[int]) -> None:
    """Set each player's rating to what their current history says (one read, one write)."""
    history = RatingChange.objects.filter(pool=pool, current=True, player_id=OuterRef("player_id"))
    last = history.order_by("-sequence")
    count = history.order_by().values("player_id").annotate(n=Count("pk")).values("n")
    rows = list(
        Rating.objects.filter(pool=pool, player_id__in=list(players)).annotate(
            last_mu=Subquery(last.values("mu_after")[:1]),
            last_sigma=Subquery(last.values("sigma_after")[:1]),
            current_games=Coalesce(Subquery(count), 0),
        )
    )
    now = timezone.now()
    for rating in rows:
        rating.games = rating.current_games
        rating.mu = pool.mu if rating.last_mu is None else rating.last_mu
        rating.sigma = pool.sigma if rating.last_sigma is None else rating.last_sigma
        rating.updated_at = now
    bulk.update_ratings(rows)


def _pause_for_fault_tests(batch: Sequence[Any]) -> None:
    """Fault tests only: hold the open transaction so a test can kill -9 the worker mid-rating.

    ``HERALD_FAULT_PAUSE_RATING=<seconds>`` (set only in a fault test's own worker) sleeps after
    the ratings are written and before the transaction commits, and says so in the log.
    """
    pause = float(os.environ.get("HERALD_FAULT_PAUSE_RATING", "0") or 0)
    if batch and pause > 0:
        logger.warning("fault pause: holding the rating of %d game(s) uncommitted", len(batch))
        time.sleep(pause)


# -- changing a game that is already in its pool -------------------------------------------------


def rated_game_exclude(*, stream_id: uuid.UUID, reason: str) -> RatedGame | None:
    """Stop counting a game (annulled, or held by a dispute); later games need re-rating."""
    with transaction.atomic():
        game = RatedGame.objects.select_for_update().filter(stream_id=stream_id).first()
        if game is None:
            return None
        game.status, game.excluded_reason = RatedGame.Status.EXCLUDED, reason[:200]
        game.save(update_fields=["status", "excluded_reason"])
    return game


def rated_game_count_again(
    *, stream_id: uuid.UUID, ranks: Sequence[int] | None = None
) -> RatedGame | None:
    """Count a game again (upheld) or with amended ranks; it waits to be rated in its place."""
    with transaction.atomic():
        game = RatedGame.objects.select_for_update().filter(stream_id=stream_id).first()
        if game is None:
            return None
        if ranks is not None:
            if len(ranks) != len(game.players):
                raise RatingError(
                    gettext("the game has {len} seats but {len2} ranks were given").format(
                        len=len(game.players), len2=len(ranks)
                    )
                )
            game.ranks = list(ranks)
        if not never_counted(game.players):
            game.status, game.excluded_reason = RatedGame.Status.READY, ""
        game.save(update_fields=["ranks", "status", "excluded_reason"])
    return game


# -- recompute -----------------------------------------------------------------------------------


def recompute_request(
    *,
    pool: RatingPool,
    reason: str,
    from_game: RatedGame | None = None,
    requested_by: Any = None,
) -> RecomputeJob:
    """Queue a recompute of ``pool`` from ``from_game`` on (from the start when None).

    The job row and an outbox entry (topic ``ratings.recompute``, routed to the Celery task
    ``ratings.recompute_pool``) are written in one transaction; the task is sent when it
    commits. A message lost on the way (the broker down, a worker killed) is sent again by the
    outbox sweep, so no job stays queued forever; running a job twice rates once.
    """
    with transaction.atomic():
        job = RecomputeJob.objects.create(
            pool=pool,
            from_stream_id=from_game.stream_id if from_game else None,
            from_completed_at=from_game.completed_at if from_game else None,
            reason=reason[:300],
            requested_by=requested_by,
        )
        outbox_publish(topic=RECOMPUTE_TOPIC, payload={"job_id": job.pk})
    return job


def recompute_run(*, job_id: int, batch: int = RATE_BATCH) -> RecomputeJob:
    """Carry out a recompute job: rewind the pool to its first game, then rate forward.

    One transaction holding the pool's lock: the rewind, the rating of every game from there
    on in memory, and its writes, a chunk of ``batch`` games at a time (``_rate_waiting``).
    A fault anywhere (a worker killed, a game that cannot be rated) rolls all of it back, so
    the pool keeps its ratings and history as they were and never shows a half-recomputed
    history; running the job again (a redelivered task) starts it over, which gives the same
    ratings. The job's progress (status, done, total) is written after each chunk through a
    connection of its own, committed at once, so the API shows it moving while the rating
    transaction is still open (on PostgreSQL; elsewhere it shows once the job is done).
    """
    job = RecomputeJob.objects.select_related("pool").get(pk=job_id)
    if job.status == RecomputeJob.Status.DONE:
        return job
    progress = _JobProgress(job)
    try:
        with transaction.atomic():
            pool = RatingPool.objects.select_for_update().get(pk=job.pool_id)
            start = _first_game_of(job) or _ordered(pool.games.all()).first()
            scope = pool.games.exclude(status=RatedGame.Status.EXCLUDED)
            if start is not None:
                scope = scope.filter(_order_after(start))
                _rewind(pool, start)
            progress.write(
                status=RecomputeJob.Status.RUNNING,
                started_at=timezone.now(),
                total=scope.count(),
                done=0,
                error="",
            )

            def advance(games: Sequence[Any]) -> None:
                done = sum(1 for g in games if start is None or _at_or_after(g, start))
                progress.write(done=job.done + done)

            rated = _rate_waiting(pool, chunk=batch, on_chunk=advance)
            _pause_for_fault_tests(rated)
    except Exception as exc:
        progress.close()
        RecomputeJob.objects.filter(pk=job.pk).update(
            status=RecomputeJob.Status.FAILED, done=0, error=f"{type(exc).__name__}: {exc}"[:2000]
        )
        raise
    progress.close()
    job.status, job.finished_at = RecomputeJob.Status.DONE, timezone.now()
    job.save(update_fields=["status", "started_at", "total", "done", "error", "finished_at"])
    return job


class _JobProgress:
    """Writes a running job's fields where other sessions see them at once.

    On PostgreSQL through a second connection in autocommit, since the job's own transaction
    commits only at the end; the rating transaction never writes the job row, so the two
    never wait on each other. Elsewhere (SQLite, one writer at a time) in the job's own
    transaction. ``job`` itself always holds the latest values.
    """

    def __init__(self, job: RecomputeJob) -> None:
        self.job = job
        self._side: Any = None
        if connection.vendor == "postgresql":
            self._side = connections.create_connection(DEFAULT_DB_ALIAS)

    def write(self, **fields: Any) -> None:
        for name, value in fields.items():
            setattr(self.job, name, value)
        if self._side is None:
            RecomputeJob.objects.filter(pk=self.job.pk).update(**fields)
            return
        quote = self._side.ops.quote_name
        assignments = ", ".join(f"{quote(name)} = %s" for name in fields)
        table = quote(RecomputeJob._meta.db_table)
        values = [getattr(value, "value", value) for value in fields.values()]  # choices: str
        try:
            with self._side.cursor() as cursor:
                # Progress only: never wait long on a job row some other transaction holds.
                cursor.execute("SET lock_timeout = '5s'")
                cursor.execute(
                    f"UPDATE {table} SET {assignments} WHERE id = %s", [*values, self.job.pk]
                )
        except DatabaseError:
            logger.warning("recompute job %s: progress not written, going on", self.job.pk)
            self.close()

    def close(self) -> None:
        if self._side is not None:
            self._side.close()
            self._side = None


def _first_game_of(job: RecomputeJob) -> RatedGame | None:
    if job.from_stream_id is None or job.from_completed_at is None:
        return None
    return RatedGame(
        pool_id=job.pool_id, stream_id=job.from_stream_id, completed_at=job.from_completed_at
    )


def skill_prior(pool: RatingPool) -> Skill:
    """A new player's skill in ``pool``."""
    return Skill(pool.mu, pool.sigma)


# -- standings follow verification and rulings ----------------------------------------------------


def standings_follow(*, stream_id: uuid.UUID | str, by: Any = None) -> str:
    """Make the tournament table of ``stream_id`` (if any) count the game as its rulings say.

    Counted with the stored ranks: the table's result is read from the stream (the
    tournaments service). Counted with amended ranks: the arbiter's ranks are entered as a
    new confirmed version. Annulled or replaced: the table's results are discarded, and after
    a replay the table follows the new stream. Returns what was done, in words.
    """
    table = Table.objects.filter(stream_id=stream_id).select_related("round").first()
    stream = Stream.objects.filter(pk=stream_id).first()
    if table is None or stream is None or not stream.is_finished:
        return "no tournament table follows this game"
    outcome = stream_outcome(stream=stream)
    try:
        if outcome.counts and outcome.ranks == list((stream.result or {}).get("ranks", [])):
            tournament_services.result_from_stream(table=table)
            return "the table's result is the game's"
        if outcome.counts and outcome.ranks is not None:
            tournament_services.result_enter(
                table=table,
                by=by,
                ranks=outcome.ranks,
                scores=outcome.scores or (),
                reason=gettext("An arbiter's ruling amended the game's result."),
            )
            return "the table's result is the amended one"
    except TournamentError as exc:
        logger.warning("table %s does not take the result of %s: %s", table.pk, stream_id, exc)
        return f"the table did not take the result: {exc}"
    if outcome.replaced_by:
        tournament_services.table_follow_stream(table=table, stream_id=outcome.replaced_by, by=by)
    else:
        tournament_services.table_results_discard(table=table, by=by)
    return "the table's result no longer counts"
