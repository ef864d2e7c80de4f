"""Reads of the ratings app: leaderboards, histories, pools, jobs, disputes, whether a game counts."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count, F, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from events.access import streams_visible_to
from events.models import Event, Stream, StreamSeat
from events.payloads import RulingMade
from ratings.models import (
    Dispute,
    RatedGame,
    Rating,
    RatingChange,
    RatingPool,
    RecomputeJob,
    Verification,
)


@dataclass(frozen=True)
class LeaderboardRow:
    """One line of a leaderboard."""

    position: int
    player_id: int
    username: str
    mu: float
    sigma: float
    conservative: float
    games: int
    provisional: bool
    reported: int = 0  # of ``games``, those reported from paper tables (not replay-verified)


def leaderboard_row(
    rating: Rating, *, position: int, threshold: int, reported: int = 0
) -> LeaderboardRow:
    """One line of a leaderboard: ``rating`` at ``position``, provisional under ``threshold``
    games."""
    return LeaderboardRow(
        position=position,
        player_id=rating.player_id,
        username=rating.player.get_username(),
        mu=rating.mu,
        sigma=rating.sigma,
        conservative=rating.mu - 3 * rating.sigma,
        games=rating.games,
        provisional=rating.games < threshold,
        reported=reported,
    )


def provisional_games() -> int:
    """Games a player needs before their rating stops being provisional."""
    return int(getattr(settings, "HERALD_PROVISIONAL_GAMES", 5))


def pool_list() -> QuerySet[RatingPool]:
    """Every rating pool, by game and edition family."""
    return RatingPool.objects.order_by("game", "edition_family")


@dataclass(frozen=True)
class PoolSummary:
    """A pool as the ratings index shows it: how many are rated, and the first few."""

    pool: RatingPool
    rated_players: int
    leaders: list[LeaderboardRow]


def pool_summaries(*, top: int = 3) -> list[PoolSummary]:
    """Every pool with its number of rated players and its ``top`` best (the leaderboard's
    order), in two queries whatever the number of pools."""
    pools = pool_list().annotate(rated_players=Count("ratings", filter=Q(ratings__games__gt=0)))
    place = Window(
        RowNumber(),
        partition_by=[F("pool_id")],
        order_by=[F("score").desc(), F("games").desc(), F("player_id").asc()],
    )
    best = (
        Rating.objects.filter(games__gt=0)
        .annotate(score=F("mu") - 3 * F("sigma"))
        .annotate(place=place)
        .filter(place__lte=top)
        .select_related("player")
    )
    threshold = provisional_games()
    leaders: dict[int, list[LeaderboardRow]] = {}
    for rating in sorted(best, key=lambda r: (r.pool_id, r.place)):
        leaders.setdefault(rating.pool_id, []).append(
            leaderboard_row(rating, position=rating.place, threshold=threshold)
        )
    return [
        PoolSummary(pool=pool, rated_players=pool.rated_players, leaders=leaders.get(pool.pk, []))
        for pool in pools
    ]


def pool_find(*, game: str, edition_family: str | None = None) -> RatingPool | None:
    """The pool of ``game`` (and ``edition_family``; the first family when not given)."""
    pools = RatingPool.objects.filter(game=game).order_by("edition_family")
    if edition_family:
        pools = pools.filter(edition_family=edition_family)
    return pools.first()


def leaderboard(
    *, pool: RatingPool, club_id: int | None = None, limit: int = 100, offset: int = 0
) -> list[LeaderboardRow]:
    """Players of ``pool`` by conservative rating μ − 3σ (best first), optionally one club's.

    Players with fewer than ``settings.HERALD_PROVISIONAL_GAMES`` games are listed but marked
    provisional. Ties on μ − 3σ are broken by more games, then by player id, so the order is
    stable.
    """
    ratings = (
        Rating.objects.filter(pool=pool, games__gt=0)
        .annotate(score=F("mu") - 3 * F("sigma"))
        .select_related("player")
        .order_by("-score", "-games", "player_id")
    )
    if club_id is not None:
        ratings = ratings.filter(player__player__club_id=club_id)
    threshold = provisional_games()
    page = list(ratings[offset : offset + limit])
    reported = reported_games(pool=pool, player_ids=[rating.player_id for rating in page])
    return [
        leaderboard_row(
            rating,
            position=offset + index,
            threshold=threshold,
            reported=reported.get(rating.player_id, 0),
        )
        for index, rating in enumerate(page, start=1)
    ]


def reported_games(*, pool: RatingPool, player_ids: list[int]) -> dict[int, int]:
    """Player id -> how many of their rated games in ``pool`` were reported from paper."""
    rows = (
        RatingChange.objects.filter(
            pool=pool,
            player_id__in=player_ids,
            current=True,
            game__source=RatedGame.Source.REPORTED,
        )
        .values("player_id")
        .annotate(n=Count("id"))
    )
    return {row["player_id"]: row["n"] for row in rows}


def player_history(*, pool: RatingPool, player_id: int) -> QuerySet[RatingChange]:
    """A player's current rating changes in ``pool``, oldest first."""
    return RatingChange.objects.filter(pool=pool, player_id=player_id, current=True).order_by(
        "sequence"
    )


def streams_hidden_from(viewer: Any, *, stream_ids: list[uuid.UUID]) -> set[uuid.UUID]:
    """Which of ``stream_ids`` ``viewer`` may not see: private games they neither play in nor
    arbitrate (``events.access.streams_visible_to``, the event store's rule)."""
    wanted = set(stream_ids)
    return wanted - streams_visible_to(viewer, wanted) if wanted else set()


def player_ratings(*, player_id: int) -> QuerySet[Rating]:
    """A player's ratings in every pool they have played in."""
    return Rating.objects.filter(player_id=player_id, games__gt=0).select_related("pool")


def stream_verification(*, stream_id: uuid.UUID | str) -> Verification | None:
    """The worker's verification of a finished stream, or None while it has not run."""
    return Verification.objects.filter(stream_id=stream_id).first()


def rated_game_of(*, stream_id: uuid.UUID | str) -> RatedGame | None:
    """The pool entry of a stream's game, if it has one."""
    return RatedGame.objects.filter(stream_id=stream_id).select_related("pool").first()


def recompute_job_get(*, job_id: int) -> RecomputeJob | None:
    """A recompute job with its progress."""
    return RecomputeJob.objects.filter(pk=job_id).select_related("pool").first()


def recompute_jobs(*, pool: RatingPool | None = None) -> QuerySet[RecomputeJob]:
    """Recompute jobs, newest first."""
    jobs = RecomputeJob.objects.select_related("pool")
    return jobs.filter(pool=pool) if pool is not None else jobs


def dispute_list(*, status: str | None = None, stream_id: Any = None) -> QuerySet[Dispute]:
    """Disputes, newest first, optionally only open/ruled ones or one stream's."""
    disputes = Dispute.objects.select_related("opened_by", "ruled_by")
    if status:
        disputes = disputes.filter(status=status)
    if stream_id:
        disputes = disputes.filter(stream_id=stream_id)
    return disputes


def dispute_get(*, dispute_id: int) -> Dispute | None:
    return Dispute.objects.filter(pk=dispute_id).select_related("opened_by", "ruled_by").first()


# -- what a game counts as, after its rulings ------------------------------------------------------

RULING_EVENT = "RulingMade"


@dataclass(frozen=True)
class GameOutcome:
    """How a finished game counts for standings and ratings once its rulings are applied.

    ``players`` are user ids in seat order; ``ranks`` the stored result's ranks, or the amended
    ones (None when the stream has no result); ``counts`` False once annulled or replaced by a
    replay; ``replaced_by`` the stream that continues it after a "replay from move n" ruling.
    """

    counts: bool
    players: list[int]
    ranks: list[int] | None
    scores: list[float] | None
    reason: str = ""
    replaced_by: str | None = None


def stream_outcome(*, stream: Any) -> GameOutcome:
    """The outcome of ``stream`` (an events Stream): its result, then each ruling in order."""
    seats = StreamSeat.objects.filter(stream=stream).order_by("seat")
    players = list(seats.values_list("user_id", flat=True))
    result = stream.result or {}
    ranks = list(result["ranks"]) if "ranks" in result else None
    scores = list(result["scores"]) if "scores" in result else None
    counts, reason, replaced_by = True, "", None
    for event in Event.objects.filter(stream=stream, type=RULING_EVENT).order_by("seq"):
        ruling = RulingMade.from_payload(event.payload)
        kind, data = ruling.kind, ruling.data or {}
        if kind == Dispute.Ruling.ANNUL:
            counts, reason = False, f"annulled by the ruling of event {event.seq}"
        elif kind == Dispute.Ruling.UPHOLD:
            counts, reason = True, ""
        elif kind == Dispute.Ruling.AMEND:
            counts, reason, ranks = True, "", list(data["ranks"])
            scores = list(data["scores"]) if data.get("scores") else None
        elif kind == Dispute.Ruling.REPLAY:
            replaced_by = str(data.get("new_stream") or "")
            counts = False
            reason = f"replayed from move {data.get('from_move')} in stream {replaced_by}"
    return GameOutcome(counts, players, ranks, scores, reason, replaced_by)


def stream_counts(*, stream_id: uuid.UUID | str) -> bool:
    """True when the finished game of ``stream_id`` counts (not annulled nor replaced)."""
    stream = Stream.objects.filter(pk=stream_id).first()
    return stream is not None and stream.is_finished and stream_outcome(stream=stream).counts


# -- a player's own page ("My Herald") --------------------------------------------------------------


@dataclass(frozen=True)
class RatingPoint:
    """The conservative rating μ − 3σ after one rated game of the pool."""

    sequence: int
    conservative: float


@dataclass(frozen=True)
class MyRating:
    """A player's rating in one pool and the path it took, game by game."""

    rating: Rating
    provisional: bool
    points: list[RatingPoint]


def rating_points(changes: Any) -> list[RatingPoint]:
    """The conservative rating after each of ``changes`` (RatingChange rows, oldest first)."""
    return [
        RatingPoint(change.sequence, change.mu_after - 3 * change.sigma_after) for change in changes
    ]


def player_ratings_with_history(*, player_id: int) -> list[MyRating]:
    """Each of the player's ratings with its history; two queries for any number of pools."""
    ratings = list(
        player_ratings(player_id=player_id).order_by("pool__game", "pool__edition_family")
    )
    changes = RatingChange.objects.filter(
        player_id=player_id, current=True, pool__in=[rating.pool_id for rating in ratings]
    ).order_by("pool_id", "sequence")
    by_pool: dict[int, list[Any]] = {}
    for change in changes.only("pool_id", "sequence", "mu_after", "sigma_after"):
        by_pool.setdefault(change.pool_id, []).append(change)
    threshold = provisional_games()
    return [
        MyRating(rating, rating.games < threshold, rating_points(by_pool.get(rating.pool_id, [])))
        for rating in ratings
    ]


def disputes_of_user(*, user_id: int) -> QuerySet[Dispute]:
    """Disputes the user opened, or on games the user sits in, newest first (one query)."""
    played = StreamSeat.objects.filter(user_id=user_id).values("stream_id")
    return Dispute.objects.filter(Q(opened_by_id=user_id) | Q(stream_id__in=played)).order_by(
        "-opened_at", "-pk"
    )
