"""Results of tables: reported and confirmed by players, entered by organisers and
arbiters, read from a finished game stream, discarded."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from engine.core import is_competition_ranking
from tournaments import selectors
from tournaments.errors import InvalidInput, NotAllowed, ResultConflict, WrongState
from tournaments.models import Result, ResultConfirmation, Table
from tournaments.services._common import bounded
from tournaments.services.permissions import check_organiser


def _check_ranks(
    table: Table, ranks: Sequence[int], scores: Sequence[float]
) -> tuple[list[int], list[float]]:
    seats = table.seats.count()
    if table.is_bye:
        raise InvalidInput(gettext("A bye has no result to report."))
    if len(ranks) != seats:
        raise InvalidInput(
            gettext("Table {number} has {seats} seats: give one rank per seat, not {len}.").format(
                number=table.number, seats=seats, len=len(ranks)
            )
        )
    if scores and len(scores) != seats:
        raise InvalidInput(
            gettext("Give one score per seat ({seats}), or none.").format(seats=seats)
        )
    values = [int(r) for r in ranks]
    if not is_competition_ranking(values):
        raise InvalidInput(
            gettext(
                "Ranks must be 1-based with ties sharing a place and the next place "
                "skipped (e.g. 1, 1, 3); got {join}."
            ).format(join=", ".join(map(str, values)))
        )
    return values, [bounded(s, "Game scores") for s in scores]


def _check_result_round(table: Table) -> None:
    state = table.round.state
    if state not in selectors.LIVE_STATES:
        raise WrongState(
            gettext("Round {number} is {state}: results come once it is confirmed.").format(
                number=table.round.number, state=state
            )
        )


def _next_version(table: Table) -> int:
    return 1 + max(table.results.values_list("version", flat=True), default=0)


def _seated_users(table: Table) -> set[int]:
    return set(table.seats.values_list("registration__player__user_id", flat=True))


@transaction.atomic
def result_report(
    *, table: Table, by: AbstractBaseUser, ranks: Sequence[int], scores: Sequence[float] = ()
) -> Result:
    """A seated player reports a paper game.

    First report: ``submitted``, waiting for the others. The same result again: a
    confirmation. A different result while one is pending: both become ``conflict`` and the
    organiser decides. After a result is confirmed, only the organiser changes it.
    """
    table = Table.objects.select_for_update().select_related("round").get(pk=table.pk)
    _check_result_round(table)
    if by.pk not in _seated_users(table):
        raise NotAllowed(
            gettext("Only the players seated at table {number} report its result.").format(
                number=table.number
            )
        )
    values, points = _check_ranks(table, ranks, scores)
    current = table.results.exclude(status=Result.Status.DISCARDED).order_by("-version")
    if current.filter(status=Result.Status.CONFIRMED).exists():
        raise ResultConflict(
            gettext(
                "Table {number} already has a confirmed result; ask the organiser to correct it."
            ).format(number=table.number)
        )
    pending = current.filter(status=Result.Status.SUBMITTED).first()
    if pending is not None and pending.ranks == values and (not points or pending.scores == points):
        return _confirm(pending, by)
    status = Result.Status.CONFLICT if current.exists() else Result.Status.SUBMITTED
    result = Result.objects.create(
        table=table,
        version=_next_version(table),
        status=status,
        source=Result.Source.REPORTED,
        ranks=values,
        scores=points,
        submitted_by=by,
    )
    current.exclude(pk=result.pk).filter(status=Result.Status.SUBMITTED).update(
        status=Result.Status.CONFLICT
    )
    return _confirm(result, by) if status == Result.Status.SUBMITTED else result


@transaction.atomic
def result_confirm(*, result: Result, by: AbstractBaseUser) -> Result:
    """A seated player agrees with a submitted result; once all have, it is confirmed."""
    result = Result.objects.select_for_update().select_related("table__round").get(pk=result.pk)
    if by.pk not in _seated_users(result.table):
        raise NotAllowed(
            gettext("Only the players seated at table {number} confirm its result.").format(
                number=result.table.number
            )
        )
    if result.status != Result.Status.SUBMITTED:
        raise WrongState(
            gettext("This result is {status}: only a submitted result can be confirmed.").format(
                status=result.status
            )
        )
    return _confirm(result, by)


def _confirm(result: Result, by: AbstractBaseUser) -> Result:
    ResultConfirmation.objects.get_or_create(result=result, user=by)
    agreed = set(result.confirmations.values_list("user_id", flat=True))
    if _seated_users(result.table) <= agreed:
        result.status = Result.Status.CONFIRMED
        result.decided_at = timezone.now()
        result.save(update_fields=["status", "decided_at"])
    return result


@transaction.atomic
def result_enter(
    *,
    table: Table,
    by: AbstractBaseUser | None,
    ranks: Sequence[int],
    scores: Sequence[float] = (),
    source: str = "organiser",
) -> Result:
    """The organiser enters (or corrects, or settles a conflict with) a table's result: a new
    confirmed version; every earlier version is discarded.

    ``by`` runs the tournament, or is an arbiter (their rulings on a game land here)."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    if by is not None and not selectors.user_is_arbiter(by):
        check_organiser(by, table.round.tournament, "enter results")
    _check_result_round(table)
    values, points = _check_ranks(table, ranks, scores)
    now = timezone.now()
    decider = by if by is not None and by.is_authenticated else None
    _discard_results(table, decider, now)
    return Result.objects.create(
        table=table,
        version=_next_version(table),
        status=Result.Status.CONFIRMED,
        source=source,
        ranks=values,
        scores=points,
        submitted_by=decider,
        decided_by=decider,
        decided_at=now,
    )


def _discard_results(table: Table, decider: AbstractBaseUser | None, when: Any) -> None:
    table.results.exclude(status=Result.Status.DISCARDED).update(
        status=Result.Status.DISCARDED, decided_by=decider, decided_at=when
    )


@transaction.atomic
def table_results_discard(*, table: Table, by: AbstractBaseUser | None = None) -> None:
    """Stop counting the table's game (an arbiter annulled it): every version is discarded."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    decider = by if by is not None and by.is_authenticated else None
    _discard_results(table, decider, timezone.now())


@transaction.atomic
def table_follow_stream(
    *, table: Table, stream_id: Any, by: AbstractBaseUser | None = None
) -> Table:
    """The table's game is now ``stream_id`` (a replay an arbiter ordered): earlier results no
    longer count, and the new stream's result will."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    decider = by if by is not None and by.is_authenticated else None
    _discard_results(table, decider, timezone.now())
    table.stream_id = stream_id
    table.save(update_fields=["stream_id"])
    return table


def result_from_stream(*, table: Table) -> Result:
    """The result of the game played on Herald, read from the table's finished stream."""
    if table.stream_id is None:
        raise WrongState(
            gettext("Table {number} has no game stream: report its result instead.").format(
                number=table.number
            )
        )
    stream = selectors.table_stream(table)
    outcome = getattr(stream, "result", None) if stream is not None else None
    if not outcome:
        raise WrongState(
            gettext("The game of table {number} is not finished yet.").format(number=table.number)
        )
    existing = table.results.filter(status=Result.Status.CONFIRMED, source=Result.Source.STREAM)
    if existing.filter(ranks=list(outcome["ranks"])).exists():
        return existing.get()
    return result_enter(
        table=table,
        by=None,
        ranks=outcome["ranks"],
        scores=outcome.get("scores") or (),
        source=Result.Source.STREAM,
    )
