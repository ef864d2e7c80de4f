"""Stages: groups by snake seeding, then a cut to a bracket."""

from __future__ import annotations

import pytest

from tournaments.pairing import (
    GameRecord,
    PairingError,
    StandingRow,
    StandingRule,
    cut,
    single_elimination,
    split_groups,
    standings,
)


def row(entrant: int, rank: int, points: float, buchholz: float = 0.0) -> StandingRow:
    return StandingRow(entrant, rank, points, {"opponents_points": buchholz}, 3, 0, 0)


def test_groups_are_dealt_by_snake_seeding() -> None:
    assert split_groups(list(range(1, 9)), 2) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert split_groups([1, 2], 3) == [[1], [2], []]
    with pytest.raises(PairingError):
        split_groups([1], 0)


def test_cut_takes_the_top_overall() -> None:
    rows = [row(7, 1, 9), row(3, 2, 5), row(4, 3, 1)]
    assert cut(rows, top=2) == [7, 3]
    with pytest.raises(PairingError, match="Only 3 entrants"):
        cut(rows, top=4)


def test_cut_per_group_seeds_winners_first() -> None:
    rows = [
        row(1, 1, 9),
        row(2, 2, 6),
        row(3, 3, 2),
        row(4, 1, 7),
        row(5, 2, 6, buchholz=5),
        row(6, 3, 0),
    ]
    groups = {1: "A", 2: "A", 3: "A", 4: "B", 5: "B", 6: "B"}
    assert cut(rows, top=2, groups=groups) == [1, 4, 5, 2]
    with pytest.raises(PairingError, match="fewer than 4"):
        cut(rows, top=4, groups=groups)
    with pytest.raises(PairingError, match="belongs to no group"):
        cut(rows, top=1, groups={1: "A"})


def test_groups_then_cut_to_a_bracket() -> None:
    groups = split_groups(list(range(1, 9)), 2)
    rule = StandingRule(points_by_rank=(1, 0))
    # Round robin in each group, the lower id always wins.
    rows: list[StandingRow] = []
    for members in groups:
        games = [
            GameRecord(table=(a, b), ranks=(1, 2) if a < b else (2, 1))
            for i, a in enumerate(members)
            for b in members[i + 1 :]
        ]
        rows.extend(standings(members, games, rule))
    names = {e: str(g) for g, members in enumerate(groups) for e in members}
    seeds = cut(rows, top=2, groups=names)
    assert seeds == [1, 2, 3, 4]
    assert single_elimination(seeds).match("W1-1").slots == (1, 4)
