"""Unit tests of table sizes, the Swiss draw and the factory's options."""

from __future__ import annotations

import pytest

from tournaments.pairing import (
    Entrant,
    History,
    Pairing,
    PairingError,
    TableRule,
    pair_round,
    table_sizes,
)
from tournaments.pairing.sizes import byes_needed

FOURS = TableRule(preferred=4, allowed=(3, 4, 5))
PAIRS = TableRule(preferred=2, allowed=(2,))


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (0, ()),
        (3, (3,)),
        (8, (4, 4)),
        (9, (4, 5)),
        (10, (4, 3, 3)),
        (11, (4, 4, 3)),
        (13, (4, 4, 5)),
        (6, (3, 3)),
    ],
)
def test_table_sizes_prefer_the_preferred_size_then_fewest_odd_tables(
    players: int, sizes: tuple[int, ...]
) -> None:
    assert table_sizes(players, FOURS) == sizes


def test_no_split_means_byes() -> None:
    assert table_sizes(2, FOURS) is None
    assert byes_needed(2, FOURS) == 2
    assert byes_needed(7, PAIRS) == 1
    assert byes_needed(7, TableRule(preferred=4, allowed=(4,))) == 3


def test_a_table_rule_must_allow_its_preferred_size() -> None:
    with pytest.raises(PairingError, match="preferred table size 6"):
        TableRule(preferred=6, allowed=(3, 4, 5))


NO_HISTORY = History()


def swiss(
    entrants: list[Entrant], history: History = NO_HISTORY, rule: TableRule = FOURS
) -> Pairing:
    return pair_round("swiss", entrants, history, rule, round_number=2, seed="unit")


def test_score_groups_stay_together() -> None:
    entrants = [Entrant(i, points=8.0 if i <= 4 else 0.0) for i in range(1, 9)]
    draw = swiss(entrants)
    assert set(draw.tables[0]) == {1, 2, 3, 4}
    assert set(draw.tables[1]) == {5, 6, 7, 8}
    assert draw.quality["max_score_spread"] == 0
    assert draw.quality["floaters"] == 0


def test_the_fewest_players_float_between_score_groups() -> None:
    points = {1: 9, 2: 9, 3: 9, 4: 9, 5: 9, 6: 4, 7: 4, 8: 4}
    draw = swiss([Entrant(i, points=p) for i, p in points.items()])
    assert draw.quality["floaters"] == 1
    assert sorted(len(t) for t in draw.tables) == [4, 4]


def test_a_repeat_is_avoided_by_moving_down_a_table() -> None:
    entrants = [Entrant(i, points=4.0 if i <= 4 else 2.0) for i in range(1, 9)]
    # 1 and 2, and 3 and 4, met at tables of players who have since dropped.
    history = History(tables=((1, 2, 20, 21), (3, 4, 22, 23)), round_numbers=(1, 1))
    draw = swiss(entrants, history)
    assert draw.quality["repeat_pairs"] == 0
    assert not draw.warnings
    assert {1, 2} not in [set(t) & {1, 2} for t in draw.tables]
    assert draw.quality["max_score_spread"] == 2


def test_an_unavoidable_repeat_is_named() -> None:
    entrants = [Entrant(1), Entrant(2)]
    draw = swiss(entrants, History(tables=((1, 2),), round_numbers=(1,)), PAIRS)
    assert draw.tables in (((1, 2),), ((2, 1),))
    assert draw.quality["repeat_pairs"] == 1
    assert [w.code for w in draw.warnings] == ["repeat"]
    assert "already shared a table in round 1" in str(draw.warnings[0])


def test_two_player_swiss_pairs_equal_points_and_avoids_repeats() -> None:
    entrants = [Entrant(i, points=1.0 if i <= 4 else 0.0) for i in range(1, 9)]
    history = History(tables=((1, 2), (3, 4), (5, 6), (7, 8)), round_numbers=(1, 1, 1, 1))
    draw = swiss(entrants, history, PAIRS)
    pairs = {frozenset(t) for t in draw.tables}
    assert pairs <= {
        frozenset(p) for p in [(1, 3), (1, 4), (2, 3), (2, 4), (5, 7), (5, 8), (6, 7), (6, 8)]
    }
    assert draw.quality["repeat_pairs"] == 0


def test_the_bye_goes_to_the_lowest_player_without_one() -> None:
    entrants = [
        Entrant(1, points=3.0),
        Entrant(2, points=2.0),
        Entrant(3, points=1.0),
        Entrant(4, points=0.0, byes=1),
        Entrant(5, points=0.0, byes=1),
    ]
    draw = swiss(entrants, rule=PAIRS)
    assert draw.byes == (3,)
    assert not draw.warnings


def test_seats_balance_over_rounds() -> None:
    # Entrant 1 has always sat first; entrant 2 always last.
    entrants = [
        Entrant(1, seat_counts=(3, 0, 0, 0)),
        Entrant(2, seat_counts=(0, 0, 0, 3)),
        Entrant(3, seat_counts=(1, 1, 1, 0)),
        Entrant(4, seat_counts=(1, 1, 0, 1)),
    ]
    (table,) = swiss(entrants).tables
    assert table.index(1) != 0
    assert table.index(2) != 3
    assert table.index(3) == 3
    assert table.index(4) == 2


def test_seat_counts_come_from_history_when_not_given() -> None:
    history = History(tables=((1, 2), (1, 2), (1, 2)))
    draw = swiss([Entrant(1), Entrant(2)], history, PAIRS)
    assert draw.tables == ((2, 1),)


def test_the_same_seed_gives_the_same_draw_and_another_seed_another() -> None:
    entrants = [Entrant(i) for i in range(1, 41)]
    first = pair_round("swiss", entrants, History(), FOURS, round_number=1, seed="a")
    again = pair_round("swiss", entrants, History(), FOURS, round_number=1, seed="a")
    other = pair_round("swiss", entrants, History(), FOURS, round_number=1, seed="b")
    assert first == again
    assert first.tables != other.tables


def test_quality_figures_are_all_reported() -> None:
    draw = swiss([Entrant(i, points=float(i)) for i in range(1, 10)])
    assert set(draw.quality) >= {
        "repeat_pairs",
        "max_score_spread",
        "mean_score_spread",
        "seat_imbalance",
        "floaters",
        "tables",
        "byes",
    }
    assert draw.quality["tables"] == 2
    assert draw.quality["max_score_spread"] >= draw.quality["mean_score_spread"] > 0


def test_unknown_format_and_options_are_refused() -> None:
    entrants = [Entrant(1), Entrant(2)]
    with pytest.raises(PairingError, match="Unknown pairing format 'monrad'"):
        pair_round("monrad", entrants, History(), PAIRS, round_number=1, seed="s")
    with pytest.raises(PairingError, match=r"Unknown option.*colour"):
        pair_round(
            "swiss", entrants, History(), PAIRS, round_number=1, seed="s", options={"colour": 1}
        )


@pytest.mark.parametrize(
    "options",
    [
        {"avoid_repeats": "yes"},
        {"search_budget": -1},
        {"search_budget": 2.5},
        {"search_budget": True},
    ],
)
def test_option_values_are_checked(options: dict[str, object]) -> None:
    with pytest.raises(PairingError, match="The swiss option"):
        pair_round(
            "swiss",
            [Entrant(1), Entrant(2)],
            History(),
            PAIRS,
            round_number=1,
            seed="s",
            options=options,
        )


def test_duplicate_entrants_and_bad_round_numbers_are_refused() -> None:
    with pytest.raises(PairingError, match="more than once"):
        pair_round("swiss", [Entrant(1), Entrant(1)], History(), PAIRS, round_number=1, seed="s")
    with pytest.raises(PairingError, match="numbered from 1"):
        pair_round("swiss", [Entrant(1), Entrant(2)], History(), PAIRS, round_number=0, seed="s")


def test_options_can_switch_off_repeat_avoidance() -> None:
    entrants = [Entrant(i) for i in range(1, 5)]
    history = History(tables=((1, 2), (3, 4)))
    draw = pair_round(
        "swiss",
        entrants,
        history,
        PAIRS,
        round_number=2,
        seed="s",
        options={"avoid_repeats": False, "balance_seats": False},
    )
    assert sorted(e for t in draw.tables for e in t) == [1, 2, 3, 4]


def test_no_entrants_no_tables() -> None:
    draw = pair_round("swiss", [], History(), FOURS, round_number=1, seed="s")
    assert draw.tables == ()
    assert draw.byes == ()


def test_a_seeded_first_round_spreads_the_top_seeds() -> None:
    entrants = [Entrant(i, seed=i) for i in range(1, 13)]
    draw = pair_round("swiss", entrants, History(), FOURS, round_number=1, seed="s")
    assert sorted(sorted(t) for t in draw.tables) == [[1, 6, 7, 12], [2, 5, 8, 11], [3, 4, 9, 10]]


def test_a_seeded_first_round_of_pairs_folds_the_field() -> None:
    entrants = [Entrant(i, seed=i) for i in range(1, 8)]
    draw = pair_round("swiss", entrants, History(), PAIRS, round_number=1, seed="s")
    assert draw.byes == (7,)
    assert sorted(sorted(t) for t in draw.tables) == [[1, 6], [2, 5], [3, 4]]


def test_the_first_bye_goes_to_the_unseeded() -> None:
    entrants = [Entrant(1, seed=1), Entrant(2, seed=2), Entrant(3)]
    draw = pair_round("swiss", entrants, History(), PAIRS, round_number=1, seed="s")
    assert draw.byes == (3,)
