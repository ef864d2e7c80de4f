"""Round robin: the circle method for two players, distinct opponents for tables of N."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tests.tournaments.pairing.helpers import Field
from tournaments.pairing import TableRule
from tournaments.pairing.round_robin import circle_round

PAIRS = TableRule(preferred=2, allowed=(2,))


@pytest.mark.parametrize("players", [2, 5, 6, 9])
def test_circle_method_meets_everyone_exactly_once(players: int) -> None:
    ids = list(range(1, players + 1))
    rounds = players if players % 2 else players - 1
    met: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    for number in range(1, rounds + 1):
        found = circle_round(ids, number)
        assert found is not None
        pairs, bye = found
        met.update(frozenset(p) for p in pairs)
        byes.update(bye)
    assert met == Counter(frozenset(p) for p in combinations(ids, 2))
    assert byes == (Counter(ids) if players % 2 else Counter())
    assert circle_round(ids, rounds + 1) is None


def test_round_robin_of_two_players_through_pair_round() -> None:
    game = Field(rule=PAIRS, seed="rr", active=list(range(1, 8)))
    for _ in range(7):
        draw = game.play("round_robin")
        assert draw.quality["repeat_pairs"] == 0
        assert len(draw.byes) == 1
    assert all(game.byes[e] == 1 for e in game.active)


def test_round_robin_survives_a_drop_without_repeats() -> None:
    game = Field(rule=PAIRS, seed="rr", active=list(range(1, 9)))
    game.play("round_robin")
    game.play("round_robin")
    game.active.remove(3)
    for _ in range(3):
        assert game.play("round_robin").quality["repeat_pairs"] == 0


@pytest.mark.parametrize(
    ("players", "rule", "rounds"),
    [
        (9, TableRule(preferred=3, allowed=(3,)), 4),
        (16, TableRule(preferred=4, allowed=(4,)), 5),
        (20, TableRule(preferred=4, allowed=(3, 4, 5)), 3),
        (25, TableRule(preferred=5, allowed=(5,)), 3),
    ],
)
def test_round_robin_at_tables_of_n_meets_only_new_opponents(
    players: int, rule: TableRule, rounds: int
) -> None:
    game = Field(rule=rule, seed="rr", active=list(range(1, players + 1)))
    for _ in range(rounds):
        assert game.play("round_robin").quality["repeat_pairs"] == 0


def test_round_robin_at_tables_of_n_keeps_repeats_low_when_they_cannot_be_avoided() -> None:
    # 36 players at tables of 6 cannot play 7 rounds without repeats (no affine plane of
    # order 6); the plan still keeps most pairs fresh.
    game = Field(rule=TableRule(preferred=6, allowed=(6,)), seed="rr", active=list(range(1, 37)))
    repeats = [game.play("round_robin").quality["repeat_pairs"] for _ in range(5)]
    assert repeats[:3] == [0, 0, 0]
    assert sum(repeats) <= 40
