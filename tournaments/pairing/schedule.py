"""Plan the rest of a round robin at tables of N so that entrants meet as many new opponents
as possible (the social golfer problem), and play its first round.

Drawing one round at a time greedily often corners the last rounds into repeats. Instead the
remaining rounds are planned together: each starts from the greedy draw, then simulated
annealing swaps two entrants of one planned round between tables, keeping a swap that does not
add meetings (and sometimes one that does, early on, to escape dead ends). The cost of a plan
is, over every pair, the number of times they would have met beyond the first.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence

from engine.core.rng import Rng
from tournaments.pairing.grouping import Grouper
from tournaments.pairing.history import Meetings

#: Planned rounds at most (later rounds are planned when their turn comes).
HORIZON = 8
#: Swaps tried per planned entrant-round.
#: Swaps weighed in all (a fixed amount of work, so the plan does not depend on the machine):
#: about half a second of annealing at most.
SWAPS_WEIGHED = 30_000
#: Tables of the round searched for the best swap partner, in a big field.
SWAP_TABLES = 8
#: Each planned round weighs 2**2 = 4 times the next.
_WEIGHT_BITS = 2
_START_TEMPERATURE = 1.5
_END_TEMPERATURE = 0.05


def plan_rounds(
    order: Sequence[int],
    sizes: Sequence[int],
    met: Meetings,
    *,
    rounds: int,
    rng: Rng,
    budget: int,
) -> list[list[list[int]]]:
    """``rounds`` rounds of tables of ``sizes`` for the entrants of ``order``, planned together
    against the meetings of ``met``; the first is the round to play now."""
    history = _copy_counts(met, order)
    counts = _copy_counts(met, order)
    plan: list[list[list[int]]] = []
    for _ in range(max(1, min(rounds, HORIZON))):
        draw_order = rng.shuffled(list(order))
        # A small budget: the annealing below does the real work on the planned rounds.
        small = max(1, budget // 20)
        grouper = Grouper(points=dict.fromkeys(order, 0.0), met=Meetings(counts), budget=small)
        tables = grouper.draw(draw_order, sizes)
        for table in tables:
            _meet(counts, table)
        plan.append(tables)
    if len(plan) > 1 and any(len(t) > 1 for t in plan[0]):
        annealer = _Annealer(plan, history, rng)
        annealer.run(SWAPS_WEIGHED)
    return plan


def _copy_counts(met: Meetings, order: Sequence[int]) -> defaultdict[int, dict[int, int]]:
    present = set(order)
    counts: defaultdict[int, dict[int, int]] = defaultdict(dict)
    for a in order:
        counts[a] = {b: n for b, n in met.counts[a].items() if b in present}
    return counts


def _meet(counts: defaultdict[int, dict[int, int]], table: Sequence[int]) -> None:
    for i, a in enumerate(table):
        for b in table[i + 1 :]:
            counts[a][b] = counts[a].get(b, 0) + 1
            counts[b][a] = counts[b].get(a, 0) + 1


_Pair = tuple[int, int]


def _pair(a: int, b: int) -> _Pair:
    return (a, b) if a < b else (b, a)


class _Annealer:
    """Simulated annealing over a plan of rounds.

    A meeting in planned round ``q`` that is not the pair's first costs ``4 ** (H - 1 - q)``
    (``H`` planned rounds): a repeat in the round about to be played weighs more than any
    number in later rounds, so the plan never trades this round's freshness for later ones.
    """

    def __init__(
        self, plan: list[list[list[int]]], history: Mapping[int, Mapping[int, int]], rng: Rng
    ) -> None:
        self.plan = plan
        self.history = history
        self.weighed = 0
        self.rng = rng
        self.weights = [1 << (_WEIGHT_BITS * (len(plan) - 1 - q)) for q in range(len(plan))]
        self.history_pairs = {
            _pair(a, b): n for a, met in history.items() for b, n in met.items() if n
        }
        self.rounds_met: defaultdict[_Pair, list[int]] = defaultdict(list)
        for q, tables in enumerate(plan):
            for table in tables:
                for i, a in enumerate(table):
                    for b in table[i + 1 :]:
                        self.rounds_met[_pair(a, b)].append(q)

    def pair_cost(self, pair: _Pair, rounds: Sequence[int]) -> int:
        """What the planned meetings of ``pair`` cost: every one but the first ever."""
        before = self.history_pairs.get(pair, 0)
        return sum(self.weights[q] for i, q in enumerate(sorted(rounds)) if before + i > 0)

    def cost(self) -> int:
        """The cost of the whole plan."""
        return sum(self.pair_cost(pair, rounds) for pair, rounds in self.rounds_met.items())

    def run(self, work: int) -> None:
        """Anneal until ``work`` swaps have been weighed or the plan holds no repeat; keep the
        best plan.

        Each step picks a table of a planned round; if someone there meets a table-mate again,
        the best swap of that entrant with anyone at another table of the round is tried
        (min-conflicts), and kept if it helps, or by the annealing odds if it does not."""
        current = self.cost()
        best, best_plan = current, [[list(t) for t in r] for r in self.plan]
        self.weighed = 0
        while self.weighed < work and best > 0:
            self.weighed += 1
            temperature = _START_TEMPERATURE * (_END_TEMPERATURE / _START_TEMPERATURE) ** (
                self.weighed / work
            )
            move = self._conflict_move()
            if move is None:
                continue
            q, home, i, other, j = move
            delta = self._delta(q, home, i, other, j)
            if delta <= 0 or self._uniform() < math.exp(-delta / (temperature * self.weights[q])):
                self._swap(q, home, i, other, j)
                current += delta
                if current < best:
                    best, best_plan = current, [[list(t) for t in r] for r in self.plan]
        self.plan[:] = best_plan

    def _uniform(self) -> float:
        return self.rng.next_word() / 2.0**64

    def _conflict_move(self) -> tuple[int, list[int], int, list[int], int] | None:
        q = self.rng.randbelow(len(self.plan))
        tables = self.plan[q]
        home = tables[self.rng.randbelow(len(tables))]
        conflicted = [i for i, a in enumerate(home) if self._repeats_at(a, home)]
        if not conflicted:
            return None
        i = conflicted[self.rng.randbelow(len(conflicted))]
        best: list[tuple[list[int], int]] = []
        best_delta = 0
        for other in self._some_tables(tables):
            if other is home:
                continue
            for j in range(len(other)):
                self.weighed += 1
                delta = self._delta(q, home, i, other, j)
                if not best or delta < best_delta:
                    best, best_delta = [(other, j)], delta
                elif delta == best_delta:
                    best.append((other, j))
        if not best:
            return None
        other, j = best[self.rng.randbelow(len(best))]
        return q, home, i, other, j

    def _repeats_at(self, a: int, table: Sequence[int]) -> bool:
        """Whether ``a`` meets someone at ``table`` more than once, history included."""
        met = self.history.get(a, {})
        return any(x != a and met.get(x, 0) + len(self.rounds_met[_pair(a, x)]) > 1 for x in table)

    def _some_tables(self, tables: list[list[int]]) -> list[list[int]]:
        """All the tables of a round, or a random handful of them in a big field."""
        if len(tables) <= SWAP_TABLES:
            return tables
        return [tables[self.rng.randbelow(len(tables))] for _ in range(SWAP_TABLES)]

    def _delta(self, q: int, home: list[int], i: int, other: list[int], j: int) -> int:
        """Change of cost if ``home[i]`` and ``other[j]`` swap tables in planned round ``q``."""
        a, b = home[i], other[j]
        delta = 0
        for x in home:
            if x != a:
                delta += self._change(_pair(a, x), q, -1) + self._change(_pair(b, x), q, +1)
        for y in other:
            if y != b:
                delta += self._change(_pair(b, y), q, -1) + self._change(_pair(a, y), q, +1)
        return delta

    def _change(self, pair: _Pair, q: int, step: int) -> int:
        """Change of ``pair``'s cost if it meets (``step`` +1) or no longer meets (-1) in
        planned round ``q``. Only the first meeting ever is free, and weights fall with the
        round, so the later of two meetings is the one that costs."""
        rounds = self.rounds_met.get(pair, [])
        weights = self.weights
        met_before = self.history_pairs.get(pair, 0)
        if step > 0:
            if met_before:
                return weights[q]
            return weights[max(q, min(rounds))] if rounds else 0
        if met_before:
            return -weights[q]
        if len(rounds) == 1:
            return 0
        first = min(rounds)
        if q != first:
            return -weights[q]
        return -weights[min(r for r in rounds if r != q)]

    def _swap(self, q: int, home: list[int], i: int, other: list[int], j: int) -> None:
        a, b = home[i], other[j]
        for x in home:
            if x != a:
                self.rounds_met[_pair(a, x)].remove(q)
                self.rounds_met[_pair(b, x)].append(q)
        for y in other:
            if y != b:
                self.rounds_met[_pair(b, y)].remove(q)
                self.rounds_met[_pair(a, y)].append(q)
        home[i], other[j] = b, a
