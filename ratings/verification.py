"""Verifying a finished game, and what follows: entering it in its pool or opening a dispute;
the sweep that verifies and rates what a lost task message left waiting.

The checks are the event store's own (``events.selectors.stream_verify``, the function behind
GET /streams/{id}/verify), so the worker and the API give one verdict: the engine running here
may replay the version the game was recorded with (the same version, or a later one of the
same major version: see ``engine.core.versions``), hash chain, seed against its commitment,
replay of every move with the same chance outcomes, replayed result against the stored one.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from engine.core import EngineError
from events.models import Stream, StreamStatus
from events.selectors import CHECK_ORDER, stream_verify
from ratings import selectors, services
from ratings.models import Dispute, RatedGame, Verification

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class VerifyOutcome:
    """What verifying a stream did."""

    verification: Verification | None
    rated_game: RatedGame | None = None
    dispute: Dispute | None = None
    skipped: str = ""


#: The worker's checks are the /verify report itself (kept under its old name).
stream_checks = stream_verify


def first_failure(checks: dict[str, Any]) -> str | None:
    """The name of the first failed check, in :data:`CHECK_ORDER`, or None."""
    for name in (*CHECK_ORDER, *checks):
        if name in checks and not checks[name]["ok"]:
            return name
    return None


def game_verify(*, stream_id: uuid.UUID | str) -> VerifyOutcome:
    """Verify a finished stream and record it; enter the game in its pool or open a dispute.

    Idempotent: verifying again updates the record, finds the game already in its pool and
    the dispute already open. A stream that is not finished (or does not exist) is skipped.
    """
    stream = Stream.objects.filter(pk=stream_id).first()
    if stream is None:
        return VerifyOutcome(None, skipped=f"there is no game stream {stream_id}")
    if not stream.is_finished:
        return VerifyOutcome(None, skipped="the game is not over yet")
    report = _checks_or_refusal(stream)
    with transaction.atomic():
        verification, _ = Verification.objects.update_or_create(
            stream_id=stream.pk, defaults={"ok": report["ok"], "checks": report["checks"]}
        )
        if report["ok"]:
            return VerifyOutcome(verification, rated_game=_enter_pool(stream))
        failed = first_failure(report["checks"]) or "unknown"
        dispute = _open_automatic_dispute(stream, failed, report["checks"][failed]["detail"])
        rated = _enter_pool(stream, held=f"verification failed: {failed}")
    logger.warning("stream %s failed verification (%s)", stream.pk, failed)
    return VerifyOutcome(verification, rated_game=rated, dispute=dispute)


def _enter_pool(stream: Any, *, held: str = "") -> RatedGame | None:
    """Enter the game in its pool with the outcome its rulings give it (held: not counted)."""
    outcome = selectors.stream_outcome(stream=stream)
    if outcome.ranks is None:
        return None
    counted = outcome.counts and not held
    return services.rated_game_register(
        stream_id=stream.pk,
        game=stream.game,
        edition=stream.edition,
        completed_at=stream.finished_at or stream.created_at,
        players=outcome.players,
        ranks=outcome.ranks,
        counted=counted,
        excluded_reason=held or outcome.reason,
    )


def _open_automatic_dispute(stream: Any, check: str, detail: str) -> Dispute:
    """The dispute verification opens, once per stream while it is open."""
    existing = Dispute.objects.filter(stream_id=stream.pk, status=Dispute.Status.OPEN).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return Dispute.objects.create(
                stream_id=stream.pk,
                opened_by=None,
                failed_check=check,
                reason=f"Automatic: the {check.replace('_', ' ')} check failed: {detail}",
            )
    except IntegrityError:  # a player (or another worker) opened one at the same moment
        return Dispute.objects.get(stream_id=stream.pk, status=Dispute.Status.OPEN)


def _checks_or_refusal(stream: Any) -> dict[str, Any]:
    """The checks, or one failed check when this server cannot replay the game at all."""
    try:
        return stream_verify(stream)
    except EngineError as exc:  # e.g. the game is no longer registered here
        detail = f"this server cannot replay the game: {exc}"
        return {"ok": False, "checks": {"engine_version": {"ok": False, "detail": detail}}}


def game_verify_and_rate(*, stream_id: uuid.UUID | str) -> VerifyOutcome:
    """Verify the stream, then rate its pool's waiting games and record the table's result."""
    outcome = game_verify(stream_id=stream_id)
    rated = outcome.rated_game
    if rated is not None:
        services.pool_rate_all_pending(pool_id=rated.pool_id)
    if outcome.verification is not None and outcome.verification.ok:
        services.standings_follow(stream_id=outcome.verification.stream_id)
    return outcome


# -- re-verifying finished games -------------------------------------------------------------------

#: Games checked again per run of the periodic task (``settings.HERALD_REVERIFY_BATCH``).
REVERIFY_BATCH = 200


@dataclass(frozen=True)
class ReverifyOutcome:
    """What checking one finished game again found and did."""

    stream_id: uuid.UUID
    ok: bool
    dispute: Dispute | None = None


def finished_games_reverify(
    *, limit: int = REVERIFY_BATCH, stream_ids: Sequence[uuid.UUID | str] | None = None
) -> dict[str, int]:
    """Check again the ``limit`` verified games checked longest ago (or only ``stream_ids``).

    A careful tamper (events edited and their hash chain recomputed) keeps a game "verified,
    rated" until something replays it: this does, with the same checks as the first
    verification. Games never checked again come first, then the oldest check. Returns how
    many were checked, how many failed and how many disputes were opened.
    """
    records = Verification.objects.all()
    if stream_ids is not None:
        records = records.filter(stream_id__in=list(stream_ids))
    order = (F("reverified_at").asc(nulls_first=True), "verified_at", "stream_id")
    picked = list(records.order_by(*order).values_list("stream_id", flat=True)[: max(0, limit)])
    counts = {"checked": 0, "failed": 0, "disputes": 0}
    for stream_id in picked:
        outcome = game_reverify(stream_id=stream_id)
        if outcome is None:
            continue
        counts["checked"] += 1
        counts["failed"] += not outcome.ok
        counts["disputes"] += outcome.dispute is not None
    return counts


def game_reverify(*, stream_id: uuid.UUID | str) -> ReverifyOutcome | None:
    """Check a verified, finished game again; on a new failure, open a dispute and hold it.

    A new failure is one the record did not show already (it passed, or failed another check
    first): the record is marked failed, a dispute is opened by verification (not a second one
    while one is open) and the game stops counting until an arbiter rules, its pool re-rated
    from it on, as when its first verification fails. A failure already recorded only updates
    the time of the check, so a game an arbiter upheld is not disputed again every hour.
    Returns None when there is nothing to check (no record, the game is not finished, or
    another worker is checking it).
    """
    stream = Stream.objects.filter(pk=stream_id).first()
    if stream is None or not stream.is_finished:
        return None
    with transaction.atomic():
        record = (
            Verification.objects.select_for_update(skip_locked=True)
            .filter(stream_id=stream.pk)
            .first()
        )
        if record is None:
            return None
        report = _checks_or_refusal(stream)
        failed = first_failure(report["checks"]) if not report["ok"] else None
        known = None if record.ok else first_failure(record.checks)
        record.reverified_at = timezone.now()
        if failed is None or failed == known:
            record.save(update_fields=["reverified_at"])
            return ReverifyOutcome(stream.pk, ok=failed is None)
        record.ok, record.checks = False, report["checks"]
        record.save(update_fields=["ok", "checks", "reverified_at"])
        detail = report["checks"][failed]["detail"]
        dispute = _open_automatic_dispute(stream, failed, detail)
        _hold_rated_game(stream.pk, reason=f"verification failed: {failed}")
    logger.warning("stream %s failed re-verification (%s)", stream.pk, failed)
    return ReverifyOutcome(stream.pk, ok=False, dispute=dispute)


def _hold_rated_game(stream_id: uuid.UUID, *, reason: str) -> None:
    """Stop counting a rated game until a ruling, and re-rate its pool from it on (a job)."""
    rated = selectors.rated_game_of(stream_id=stream_id)
    if rated is None or rated.status == RatedGame.Status.EXCLUDED:
        return
    services.rated_game_exclude(stream_id=stream_id, reason=reason)
    services.recompute_request(pool=rated.pool, reason=reason, from_game=rated)


# -- catching up ---------------------------------------------------------------------------------


def ratings_sweep(*, limit: int = 500) -> dict[str, int]:
    """Verify finished streams that have no verification yet and rate pools with waiting games.

    The outbox already redelivers its entries; this covers a task message lost after it was
    sent (a broker restarted without persistence), so nothing waits forever.
    """
    verified = Verification.objects.values("stream_id")
    unverified = Stream.objects.filter(status=StreamStatus.FINISHED).exclude(pk__in=verified)
    streams = list(unverified.order_by("finished_at").values_list("pk", flat=True)[:limit])
    for stream_id in streams:
        game_verify_and_rate(stream_id=stream_id)
    pools = set(
        RatedGame.objects.filter(status=RatedGame.Status.READY).values_list("pool_id", flat=True)
    )
    rated = sum(services.pool_rate_all_pending(pool_id=pool_id) for pool_id in pools)
    return {"verified": len(streams), "rated": rated}
