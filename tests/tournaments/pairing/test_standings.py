"""Standings: points by finishing rank with shared places, byes, each tie-breaker in order."""

from __future__ import annotations

import pytest

from tournaments.pairing import GameRecord, PairingError, StandingRow, StandingRule, standings
from tournaments.pairing.standings import finishing_points

RULE = StandingRule(points_by_rank=(4, 2, 1, 0), bye_points=2)


def ranks(rows: list[StandingRow]) -> list[tuple[int, int]]:
    return [(row.entrant, row.rank) for row in rows]


def test_tied_places_split_their_points() -> None:
    assert finishing_points((1, 1, 3, 4), (4, 2, 1, 0)) == [3.0, 3.0, 1.0, 0.0]
    assert finishing_points((1, 2, 2, 2), (4, 2, 1, 0)) == [4.0, 1.0, 1.0, 1.0]
    assert finishing_points((1, 1), (3,)) == [1.5, 1.5]


def test_points_games_wins_and_byes_are_counted() -> None:
    games = [
        GameRecord(table=(1, 2, 3, 4), ranks=(1, 2, 3, 4), round_number=1),
        GameRecord(table=(5,), ranks=(1,), round_number=1, bye=True),
        GameRecord(table=(4, 3, 2, 5), ranks=(1, 1, 3, 4), round_number=2),
    ]
    rows = {row.entrant: row for row in standings([1, 2, 3, 4, 5], games, RULE)}
    assert rows[1].points == 4
    assert rows[4].points == 3
    assert rows[3].points == 4
    assert rows[5].points == 2
    assert (rows[5].games, rows[5].byes, rows[5].wins) == (1, 1, 0)
    assert (rows[3].games, rows[3].wins) == (2, 1)
    assert rows[1].rank == rows[3].rank == 1


def test_equal_entrants_share_a_rank_and_the_next_rank_is_skipped() -> None:
    games = [GameRecord(table=(1, 2, 3), ranks=(1, 1, 3))]
    rows = standings([3, 2, 1, 4], games, StandingRule(points_by_rank=(2, 1, 0)))
    assert ranks(rows) == [(1, 1), (2, 1), (3, 3), (4, 3)]


def test_opponents_points_is_the_multiplayer_buchholz_without_byes() -> None:
    games = [
        GameRecord(table=(1, 2), ranks=(1, 2)),
        GameRecord(table=(3, 4), ranks=(1, 2)),
        GameRecord(table=(2, 5), ranks=(1, 2)),
        GameRecord(table=(1,), ranks=(1,), bye=True),
        GameRecord(table=(3,), ranks=(1,), bye=True),
    ]
    rule = StandingRule(points_by_rank=(1, 0), bye_points=1, tiebreakers=("opponents_points",))
    rows = standings([1, 2, 3, 4, 5], games, rule)
    by_id = {row.entrant: row for row in rows}
    assert by_id[1].tiebreaks["opponents_points"] == 1  # met 2 (1 point); the bye adds nothing
    assert by_id[3].tiebreaks["opponents_points"] == 0  # met 4 (0 points)
    assert ranks(rows)[:2] == [(1, 1), (3, 2)]


def test_game_score_breaks_ties() -> None:
    games = [GameRecord(table=(1, 2), ranks=(1, 1), scores=(30, 45))]
    rule = StandingRule(points_by_rank=(1, 0), tiebreakers=("game_score",))
    assert ranks(standings([1, 2], games, rule)) == [(2, 1), (1, 2)]


def test_head_to_head_only_counts_games_between_the_tied() -> None:
    games = [
        GameRecord(table=(1, 2, 3), ranks=(1, 2, 3)),
        GameRecord(table=(1, 2, 4), ranks=(2, 1, 3)),
        GameRecord(table=(1, 2, 5), ranks=(1, 2, 3)),
        GameRecord(table=(2, 4, 5), ranks=(2, 1, 3)),
    ]
    rule = StandingRule(points_by_rank=(2, 1, 0), tiebreakers=("head_to_head",))
    rows = standings([1, 2, 3], games, rule)
    points = {row.entrant: row.points for row in rows}
    assert points[1] == points[2] == 5
    # 1 finished ahead of 2 twice and behind once; 3 is not tied with them, so scores 0.
    assert [(r.entrant, r.rank, r.tiebreaks["head_to_head"]) for r in rows] == [
        (1, 1, 1.0),
        (2, 2, -1.0),
        (3, 3, 0.0),
    ]


def test_wins_break_ties_and_tie_breakers_apply_in_order() -> None:
    games = [
        GameRecord(table=(1, 2, 3), ranks=(1, 3, 2), scores=(10, 99, 0)),
        GameRecord(table=(1, 2, 3), ranks=(3, 2, 1), scores=(0, 99, 0)),
        GameRecord(table=(1, 2, 3), ranks=(3, 2, 1), scores=(0, 99, 0)),
    ]
    by_wins = standings(
        [1, 2], games, StandingRule(points_by_rank=(2, 1, 0), tiebreakers=("wins", "game_score"))
    )
    by_score = standings(
        [1, 2], games, StandingRule(points_by_rank=(2, 1, 0), tiebreakers=("game_score", "wins"))
    )
    assert by_wins[0].points == by_wins[1].points == 2
    assert ranks(by_wins) == [(1, 1), (2, 2)]
    assert ranks(by_score) == [(2, 1), (1, 2)]
    assert ranks(standings([1, 2], games, StandingRule(points_by_rank=(2, 1, 0)))) == [
        (1, 1),
        (2, 1),
    ]


def test_unknown_tie_breakers_and_broken_games_are_refused() -> None:
    with pytest.raises(PairingError, match="Unknown tie-breaker"):
        standings([1], [], StandingRule(points_by_rank=(1,), tiebreakers=("sonneborn",)))
    with pytest.raises(PairingError, match="one finishing rank per seat"):
        standings([1, 2], [GameRecord(table=(1, 2), ranks=(1,))], RULE)
    with pytest.raises(PairingError, match="exactly one entrant"):
        standings([1, 2], [GameRecord(table=(1, 2), ranks=(1, 1), bye=True)], RULE)


def test_dropped_players_still_count_for_their_opponents() -> None:
    games = [GameRecord(table=(1, 9), ranks=(2, 1)), GameRecord(table=(2, 3), ranks=(1, 2))]
    rule = StandingRule(points_by_rank=(1, 0), tiebreakers=("opponents_points",))
    rows = standings([1, 2, 3], games, rule)
    assert {r.entrant: r.tiebreaks["opponents_points"] for r in rows} == {1: 1, 2: 0, 3: 1}


def test_rounds_missed_before_a_late_entry_earn_the_rules_late_entry_points() -> None:
    games = [
        GameRecord(table=(1, 2, 3, 4), ranks=(1, 2, 3, 4), round_number=1),
        GameRecord(table=(5,), ranks=(1,), round_number=1, late_entry=True),
    ]
    for late_points, expected in ((0.0, 0.0), (2.0, 2.0), (1.0, 1.0)):
        rule = StandingRule(
            points_by_rank=(4, 2, 1, 0), bye_points=2, late_entry_points=late_points
        )
        rows = {row.entrant: row for row in standings([1, 2, 3, 4, 5], games, rule)}
        assert rows[5].points == expected
        # Counted apart: no game, no win and no bye of the draw (a late entrant may get one).
        assert (rows[5].games, rows[5].wins, rows[5].byes, rows[5].late_byes) == (0, 0, 0, 1)
    assert rows[2].late_byes == 0


def test_a_late_entry_round_belongs_to_one_entrant_and_is_not_a_bye() -> None:
    for record in (
        GameRecord(table=(1, 2), ranks=(1, 2), late_entry=True),
        GameRecord(table=(1,), ranks=(1,), bye=True, late_entry=True),
    ):
        with pytest.raises(PairingError, match="late entrant"):
            standings([1, 2], [record], RULE)
