"""Paper tables in the ratings: a tournament table's confirmed result, reported from a phone or
entered by the organiser, rated in the tournament's game pool and marked "reported".

The tournaments app sends an outbox entry (topic ``table.result``) whenever what a paper
table counts changes; :func:`reported_table_rate` (the task ``ratings.rate_table_result``)
brings the pool in line: a first result is entered and rated, a correction counts again with
its new ranks (the pool re-rates from it), a discarded result stops counting. The game is
kept under the table's report id (``Table.report_stream_id``), so ``RatedGame.stream_id``
stays one per game. The rating math is the pool's as for any game.
"""

from __future__ import annotations

from django.db import transaction

import engine
from ratings import services
from ratings.models import RatedGame, RatingPool
from tournaments import selectors as tournament_selectors
from tournaments.models import Table, TableSeat

#: Why a paper table's game stopped counting.
DISCARDED = "the table's result was discarded"


def _edition(table: Table) -> str:
    tournament = table.round.tournament
    if tournament.edition:
        return tournament.edition
    editions = tuple(engine.get(tournament.game_id).editions)
    return editions[0] if editions else ""


def reported_table_rate(*, table_id: int) -> RatedGame | None:
    """Make the pool count paper table ``table_id`` as its confirmed result says; idempotent.

    Returns the pool's game row (None for a Herald table, whose game is verified and rated
    from its stream, or a paper table that never had a confirmed result)."""
    table = Table.objects.filter(pk=table_id).select_related("round__tournament").first()
    if table is None or table.stream_id is not None or table.is_bye:
        return None
    result = tournament_selectors.table_confirmed_result(table)
    existing = RatedGame.objects.filter(stream_id=table.report_stream_id).first()
    if result is None:
        if existing is None or existing.status == RatedGame.Status.EXCLUDED:
            return existing
        was_rated = existing.sequence is not None
        game = services.rated_game_exclude(stream_id=existing.stream_id, reason=DISCARDED)
        if was_rated and game is not None:
            _recompute(game, "a reported table's result was discarded")
        return game
    players = list(
        TableSeat.objects.filter(table=table)
        .order_by("seat")
        .values_list("registration__player__user_id", flat=True)
    )
    if existing is None:
        game = services.rated_game_register(
            stream_id=table.report_stream_id,
            game=table.round.tournament.game_id,
            edition=_edition(table),
            completed_at=result.decided_at or result.submitted_at,
            players=players,
            ranks=list(result.ranks),
            source="reported",  # RatedGame.Source.REPORTED
        )
        services.pool_rate_all_pending(pool_id=game.pool_id)
        game.refresh_from_db()
        return game
    if list(existing.ranks) == list(result.ranks) and existing.excluded_reason != DISCARDED:
        return existing  # already counted as it is (or held for a reason of its own)
    was_rated = existing.sequence is not None
    game = services.rated_game_count_again(stream_id=existing.stream_id, ranks=list(result.ranks))
    if game is not None and game.pool.verified_only:
        game = services.rated_game_exclude(
            stream_id=game.stream_id, reason=services.VERIFIED_ONLY_REASON
        )
    if game is not None:
        if was_rated:
            _recompute(game, "a reported table's result was corrected")
        else:
            services.pool_rate_all_pending(pool_id=game.pool_id)
        game.refresh_from_db()
    return game


def _recompute(game: RatedGame, reason: str) -> None:
    with transaction.atomic():
        pool = RatingPool.objects.get(pk=game.pool_id)
        services.recompute_request(pool=pool, reason=reason, from_game=game)
