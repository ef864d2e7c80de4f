"""Split an ordered list of entrants into tables: few repeats first, then close scores.

The entrants arrive best first (score groups top-down, ties in a seeded order). Tables are
built greedily by skipping ahead past entrants who already met someone at the table, then
improved by swapping entrants between tables. When repeats remain in a Swiss draw, fields of
up to :data:`EXACT_LIMIT` are searched exactly for a draw without repeats (:mod:`.exact`), and
a seeded tabu search (:mod:`.local_search`) keeps swapping around the tables with a repeat;
the better of the two draws wins (fewer repeats, then closer scores). The round robin's
planner keeps the older bounded backtracking in score order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.core.rng import Rng
from tournaments.pairing.exact import RepeatFreeSearch
from tournaments.pairing.history import Meetings
from tournaments.pairing.local_search import TabuSearch
from tournaments.pairing.types import PairingBug

#: One repeat costs more than any score spread a swap can add, so repeats go first.
REPEAT_COST = 1_000_000.0
#: How far ahead (in entrants) the greedy construction looks for someone new to the table.
LOOKAHEAD = 24
#: Draws up to this size are searched depth-first when the swaps leave a repeat (the search
#: is exhaustive within ten times the budget in steps, which decides nearly every such field).
EXACT_LIMIT = 64
#: The tabu search works on the tables with a repeat and this many tables either side of each
#: (all the tables of a field up to about 200 entrants at tables of 4).
SEARCH_REACH = 25
#: Swaps the tabu search may weigh per unit of the search budget (the default budget, 20 000,
#: gives 120 000: some 0.3 s at most).
TRIALS_PER_BUDGET = 6
#: When the exact search has decided (a draw without repeats found, or proof that none
#: exists), the tabu search only gets this fraction of its trials: to find closer scores
#: without repeats, or fewer repeats.
DECIDED_TRIALS_DIVISOR = 4


@dataclass
class Grouper:
    """The state of one draw: entrant points, who met whom, a search budget, the seed of the
    tabu search's generator (the draw's, so the same seed gives the same tables), and whether
    to search deeply (exact and tabu searches) when the repair leaves a repeat."""

    points: Mapping[int, float]
    met: Meetings
    budget: int
    seed: str = ""
    deep_search: bool = False

    def draw(self, order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
        """Tables of the given ``sizes`` for the entrants in ``order`` (best first).

        Greedy tables repaired by swaps. If a repeat is left and ``deep_search`` is on (the
        Swiss), a field of up to :data:`EXACT_LIMIT` is searched exactly for a repeat-free
        draw, and a seeded tabu search swaps around the tables with a repeat; the draw with
        the fewest repeats, then the smallest total score spread, wins. Otherwise (the round
        robin's planner, whose annealing was tuned on these starting draws) a bounded
        backtracking search in score order is all."""
        tables = self.greedy(order, sizes)
        self.repair(tables)
        if not self.repeats(tables):
            return tables
        if not self.deep_search:
            if len(order) <= EXACT_LIMIT:
                exact = self.exhaustive(order, sizes)
                if exact is not None:
                    tables = exact
                    self.polish(tables)
            return tables
        return self._search_repeat_free(order, sizes, tables)

    def _search_repeat_free(
        self, order: Sequence[int], sizes: Sequence[int], tables: list[list[int]]
    ) -> list[list[int]]:
        """The deep search: exact on fields of up to :data:`EXACT_LIMIT`, tabu around the
        repeats on any field; the better draw of the two."""
        trials = self.budget * TRIALS_PER_BUDGET
        exact: list[list[int]] | None = None
        if len(order) <= EXACT_LIMIT:
            search = RepeatFreeSearch(self.met, order, sizes, self.points, self.budget * 10)
            exact = search.run()
            if exact is not None:
                self._sort_by_score(exact)
                self.polish(exact, widen=True)
            if search.verdict is not None:
                trials //= DECIDED_TRIALS_DIVISOR
        # The tabu search starts from the score-ordered tables, so when it reaches no repeat
        # its tables usually keep scores closer than the exact search's.
        found = self.search(tables, trials)
        if exact is not None and self._key(exact) < self._key(found):
            return exact
        return found

    def _key(self, tables: Sequence[Sequence[int]]) -> tuple[int, float]:
        """How a draw ranks: repeats first, then the total score spread."""
        points = self.points
        spread = sum(max(points[e] for e in t) - min(points[e] for e in t) for t in tables)
        return self.repeats(tables), spread

    def search(self, tables: list[list[int]], trials: int) -> list[list[int]]:
        """The draw after a seeded tabu search of about ``trials`` swap trials around the
        tables with a repeat (kept only if it has fewer repeats), its score spread then
        narrowed by :meth:`polish`."""
        window = self._around_repeats(tables)
        if len(window) < 2 or not trials:
            return tables
        before = [tables[t] for t in window]
        rng = Rng(f"herald-pairing/tabu/{self.seed}")
        found = TabuSearch(before, self.points, self.met, rng).run(trials)
        if self.repeats(found) >= self.repeats(before):
            return tables
        self.polish(found)
        better = [list(table) for table in tables]
        for t, table in zip(window, found, strict=True):
            better[t] = table
        return better

    def _sort_by_score(self, tables: list[list[int]]) -> None:
        """Strongest tables first (highest score, then highest mean), so neighbours in the
        list are neighbours in the standings, as :meth:`polish` expects."""
        points = self.points
        tables.sort(key=lambda t: (-max(points[e] for e in t), -sum(points[e] for e in t) / len(t)))

    def _around_repeats(self, tables: Sequence[Sequence[int]]) -> list[int]:
        """Indexes of the tables with a repeat and of their neighbours within reach."""
        chosen: set[int] = set()
        for t, table in enumerate(tables):
            if self.met.table_repeats(table):
                chosen.update(
                    range(max(0, t - SEARCH_REACH), min(len(tables), t + SEARCH_REACH + 1))
                )
        return sorted(chosen)

    def polish(self, tables: list[list[int]], *, widen: bool = False) -> None:
        """Narrow the score spread by swaps between neighbouring tables that add no repeat
        (looking at every table when no neighbour helps, if ``widen``)."""
        improved = True
        rounds = 0
        while improved and rounds < len(tables):
            improved = False
            rounds += 1
            for t in range(len(tables)):
                for a in list(tables[t]):
                    swap, _ = self._best_swap(tables, t, a, widen=widen)
                    if swap is not None:
                        self._apply(tables, t, a, *swap)
                        improved = True

    def repeats(self, tables: Sequence[Sequence[int]]) -> int:
        """Total repeat count of a draw."""
        return sum(self.met.table_repeats(t) for t in tables)

    def greedy(self, order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
        """Fill tables top-down, skipping ahead past entrants who met someone already seated."""
        remaining = list(order)
        tables: list[list[int]] = []
        for size in sizes:
            table = [remaining.pop(0)]
            while len(table) < size:
                table.append(remaining.pop(self._first_newcomer(table, remaining)))
            tables.append(table)
        return tables

    def _first_newcomer(self, table: Sequence[int], remaining: Sequence[int]) -> int:
        """Index of the first entrant in reach who met nobody at ``table`` (else the first)."""
        counts = self.met.counts
        for index in range(min(LOOKAHEAD, len(remaining))):
            met = counts[remaining[index]]
            if not any(e in met for e in table):
                return index
        return 0

    def repair(self, tables: list[list[int]]) -> None:
        """Swap entrants between tables while a swap removes a repeat (nearest tables first)."""
        spent = 0
        progress = True
        while progress and spent < self.budget:
            progress = False
            for t, table in enumerate(tables):
                if not self.met.table_repeats(table):
                    continue
                for a in self._repeated_members(table):
                    swap, tried = self._best_swap(tables, t, a)
                    spent += tried
                    if swap is not None:
                        self._apply(tables, t, a, *swap)
                        progress = True
                        break

    def _repeated_members(self, table: Sequence[int]) -> list[int]:
        counts = self.met.counts
        return [a for a in table if any(b in counts[a] for b in table if b != a)]

    def _best_swap(
        self, tables: Sequence[Sequence[int]], t: int, a: int, *, widen: bool = True
    ) -> tuple[tuple[int, int] | None, int]:
        """The swap of ``a`` (at table ``t``) that lowers the cost most: widen the search
        from the neighbouring tables to all of them until one helps (unless ``widen`` is
        false)."""
        home = tables[t]
        points = self.points
        home_rest = [points[x] for x in home if x != a]
        home_spread = _spread([points[x] for x in home])
        tried = 0
        near, reach = 0, 2
        while True:
            best: tuple[int, int] | None = None
            best_delta = 0.0
            for u in _tables_within(t, near, reach, len(tables)):
                other = tables[u]
                other_points = [points[y] for y in other]
                other_spread = _spread(other_points)
                for k, b in enumerate(other):
                    tried += 1
                    spread_change = (
                        _spread([*home_rest, points[b]])
                        + _spread([*other_points[:k], *other_points[k + 1 :], points[a]])
                        - home_spread
                        - other_spread
                    )
                    delta = REPEAT_COST * self._repeat_change(home, a, other, b) + spread_change
                    if delta < best_delta - 1e-9:
                        best, best_delta = (u, b), delta
            if best is not None or reach >= len(tables) or not widen:
                return best, tried
            near, reach = reach, reach * 4

    def _repeat_change(self, home: Sequence[int], a: int, other: Sequence[int], b: int) -> int:
        """Change in repeats if ``a`` (at ``home``) and ``b`` (at ``other``) swap tables."""
        counts = self.met.counts
        met_a, met_b = counts[a], counts[b]
        change = 0
        for x in home:
            if x != a:
                change += met_b.get(x, 0) - met_a.get(x, 0)
        for y in other:
            if y != b:
                change += met_a.get(y, 0) - met_b.get(y, 0)
        return change

    @staticmethod
    def _apply(tables: list[list[int]], t: int, a: int, u: int, b: int) -> None:
        tables[t][tables[t].index(a)] = b
        tables[u][tables[u].index(b)] = a

    def exhaustive(self, order: Sequence[int], sizes: Sequence[int]) -> list[list[int]] | None:
        """A draw without any repeat, found by backtracking (entrants kept close to their score
        order), or ``None`` if none exists or the budget runs out first."""
        search = _Backtrack(self.met, list(order), sorted(sizes, reverse=True), self.budget * 10)
        return search.tables if search.place() else None


class _Backtrack:
    """Depth-first search for a repeat-free draw: the first unseated entrant leads the next
    table, of each remaining size in turn, joined by later entrants they never met."""

    def __init__(self, met: Meetings, order: list[int], sizes: list[int], budget: int) -> None:
        self.counts = met.counts
        self.pending: list[int | None] = list(order)
        self.sizes = sizes
        self.budget = budget
        self.tables: list[list[int]] = []

    def place(self) -> bool:
        first = next((i for i, e in enumerate(self.pending) if e is not None), None)
        if first is None:
            return True
        leader = self.pending[first]
        if leader is None:
            raise PairingBug("the search lost track of an entrant")
        for size in dict.fromkeys(self.sizes):
            self.sizes.remove(size)
            self.pending[first] = None
            if self.extend([leader], size, first + 1):
                return True
            self.pending[first] = leader
            self.sizes.append(size)
            self.sizes.sort(reverse=True)
        return False

    def extend(self, table: list[int], size: int, start: int) -> bool:
        self.budget -= 1
        if self.budget < 0:
            return False
        if len(table) == size:
            self.tables.append(list(table))
            if self.place():
                return True
            self.tables.pop()
            return False
        for index in range(start, len(self.pending)):
            candidate = self.pending[index]
            if candidate is None or any(e in self.counts[candidate] for e in table):
                continue
            self.pending[index] = None
            table.append(candidate)
            if self.extend(table, size, index + 1):
                return True
            table.pop()
            self.pending[index] = candidate
        return False


def _spread(scores: Sequence[float]) -> float:
    return max(scores) - min(scores)


def _tables_within(t: int, near: int, reach: int, count: int) -> list[int]:
    """Table indexes at distance ``near + 1`` to ``reach`` from ``t``, nearest first."""
    found: list[int] = []
    for distance in range(near + 1, reach + 1):
        for u in (t - distance, t + distance):
            if 0 <= u < count:
                found.append(u)
    return found


def chunk(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Consecutive slices of ``order`` of the given sizes, ignoring who met whom."""
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables
