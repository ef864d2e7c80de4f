"""Depth-first search for a draw without any repeat, for fields of up to a few dozen.

Each entrant's possible table-mates (everyone they never met) are kept as a bit mask. The next
table is led by the entrant with the fewest possible table-mates left (the most constrained
first, so a dead end shows early), and a branch is cut as soon as some unseated entrant has
too few possible table-mates left to fill even the smallest table. Table-mates are tried
closest in points first, so the first draw found keeps score groups together where it can.
The search is exhaustive within its step budget: ``None`` then means "not found in time".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from tournaments.pairing.history import Meetings


class _OutOfSteps(Exception):
    """The step budget ran out before the search could decide."""


class RepeatFreeSearch:
    """One search over ``order`` (entrant ids, best first) for tables of ``sizes``."""

    def __init__(
        self,
        met: Meetings,
        order: Sequence[int],
        sizes: Sequence[int],
        points: Mapping[int, float],
        budget: int,
    ) -> None:
        self.order = list(order)
        self.points = [points[e] for e in self.order]
        counts = met.counts
        self.mates = [
            sum(1 << j for j, b in enumerate(self.order) if j != i and not counts[a].get(b, 0))
            for i, a in enumerate(self.order)
        ]
        self.sizes: Counter[int] = Counter(sizes)
        self.smallest = min(sizes, default=1)
        self.steps = budget
        self.tables: list[list[int]] = []
        #: The answer of the search: a repeat-free draw was found (True), none exists
        #: (False), or the budget ran out (None).
        self.verdict: bool | None = None

    def run(self) -> list[list[int]] | None:
        """A repeat-free draw (entrant ids), or ``None`` (none exists, or out of steps)."""
        try:
            self.verdict = self._place((1 << len(self.order)) - 1)
        except _OutOfSteps:
            self.verdict = None
        if not self.verdict:
            return None
        return [[self.order[i] for i in table] for table in self.tables]

    def _place(self, pending: int) -> bool:
        """Seat every entrant of the ``pending`` mask at the remaining table sizes."""
        if not pending:
            return True
        leader = self._most_constrained(pending)
        if leader is None:
            return False
        rest = pending & ~(1 << leader)
        candidates = self._by_closeness(leader, self.mates[leader] & rest)
        for size in sorted(self.sizes):
            if not self.sizes[size]:
                continue
            self.sizes[size] -= 1
            self.tables.append([leader])
            found = self._grow(rest, candidates, 0, self.mates[leader], size)
            if found:
                return True
            self.tables.pop()
            self.sizes[size] += 1
        return False

    def _grow(
        self, pending: int, candidates: list[int], start: int, allowed: int, size: int
    ) -> bool:
        """Add table-mates from ``candidates[start:]`` who met nobody at the table so far."""
        self.steps -= 1
        if self.steps < 0:
            raise _OutOfSteps
        table = self.tables[-1]
        if len(table) == size:
            return self._place(pending)
        need = size - len(table)
        for index in range(start, len(candidates)):
            if len(candidates) - index < need:
                return False
            c = candidates[index]
            if not (allowed >> c) & 1:
                continue
            narrowed = allowed & self.mates[c]
            if need > 1 and (narrowed & pending).bit_count() < need - 1:
                continue
            table.append(c)
            if self._grow(pending & ~(1 << c), candidates, index + 1, narrowed, size):
                return True
            table.pop()
        return False

    def _most_constrained(self, pending: int) -> int | None:
        """The pending entrant with the fewest possible table-mates left (the best placed in
        the order on a tie), or ``None`` when one of them cannot fill the smallest table."""
        best: int | None = None
        fewest = 0
        remaining = pending
        while remaining:
            low = remaining & -remaining
            i = low.bit_length() - 1
            remaining ^= low
            count = (self.mates[i] & pending).bit_count()
            if count < self.smallest - 1:
                return None
            if best is None or count < fewest:
                best, fewest = i, count
        return best

    def _by_closeness(self, leader: int, mask: int) -> list[int]:
        """The entrants of ``mask``, closest in points to ``leader`` first."""
        found: list[int] = []
        while mask:
            low = mask & -mask
            found.append(low.bit_length() - 1)
            mask ^= low
        mine = self.points[leader]
        return sorted(found, key=lambda j: (abs(self.points[j] - mine), j))
