"""Seat positions balanced over rounds with the Hungarian method, table by table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from scipy.optimize import linear_sum_assignment


def balance_seats(table: Sequence[int], counts: Mapping[int, Sequence[int]]) -> tuple[int, ...]:
    """``table`` reordered so each entrant gets a seat they used least.

    The cost of giving seat ``s`` to an entrant is the square of how often they would then
    have sat there, so the assignment evens out the most-used seats first. The input order
    breaks ties (callers shuffle it with the round's seed).
    """
    size = len(table)
    if size <= 1:
        return tuple(table)
    cost = np.empty((size, size), dtype=np.int64)
    for row, entrant in enumerate(table):
        used = counts.get(entrant, ())
        for seat in range(size):
            times = used[seat] if seat < len(used) else 0
            cost[row, seat] = (times + 1) ** 2
    rows, seats = linear_sum_assignment(cost)
    ordered = [0] * size
    for row, seat in zip(rows.tolist(), seats.tolist(), strict=True):
        ordered[seat] = table[row]
    return tuple(ordered)


def seat_imbalance(tables: Sequence[Sequence[int]], counts: Mapping[int, Sequence[int]]) -> int:
    """After this round, the largest gap between an entrant's most- and least-used seat, over
    the seats of the table they sit at now."""
    return max(_seat_gaps(tables, counts), default=0)


def mean_seat_imbalance(
    tables: Sequence[Sequence[int]], counts: Mapping[int, Sequence[int]]
) -> float:
    """The same gap as :func:`seat_imbalance`, averaged over the seated entrants."""
    gaps = _seat_gaps(tables, counts)
    return sum(gaps) / len(gaps) if gaps else 0.0


def _seat_gaps(tables: Sequence[Sequence[int]], counts: Mapping[int, Sequence[int]]) -> list[int]:
    gaps: list[int] = []
    for table in tables:
        size = len(table)
        for seat, entrant in enumerate(table):
            used = list(counts.get(entrant, ()))[:size]
            used.extend([0] * (size - len(used)))
            used[seat] += 1
            gaps.append(max(used) - min(used))
    return gaps
