"""Swiss draws: score groups top-down, no repeat while avoidable, balanced seats."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx

from tournaments.pairing.draw import DrawInputs, choose_byes, finish, score_order
from tournaments.pairing.grouping import Grouper, chunk
from tournaments.pairing.sizes import table_sizes
from tournaments.pairing.types import Entrant, Pairing, PairingBug

#: Matching weights are integers: a repeat costs more than any score difference.
_REPEAT_WEIGHT = 10**9
_POINTS_SCALE = 1_000
#: Entrants per block of the two-player matching (even).
MATCHING_BLOCK = 100


def swiss(state: DrawInputs, options: Mapping[str, object]) -> Pairing:
    """One Swiss round. A seeded first round deals the seeds over the tables by snake seeding;
    otherwise tables of two are paired by weighted matching, larger ones grouped."""
    byes, seated = choose_byes(state)
    order = score_order(state, seated)
    sizes = table_sizes(len(order), state.rule)
    if sizes is None:
        raise PairingBug(f"{len(order)} entrants left after byes cannot be split into tables")
    budget = int(str(options["search_budget"]))
    if not options["avoid_repeats"]:
        budget = 0
    if _seeded_start(state, seated):
        tables = snake_deal(seed_order(state, seated), sizes)
    elif sizes and all(size == 2 for size in sizes):
        tables = pair_by_matching(state, order, avoid_repeats=bool(options["avoid_repeats"]))
    else:
        grouper = Grouper(
            points=state.points,
            met=state.met,
            budget=budget,
            seed=state.rng.seed,
            deep_search=True,
        )
        tables = grouper.draw(order, sizes) if budget else chunk(order, sizes)
    return finish(state, tables, byes, balance=bool(options["balance_seats"]))


def _seeded_start(state: DrawInputs, seated: Sequence[Entrant]) -> bool:
    """True when nothing but the seeding tells the entrants apart: equal points, some seeds,
    and nobody has met anyone yet (the first round)."""
    ids = {e.id for e in seated}
    return (
        len({e.points for e in seated}) <= 1
        and any(e.seed for e in seated)
        and not any(b in ids for a in ids for b in state.met.counts.get(a, {}))
    )


def seed_order(state: DrawInputs, seated: Sequence[Entrant]) -> list[int]:
    """Seeded entrants by seed (1 first), then the unseeded in the round's seeded order."""
    return [e.id for e in sorted(seated, key=lambda e: (e.seed == 0, e.seed, state.tiebreak[e.id]))]


def snake_deal(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Deal ``order`` over tables of ``sizes`` by snake seeding (1, 2, 3, then back), so the
    top seeds start at different tables.

    >>> snake_deal([1, 2, 3, 4, 5, 6, 7, 8], [4, 4])
    [[1, 4, 5, 8], [2, 3, 6, 7]]
    """
    tables: list[list[int]] = [[] for _ in sizes]
    columns = list(range(len(sizes)))
    dealt = 0
    while dealt < len(order):
        for t in columns:
            if len(tables[t]) < sizes[t] and dealt < len(order):
                tables[t].append(order[dealt])
                dealt += 1
        columns.reverse()
    return tables


def pair_by_matching(
    state: DrawInputs, order: Sequence[int], *, avoid_repeats: bool
) -> list[list[int]]:
    """Pairs by maximum-weight perfect matching, block by block down the score order.

    Big fields are matched in consecutive blocks of about ``MATCHING_BLOCK`` entrants (the
    blossom algorithm is cubic, and pairs far apart in the order are never wanted); a block
    that could only be matched with a repeat is merged with the next one and matched again.
    """
    pairs: list[list[int]] = []
    start = 0
    while start < len(order):
        end = _block_end(start, len(order))
        block = _match_growing(state, order[start:end], avoid_repeats=avoid_repeats)
        while end < len(order) and avoid_repeats and _has_repeat(state, block):
            end = _block_end(end, len(order))
            block = _match_growing(state, order[start:end], avoid_repeats=avoid_repeats)
        pairs.extend(block)
        start = end
    return pairs


def _block_end(start: int, count: int) -> int:
    """Where the block starting at ``start`` ends: a whole block, or the rest if it is small."""
    end = start + MATCHING_BLOCK
    return count if count - end < MATCHING_BLOCK // 2 else end


def _has_repeat(state: DrawInputs, pairs: Sequence[Sequence[int]]) -> bool:
    return any(state.met.times(a, b) for a, b in pairs)


def _match_growing(
    state: DrawInputs, order: Sequence[int], *, avoid_repeats: bool
) -> list[list[int]]:
    """A perfect matching of ``order``: each entrant is linked to the next ``window`` entrants
    in score order, the weight favouring equal points and penalising a repeat heavily; the
    window doubles until the matching is perfect and free of repeats, or covers everyone."""
    window = min(len(order) - 1, 8)
    while True:
        pairs = _match_window(state, order, window, avoid_repeats=avoid_repeats)
        complete = 2 * len(pairs) == len(order)
        repeats = avoid_repeats and _has_repeat(state, pairs)
        if (complete and not repeats) or window >= len(order) - 1:
            if not complete:
                raise PairingBug("a complete graph always has a perfect matching on an even count")
            return [list(pair) for pair in pairs]
        window = min(len(order) - 1, window * 2)


def _match_window(
    state: DrawInputs, order: Sequence[int], window: int, *, avoid_repeats: bool
) -> list[tuple[int, int]]:
    points = state.points
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(order)
    for i, a in enumerate(order):
        for j in range(i + 1, min(len(order), i + window + 1)):
            b = order[j]
            cost = round((points[a] - points[b]) ** 2 * _POINTS_SCALE) * window + (j - i)
            if avoid_repeats:
                cost += _REPEAT_WEIGHT * state.met.times(a, b)
            graph.add_edge(a, b, weight=4 * _REPEAT_WEIGHT - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(a, b), max(a, b)) for a, b in matching)
