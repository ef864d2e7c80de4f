"""A seeded tabu search that removes the repeats the greedy draw and its repair left.

The repair in :mod:`.grouping` only takes swaps that help at once, so it stops in a local
minimum; the exact search of :mod:`.exact` is kept to fields of a few dozen. This search,
bounded by a budget of weighed swaps and run on the tables around the repeats, keeps
swapping: each step weighs every swap of the entrants who sit with someone they already met
and makes the one that costs least — fewer repeats first, then a smaller score spread — even
when that is worse for now, while recently moved entrants may not go back
(the tabu list) so it does not cycle. Ties are broken by the seeded generator, so the same
seed gives the same draw. It returns the best draw seen: the fewest repeats, then the
smallest total score spread.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.core.rng import Rng
from tournaments.pairing.history import Meetings

#: One repeat costs more than any score spread, so repeats go first.
_REPEAT_COST = 1_000_000.0
#: After an entrant leaves a table, how many steps (plus a seeded jitter) before they may
#: return to it.
_TABU_TENURE = 7
#: After this many steps without a new best draw, start again from the best one, shaken by
#: a few random swaps.
_STALL_STEPS = 400
#: How many conflicted entrants each step weighs every swap of (drawn at random when more).
_CANDIDATES = 8


@dataclass
class TabuSearch:
    """Swap entrants between ``tables`` (sizes fixed) to reach the fewest repeats."""

    tables: list[list[int]]
    points: Mapping[int, float]
    met: Meetings
    rng: Rng
    where: dict[int, int] = field(init=False)
    conflicts: dict[int, int] = field(init=False)

    def __post_init__(self) -> None:
        self.tables = [list(table) for table in self.tables]
        self.where = {e: t for t, table in enumerate(self.tables) for e in table}
        self.conflicts = {e: self._met_at(e, self.tables[t], e) for e, t in self.where.items()}

    def repeats(self) -> int:
        """Repeats in the current draw (each pair counted once, times they met)."""
        return sum(self.conflicts.values()) // 2

    def spread(self) -> float:
        """Total score spread over the tables."""
        return sum(self._spread(table) for table in self.tables)

    def run(self, trials: int) -> list[list[int]]:
        """Search until about ``trials`` swaps have been weighed; the best draw seen (a copy)."""
        best = [list(table) for table in self.tables]
        best_key = (self.repeats(), self.spread())
        tabu: dict[tuple[int, int], int] = {}
        step = last_gain = spent = 0
        while spent < trials and best_key[0]:
            step += 1
            if step - last_gain > _STALL_STEPS:
                self._restart_from(best)
                tabu.clear()
                last_gain = step
            move, weighed = self._choose(step, tabu, best_key[0])
            spent += weighed
            if move is None:
                continue
            a, b = move
            ta, tb = self.where[a], self.where[b]
            self._swap(a, b)
            tenure = _TABU_TENURE + self.rng.randbelow(_TABU_TENURE)
            tabu[(a, ta)] = step + tenure
            tabu[(b, tb)] = step + tenure
            key = (self.repeats(), self.spread())
            if key < best_key:
                best, best_key = [list(table) for table in self.tables], key
                last_gain = step
        return best

    def _choose(
        self, step: int, tabu: Mapping[tuple[int, int], int], best: int
    ) -> tuple[tuple[int, int] | None, int]:
        """The best swap of a conflicted entrant (up to :data:`_CANDIDATES` of them, drawn at
        random when there are more) with anyone at another table; tabu moves only if they beat
        the best draw seen; ties broken at random. Also returns how many swaps were weighed."""
        conflicted = [e for e, c in self.conflicts.items() if c]
        if len(conflicted) > _CANDIDATES:
            self.rng.shuffle(conflicted)
            conflicted = conflicted[:_CANDIDATES]
        now = self.repeats()
        found: list[tuple[int, int]] = []
        found_delta = 0.0
        weighed = 0
        for a in conflicted:
            ta = self.where[a]
            home = self.tables[ta]
            met_a = self.met.counts[a]
            leave_a = self.conflicts[a]
            for tb, other in enumerate(self.tables):
                if tb == ta:
                    continue
                a_tabu = tabu.get((a, tb), -1) > step
                join_a = sum(met_a.get(y, 0) for y in other)
                for b in other:
                    weighed += 1
                    change = (
                        join_a
                        - met_a.get(b, 0)
                        - leave_a
                        + self._met_at(b, home, a)
                        - self.conflicts[b]
                    )
                    if (a_tabu or tabu.get((b, ta), -1) > step) and now + change >= best:
                        continue
                    if found and change * _REPEAT_COST > found_delta + _REPEAT_COST / 2:
                        continue
                    delta = change * _REPEAT_COST + self._spread_change(home, a, other, b)
                    if not found or delta < found_delta - 1e-9:
                        found, found_delta = [(a, b)], delta
                    elif abs(delta - found_delta) <= 1e-9:
                        found.append((a, b))
        if not found:
            return None, max(1, weighed)
        return found[self.rng.randbelow(len(found))], weighed

    def _met_at(self, e: int, table: Sequence[int], skip: int) -> int:
        """Times ``e`` met the members of ``table`` other than ``skip``."""
        met = self.met.counts[e]
        return sum(met.get(x, 0) for x in table if x != skip)

    def _spread(self, table: Sequence[int]) -> float:
        points = self.points
        scores = [points[e] for e in table]
        return max(scores) - min(scores)

    def _spread_change(self, home: Sequence[int], a: int, other: Sequence[int], b: int) -> float:
        points = self.points
        new_home = [points[x] for x in home if x != a] + [points[b]]
        new_other = [points[y] for y in other if y != b] + [points[a]]
        return (
            max(new_home)
            - min(new_home)
            + max(new_other)
            - min(new_other)
            - self._spread(home)
            - self._spread(other)
        )

    def _swap(self, a: int, b: int) -> None:
        """Exchange ``a`` and ``b`` (at different tables), keeping the conflict counts."""
        ta, tb = self.where[a], self.where[b]
        home, other = self.tables[ta], self.tables[tb]
        counts = self.met.counts
        for x in home:
            if x != a:
                self.conflicts[x] += counts[x].get(b, 0) - counts[x].get(a, 0)
        for y in other:
            if y != b:
                self.conflicts[y] += counts[y].get(a, 0) - counts[y].get(b, 0)
        home[home.index(a)] = b
        other[other.index(b)] = a
        self.where[a], self.where[b] = tb, ta
        self.conflicts[a] = self._met_at(a, other, a)
        self.conflicts[b] = self._met_at(b, home, b)

    def _restart_from(self, tables: Sequence[Sequence[int]]) -> None:
        """Go back to ``tables`` and shake them with a few random swaps."""
        self.tables = [list(table) for table in tables]
        self.where = {e: t for t, table in enumerate(self.tables) for e in table}
        self.conflicts = {e: self._met_at(e, self.tables[t], e) for e, t in self.where.items()}
        if len(self.tables) < 2:
            return
        everyone = sorted(self.where)
        for _ in range(max(2, len(self.tables) // 2)):
            a = everyone[self.rng.randbelow(len(everyone))]
            b = everyone[self.rng.randbelow(len(everyone))]
            if self.where[a] != self.where[b]:
                self._swap(a, b)
