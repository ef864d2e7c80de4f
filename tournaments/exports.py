"""CSV exports of standings and pairings, written from the selectors' lines.

Names and clubs are typed by people: a cell a spreadsheet would run as a formula is written as
text (:func:`_text`), so opening an export never runs ``=HYPERLINK(...)`` from a display name.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from tournaments.selectors import StandingLine, TableLine


def standings_csv(lines: Sequence[StandingLine], tiebreakers: Sequence[str]) -> str:
    """rank, name, club, points, each tie-breaker, games, wins, byes, dropped, late_byes.

    ``late_byes`` (rounds a late entrant missed that earned the late-entry award) comes last so
    a spreadsheet that reads the older columns by position still reads them right.
    """
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "rank", "name", "club", "points", *tiebreakers,
            "games", "wins", "byes", "dropped", "late_byes",
        ]
    )  # fmt: skip
    for line in lines:
        writer.writerow(
            [
                line.rank,
                _text(line.name),
                _text(line.club),
                _number(line.points),
                *(_number(line.tiebreaks.get(name, 0.0)) for name in tiebreakers),
                line.games,
                line.wins,
                line.byes,
                "yes" if line.dropped else "",
                line.late_byes,
            ]
        )
    return out.getvalue()


def pairings_csv(tables: Sequence[TableLine]) -> str:
    """One line per seat: table, seat (1-based; empty for a bye), name, points before."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["table", "seat", "name", "points", "bye"])
    for table in tables:
        for seat in table.seats:
            writer.writerow(
                [
                    table.number,
                    "" if table.is_bye else seat.seat,
                    _text(seat.name),
                    _number(seat.points),
                    "yes" if table.is_bye else "",
                ]
            )
    return out.getvalue()


#: What a spreadsheet takes as the start of a formula (OWASP's CSV injection list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _text(value: str) -> str:
    """A person's text as a cell: a leading single quote makes a would-be formula plain text."""
    return f"'{value}" if value.startswith(FORMULA_STARTS) else value


def _number(value: float) -> str:
    """2.0 → "2", 2.5 → "2.5": what a spreadsheet user expects."""
    return f"{value:g}"
