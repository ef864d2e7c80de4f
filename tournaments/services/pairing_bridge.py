"""The bridge between ORM rows and the pure pairing layer (``tournaments.pairing``) for the
draw of a paired round, as Tabbycat's ``draw/manager.py`` is for its draws.

Rows become plain values in :func:`pairing_inputs` (entrants, history, table rule) and
:func:`round_layout` (a round's tables as they stand); the pure layer draws or checks; a
``Pairing`` becomes rows in :func:`save_draw`. The rounds services build none of the pure
layer's values themselves. Brackets keep their own, smaller conversion in ``brackets`` (a
bracket is stored as JSON on its stage, not drawn from history) and seat their matches with
:func:`table_with_seats`.

Named for what it joins rather than ``draw``: it does not pair (``tournaments.pairing``
does), and a module ``draw`` would read as the pairing itself. It sits in ``services``
because it writes tables inside its callers' transactions, not as an API of its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from tournaments import pairing, selectors
from tournaments.errors import InvalidInput
from tournaments.models import (
    Registration,
    Round,
    Stage,
    Table,
    TableMode,
    TableSeat,
    Tournament,
)


def table_rule(tournament: Tournament) -> pairing.TableRule:
    """The tournament's table sizes as the pure layer's rule."""
    return pairing.TableRule(
        preferred=tournament.table_preferred, allowed=tuple(tournament.table_allowed)
    )


@dataclass(frozen=True)
class PairingInputs:
    """What the pure layer needs to draw round ``number``."""

    entrants: list[pairing.Entrant]
    history: pairing.History
    rule: pairing.TableRule


def pairing_inputs(tournament: Tournament, number: int) -> PairingInputs:
    """Rows → plain values: active entrants with points, byes, seats; earlier tables."""
    played = selectors.played_rounds(tournament, before=number)
    counts = selectors.seat_counts(played)
    rows = {row.entrant: row for row in selectors.standings_rows(tournament, before=number)}
    byes: dict[int, int] = {}
    for r in played:
        for reg in r.byes:
            byes[reg] = byes.get(reg, 0) + 1
    entrants = [
        pairing.Entrant(
            id=reg.id,
            points=rows[reg.id].points if reg.id in rows else 0.0,
            seed=reg.seed,
            byes=byes.get(reg.id, 0),
            seat_counts=counts.get(reg.id, ()),
        )
        for reg in selectors.active_registrations(tournament, number)
    ]
    return PairingInputs(entrants, selectors.pairing_history(played), table_rule(tournament))


def round_layout(round_: Round) -> tuple[list[tuple[int, ...]], list[int]]:
    """Rows → plain values: the round's tables as they stand now (seat 0 first), and its byes."""
    tables: list[tuple[int, ...]] = []
    byes: list[int] = []
    # Played tables are numbered 1..k before the byes, so the pure layer's table index (its
    # position in ``tables``, empty tables included) is the printed table number.
    for table in round_.tables.order_by("number").prefetch_related("seats"):
        regs = tuple(s.registration_id for s in table.seats.order_by("seat"))
        if table.is_bye:
            byes.extend(regs)
        else:
            tables.append(regs)
    return tables, byes


def draw_round(tournament: Tournament, fmt: str, number: int, attempt: int) -> pairing.Pairing:
    """Round ``number`` drawn by the pure layer for the whole field (``attempt`` varies the
    seed of a re-pairing); refused when no one is left to pair."""
    inputs = pairing_inputs(tournament, number)
    if not inputs.entrants:
        raise InvalidInput(
            gettext("No player is checked in and still playing: there is no one to pair.")
        )
    try:
        return pairing.pair_round(
            fmt,
            inputs.entrants,
            inputs.history,
            inputs.rule,
            round_number=number,
            seed=f"{tournament.pairing_seed}:{number}:{attempt}",
        )
    except pairing.PairingError as exc:
        raise InvalidInput(str(exc)) from None


def draw_round_in_groups(
    tournament: Tournament, stage: Stage, fmt: str, number: int, attempt: int
) -> pairing.Pairing:
    """One draw per group (tables never mix groups), merged into one round."""
    inputs = pairing_inputs(tournament, number)
    groups = _groups_with_late_entries(stage, [e.id for e in inputs.entrants])
    draws = []
    for name in sorted(set(groups.values())):
        members = [e for e in inputs.entrants if groups[e.id] == name]
        if not members:
            continue
        try:
            draws.append(
                pairing.pair_round(
                    fmt,
                    members,
                    inputs.history,
                    inputs.rule,
                    round_number=number,
                    seed=f"{tournament.pairing_seed}:{number}:{attempt}:{name}",
                )
            )
        except pairing.PairingError as exc:
            raise InvalidInput(gettext("Group {name}: {exc}").format(name=name, exc=exc)) from None
    return _merged(draws)


def _groups_with_late_entries(stage: Stage, entrants: Sequence[int]) -> dict[int, str]:
    """Registration id -> group; a late entrant joins the group with the fewest players."""
    groups = {int(reg): name for reg, name in stage.groups.items()}
    for reg in entrants:
        if reg not in groups:
            sizes = dict.fromkeys(sorted(set(groups.values())), 0)
            for other in entrants:
                if other in groups:
                    sizes[groups[other]] += 1
            groups[reg] = min(sizes, key=lambda name: (sizes[name], name))
    if len(groups) != len(stage.groups):
        stage.groups = {str(reg): name for reg, name in groups.items()}
        stage.save(update_fields=["groups"])
    return groups


def _merged(draws: Sequence[pairing.Pairing]) -> pairing.Pairing:
    """Several groups' draws as one: tables in group order, quality figures combined."""
    tables = tuple(t for d in draws for t in d.tables)
    totals = ("repeat_pairs", "floaters", "tables", "byes")
    quality: dict[str, float] = {
        key: float(sum(d.quality.get(key, 0.0) for d in draws)) for key in totals
    }
    for key in ("max_score_spread", "seat_imbalance"):
        quality[key] = float(max((d.quality.get(key, 0.0) for d in draws), default=0.0))
    weighted = sum(d.quality.get("mean_score_spread", 0.0) * len(d.tables) for d in draws)
    quality["mean_score_spread"] = weighted / len(tables) if tables else 0.0
    return pairing.Pairing(
        tables=tables,
        byes=tuple(b for d in draws for b in d.byes),
        quality=quality,
        warnings=tuple(w for d in draws for w in d.warnings),
    )


def fixed_tables(tournament: Tournament) -> dict[int, int]:
    """Registration id -> the table number it is kept at (players who need their table)."""
    rows = tournament.registrations.filter(fixed_table__isnull=False, dropped_after_round=None)
    return dict(rows.values_list("id", "fixed_table"))


def at_fixed_tables(
    draw: pairing.Pairing, fixed: Mapping[int, int]
) -> tuple[pairing.Pairing, bool]:
    """The draw with each fixed player at the table of their number, and whether a player
    had to be moved for it (then the draw's own warnings are stale: check the round again).

    First whole tables move (who sits with whom, and in which seat, stays the draw's), so
    the pure layer never hears of table numbers; lower numbers are settled first. A fixed
    player still elsewhere (two of them drawn at one table) then trades places with a player
    of their table who is not kept there. A number beyond the round's tables is not given:
    :func:`fixed_table_warnings` names whoever is not at their table.
    """
    order = list(range(len(draw.tables)))  # order[i]: the drawn table now at position i
    settled: set[int] = set()
    wanted = sorted(fixed.items(), key=lambda item: (item[1], item[0]))
    for reg, number in wanted:
        target = number - 1
        here = next((i for i, t in enumerate(order) if reg in draw.tables[t]), None)
        if here is None or target >= len(order) or here in settled or target in settled:
            continue
        order[here], order[target] = order[target], order[here]
        settled.add(target)
    # The draw's warnings name tables by number: each follows its table to its new place.
    moved = {drawn + 1: place + 1 for place, drawn in enumerate(order)}
    warnings = tuple(
        w if w.table is None else dataclasses.replace(w, table=moved.get(w.table, w.table))
        for w in draw.warnings
    )
    tables = [list(draw.tables[drawn]) for drawn in order]
    traded = False
    for reg, number in wanted:
        target = number - 1
        here = next((i for i, t in enumerate(tables) if reg in t), None)
        if here is None or here == target or target >= len(tables):
            continue
        partner = next((p for p in tables[target] if p not in fixed), None)
        if partner is None:
            continue
        a, b = tables[here].index(reg), tables[target].index(partner)
        tables[here][a], tables[target][b] = partner, reg
        traded = True
    if order == sorted(order) and not traded:
        return draw, False
    placed = tuple(tuple(t) for t in tables)
    return dataclasses.replace(draw, tables=placed, warnings=warnings), traded


def fixed_table_warnings(round_: Round) -> list[dict[str, Any]]:
    """One warning per fixed player of the round who does not sit at their table."""
    fixed = fixed_tables(round_.tournament)
    if not fixed:
        return []
    names = selectors.registration_names(round_.tournament)
    seats = TableSeat.objects.filter(table__round=round_, registration_id__in=list(fixed))
    warnings = []
    for reg, number, is_bye in seats.values_list(
        "registration_id", "table__number", "table__is_bye"
    ):
        if is_bye or number == fixed[reg]:
            continue
        text = gettext("{name} needs table {fixed} but sits at table {number}.").format(
            name=names.get(reg, reg), fixed=fixed[reg], number=number
        )
        warnings.append({"code": "fixed_table", "table": number, "text": text})
    return warnings


def save_draw(round_: Round, draw: pairing.Pairing) -> None:
    """Plain values → rows: one Table per table (seats in order), one per bye; each played
    table on Herald or on paper as the tournament says."""
    layout = [(seats, False) for seats in draw.tables] + [((reg,), True) for reg in draw.byes]
    on_paper = round_.tournament.table_mode == TableMode.PAPER
    # Two INSERTs whatever the size: tables first (their ids come back), then every seat.
    tables = Table.objects.bulk_create(
        Table(round=round_, number=number, is_bye=is_bye, on_paper=on_paper and not is_bye)
        for number, (_, is_bye) in enumerate(layout, start=1)
    )
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=seat, registration_id=reg)
        for table, (regs, _) in zip(tables, layout, strict=True)
        for seat, reg in enumerate(regs)
    )


def table_with_seats(
    round_: Round,
    number: int,
    seats: Sequence[int],
    regs: Mapping[int, Registration],
    *,
    is_bye: bool,
) -> Table:
    """One table of ``round_`` with ``seats`` (registration ids, seat 0 first) as rows."""
    on_paper = round_.tournament.table_mode == TableMode.PAPER and not is_bye
    table = Table.objects.create(round=round_, number=number, is_bye=is_bye, on_paper=on_paper)
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=seat, registration=regs[reg]) for seat, reg in enumerate(seats)
    )
    return table


def rendered_warnings(
    warnings: Sequence[pairing.DrawWarning], names: Mapping[int, str]
) -> list[dict[str, Any]]:
    """The draw's warnings as stored and shown: code, table and a sentence with names."""
    return [
        {"code": w.code, "table": w.table, "text": w.render(names, translate=gettext)}
        for w in warnings
    ]
