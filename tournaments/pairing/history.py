"""What the engines read from earlier rounds: who met whom, and who sat where."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tournaments.pairing.types import Entrant, History


@dataclass
class Meetings:
    """How many times each pair of entrants shared a table, and the rounds they did."""

    counts: defaultdict[int, dict[int, int]] = field(default_factory=lambda: defaultdict(dict))
    rounds: dict[tuple[int, int], list[int]] = field(default_factory=dict)

    def times(self, a: int, b: int) -> int:
        """How many times ``a`` and ``b`` already shared a table."""
        return self.counts[a].get(b, 0)

    def table_repeats(self, table: Iterable[int]) -> int:
        """Sum over the pairs of ``table`` of the times they already met."""
        members = list(table)
        total = 0
        for i, a in enumerate(members):
            met = self.counts[a]
            for b in members[i + 1 :]:
                total += met.get(b, 0)
        return total


def meetings(history: History) -> Meetings:
    """Count every pair that shared a table in ``history``."""
    found = Meetings()
    numbers = history.round_numbers
    for index, table in enumerate(history.tables):
        number = numbers[index] if index < len(numbers) else 0
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                if a == b:
                    continue
                found.counts[a][b] = found.counts[a].get(b, 0) + 1
                found.counts[b][a] = found.counts[b].get(a, 0) + 1
                found.rounds.setdefault((min(a, b), max(a, b)), []).append(number)
    return found


def seat_counts(entrants: Sequence[Entrant], history: History) -> dict[int, list[int]]:
    """Times each entrant sat in each seat: ``Entrant.seat_counts`` when given, else counted
    from ``history``."""
    counted: defaultdict[int, list[int]] = defaultdict(list)
    for table in history.tables:
        for seat, entrant in enumerate(table):
            counts = counted[entrant]
            counts.extend([0] * (seat + 1 - len(counts)))
            counts[seat] += 1
    return {e.id: list(e.seat_counts) if e.seat_counts else counted.get(e.id, []) for e in entrants}
