"""What every format shares: checking the entrants, choosing byes, seating, quality figures."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.core.rng import Rng
from tournaments.pairing.checks import check_tables
from tournaments.pairing.history import Meetings, meetings, seat_counts
from tournaments.pairing.seats import balance_seats, mean_seat_imbalance, seat_imbalance
from tournaments.pairing.sizes import byes_needed
from tournaments.pairing.types import Entrant, History, Pairing, PairingError, TableRule


@dataclass
class DrawInputs:
    """The inputs of one draw, read once: entrants by id, meetings, seat counts, a seeded RNG."""

    entrants: Sequence[Entrant]
    history: History
    rule: TableRule
    rng: Rng
    met: Meetings
    seats: dict[int, list[int]]
    tiebreak: dict[int, int]

    @property
    def points(self) -> dict[int, float]:
        """Points of every entrant."""
        return {e.id: e.points for e in self.entrants}


def read_round(
    entrants: Sequence[Entrant], history: History, rule: TableRule, *, round_number: int, seed: str
) -> DrawInputs:
    """Check the entrants and prepare what a draw needs."""
    ids = [e.id for e in entrants]
    doubled = sorted(i for i, n in Counter(ids).items() if n > 1)
    if doubled:
        raise PairingError(
            f"Entrant(s) {', '.join(map(str, doubled))} appear more than once among the active players."
        )
    if round_number < 1:
        raise PairingError(f"Rounds are numbered from 1, not {round_number}.")
    rng = Rng(f"herald-pairing/{seed}/round-{round_number}")
    # One random draw per entrant, in id order, so the order of the input list does not matter.
    tiebreak = {i: rng.next_word() for i in sorted(ids)}
    return DrawInputs(
        entrants=entrants,
        history=history,
        rule=rule,
        rng=rng,
        met=meetings(history),
        seats=seat_counts(entrants, history),
        tiebreak=tiebreak,
    )


def choose_byes(state: DrawInputs) -> tuple[list[int], list[Entrant]]:
    """The fewest byes so the rest split into allowed tables, given to those with the fewest
    byes so far, then the lowest points, then the weakest seeding (the unseeded first, then
    the highest seed number), then by the round's seeded tie-break. Returns (byes, seated)."""
    count = byes_needed(len(state.entrants), state.rule)
    ranked = sorted(
        state.entrants,
        key=lambda e: (e.byes, e.points, e.seed != 0, -e.seed, state.tiebreak[e.id]),
    )
    byes = [e.id for e in ranked[:count]]
    given = set(byes)
    return byes, [e for e in state.entrants if e.id not in given]


def score_order(state: DrawInputs, seated: Sequence[Entrant]) -> list[int]:
    """Entrant ids best first: by points, ties in the round's seeded order."""
    return [e.id for e in sorted(seated, key=lambda e: (-e.points, state.tiebreak[e.id]))]


def seat_tables(
    state: DrawInputs, tables: Sequence[Sequence[int]], *, balance: bool
) -> list[tuple[int, ...]]:
    """Each table in seat order: shuffled with the round's seed, then (if asked) seats balanced
    with the Hungarian method on each entrant's seat history."""
    seated: list[tuple[int, ...]] = []
    for table in tables:
        shuffled = state.rng.shuffled(list(table))
        seated.append(balance_seats(shuffled, state.seats) if balance else tuple(shuffled))
    return seated


def finish(
    state: DrawInputs, tables: Sequence[Sequence[int]], byes: Sequence[int], *, balance: bool
) -> Pairing:
    """Order tables strongest first, seat them, measure the draw and name what it breaks."""
    points = state.points
    ordered = sorted(
        tables, key=lambda t: (-max(points[e] for e in t), -sum(points[e] for e in t) / len(t))
    )
    seated = seat_tables(state, ordered, balance=balance)
    warnings = check_tables(seated, byes, state.entrants, state.history, state.rule)
    return Pairing(
        tables=tuple(seated),
        byes=tuple(sorted(byes)),
        quality=quality(state, seated, byes),
        warnings=tuple(warnings),
    )


def quality(
    state: DrawInputs, tables: Sequence[Sequence[int]], byes: Sequence[int]
) -> Mapping[str, float]:
    """Repeat pairs, score spread per table (max and mean), seat balance (worst and mean gap
    between an entrant's most- and least-used seat), floaters, counts."""
    points = state.points
    spreads = [max(points[e] for e in t) - min(points[e] for e in t) for t in tables]
    repeat_pairs = sum(
        1 for t in tables for i, a in enumerate(t) for b in t[i + 1 :] if state.met.times(a, b)
    )
    return {
        "repeat_pairs": float(repeat_pairs),
        "max_score_spread": float(max(spreads, default=0.0)),
        "mean_score_spread": float(sum(spreads) / len(spreads)) if spreads else 0.0,
        "seat_imbalance": float(seat_imbalance(tables, state.seats)),
        "mean_seat_imbalance": mean_seat_imbalance(tables, state.seats),
        "floaters": float(floaters(tables, points)),
        "tables": float(len(tables)),
        "byes": float(len(byes)),
    }


def measure_tables(
    tables: Sequence[Sequence[int]],
    byes: Sequence[int],
    entrants: Sequence[Entrant],
    history: History,
    rule: TableRule,
) -> Mapping[str, float]:
    """The quality figures of tables as they stand (a draft edited by hand), the same as a
    draw's; a seat of someone who is not an active entrant is left out of the figures.

    >>> rule = TableRule(preferred=2, allowed=(2,))
    >>> people = [Entrant(1), Entrant(2), Entrant(3), Entrant(4)]
    >>> measure_tables([(1, 2), (3, 4)], [], people, History(((1, 2),), (1,)), rule)["repeat_pairs"]
    1.0
    """
    known = {e.id for e in entrants}
    seated = [tuple(e for e in t if e in known) for t in tables]
    state = read_round(entrants, history, rule, round_number=1, seed="measure")
    return quality(state, [t for t in seated if t], [b for b in byes if b in known])


def floaters(tables: Sequence[Sequence[int]], points: Mapping[int, float]) -> int:
    """Entrants seated with a score other than their table's most common score."""
    total = 0
    for table in tables:
        common = Counter(points[e] for e in table)
        top = max(common.items(), key=lambda item: (item[1], item[0]))[0]
        total += sum(1 for e in table if points[e] != top)
    return total
