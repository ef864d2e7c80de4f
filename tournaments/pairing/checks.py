"""The rules a draw breaks, each as a structured warning the Django side can name."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from tournaments.pairing.history import meetings
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
    (another bye while someone seated has had fewer), ``extra_bye`` (more byes than needed).

    >>> rule = TableRule(preferred=2, allowed=(2,))
    >>> people = [Entrant(1), Entrant(2), Entrant(3)]
    >>> [str(w) for w in check_tables([(1, 2)], [], people, History(((1, 2),), (1,)), rule)]
    ['entrant 3 is missing from the draw', 'entrant 1 and entrant 2 already shared a table in round 1']
    """
    return [
        *_roll_call(tables, byes, entrants),
        *_table_sizes(tables, rule),
        *_repeats(tables, history),
        *_byes(tables, byes, entrants, rule),
    ]


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
