"""A reference search for repeat-free draws, written apart from the engine so tests can judge it.

Two searches with nothing shared with :mod:`tournaments.pairing`: a depth-first search over
sets (the most constrained entrant leads each table, a branch dies as soon as someone cannot
fill the smallest table), which decides most fields of up to a few dozen within its step
limit; and when it cannot decide, a randomized min-conflicts search with restarts (seeded by
the engine's generator), which only ever proves that a repeat-free draw exists.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.rng import Rng
from tournaments.pairing.history import Meetings


class _Undecided(Exception):
    pass


def decide_repeat_free(
    players: Sequence[int], sizes: Sequence[int], met: Meetings, *, limit: int = 300_000
) -> bool | None:
    """Whether ``players`` split into tables of ``sizes`` with nobody meeting again: True or
    False when the depth-first search decides within ``limit`` steps, else None."""
    fresh = {a: {b for b in players if b != a and not met.times(a, b)} for a in players}
    smallest = min(sizes, default=1)
    steps = [0]

    def solve(pending: frozenset[int], left: list[int]) -> bool:
        if not pending:
            return True
        steps[0] += 1
        if steps[0] > limit:
            raise _Undecided
        options = {p: len(fresh[p] & pending) for p in pending}
        if min(options.values()) < smallest - 1:
            return False
        leader = min(pending, key=lambda p: (options[p], p))
        rest = pending - {leader}
        for size in sorted(set(left)):
            others = list(left)
            others.remove(size)
            if grow([leader], sorted(fresh[leader] & rest), size, rest, others):
                return True
        return False

    def grow(
        table: list[int], candidates: list[int], size: int, pending: frozenset[int], left: list[int]
    ) -> bool:
        if len(table) == size:
            return solve(pending, left)
        for index, c in enumerate(candidates):
            narrowed = [d for d in candidates[index + 1 :] if d in fresh[c]]
            if len(narrowed) < size - len(table) - 1:
                continue
            if grow([*table, c], narrowed, size, pending - {c}, left):
                return True
        return False

    try:
        return solve(frozenset(players), list(sizes))
    except _Undecided:
        return None


def find_repeat_free(
    players: Sequence[int],
    sizes: Sequence[int],
    met: Meetings,
    *,
    seed: str,
    restarts: int = 10,
    steps: int = 2_000,
) -> list[list[int]] | None:
    """A repeat-free draw found by min-conflicts with random restarts, or None."""
    rng = Rng(f"reference/{seed}")
    for _ in range(restarts):
        shuffled = rng.shuffled(list(players))
        tables: list[list[int]] = []
        for size in sizes:
            tables.append(shuffled[:size])
            shuffled = shuffled[size:]
        if _min_conflicts(tables, met, rng, steps):
            return tables
    return None


def _min_conflicts(tables: list[list[int]], met: Meetings, rng: Rng, steps: int) -> bool:
    where = {e: t for t, table in enumerate(tables) for e in table}

    def clashes(e: int, table: Sequence[int], skip: int) -> int:
        return sum(met.times(e, x) for x in table if x not in (e, skip))

    for _ in range(steps):
        bad = sorted(e for e, t in where.items() if clashes(e, tables[t], e))
        if not bad:
            return True
        a = rng.choice(bad)
        home = tables[where[a]]
        scored = []
        for b, t in where.items():
            if t == where[a]:
                continue
            change = (
                clashes(b, home, a)
                - clashes(a, home, a)
                + clashes(a, tables[t], b)
                - clashes(b, tables[t], b)
            )
            scored.append((change, b))
        best = min(change for change, _ in scored)
        if best > 0 and rng.randbelow(5):
            continue  # mostly wait for a better conflicted entrant; sometimes climb uphill
        b = rng.choice(sorted(b for change, b in scored if change == best))
        ta, tb = where[a], where[b]
        tables[ta][tables[ta].index(a)] = b
        tables[tb][tables[tb].index(b)] = a
        where[a], where[b] = tb, ta
    return False


def avoidable(players: Sequence[int], sizes: Sequence[int], met: Meetings, *, seed: str) -> bool:
    """True when the reference proves or finds a repeat-free draw of ``players`` at tables of
    ``sizes``; False when it proves there is none or finds none."""
    verdict = decide_repeat_free(players, sizes, met)
    if verdict is not None:
        return verdict
    return find_repeat_free(players, sizes, met, seed=seed) is not None
