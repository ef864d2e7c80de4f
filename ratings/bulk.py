"""Bulk writes of a rating pass: many RatingChange rows in, many Rating and RatedGame rows updated.

A pass rates its games in memory and writes each chunk with a few statements, whatever its
size. On PostgreSQL the changes go in with one ``COPY`` (psycopg 3) and the updates are one
``UPDATE … FROM unnest(arrays)`` each; elsewhere (SQLite, the embedded default) the ORM's
``bulk_create`` and ``bulk_update`` do the same work. Django's ``bulk_update`` writes a
``CASE WHEN id = … THEN …`` per row and field, which costs time quadratic in the rows on both
sides (compiling it took most of a 10,000-game recompute): PostgreSQL does not use it.

Nothing here opens a transaction or checks anything: the caller (``ratings.services``) holds
the pool's lock inside its own transaction and passes rows it has just computed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from django.db import connection

from ratings.models import RatedGame, Rating, RatingChange

# Columns of one change, in the order of ChangeRow (and of the COPY).
CHANGE_COLUMNS = (
    "pool_id",
    "game_id",
    "stream_id",
    "sequence",
    "player_id",
    "seat",
    "rank",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
    "current",
    "recorded_at",
)


class ChangeRow(NamedTuple):
    """One RatingChange to insert, as plain values (no model instance per row)."""

    pool_id: int
    game_id: int
    stream_id: UUID
    sequence: int
    player_id: int
    seat: int
    rank: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    current: bool
    recorded_at: dt.datetime


def _postgresql() -> bool:
    return connection.vendor == "postgresql"


def _table(model: type) -> str:
    return connection.ops.quote_name(model._meta.db_table)  # type: ignore[attr-defined]


def insert_changes(rows: Sequence[ChangeRow]) -> None:
    """Insert ``rows`` into the rating history (append-only: never updated here)."""
    if not rows:
        return
    if not _postgresql():
        RatingChange.objects.bulk_create(
            [RatingChange(**row._asdict()) for row in rows], batch_size=500
        )
        return
    columns = ", ".join(connection.ops.quote_name(name) for name in CHANGE_COLUMNS)
    with connection.cursor() as cursor:
        raw = cursor.cursor  # psycopg 3's own cursor: Django's wrapper has no copy()
        with raw.copy(f"COPY {_table(RatingChange)} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)


def mark_games_rated(games: Sequence[tuple[int, int]], rated_at: dt.datetime) -> None:
    """Mark each ``(game pk, sequence)`` rated at that position of its pool."""
    if not games:
        return
    if not _postgresql():
        RatedGame.objects.bulk_update(
            [
                RatedGame(pk=pk, status=RatedGame.Status.RATED, sequence=seq, rated_at=rated_at)
                for pk, seq in games
            ],
            ["status", "sequence", "rated_at"],
            batch_size=500,
        )
        return
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {_table(RatedGame)} AS g SET status = %s, sequence = v.seq, rated_at = %s "
            "FROM unnest(%s::bigint[], %s::integer[]) AS v(id, seq) WHERE g.id = v.id",
            [
                str(RatedGame.Status.RATED),
                rated_at,
                [pk for pk, _ in games],
                [seq for _, seq in games],
            ],
        )


def update_ratings(ratings: Sequence[Rating]) -> None:
    """Write ``mu``, ``sigma``, ``games`` and ``updated_at`` of each Rating row."""
    if not ratings:
        return
    if not _postgresql():
        Rating.objects.bulk_update(
            list(ratings), ["mu", "sigma", "games", "updated_at"], batch_size=500
        )
        return
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {_table(Rating)} AS r SET mu = v.mu, sigma = v.sigma, games = v.games, "
            "updated_at = v.updated_at FROM unnest(%s::bigint[], %s::float8[], %s::float8[], "
            "%s::integer[], %s::timestamptz[]) AS v(id, mu, sigma, games, updated_at) "
            "WHERE r.id = v.id",
            [
                [r.pk for r in ratings],
                [r.mu for r in ratings],
                [r.sigma for r in ratings],
                [r.games for r in ratings],
                [r.updated_at for r in ratings],
            ],
        )
