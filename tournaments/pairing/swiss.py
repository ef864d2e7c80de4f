"""Swiss draws: score groups top-down, no repeat while avoidable, balanced seats."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx

from tournaments.pairing.draw import Round, choose_byes, finish, score_order
from tournaments.pairing.grouping import Grouper, chunk
from tournaments.pairing.sizes import table_sizes
from tournaments.pairing.types import Pairing, PairingBug

#: Matching weights are integers: a repeat costs more than any score difference.
_REPEAT_WEIGHT = 10**9
_POINTS_SCALE = 1_000


def swiss(state: Round, options: Mapping[str, object]) -> Pairing:
    """One Swiss round; tables of two are paired by weighted matching, larger ones grouped."""
    byes, seated = choose_byes(state)
    order = score_order(state, seated)
    sizes = table_sizes(len(order), state.rule)
    if sizes is None:
        raise PairingBug(f"{len(order)} entrants left after byes cannot be split into tables")
    budget = int(str(options["search_budget"]))
    if not options["avoid_repeats"]:
        budget = 0
    if sizes and all(size == 2 for size in sizes):
        tables = pair_by_matching(state, order, avoid_repeats=bool(options["avoid_repeats"]))
    else:
        grouper = Grouper(points=state.points, met=state.met, budget=budget)
        tables = grouper.draw(order, sizes) if budget else chunk(order, sizes)
    return finish(state, tables, byes, balance=bool(options["balance_seats"]))


def pair_by_matching(state: Round, order: Sequence[int], *, avoid_repeats: bool) -> list[list[int]]:
    """Pairs by maximum-weight perfect matching over a window of the score order.

    Each entrant is linked to the next ``window`` entrants in score order; the weight favours
    equal points and penalises a repeat heavily. The window doubles until the matching is
    perfect and free of repeats (or covers everyone), so the graph stays small in big fields.
    """
    window = min(len(order) - 1, 8)
    while True:
        pairs = _match_window(state, order, window, avoid_repeats=avoid_repeats)
        complete = 2 * len(pairs) == len(order)
        repeats = avoid_repeats and any(state.met.times(a, b) for a, b in pairs)
        if (complete and not repeats) or window >= len(order) - 1:
            if not complete:
                raise PairingBug("a complete graph always has a perfect matching on an even count")
            return [list(pair) for pair in pairs]
        window = min(len(order) - 1, window * 2)


def _match_window(
    state: Round, order: Sequence[int], window: int, *, avoid_repeats: bool
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
