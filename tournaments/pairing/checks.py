"""The rules a draw breaks, each as a structured warning the Django side can name."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from tournaments.pairing.history import meetings, seat_counts
from tournaments.pairing.sizes import byes_needed
from tournaments.pairing.types import DrawWarning, Entrant, History, TableRule, gettext_noop


def check_tables(
    tables: Sequence[Sequence[int]],
    byes: Sequence[int],
    entrants: Sequence[Entrant],
    history: History,
    rule: TableRule,
) -> list[DrawWarning]:
    """Every rule the draw ``tables`` + ``byes`` breaks, for an organiser editing a draft.

    Codes: ``unknown`` (not an active entrant), ``seated_twice``, ``missing``, ``table_size``
    (out of the allowed range), ``repeat`` (the two already shared a table), ``second_bye``
    (another bye while someone seated has had fewer), ``extra_bye`` (more byes than needed),
    ``seat_balance`` (an entrant seated again in a seat they used more than another seat of
    their table: see :func:`check_seat_balance`).

    >>> rule = TableRule(preferred=2, allowed=(2,))
    >>> people = [Entrant(1), Entrant(2), Entrant(3)]
    >>> [str(w) for w in check_tables([(2, 1)], [], people, History(((1, 2),), (1,)), rule)]
    ['entrant 3 is missing from the draw', 'entrant 2 and entrant 1 already shared a table in round 1']
    """
    return [
        *_roll_call(tables, byes, entrants),
        *_table_sizes(tables, rule),
        *_repeats(tables, history),
        *_byes(tables, byes, entrants, rule),
        *check_seat_balance(tables, entrants, history),
    ]


def check_seat_balance(
    tables: Sequence[Sequence[int]], entrants: Sequence[Entrant], history: History
) -> list[DrawWarning]:
    """Entrants whose seat this round unbalances their seat positions: they sit in a seat
    they already used more often than another seat of their table, so that seat's count
    runs two or more ahead of it. Seats are counted as :func:`history.seat_counts` does
    (``Entrant.seat_counts``, else the history); a seat is named from 1, as printed.

    >>> people = [Entrant(1, seat_counts=(1, 0)), Entrant(2, seat_counts=(0, 1))]
    >>> [str(w) for w in check_seat_balance([(1, 2)], people, History())]
    ['entrant 1 sits in seat 1 again: 2 times now, never in seat 2', \
'entrant 2 sits in seat 2 again: 2 times now, never in seat 1']
    >>> check_seat_balance([(2, 1)], people, History())
    []
    """
    counts = seat_counts(entrants, history)
    found: list[DrawWarning] = []
    for number, table in enumerate(tables, start=1):
        size = len(table)
        for seat, entrant in enumerate(table):
            if size < 2 or entrant not in counts:
                continue
            used = counts[entrant][:size] + [0] * max(size - len(counts[entrant]), 0)
            fewest = min(used)
            if used[seat] <= fewest:
                continue
            found.append(
                DrawWarning(
                    "seat_balance", (entrant,), _seat_balance_words(fewest), table=number,
                    params={
                        "seat": seat + 1, "times": used[seat] + 1,
                        "other": used.index(fewest) + 1, "fewest": fewest,
                    },
                )
            )  # fmt: skip
    return found


def _seat_balance_words(fewest: int) -> str:
    if fewest == 0:
        return gettext_noop(
            "{0} sits in seat {seat} again: {times} times now, never in seat {other}"
        )
    if fewest == 1:
        return gettext_noop(
            "{0} sits in seat {seat} again: {times} times now, only once in seat {other}"
        )
    return gettext_noop(
        "{0} sits in seat {seat} again: {times} times now, {fewest} times in seat {other}"
    )


def check_results_missing(missing: Sequence[tuple[int, int]]) -> list[DrawWarning]:
    """One warning per earlier round whose tables ``missing`` (round number, table number)
    have no result: a draw made anyway (the organiser said so) counts those games for nothing.

    >>> [str(w) for w in check_results_missing([(2, 5), (1, 4), (2, 3)])]
    ['Round 1, table 4 has no result: this draw counts its game for nothing', \
'Round 2, tables 3, 5 have no result: this draw counts their games for nothing']
    """
    by_round: dict[int, list[int]] = {}
    for number, table in sorted(set(missing)):
        by_round.setdefault(number, []).append(table)
    return [
        DrawWarning(
            "results_missing",
            (),
            _MISSING_ONE if len(tables) == 1 else _MISSING_SOME,
            params={"round": number, "tables": ", ".join(map(str, tables))},
        )
        for number, tables in by_round.items()
    ]


_MISSING_ONE = gettext_noop(
    "Round {round}, table {tables} has no result: this draw counts its game for nothing"
)
_MISSING_SOME = gettext_noop(
    "Round {round}, tables {tables} have no result: this draw counts their games for nothing"
)


def _roll_call(
    tables: Sequence[Sequence[int]], byes: Sequence[int], entrants: Sequence[Entrant]
) -> list[DrawWarning]:
    active = {e.id for e in entrants}
    placed = Counter([e for t in tables for e in t] + list(byes))
    found: list[DrawWarning] = []
    for entrant, times in placed.items():
        if entrant not in active:
            found.append(
                DrawWarning("unknown", (entrant,), gettext_noop("{0} is not an active entrant"))
            )
        if times > 1:
            found.append(
                DrawWarning(
                    "seated_twice", (entrant,), gettext_noop("{0} is placed {times} times"),
                    params={"times": times},
                )
                if times > 2
                else DrawWarning("seated_twice", (entrant,), gettext_noop("{0} is seated twice"))
            )  # fmt: skip
    found.extend(
        DrawWarning("missing", (e.id,), gettext_noop("{0} is missing from the draw"))
        for e in entrants
        if e.id not in placed
    )
    return found


def _table_sizes(tables: Sequence[Sequence[int]], rule: TableRule) -> list[DrawWarning]:
    allowed = _describe_sizes(rule.allowed)
    return [
        DrawWarning(
            "table_size",
            (),
            gettext_noop("table {table} has {count} players; allowed {allowed}")
            if len(table) != 1
            else gettext_noop("table {table} has {count} player; allowed {allowed}"),
            table=number,
            params={"table": number, "count": len(table), "allowed": allowed},
        )
        for number, table in enumerate(tables, start=1)
        if len(table) not in rule.allowed
    ]


def _repeats(tables: Sequence[Sequence[int]], history: History) -> list[DrawWarning]:
    met = meetings(history)
    found: list[DrawWarning] = []
    for number, table in enumerate(tables, start=1):
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                if a != b and met.times(a, b):
                    rounds = sorted(r for r in met.rounds[(min(a, b), max(a, b))] if r)
                    template, params = _repeat_words(rounds)
                    found.append(
                        DrawWarning("repeat", (a, b), template, table=number, params=params)
                    )
    return found


def _byes(
    tables: Sequence[Sequence[int]],
    byes: Sequence[int],
    entrants: Sequence[Entrant],
    rule: TableRule,
) -> list[DrawWarning]:
    had = {e.id: e.byes for e in entrants}
    seated = [had[e] for t in tables for e in t if e in had]
    fewest_seated = min(seated, default=None)
    found: list[DrawWarning] = []
    for entrant in dict.fromkeys(byes):
        before = had.get(entrant, 0)
        if before and fewest_seated is not None and fewest_seated < before:
            found.append(
                DrawWarning("second_bye", (entrant,), gettext_noop("{0} gets a second bye"))
                if before == 1
                else DrawWarning(
                    "second_bye", (entrant,), gettext_noop("{0} gets bye number {number}"),
                    params={"number": before + 1},
                )
            )  # fmt: skip
    needed = byes_needed(len(entrants), rule)
    if len(byes) > needed:
        found.append(
            DrawWarning(
                "extra_bye", tuple(byes), _extra_bye_words(len(byes), needed),
                params={"given": len(byes), "needed": needed},
            )
        )  # fmt: skip
    return found


def _extra_bye_words(given: int, needed: int) -> str:
    if given == 1:
        return gettext_noop("{given} bye is given where none is needed")
    if needed == 0:
        return gettext_noop("{given} byes are given where none is needed")
    if needed == 1:
        return gettext_noop("{given} byes are given where {needed} is needed")
    return gettext_noop("{given} byes are given where {needed} are needed")


def _repeat_words(rounds: Sequence[int]) -> tuple[str, dict[str, Any]]:
    """The repeat warning's template and values: when the two met before, if known."""
    if not rounds:
        return gettext_noop("{0} and {1} already shared a table"), {}
    if len(rounds) == 1:
        return gettext_noop("{0} and {1} already shared a table in round {round}"), {
            "round": rounds[0]
        }
    return gettext_noop("{0} and {1} already shared a table in rounds {rounds} and {last}"), {
        "rounds": ", ".join(map(str, rounds[:-1])),
        "last": rounds[-1],
    }


def _describe_sizes(sizes: Sequence[int]) -> str:
    ordered = sorted(set(sizes))
    if len(ordered) == 1:
        return str(ordered[0])
    if ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]}–{ordered[-1]}"
    return ", ".join(map(str, ordered))
