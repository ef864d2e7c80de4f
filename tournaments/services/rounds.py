"""Drawing, re-pairing, editing, confirming and releasing rounds; opening their games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from engine.core.errors import EngineError
from events.services import stream_open
from tournaments import live, pairing, selectors
from tournaments.errors import InvalidInput, ResultsMissing, WrongState
from tournaments.models import Format, Round, Table, TableSeat, Tournament
from tournaments.services._common import (
    BRACKET_FORMATS,
    PAIRED_FORMATS,
    name_tables,
    next_round_number,
)
from tournaments.services.brackets import bracket_round_entrants, round_from_bracket
from tournaments.services.pairing_bridge import (
    draw_round,
    draw_round_in_groups,
    pairing_inputs,
    rendered_warnings,
    round_layout,
    save_draw,
)
from tournaments.services.permissions import check_organiser
from tournaments.services.stages import current_stage

#: Warnings a draft may not be confirmed with: the draw itself is broken.
BLOCKING_WARNINGS = {"seated_twice", "missing", "unknown"}


@transaction.atomic
def round_pair_next(
    *, tournament: Tournament, by: AbstractBaseUser | None = None, force: bool = False
) -> Round:
    """Draw the next round as a draft.

    Refused while a draft is open, and — unless ``force`` — while tables of earlier rounds
    have no confirmed result (the refusal names them). ``by`` must run the tournament.
    """
    check_organiser(by, tournament, "pair rounds")
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise WrongState(gettext("{name} is finished.").format(name=tournament.name))
    draft = tournament.rounds.filter(state=Round.State.DRAFT).first()
    if draft is not None:
        raise WrongState(
            gettext("Round {number} is still a draft: confirm it or re-pair it first.").format(
                number=draft.number
            )
        )
    missing = selectors.tables_missing_results(tournament)
    if missing and not force:
        raise ResultsMissing(
            gettext("Results are missing for {name_tables}. Pair anyway with force.").format(
                name_tables=name_tables(missing)
            ),
            tables=[t.id for t in missing],
        )
    number = next_round_number(tournament)
    round_ = _round_drawn(tournament, number, attempt=1, by=by)
    if tournament.status != Tournament.Status.RUNNING:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return round_


def _round_drawn(
    tournament: Tournament, number: int, *, attempt: int, by: AbstractBaseUser | None
) -> Round:
    stage = current_stage(tournament)
    if stage.format in BRACKET_FORMATS:
        return round_from_bracket(tournament, stage, number, attempt=attempt, by=by)
    fmt = PAIRED_FORMATS.get(Format(stage.format))
    if fmt is None:
        raise InvalidInput(
            gettext("The stage {name} has no format that pairs rounds.").format(
                name=repr(stage.name)
            )
        )
    if stage.groups:
        draw = draw_round_in_groups(tournament, stage, fmt, number, attempt)
    else:
        draw = draw_round(tournament, fmt, number, attempt)
    names = selectors.registration_names(tournament)
    round_ = Round.objects.create(
        tournament=tournament,
        stage=stage,
        number=number,
        attempt=attempt,
        quality={k: float(v) for k, v in draw.quality.items()},
        warnings=rendered_warnings(draw.warnings, names),
        created_by=by if by is not None and by.is_authenticated else None,
    )
    save_draw(round_, draw)
    return round_


@transaction.atomic
def round_repair(*, round_: Round, by: AbstractBaseUser | None = None) -> Round:
    """Draw the round again; the previous draft stays, marked superseded, for comparison."""
    check_organiser(by, round_.tournament, "pair rounds")
    locked = Round.objects.select_for_update().get(pk=round_.pk)
    if locked.state != Round.State.DRAFT:
        raise WrongState(
            gettext("Round {number} is {state}: only a draft can be re-paired.").format(
                number=locked.number, state=locked.state
            )
        )
    locked.state = Round.State.SUPERSEDED
    locked.save(update_fields=["state"])
    attempt = 1 + max(
        locked.tournament.rounds.filter(number=locked.number).values_list("attempt", flat=True)
    )
    return _round_drawn(locked.tournament, locked.number, attempt=attempt, by=by)


def round_check(*, round_: Round) -> list[dict[str, Any]]:
    """Every rule the round's current tables break, with player names."""
    tournament = round_.tournament
    inputs = pairing_inputs(tournament, round_.number)
    entrants = inputs.entrants
    if round_.stage.format in BRACKET_FORMATS:
        expected = bracket_round_entrants(round_)
        entrants = [e for e in entrants if e.id in expected]
    tables, byes = round_layout(round_)
    warnings = pairing.check_tables(tables, byes, entrants, inputs.history, inputs.rule)
    return rendered_warnings(warnings, selectors.registration_names(tournament))


@dataclass(frozen=True)
class TableEdit:
    """A hand-edited table and every rule the round now breaks, in words."""

    table: Table
    warnings: list[dict[str, Any]]


@transaction.atomic
def table_edit(*, table: Table, registrations: Sequence[int]) -> TableEdit:
    """Seat ``registrations`` (ids, seat 0 first) at a draft table; warn, never refuse, on
    rules the draw then breaks (repeat opponents, second bye, size, seated twice, missing)."""
    round_ = Round.objects.select_for_update().get(pk=table.round_id)
    if round_.state != Round.State.DRAFT:
        raise WrongState(
            gettext("Round {number} is {state}: tables can be edited only in a draft.").format(
                number=round_.number, state=round_.state
            )
        )
    if len(set(registrations)) != len(registrations):
        raise InvalidInput(gettext("A player is listed twice at this table."))
    regs = {reg.id: reg for reg in round_.tournament.registrations.filter(id__in=registrations)}
    unknown = [r for r in registrations if r not in regs]
    if unknown:
        raise InvalidInput(
            gettext("Registration {unknown} is not part of this tournament.").format(
                unknown=unknown[0]
            )
        )
    if table.is_bye and len(registrations) > 1:
        raise InvalidInput(gettext("A bye seats one player at most."))
    table.seats.all().delete()
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=seat, registration=regs[reg])
        for seat, reg in enumerate(registrations)
    )
    warnings = round_check(round_=round_)
    round_.warnings = warnings
    round_.save(update_fields=["warnings"])
    return TableEdit(table=table, warnings=warnings)


@transaction.atomic
def table_add(*, round_: Round, is_bye: bool = False) -> Table:
    """An empty table (or bye) added to a draft, to be filled with :func:`table_edit`."""
    if round_.state != Round.State.DRAFT:
        raise WrongState(
            gettext("Round {number} is {state}: tables can be added only to a draft.").format(
                number=round_.number, state=round_.state
            )
        )
    if is_bye:
        number = 1 + max(round_.tables.values_list("number", flat=True), default=0)
        return Table.objects.create(round=round_, number=number, is_bye=True)
    played = round_.tables.filter(is_bye=False).values_list("number", flat=True)
    number = 1 + max(played, default=0)
    for bye in round_.tables.filter(is_bye=True, number__gte=number).order_by("-number"):
        bye.number += 1  # keep played tables numbered 1..k, byes after them
        bye.save(update_fields=["number"])
    return Table.objects.create(round=round_, number=number, is_bye=False)


@transaction.atomic
def round_confirm(*, round_: Round) -> Round:
    """Fix the draft's tables; refused while a player is missing, seated twice or unknown."""
    locked = Round.objects.select_for_update().get(pk=round_.pk)
    if locked.state != Round.State.DRAFT:
        raise WrongState(
            gettext("Round {number} is {state}: only a draft can be confirmed.").format(
                number=locked.number, state=locked.state
            )
        )
    warnings = round_check(round_=locked)
    blocking = [w["text"] for w in warnings if w["code"] in BLOCKING_WARNINGS]
    if blocking:
        raise WrongState("The draft cannot be confirmed: " + " ".join(blocking))
    locked.tables.filter(seats__isnull=True).delete()
    _renumber(locked)
    locked.state = Round.State.CONFIRMED
    locked.confirmed_at = timezone.now()
    locked.warnings = warnings
    locked.save(update_fields=["state", "confirmed_at", "warnings"])
    return locked


def _renumber(round_: Round) -> None:
    """Number the tables 1, 2, 3... again (played tables first, then byes) after empty ones
    were removed. Ascending order only ever moves a table to a free, lower number."""
    for number, table in enumerate(round_.tables.order_by("is_bye", "number"), start=1):
        if table.number != number:
            table.number = number
            table.save(update_fields=["number"])


@transaction.atomic
def round_release(*, round_: Round, by: AbstractBaseUser | None = None) -> Round:
    """Publish a confirmed round to the players and open a game stream per table.

    Only those who run the tournament release it: opening its games is theirs, as opening any
    game is for organisers, arbiters and staff."""
    check_organiser(by, round_.tournament, "release rounds")
    locked = Round.objects.select_for_update().get(pk=round_.pk)
    if locked.state != Round.State.CONFIRMED:
        raise WrongState(
            gettext("Round {number} is {state}: only a confirmed round can be released.").format(
                number=locked.number, state=locked.state
            )
        )
    locked.state = Round.State.RELEASED
    locked.released_at = timezone.now()
    locked.save(update_fields=["state", "released_at"])
    tables_open_streams(round_=locked, by=by if by is not None and by.is_authenticated else None)
    live.announce(locked.tournament_id, "round")
    return locked


def tables_open_streams(*, round_: Round, by: AbstractBaseUser | None = None) -> int:
    """Open a game stream for each played table that has none; the number opened."""
    tournament = round_.tournament
    opened = 0
    for table in round_.tables.filter(is_bye=False, stream_id__isnull=True):
        users = [
            s.registration.player.user
            for s in table.seats.select_related("registration__player__user")
        ]
        try:
            stream = stream_open(
                game_id=tournament.game_id,
                seats=users,
                options=tournament.options,
                edition=tournament.edition or None,
                created_by=by,
                context={"tournament": tournament.pk, "tournament_table": table.pk},
            )
        except EngineError as exc:
            raise InvalidInput(
                gettext("The game of table {number} cannot be opened: {exc}").format(
                    number=table.number, exc=exc
                )
            ) from None
        table.stream_id = stream.id
        table.save(update_fields=["stream_id"])
        opened += 1
    return opened
