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
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext

from events.models import Stream
from events.outbox import outbox_publish
from herald.errors import ServiceError
from herald.roles import HOUSE_BOTS
from ratings.models import RatedGame, Rating, RatingChange, RatingPool, RecomputeJob
from ratings.rating import Skill, edition_family, rate_ranks
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


def _order_after(game: RatedGame) -> Q:
    """Games of the pool at or after ``game`` in completion order."""
    return Q(completed_at__gt=game.completed_at) | Q(
        completed_at=game.completed_at, stream_id__gte=game.stream_id
    )


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
        waiting = _ordered(pool.games.filter(status=RatedGame.Status.READY))
        batch = list(waiting[:limit])
        if not batch:
            return 0
        if pool.games.filter(_order_after(batch[0]), sequence__isnull=False).exists():
            _rewind(pool, batch[0])  # it completed before games already rated, or was changed
            batch = list(waiting[:limit])
        _rate_batch(pool, batch)
        _pause_for_fault_tests(batch)
    return len(batch)


def pool_rate_all_pending(*, pool_id: int) -> int:
    """Rate every waiting game of the pool, a batch per transaction; return how many."""
    total = 0
    while rated := pool_rate_pending(pool_id=pool_id):
        total += rated
    return total


def _rate_batch(pool: RatingPool, batch: Sequence[RatedGame]) -> None:
    """Rate ``batch`` (already in order) in memory, then write it with a few bulk statements."""
    if not batch:
        return
    ratings = _ratings_for(pool, {p for game in batch for p in game.players})
    sequence = _last_sequence(pool)
    now = timezone.now()
    changes: list[RatingChange] = []
    for game in batch:
        sequence += 1
        changes.extend(_rate_one(pool, game, ratings, sequence))
        game.status, game.sequence, game.rated_at = RatedGame.Status.RATED, sequence, now
    RatingChange.objects.bulk_create(changes)
    for rating in ratings.values():
        rating.updated_at = now
    _save_rows(Rating, list(ratings.values()), ["mu", "sigma", "games", "updated_at"])
    _save_rows(RatedGame, list(batch), ["status", "sequence", "rated_at"])


#: Below this many rows, plain UPDATEs beat bulk_update's CASE expressions (measured).
BULK_UPDATE_FROM = 12


def _save_rows(model: Any, rows: Sequence[Any], fields: list[str]) -> None:
    """Write ``fields`` of ``rows``: one UPDATE each for a few rows, a bulk UPDATE for many."""
    if len(rows) >= BULK_UPDATE_FROM:
        model.objects.bulk_update(rows, fields, batch_size=500)
        return
    for row in rows:
        model.objects.filter(pk=row.pk).update(**{name: getattr(row, name) for name in fields})


def _rate_one(
    pool: RatingPool, game: RatedGame, ratings: dict[int, Rating], sequence: int
) -> list[RatingChange]:
    before = [ratings[player].skill for player in game.players]
    after = rate_ranks(pool.params, before, game.ranks)
    changes = []
    for seat, (player, rank, old, new) in enumerate(
        zip(game.players, game.ranks, before, after, strict=True)
    ):
        changes.append(
            RatingChange(
                pool=pool,
                game=game,
                stream_id=game.stream_id,
                sequence=sequence,
                player_id=player,
                seat=seat,
                rank=rank,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
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


def _rewind(pool: RatingPool, start: RatedGame) -> int:
    """Undo the ratings of ``start`` and every later game; the counted ones wait to be rated again.

    Their changes are kept but marked not current; each affected player's rating goes back to
    the ``after`` of their last current change (or the pool's prior). Returns the games undone.
    Caller holds the pool's lock.
    """
    later = pool.games.filter(_order_after(start))
    changes = RatingChange.objects.filter(pool=pool, current=True, game__in=later)
    undone_ids = set(changes.values_list("game_id", flat=True).distinct())
    undone_ids |= set(later.filter(status=RatedGame.Status.RATED).values_list("pk", flat=True))
    if not undone_ids:
        return 0
    players = set(changes.values_list("player_id", flat=True).distinct())
    changes.update(current=False)
    RatedGame.objects.filter(pk__in=undone_ids).update(sequence=None, rated_at=None)
    RatedGame.objects.filter(pk__in=undone_ids, status=RatedGame.Status.RATED).update(
        status=RatedGame.Status.READY
    )
    _restore_ratings(pool, players)
    return len(undone_ids)


def _restore_ratings(pool: RatingPool, players: Iterable[int]) -> None:
    """Set each player's rating to what their current history says."""
    for rating in Rating.objects.filter(pool=pool, player_id__in=list(players)):
        history = RatingChange.objects.filter(pool=pool, player_id=rating.player_id, current=True)
        last = history.order_by("-sequence").first()
        rating.games = history.count()
        rating.mu = last.mu_after if last else pool.mu
        rating.sigma = last.sigma_after if last else pool.sigma
        rating.save(update_fields=["mu", "sigma", "games", "updated_at"])


def _pause_for_fault_tests(batch: Sequence[RatedGame]) -> None:
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

    Each batch is its own transaction under the pool's lock and updates the job's progress, so
    the API shows it moving. Running a job again (a redelivered task) starts it over, which
    gives the same ratings.
    """
    job = RecomputeJob.objects.select_related("pool").get(pk=job_id)
    if job.status == RecomputeJob.Status.DONE:
        return job
    pool = job.pool
    try:
        scope = _recompute_start(job)
        while pool_rate_pending(pool_id=pool.pk, limit=batch):
            _recompute_progress(job, scope)
        _recompute_progress(job, scope)
    except Exception as exc:
        RecomputeJob.objects.filter(pk=job.pk).update(
            status=RecomputeJob.Status.FAILED, error=f"{type(exc).__name__}: {exc}"[:2000]
        )
        raise
    job.status, job.finished_at = RecomputeJob.Status.DONE, timezone.now()
    job.save(update_fields=["status", "finished_at"])
    return job


def _recompute_start(job: RecomputeJob) -> Any:
    """Rewind the pool to the job's first game and count the games to rate; return the scope."""
    with transaction.atomic():
        pool = RatingPool.objects.select_for_update().get(pk=job.pool_id)
        games = pool.games.all()
        start = _first_game_of(job)
        if start is not None:
            games = games.filter(_order_after(start))
            _rewind(pool, start)
        else:
            _rewind_all(pool)
        scope = games.exclude(status=RatedGame.Status.EXCLUDED)
        job.status, job.started_at = RecomputeJob.Status.RUNNING, timezone.now()
        job.total, job.done, job.error = scope.count(), 0, ""
        job.save(update_fields=["status", "started_at", "total", "done", "error"])
    return scope


def _first_game_of(job: RecomputeJob) -> RatedGame | None:
    if job.from_stream_id is None or job.from_completed_at is None:
        return None
    return RatedGame(
        pool_id=job.pool_id, stream_id=job.from_stream_id, completed_at=job.from_completed_at
    )


def _rewind_all(pool: RatingPool) -> None:
    first = _ordered(pool.games.all()).first()
    if first is not None:
        _rewind(pool, first)


def _recompute_progress(job: RecomputeJob, scope: Any) -> None:
    job.done = scope.filter(status=RatedGame.Status.RATED).count()
    RecomputeJob.objects.filter(pk=job.pk).update(done=job.done)


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
