"""Reads of the ratings app: leaderboards, histories, pools, jobs, disputes, whether a game counts."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import F, QuerySet

from ratings.models import Dispute, RatedGame, Rating, RatingChange, RatingPool, RecomputeJob


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


def provisional_games() -> int:
    """Games a player needs before their rating stops being provisional."""
    return int(getattr(settings, "HERALD_PROVISIONAL_GAMES", 5))


def pool_list() -> QuerySet[RatingPool]:
    """Every rating pool, by game and edition family."""
    return RatingPool.objects.order_by("game", "edition_family")


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
    return [
        LeaderboardRow(
            position=offset + index,
            player_id=rating.player_id,
            username=rating.player.get_username(),
            mu=rating.mu,
            sigma=rating.sigma,
            conservative=rating.mu - 3 * rating.sigma,
            games=rating.games,
            provisional=rating.games < threshold,
        )
        for index, rating in enumerate(ratings[offset : offset + limit], start=1)
    ]


def player_history(*, pool: RatingPool, player_id: int) -> QuerySet[RatingChange]:
    """A player's current rating changes in ``pool``, oldest first."""
    return RatingChange.objects.filter(pool=pool, player_id=player_id, current=True).order_by(
        "sequence"
    )


def player_ratings(*, player_id: int) -> QuerySet[Rating]:
    """A player's ratings in every pool they have played in."""
    return Rating.objects.filter(player_id=player_id, games__gt=0).select_related("pool")


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
