"""Split an ordered list of entrants into tables: few repeats first, then close scores.

The entrants arrive best first (score groups top-down, ties in a seeded order). Tables are
built greedily by skipping ahead past entrants who already met someone at the table, then
improved by swapping entrants between tables. When repeats remain, fields of up to
:data:`EXACT_LIMIT` are searched exactly for a draw without repeats (:mod:`.exact`), and a
seeded tabu search (:mod:`.local_search`) keeps swapping around the tables with a repeat; the
better of the two draws wins (fewer repeats, then closer scores).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.core.rng import Rng
from tournaments.pairing.exact import RepeatFreeSearch
from tournaments.pairing.history import Meetings
from tournaments.pairing.local_search import TabuSearch

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
#: Swap trials of the tabu search per unit of the search budget: each step tries a swap with
#: every entrant of the searched tables, so the default budget (20 000) gives about 4 000 steps
#: on 30 entrants and 600 on 200 (some 0.3 to 0.4 s either way).
TRIALS_PER_BUDGET = 6
#: When the exact search has decided (a draw without repeats found, or proof that none
#: exists), the tabu search only gets this fraction of its trials: to find closer scores
#: without repeats, or fewer repeats.
DECIDED_TRIALS_DIVISOR = 4


@dataclass
class Grouper:
    """The state of one draw: entrant points, who met whom, a search budget, and the seed of
    the tabu search's generator (the draw's, so the same seed gives the same tables)."""

    points: Mapping[int, float]
    met: Meetings
    budget: int
    seed: str = ""

    def draw(self, order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
        """Tables of the given ``sizes`` for the entrants in ``order`` (best first).

        Greedy tables repaired by swaps. If a repeat is left, a field of up to
        :data:`EXACT_LIMIT` is searched exactly for a repeat-free draw, and a seeded tabu
        search swaps around the tables with a repeat; the draw with the fewest repeats, then
        the smallest total score spread, wins."""
        tables = self.greedy(order, sizes)
        self.repair(tables)
        if not self.repeats(tables):
            return tables
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
        before = [tables[t] for t in window]
        steps = trials // max(1, sum(len(table) for table in before))
        if not window or not steps:
            return tables
        rng = Rng(f"herald-pairing/tabu/{self.seed}")
        found = TabuSearch(before, self.points, self.met, rng).run(steps)
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
