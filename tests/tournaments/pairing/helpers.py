"""Helpers of the pairing tests: simulated rounds and a brute-force repeat-free search."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.core.rng import Rng
from tournaments.pairing import Entrant, History, Pairing, TableRule, pair_round
from tournaments.pairing.history import Meetings


@dataclass
class Field:
    """A simulated tournament: points, byes and tables so far, with seeded random results."""

    rule: TableRule
    seed: str
    active: list[int]
    points: dict[int, float] = field(default_factory=dict)
    byes: dict[int, int] = field(default_factory=dict)
    tables: list[tuple[int, ...]] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)
    draws: list[Pairing] = field(default_factory=list)

    def entrants(self) -> list[Entrant]:
        return [
            Entrant(id=i, points=self.points.get(i, 0.0), byes=self.byes.get(i, 0))
            for i in self.active
        ]

    def history(self) -> History:
        return History(tuple(self.tables), tuple(self.numbers))

    def play(self, fmt: str = "swiss") -> Pairing:
        """Draw the next round, record random finishing orders, and return the draw."""
        number = len(self.draws) + 1
        draw = pair_round(
            fmt,
            self.entrants(),
            self.history(),
            self.rule,
            round_number=number,
            seed=self.seed,
        )
        rng = Rng(f"{self.seed}/results/{number}")
        for table in draw.tables:
            for rank, entrant in enumerate(rng.shuffled(list(table))):
                self.points[entrant] = self.points.get(entrant, 0.0) + max(0, 3 - rank)
            self.tables.append(table)
            self.numbers.append(number)
        for entrant in draw.byes:
            self.byes[entrant] = self.byes.get(entrant, 0) + 1
            self.points[entrant] = self.points.get(entrant, 0.0) + 2
        self.draws.append(draw)
        return draw


def repeat_free_exists(players: Sequence[int], sizes: Sequence[int], met: Meetings) -> bool:
    """Brute force: can ``players`` split into tables of ``sizes`` with nobody meeting again?"""
    return _split(list(players), sorted(sizes), met)


def _split(players: list[int], sizes: list[int], met: Meetings) -> bool:
    if not players:
        return not sizes
    leader, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        others = list(sizes)
        others.remove(size)
        if _complete(leader, [leader], rest, size, sizes=others, met=met):
            return True
    return False


def _complete(
    leader: int, table: list[int], rest: list[int], size: int, *, sizes: list[int], met: Meetings
) -> bool:
    if len(table) == size:
        return _split(rest, sizes, met)
    for index, candidate in enumerate(rest):
        if table[-1] != leader and candidate < table[-1]:
            continue
        if any(met.times(candidate, e) for e in table):
            continue
        remaining = rest[:index] + rest[index + 1 :]
        if _complete(leader, [*table, candidate], remaining, size, sizes=sizes, met=met):
            return True
    return False
