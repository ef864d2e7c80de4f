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
from tournaments.errors import BeyondPlanned, InvalidInput, ResultsMissing, WrongState
from tournaments.models import (
    Format,
    Registration,
    Round,
    Stage,
    Table,
    TableMode,
    TableSeat,
    Tournament,
)
from tournaments.services._common import (
    BRACKET_FORMATS,
    PAIRED_FORMATS,
    name_tables,
    next_round_number,
)
from tournaments.services.brackets import bracket_round_entrants, round_from_bracket
from tournaments.services.pairing_bridge import (
    at_fixed_tables,
    draw_round,
    draw_round_in_groups,
    fixed_table_warnings,
    fixed_tables,
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
    *,
    tournament: Tournament,
    by: AbstractBaseUser | None = None,
    force: bool = False,
    beyond_planned: bool = False,
) -> Round:
    """Draw the next round as a draft.

    Refused while a draft is open, — unless ``force`` — while tables of earlier rounds have
    no confirmed result (the refusal names them), and — unless ``beyond_planned`` — when the
    round would come after the ``rounds_planned``. ``by`` must run the tournament.
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
    planned = tournament.rounds_planned
    # A bracket's rounds are its own (the last one has the final): the plan is the paired
    # rounds', e.g. a stages night's groups.
    stage = current_stage(tournament)
    if planned and number > planned and not beyond_planned and stage.format not in BRACKET_FORMATS:
        raise BeyondPlanned(
            gettext(
                "{name} planned {planned} rounds: round {number} would be one more. "
                "Pair it anyway by saying so (beyond_planned)."
            ).format(name=tournament.name, planned=planned, number=number)
        )
    round_ = _round_drawn(tournament, number, attempt=1, by=by, missing=missing, stage=stage)
    if tournament.status != Tournament.Status.RUNNING:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return round_


def _round_drawn(
    tournament: Tournament,
    number: int,
    *,
    attempt: int,
    by: AbstractBaseUser | None,
    missing: Sequence[Table] | None = None,
    stage: Stage | None = None,
) -> Round:
    stage = stage or current_stage(tournament)
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
    draw, traded = at_fixed_tables(draw, fixed_tables(tournament))
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
    if traded:  # players moved to their fixed tables: the draw's own warnings may be stale
        round_.warnings = round_check(round_=round_)
        round_.save(update_fields=["warnings"])
        return round_
    unscored = rendered_warnings(round_results_missing(round_, missing), names)
    if extra := [*unscored, *fixed_table_warnings(round_)]:
        round_.warnings = [*round_.warnings, *extra]
        round_.save(update_fields=["warnings"])
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
    # A table is a place in the room: the one the organiser set to play with physical cards
    # stays so in the new draw (a re-pairing changes who sits there, not the cards on it).
    paper = dict(locked.tables.filter(is_bye=False).values_list("number", "on_paper"))
    drawn = _round_drawn(locked.tournament, locked.number, attempt=attempt, by=by)
    for number, on_paper in paper.items():
        drawn.tables.filter(number=number, is_bye=False).exclude(on_paper=on_paper).update(
            on_paper=on_paper
        )
    return drawn


def round_check(*, round_: Round) -> list[dict[str, Any]]:
    """Every rule the round's current tables break, with player names, and the earlier tables
    the draw counted for nothing (paired anyway while their results were missing)."""
    tournament = round_.tournament
    inputs = pairing_inputs(tournament, round_.number)
    entrants = inputs.entrants
    bracket = round_.stage.format in BRACKET_FORMATS
    if bracket:
        expected = bracket_round_entrants(round_)
        entrants = [e for e in entrants if e.id in expected]
    tables, byes = round_layout(round_)
    warnings = pairing.check_tables(tables, byes, entrants, inputs.history, inputs.rule)
    if bracket:  # a bracket seats each match by its slots (the better seed first) and at its
        # own size (a playoff after groups of 4 plays at tables of 2), not by the table rule
        warnings = [w for w in warnings if w.code not in ("seat_balance", "table_size")]
    warnings += round_results_missing(round_)
    rendered = rendered_warnings(warnings, selectors.registration_names(tournament))
    return rendered + fixed_table_warnings(round_)


def round_results_missing(
    round_: Round, missing: Sequence[Table] | None = None
) -> list[pairing.DrawWarning]:
    """The earlier rounds' tables with no confirmed result (``missing``, when the caller has
    them already), as the draft's warning: the organiser paired anyway, and the draw counted
    those games for nothing."""
    if missing is None:
        missing = selectors.tables_missing_results(round_.tournament)
    return pairing.check_results_missing(
        [(t.round.number, t.number) for t in missing if t.round.number < round_.number]
    )


@dataclass(frozen=True)
class TableEdit:
    """A hand-edited table and every rule the round now breaks, in words."""

    table: Table
    warnings: list[dict[str, Any]]


@transaction.atomic
def table_edit(
    *, table: Table, registrations: Sequence[int], by: AbstractBaseUser | None = None
) -> TableEdit:
    """Seat ``registrations`` (ids, seat 0 first) at a draft table; warn, never refuse, on
    rules the draw then breaks (repeat opponents, second bye, size, seated twice, missing)."""
    check_organiser(by, table.round.tournament, "edit tables")
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
    return TableEdit(table=table, warnings=_rechecked(round_))


@transaction.atomic
def table_add(*, round_: Round, is_bye: bool = False, by: AbstractBaseUser | None = None) -> Table:
    """An empty table (or bye) added to a draft, to be filled with :func:`table_edit`."""
    check_organiser(by, round_.tournament, "edit tables")
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.state != Round.State.DRAFT:
        raise WrongState(
            gettext("Round {number} is {state}: tables can be added only to a draft.").format(
                number=round_.number, state=round_.state
            )
        )
    if is_bye:
        number = 1 + max(round_.tables.values_list("number", flat=True), default=0)
        return Table.objects.create(round=round_, number=number, is_bye=True)
    on_paper = round_.tournament.table_mode == TableMode.PAPER
    played = round_.tables.filter(is_bye=False).values_list("number", flat=True)
    number = 1 + max(played, default=0)
    for bye in round_.tables.filter(is_bye=True, number__gte=number).order_by("-number"):
        bye.number += 1  # keep played tables numbered 1..k, byes after them
        bye.save(update_fields=["number"])
    return Table.objects.create(round=round_, number=number, is_bye=False, on_paper=on_paper)


@transaction.atomic
def round_confirm(*, round_: Round, by: AbstractBaseUser | None = None) -> Round:
    """Fix the draft's tables; refused while a player is missing, seated twice or unknown."""
    check_organiser(by, round_.tournament, "confirm rounds")
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
    live.announce(locked.tournament_id, "round")
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
    """Open a game stream for each table played on Herald that has none; the number opened.
    A table on paper gets none: its players report their result instead."""
    tournament = round_.tournament
    opened = 0
    for table in round_.tables.filter(is_bye=False, on_paper=False, stream_id__isnull=True):
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


# -- the organiser's hand on a draft -------------------------------------------------------------
def _draft_locked(round_: Round, what: str) -> Round:
    """``round_`` locked for an edit; refused unless it is a draft."""
    locked = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if locked.state != Round.State.DRAFT:
        raise WrongState(
            gettext("Round {number} is {state}: {what} only in a draft.").format(
                number=locked.number, state=locked.get_state_display().lower(), what=what
            )
        )
    return locked


def _seat_of(round_: Round, registration: int) -> TableSeat:
    seat = (
        TableSeat.objects.filter(table__round=round_, registration_id=registration)
        .select_related("table")
        .first()
    )
    if seat is None:
        name = selectors.registration_names(round_.tournament).get(registration)
        raise InvalidInput(
            gettext("{name} has no seat in round {number}.").format(
                name=name or gettext("Registration {id}").format(id=registration),
                number=round_.number,
            )
        )
    return seat


def _rechecked(round_: Round) -> list[dict[str, Any]]:
    """The draft's warnings and quality figures computed again from its tables as they now
    stand, and kept."""
    warnings = round_check(round_=round_)
    round_.warnings = warnings
    round_.quality = round_quality(round_=round_)
    round_.save(update_fields=["warnings", "quality"])
    return warnings


def round_quality(*, round_: Round) -> dict[str, float]:
    """The quality figures of the round's tables as they stand (repeats, spreads, seats)."""
    inputs = pairing_inputs(round_.tournament, round_.number)
    tables, byes = round_layout(round_)
    figures = pairing.measure_tables(tables, byes, inputs.entrants, inputs.history, inputs.rule)
    return {key: float(value) for key, value in figures.items()}


@transaction.atomic
def round_swap(
    *, round_: Round, first: int, second: int, by: AbstractBaseUser | None = None
) -> list[dict[str, Any]]:
    """Two players of a draft (registration ids) trade places: at two tables they trade
    tables and seats, at one table they trade seats. Answers the round's warnings after it."""
    check_organiser(by, round_.tournament, "edit tables")
    locked = _draft_locked(round_, gettext("players can be swapped"))
    if first == second:
        raise InvalidInput(gettext("Pick two different players to swap."))
    a, b = _seat_of(locked, first), _seat_of(locked, second)
    places = [(a.table, a.seat, b.registration_id), (b.table, b.seat, a.registration_id)]
    TableSeat.objects.filter(pk__in=[a.pk, b.pk]).delete()
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=seat, registration_id=reg) for table, seat, reg in places
    )
    return _rechecked(locked)


@transaction.atomic
def round_seat_move(
    *, round_: Round, registration: int, table: Table, by: AbstractBaseUser | None = None
) -> list[dict[str, Any]]:
    """Move a player of a draft to the last seat of ``table`` (an added table, a bye); a
    player the draft left out is seated the same way. Answers the round's warnings."""
    check_organiser(by, round_.tournament, "edit tables")
    locked = _draft_locked(round_, gettext("players can be moved"))
    if table.round_id != locked.pk:
        raise InvalidInput(gettext("That table is not part of this round."))
    reg = locked.tournament.registrations.filter(pk=registration).first()
    if reg is None:
        raise InvalidInput(
            gettext("Registration {id} is not part of this tournament.").format(id=registration)
        )
    old = TableSeat.objects.filter(table__round=locked, registration=reg).first()
    if old is not None and old.table_id == table.pk:
        return _rechecked(locked)
    if table.is_bye and table.seats.exists():
        raise InvalidInput(gettext("A bye seats one player at most."))
    if old is not None:
        origin = old.table
        old.delete()
        for number, seat in enumerate(origin.seats.order_by("seat")):
            if seat.seat != number:  # ascending: each seat moves down to a free number
                seat.seat = number
                seat.save(update_fields=["seat"])
    last = table.seats.order_by("-seat").values_list("seat", flat=True).first()
    TableSeat.objects.create(table=table, seat=0 if last is None else last + 1, registration=reg)
    return _rechecked(locked)


@transaction.atomic
def table_set_paper(*, table: Table, on_paper: bool, by: AbstractBaseUser | None = None) -> Table:
    """Play one table with physical cards (``on_paper``) or on Herald; until it is published."""
    check_organiser(by, table.round.tournament, "choose where tables play")
    round_ = Round.objects.select_for_update().get(pk=table.round_id)
    if round_.state not in (Round.State.DRAFT, Round.State.CONFIRMED):
        raise WrongState(
            gettext(
                "Round {number} is {state}: where a table plays is chosen before it is published."
            ).format(number=round_.number, state=round_.get_state_display().lower())
        )
    if table.is_bye:
        raise InvalidInput(gettext("A bye is not played: it has no cards to play with."))
    table.on_paper = bool(on_paper)
    table.save(update_fields=["on_paper"])
    return table


@transaction.atomic
def tournament_set_table_mode(
    *, tournament: Tournament, mode: str, by: AbstractBaseUser | None = None
) -> Tournament:
    """Where the tournament's tables play (:class:`TableMode`): every table of the next draws,
    and the tables of a round not yet published."""
    check_organiser(by, tournament, "choose where tables play")
    if mode not in TableMode.values:
        raise InvalidInput(
            gettext("Tables play {choices}, not {mode}.").format(
                choices=" or ".join(repr(v) for v in TableMode.values), mode=repr(mode)
            )
        )
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    locked.table_mode = mode
    locked.save(update_fields=["table_mode"])
    Table.objects.filter(
        round__tournament=locked,
        round__state__in=[Round.State.DRAFT, Round.State.CONFIRMED],
        is_bye=False,
    ).update(on_paper=mode == TableMode.PAPER)
    tournament.table_mode = mode
    return locked


#: The largest table number a player may be fixed at: far beyond any club's room.
FIXED_TABLE_LIMIT = 200


@transaction.atomic
def registration_fix_table(
    *, registration: Registration, table: int | None, by: AbstractBaseUser | None = None
) -> Registration:
    """Keep a player at table ``table`` in every draw from now on (None: anywhere).

    A draw moves whole tables, never players: the player's table gets that number. Two
    players fixed at one table who are not drawn together cannot both have it; the round's
    warnings then say who is not at their table."""
    check_organiser(by, registration.tournament, "fix tables")
    if table is not None and not 1 <= int(table) <= FIXED_TABLE_LIMIT:
        raise InvalidInput(
            gettext("A fixed table is a number from 1 to {limit}, not {table}.").format(
                limit=FIXED_TABLE_LIMIT, table=table
            )
        )
    locked = Registration.objects.select_for_update().get(pk=registration.pk)
    locked.fixed_table = None if table is None else int(table)
    locked.save(update_fields=["fixed_table"])
    draft = locked.tournament.rounds.filter(state=Round.State.DRAFT).first()
    if draft is not None:
        _rechecked(draft)
    return locked
