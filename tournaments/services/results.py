"""Results of tables: reported, confirmed or disputed by players, entered, corrected or
decided by organisers and arbiters, read from a finished game stream, discarded.

Every one of those facts is appended to the table's result stream (``ResultEvent``, in order,
never changed: a trigger refuses UPDATE and DELETE); ``Result`` rows are the current view kept
beside it in the same transaction. A confirmed result tells the tournament's pages (results,
standings), sends a paper table's result to its rating pool (outbox ``table.result``) and
finishes the tournament when it was the last one missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from engine.core import is_competition_ranking
from events.outbox import outbox_publish
from tournaments import live, pairing, selectors
from tournaments.errors import (
    InvalidInput,
    NotAllowed,
    ResultConflict,
    TournamentError,
    WrongState,
)
from tournaments.models import (
    Format,
    Result,
    ResultConfirmation,
    ResultEvent,
    Round,
    Table,
    Tournament,
)
from tournaments.services._common import BRACKET_FORMATS, bounded
from tournaments.services.brackets import bracket_current
from tournaments.services.permissions import check_organiser

#: The longest reason kept with a correction, a decision or a disagreement.
REASON_MAX = 500


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


def _user(by: AbstractBaseUser | None) -> AbstractBaseUser | None:
    return by if by is not None and by.is_authenticated else None


def _reason(reason: str, *, required: str = "") -> str:
    """``reason`` stripped and bounded; ``required`` is the refusal when it is empty."""
    text = (reason or "").strip()
    if required and not text:
        raise InvalidInput(required)
    if len(text) > REASON_MAX:
        raise InvalidInput(
            gettext("Keep the reason under {max} characters.").format(max=REASON_MAX)
        )
    return text


def _append(
    table: Table,
    kind: Any,  # a ResultEvent.Kind
    *,
    by: AbstractBaseUser | None,
    result: Result | None = None,
    ranks: Sequence[int] | None = None,
    scores: Sequence[float] = (),
    reason: str = "",
) -> ResultEvent:
    """Append one fact to the table's result stream (the caller holds the table's lock)."""
    seq = 1 + max(table.result_events.values_list("seq", flat=True), default=0)
    return ResultEvent.objects.create(
        table=table,
        seq=seq,
        kind=kind,
        ranks=None if ranks is None else list(ranks),
        scores=list(scores),
        reason=reason,
        result=result,
        by=_user(by),
    )


def _lock(table: Table) -> Table:
    return (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__tournament__club")
        .get(pk=table.pk)
    )


def _changed(table: Table, *, counted: bool) -> None:
    """Tell the pages; when what counts changed, the standings, the pool and the finish too."""
    tournament = table.round.tournament
    live.announce(tournament.id, "results")
    if not counted:
        return
    live.announce(tournament.id, "standings")
    if table.stream_id is None:  # a paper table: its rating pool takes the result
        if table.report_id is None:
            table.report_id = table.report_stream_id
            table.save(update_fields=["report_id"])
        outbox_publish(topic="table.result", payload={"table": table.pk})
    tournament_finish_if_done(tournament=tournament)


def _check_seated(table: Table, by: AbstractBaseUser, refusal: str) -> None:
    """Refuse ``by`` with ``refusal`` (a sentence with ``{number}``) unless seated there."""
    if by.pk not in _seated_users(table):
        raise NotAllowed(refusal.format(number=table.number))


@transaction.atomic
def result_report(
    *, table: Table, by: AbstractBaseUser, ranks: Sequence[int], scores: Sequence[float] = ()
) -> Result:
    """A seated player reports a paper game.

    First report: ``submitted``, waiting for the others. The same result again: a
    confirmation. A different result while one is pending: a disagreement (both become
    ``conflict``) and the organiser decides. After a result is confirmed, only the organiser
    changes it.
    """
    table = _lock(table)
    _check_result_round(table)
    _check_seated(
        table, by, gettext("Only the players seated at table {number} report its result.")
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
        return _confirm(table, pending, by)
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
    submitted = status == Result.Status.SUBMITTED
    kind = ResultEvent.Kind.REPORTED if submitted else ResultEvent.Kind.DISAGREED
    _append(table, kind, by=by, result=result, ranks=values, scores=points)
    current.exclude(pk=result.pk).filter(status=Result.Status.SUBMITTED).update(
        status=Result.Status.CONFLICT
    )
    if submitted:
        ResultConfirmation.objects.create(result=result, user=by)
        return _confirm_if_all(table, result)
    _changed(table, counted=False)
    return result


@transaction.atomic
def result_confirm(*, result: Result, by: AbstractBaseUser) -> Result:
    """A seated player agrees with a submitted result; once all have, it is confirmed."""
    table = _lock(result.table)
    result = Result.objects.select_for_update().get(pk=result.pk)
    _check_seated(
        table, by, gettext("Only the players seated at table {number} confirm its result.")
    )
    if result.status != Result.Status.SUBMITTED:
        raise WrongState(
            gettext("This result is {status}: only a submitted result can be confirmed.").format(
                status=result.get_status_display().lower()
            )
        )
    return _confirm(table, result, by)


@transaction.atomic
def result_disagree(*, result: Result, by: AbstractBaseUser, reason: str = "") -> Result:
    """A seated player says a submitted result is wrong: it becomes a ``conflict`` and the
    organiser decides (``result_decide``). ``reason`` (optional) is kept for them."""
    table = _lock(result.table)
    result = Result.objects.select_for_update().get(pk=result.pk)
    _check_seated(
        table, by, gettext("Only the players seated at table {number} dispute its result.")
    )
    text = _reason(reason)
    if result.status != Result.Status.SUBMITTED:
        raise WrongState(
            gettext("This result is {status}: only a submitted result can be disputed.").format(
                status=result.get_status_display().lower()
            )
        )
    if result.confirmations.filter(user=by).exists():
        raise WrongState(
            gettext("You already agreed with this result; ask the organiser to correct it.")
        )
    result.status = Result.Status.CONFLICT
    result.save(update_fields=["status"])
    _append(table, ResultEvent.Kind.DISAGREED, by=by, result=result, reason=text)
    _changed(table, counted=False)
    return result


def _confirm(table: Table, result: Result, by: AbstractBaseUser) -> Result:
    _, created = ResultConfirmation.objects.get_or_create(result=result, user=by)
    if created:
        _append(table, ResultEvent.Kind.CONFIRMED, by=by, result=result)
    return _confirm_if_all(table, result)


def _confirm_if_all(table: Table, result: Result) -> Result:
    agreed = set(result.confirmations.values_list("user_id", flat=True))
    if _seated_users(table) <= agreed:
        result.status = Result.Status.CONFIRMED
        result.decided_at = timezone.now()
        result.save(update_fields=["status", "decided_at"])
        _changed(table, counted=True)
    else:
        _changed(table, counted=False)
    return result


@transaction.atomic
def result_enter(
    *,
    table: Table,
    by: AbstractBaseUser | None,
    ranks: Sequence[int],
    scores: Sequence[float] = (),
    reason: str = "",
    source: str = "organiser",
) -> Result:
    """The organiser enters, corrects or decides a table's result: a new confirmed version;
    every earlier version is discarded.

    Entering a result where none was reported needs no reason; changing one (a confirmed
    result, a report waiting for confirmations, a disagreement) needs ``reason``, kept in the
    table's result stream. ``by`` runs the tournament, or is an arbiter (their rulings land
    here); ``by=None`` is Herald itself (a game's own result, ``source="stream"``).
    """
    table = _lock(table)
    if by is not None and not selectors.user_is_arbiter(by):
        check_organiser(by, table.round.tournament, gettext("enter results"))
    _check_result_round(table)
    values, points = _check_ranks(table, ranks, scores)
    live_results = table.results.exclude(status=Result.Status.DISCARDED)
    if source == Result.Source.STREAM:
        kind, text = ResultEvent.Kind.GAME, _reason(reason)
    elif not live_results.exists():
        kind, text = ResultEvent.Kind.ENTERED, _reason(reason)
    else:
        disputed = live_results.filter(status=Result.Status.CONFLICT).exists()
        kind = ResultEvent.Kind.DECIDED if disputed else ResultEvent.Kind.CORRECTED
        required = gettext(
            "Table {number} already has a result: say why you change it (the reason is kept)."
        ).format(number=table.number)
        text = _reason(reason, required="" if by is None else required)
    now = timezone.now()
    decider = _user(by)
    _discard_results(table, decider, now)
    result = Result.objects.create(
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
    _append(table, kind, by=by, result=result, ranks=values, scores=points, reason=text)
    _changed(table, counted=True)
    return result


def result_decide(
    *, result: Result, by: AbstractBaseUser, reason: str, ranks: Sequence[int] | None = None
) -> Result:
    """The organiser settles a disagreement: ``result``'s ranks (or ``ranks``) become the
    confirmed result, with ``reason`` kept."""
    if result.status not in (Result.Status.CONFLICT, Result.Status.SUBMITTED):
        raise WrongState(
            gettext("This result is {status}: there is nothing to decide.").format(
                status=result.get_status_display().lower()
            )
        )
    return result_enter(
        table=result.table,
        by=by,
        ranks=result.ranks if ranks is None else ranks,
        scores=result.scores if ranks is None else (),
        reason=reason,
    )


def _discard_results(table: Table, decider: AbstractBaseUser | None, when: Any) -> None:
    table.results.exclude(status=Result.Status.DISCARDED).update(
        status=Result.Status.DISCARDED, decided_by=decider, decided_at=when
    )


@transaction.atomic
def table_results_discard(
    *, table: Table, by: AbstractBaseUser | None = None, reason: str = ""
) -> None:
    """Stop counting the table's game (an arbiter annulled it): every version is discarded."""
    table = _lock(table)
    counted = table.results.filter(status=Result.Status.CONFIRMED).exists()
    _discard_results(table, _user(by), timezone.now())
    _append(
        table,
        ResultEvent.Kind.DISCARDED,
        by=by,
        reason=_reason(reason) or gettext("The game was annulled."),
    )
    _changed(table, counted=counted)


@transaction.atomic
def table_follow_stream(
    *, table: Table, stream_id: Any, by: AbstractBaseUser | None = None
) -> Table:
    """The table's game is now ``stream_id`` (a replay an arbiter ordered): earlier results no
    longer count, and the new stream's result will."""
    table = _lock(table)
    counted = table.results.filter(status=Result.Status.CONFIRMED).exists()
    _discard_results(table, _user(by), timezone.now())
    _append(
        table,
        ResultEvent.Kind.DISCARDED,
        by=by,
        reason=gettext("The game is replayed: its new game's result will count."),
    )
    table.stream_id = stream_id
    table.save(update_fields=["stream_id"])
    _changed(table, counted=counted)
    return table


def result_from_stream(*, table: Table) -> Result:
    """The result of the game played on Herald, read from the table's finished stream.

    Idempotent: once the stream's result is in the table's result stream, asking again
    returns the current result and changes nothing, so an organiser's later correction stays.
    """
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
    with transaction.atomic():
        table = _lock(table)
        taken = table.result_events.filter(
            kind=ResultEvent.Kind.GAME, reason=_game_reason(table.stream_id)
        ).exists()
        current = table.results.filter(status=Result.Status.CONFIRMED).first()
        if taken and current is not None:
            return current
        return result_enter(
            table=table,
            by=None,
            ranks=outcome["ranks"],
            scores=outcome.get("scores") or (),
            reason=_game_reason(table.stream_id),
            source=Result.Source.STREAM,
        )


def _game_reason(stream_id: Any) -> str:
    return f"game {stream_id}"


# -- the tournament's end -----------------------------------------------------------------------


def tournament_is_done(tournament: Tournament) -> bool:
    """True when the last planned round's results are all confirmed, or the bracket has a
    champion (``selectors.tournament_winner`` names them). A "stages" night is done only when
    its playoff bracket has its champion: its groups' planned rounds lead to the cut, not to
    the end."""
    rounds = selectors.tournament_rounds(tournament)
    if rounds.filter(state=Round.State.DRAFT).exists() or not rounds.exists():
        return False
    if selectors.tables_missing_results(tournament):
        return False
    last_stage = tournament.stages.order_by("-order").first()
    if last_stage is not None and last_stage.format in BRACKET_FORMATS:
        try:
            bracket = bracket_current(stage=last_stage)
        except TournamentError:  # e.g. a tie the organiser must still settle
            return False
        return bracket is not None and pairing.bracket_champion(bracket) is not None
    if tournament.format == Format.STAGES:  # the groups are played; the cut comes next
        return False
    # The tournament's own planned rounds (the settings change them), not its first stage's
    # copy taken at creation.
    planned = tournament.rounds_planned
    latest = rounds.filter(state__in=selectors.LIVE_STATES).order_by("-number").first()
    return planned is not None and latest is not None and latest.number >= planned


def tournament_winner(tournament: Tournament) -> str:
    """The winner's name: the bracket's champion, or the first line of the standings ("" when
    there is none yet; players tied first are joined). A read, kept beside what finishes."""
    last_stage = tournament.stages.order_by("-order").first()
    if last_stage is not None and last_stage.format in BRACKET_FORMATS:
        try:
            bracket = bracket_current(stage=last_stage)
        except TournamentError:
            return ""
        champion = pairing.bracket_champion(bracket) if bracket is not None else None
        names = selectors.registration_names(tournament)
        return "" if champion is None else names.get(champion, "")
    lines = selectors.tournament_standings(tournament)
    if not lines or not lines[0].games:
        return ""
    return " & ".join(line.name for line in lines if line.rank == lines[0].rank)


def tournament_finish_if_done(*, tournament: Tournament) -> bool:
    """Finish a running tournament whose last result is in; True if it finished now. A
    finished one keeps its winner's name up to date (a correction may change it)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:  # a correction after the end
        winner = tournament_winner(tournament)[:250]
        if winner != tournament.winner:
            tournament.winner = winner
            tournament.save(update_fields=["winner"])
            live.announce(tournament.id, "status")
        return False
    if tournament.status != Tournament.Status.RUNNING or not tournament_is_done(tournament):
        return False
    tournament.status = Tournament.Status.FINISHED
    tournament.winner = tournament_winner(tournament)[:250]
    tournament.save(update_fields=["status", "winner"])
    live.announce(tournament.id, "status")
    return True


@transaction.atomic
def tournament_reopen(*, tournament: Tournament, by: AbstractBaseUser) -> Tournament:
    """The organiser reopens a finished tournament (to correct a result, to play on).

    It finishes again by itself when a result is confirmed and the last one is in."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    check_organiser(by, tournament, gettext("reopen it"))
    if tournament.status != Tournament.Status.FINISHED:
        raise WrongState(
            gettext("{name} is not finished: there is nothing to reopen.").format(
                name=tournament.name
            )
        )
    tournament.status, tournament.winner = Tournament.Status.RUNNING, ""
    tournament.save(update_fields=["status", "winner"])
    live.announce(tournament.id, "status")
    return tournament
