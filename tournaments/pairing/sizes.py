"""How a number of players splits into tables of the allowed sizes."""

from __future__ import annotations

from functools import lru_cache

from tournaments.pairing.types import TableRule


def table_sizes(n: int, rule: TableRule) -> tuple[int, ...] | None:
    """The table sizes for ``n`` players, or ``None`` when no split into allowed sizes exists.

    The split has the fewest tables off the preferred size, then the smallest total distance
    from it, then the most preferred tables. Preferred tables come first, then the others from
    the largest down.

    >>> table_sizes(10, TableRule(preferred=4, allowed=(3, 4, 5)))
    (4, 3, 3)
    >>> table_sizes(9, TableRule(preferred=4, allowed=(3, 4, 5)))
    (4, 5)
    >>> table_sizes(2, TableRule(preferred=4, allowed=(3, 4, 5))) is None
    True
    """
    if n < 0:
        raise ValueError(f"a number of players cannot be negative ({n})")
    if n == 0:
        return ()
    plan = _best_split(n, rule.preferred, tuple(sorted(set(rule.allowed))))
    if plan is None:
        return None
    preferred = [size for size in plan if size == rule.preferred]
    others = sorted((size for size in plan if size != rule.preferred), reverse=True)
    return tuple(preferred + others)


def byes_needed(n: int, rule: TableRule) -> int:
    """The fewest players to leave out so that the rest split into allowed tables."""
    for byes in range(n + 1):
        if table_sizes(n - byes, rule) is not None:
            return byes
    return n


_Cost = tuple[int, int, int]


@lru_cache(maxsize=256)
def _best_split(n: int, preferred: int, allowed: tuple[int, ...]) -> tuple[int, ...] | None:
    """Dynamic programme over player counts: the cheapest multiset of sizes summing to ``n``."""
    best: list[tuple[_Cost, tuple[int, ...]] | None] = [None] * (n + 1)
    best[0] = ((0, 0, 0), ())
    for total in range(1, n + 1):
        for size in allowed:
            previous = best[total - size] if size <= total else None
            if previous is None:
                continue
            cost, plan = previous
            off = size != preferred
            candidate = (cost[0] + off, cost[1] + abs(size - preferred), cost[2] - (not off))
            current = best[total]
            if current is None or candidate < current[0]:
                best[total] = (candidate, (*plan, size))
    found = best[n]
    return None if found is None else found[1]
