"""Round robin: the circle method for two players, most distinct opponents for tables of N."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from tournaments.pairing.draw import DrawInputs, choose_byes, finish
from tournaments.pairing.grouping import Grouper
from tournaments.pairing.schedule import plan_rounds
from tournaments.pairing.sizes import table_sizes
from tournaments.pairing.swiss import pair_by_matching
from tournaments.pairing.types import Entrant, Pairing, PairingBug


def round_robin(state: DrawInputs, round_number: int, options: Mapping[str, object]) -> Pairing:
    """One round of a round robin.

    Two-player tables follow the circle method over the entrants in seed order (then id), so
    over ``n - 1`` rounds (``n`` if odd, one bye each) everyone meets everyone once. If drops or
    late entries make that round repeat a pairing, the round is matched afresh instead. Larger
    tables are drawn to meet as many new opponents as possible, ignoring points: the rounds
    left (option ``rounds``, the whole event; 0 means as many as could be free of repeats) are
    planned together and this round is the plan's first.
    """
    balance = bool(options["balance_seats"])
    if state.rule.allowed == (2,) or (state.rule.preferred == 2 and len(state.entrants) % 2 == 0):
        circle = circle_round(_seed_order(state.entrants), round_number)
        if circle is not None and not any(state.met.times(a, b) for a, b in circle[0]):
            return finish(state, [list(p) for p in circle[0]], circle[1], balance=balance)
    byes, seated = choose_byes(state)
    order = sorted((e.id for e in seated), key=lambda i: state.tiebreak[i])
    sizes = table_sizes(len(order), state.rule)
    if sizes is None:
        raise PairingBug(f"{len(order)} entrants left after byes cannot be split into tables")
    if sizes and all(size == 2 for size in sizes):
        flat = replace(state, entrants=[_flat(e) for e in state.entrants])
        tables = pair_by_matching(flat, order, avoid_repeats=True)
    else:
        tables = _plan_tables(state, order, sizes, round_number, options)
    return finish(state, tables, byes, balance=balance)


def _plan_tables(
    state: DrawInputs,
    order: Sequence[int],
    sizes: Sequence[int],
    round_number: int,
    options: Mapping[str, object],
) -> list[list[int]]:
    """This round's tables from a plan of all the rounds left (see :mod:`.schedule`), unless
    the plain one-round draw repeats less now."""
    budget = int(str(options["search_budget"]))
    total = int(str(options["rounds"])) or max(1, (len(order) - 1) // (state.rule.preferred - 1))
    plan = plan_rounds(
        order, sizes, state.met, rounds=total - round_number + 1, rng=state.rng, budget=budget
    )
    grouper = Grouper(points=dict.fromkeys(order, 0.0), met=state.met, budget=budget)
    single = grouper.draw(order, sizes)
    return single if grouper.repeats(single) < grouper.repeats(plan[0]) else plan[0]


def circle_round(
    players: Sequence[int], round_number: int
) -> tuple[list[tuple[int, int]], list[int]] | None:
    """Round ``round_number`` (1-based) of the circle method: the first player stays, the
    others rotate one place a round; with an odd count the player facing the gap has a bye.
    ``None`` once every pairing has been played."""
    ring: list[int | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    count = len(ring)
    if count < 2 or round_number > count - 1:
        return None
    shift = (round_number - 1) % (count - 1)
    rest = ring[1:]
    rotated = [ring[0], *rest[-shift:], *rest[:-shift]] if shift else ring
    pairs: list[tuple[int, int]] = []
    byes: list[int] = []
    for i in range(count // 2):
        a, b = rotated[i], rotated[count - 1 - i]
        if a is None or b is None:
            byes.extend(x for x in (a, b) if x is not None)
        else:
            pairs.append((a, b))
    return pairs, byes


def _seed_order(entrants: Sequence[Entrant]) -> list[int]:
    """Seeded entrants first (lower seed stronger), then unseeded, each by id."""
    return [e.id for e in sorted(entrants, key=lambda e: (e.seed == 0, e.seed, e.id))]


def _flat(entrant: Entrant) -> Entrant:
    return Entrant(id=entrant.id, points=0.0, seed=entrant.seed, byes=entrant.byes)
