"""The rules a hand-edited draw breaks, each as a structured warning."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.types import DrawWarning, Entrant, History, TableRule


def check_tables(
    tables: Sequence[Sequence[int]],
    byes: Sequence[int],
    entrants: Sequence[Entrant],
    history: History,
    rule: TableRule,
) -> list[DrawWarning]:
    """Every rule the draw ``tables`` + ``byes`` breaks: repeat opponents, a second bye, a table
    size out of range, an entrant seated twice, missing, or not registered."""
    raise NotImplementedError
