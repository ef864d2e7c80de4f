"""Pairing benchmark: how long round 6 of a big Swiss takes to draw, and how good the draw is.

Builds Swiss tournaments through five simulated rounds (seeded random finishing orders,
points 4/2/1/0 by rank at tables of 4, 1/0 for two players), then times the sixth draw several
times and prints min/median and the quality figures. The aim: a 1,000-player Swiss at tables
of 4 pairs round 6 in under a second with no avoidable repeat.

    .venv/bin/python bench/pairing.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core.rng import Rng
from tournaments.pairing import Entrant, History, Pairing, TableRule, pair_round

POINTS = {4: (4.0, 2.0, 1.0, 0.0), 3: (4.0, 2.0, 0.0), 5: (4.0, 2.0, 1.0, 0.0, 0.0), 2: (1.0, 0.0)}
BYE_POINTS = {4: 2.0, 2: 1.0}


def simulate(
    players: int, rule: TableRule, rounds: int, seed: str
) -> tuple[list[Entrant], History]:
    """Entrants and history after ``rounds`` Swiss rounds with seeded random results."""
    rng = Rng(f"bench/{seed}")
    points = dict.fromkeys(range(1, players + 1), 0.0)
    byes = dict.fromkeys(points, 0)
    seats: dict[int, list[int]] = {i: [0] * rule.largest for i in points}
    tables: list[tuple[int, ...]] = []
    numbers: list[int] = []
    for number in range(1, rounds + 1):
        entrants = _entrants(points, byes, seats)
        draw = pair_round(
            "swiss",
            entrants,
            History(tuple(tables), tuple(numbers)),
            rule,
            round_number=number,
            seed=seed,
        )
        for table in draw.tables:
            finish = rng.shuffled(list(table))
            for rank, entrant in enumerate(finish):
                points[entrant] += POINTS[len(table)][rank]
            for seat, entrant in enumerate(table):
                seats[entrant][seat] += 1
            tables.append(table)
            numbers.append(number)
        for entrant in draw.byes:
            byes[entrant] += 1
            points[entrant] += BYE_POINTS[rule.preferred]
    return _entrants(points, byes, seats), History(tuple(tables), tuple(numbers))


def _entrants(
    points: dict[int, float], byes: dict[int, int], seats: dict[int, list[int]]
) -> list[Entrant]:
    return [
        Entrant(id=i, points=points[i], byes=byes[i], seat_counts=tuple(seats[i])) for i in points
    ]


def bench(players: int, rule: TableRule, repetitions: int) -> None:
    """Print timing and quality of round 6 for one field."""
    entrants, history = simulate(players, rule, 5, seed=f"{players}-{rule.preferred}")
    timings: list[float] = []
    draw: Pairing | None = None
    for _ in range(repetitions):
        start = time.perf_counter()
        draw = pair_round("swiss", entrants, history, rule, round_number=6, seed="round-6")
        timings.append(time.perf_counter() - start)
    assert draw is not None
    q = draw.quality
    print(
        f"{players:5d} players, tables of {rule.preferred} (allowed {rule.allowed}): "
        f"round 6 min {min(timings) * 1000:7.1f} ms, median {statistics.median(timings) * 1000:7.1f} ms | "
        f"repeats {q['repeat_pairs']:.0f}, max spread {q['max_score_spread']:.1f}, "
        f"mean spread {q['mean_score_spread']:.2f}, seat imbalance {q['seat_imbalance']:.0f} (mean {q['mean_seat_imbalance']:.2f}), "
        f"floaters {q['floaters']:.0f}, tables {q['tables']:.0f}, byes {q['byes']:.0f}"
    )


def bench_round_robin(players: int, rule: TableRule, rounds: int) -> None:
    """Print the repeats per round and the slowest draw of a round robin at tables of N."""
    tables: list[tuple[int, ...]] = []
    repeats: list[int] = []
    slowest = 0.0
    entrants = [Entrant(id=i) for i in range(1, players + 1)]
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        draw = pair_round(
            "round_robin", entrants, History(tuple(tables)), rule, round_number=number, seed="bench"
        )
        slowest = max(slowest, time.perf_counter() - start)
        repeats.append(int(draw.quality["repeat_pairs"]))
        tables.extend(draw.tables)
    print(
        f"{players:5d} players, round robin at tables of {rule.preferred}, {rounds} rounds: "
        f"repeat pairs per round {repeats}, slowest draw {slowest * 1000:.0f} ms"
    )


def bench_mid_size(fields: int) -> None:
    """Print how long Swiss draws take in mid-size fields, where the repeat searches run most:
    13 to 40 players, 3 to 6 rounds, tables of 3 to 5 (seeded, random finishing orders)."""
    rules = [
        TableRule(preferred=3, allowed=(3, 4)),
        TableRule(preferred=4, allowed=(3, 4, 5)),
        TableRule(preferred=4, allowed=(4,)),
        TableRule(preferred=5, allowed=(4, 5, 6)),
        TableRule(preferred=5, allowed=(5,)),
    ]
    timings: list[float] = []
    with_repeat = 0
    for k in range(fields):
        rng = Rng(f"bench/mid/{k}")
        players, rounds = 13 + rng.randbelow(28), 3 + rng.randbelow(4)
        rule = rules[rng.randbelow(len(rules))]
        points = dict.fromkeys(range(1, players + 1), 0.0)
        byes = dict.fromkeys(points, 0)
        tables: list[tuple[int, ...]] = []
        for number in range(1, rounds + 1):
            entrants = [Entrant(id=i, points=points[i], byes=byes[i]) for i in points]
            start = time.perf_counter()
            draw = pair_round(
                "swiss", entrants, History(tuple(tables)), rule, round_number=number, seed=f"m{k}"
            )
            timings.append(time.perf_counter() - start)
            with_repeat += draw.quality["repeat_pairs"] > 0
            for table in draw.tables:
                for rank, entrant in enumerate(rng.shuffled(list(table))):
                    points[entrant] += max(0.0, 4.0 - 2.0 * rank)
                tables.append(table)
            for entrant in draw.byes:
                byes[entrant] += 1
                points[entrant] += 2.0
    timings.sort()
    print(
        f"mid-size Swiss ({fields} fields of 13-40 players, 3-6 rounds, tables of 3-5): "
        f"{len(timings)} draws, {with_repeat} with a repeat (unavoidable or not: see "
        f"tests/tournaments/pairing/test_repeat_search.py), median "
        f"{statistics.median(timings) * 1000:.1f} ms, 99th percentile "
        f"{timings[int(0.99 * (len(timings) - 1))] * 1000:.0f} ms, slowest {timings[-1] * 1000:.0f} ms"
    )


def main() -> None:
    """Run every field size the issue asks about."""
    four = TableRule(preferred=4, allowed=(3, 4, 5))
    two = TableRule(preferred=2, allowed=(2,))
    bench(1000, four, 7)
    bench(1001, four, 5)
    bench(200, four, 7)
    bench(100, four, 7)
    bench(100, two, 5)
    bench(200, two, 5)
    bench(1000, two, 3)
    bench_mid_size(60)
    bench_round_robin(16, TableRule(preferred=4, allowed=(4,)), 5)
    bench_round_robin(25, TableRule(preferred=5, allowed=(5,)), 6)
    bench_round_robin(40, four, 8)


if __name__ == "__main__":
    main()
