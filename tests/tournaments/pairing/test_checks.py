"""check_tables: every rule a hand-edited draw breaks, as a structured warning."""

from __future__ import annotations

from tournaments.pairing import (
    DrawWarning,
    Entrant,
    History,
    TableRule,
    check_results_missing,
    check_seat_balance,
    check_tables,
)

FOURS = TableRule(preferred=4, allowed=(3, 4, 5))
ONLY_FOURS = TableRule(preferred=4, allowed=(4,))
PEOPLE = [Entrant(i, byes=1 if i == 3 else 0) for i in range(1, 10)]
HISTORY = History(tables=((1, 9, 20), (4, 9, 21), (1, 9, 22)), round_numbers=(2, 3, 4))


def codes(warnings: list[DrawWarning]) -> list[str]:
    return [w.code for w in warnings]


def test_a_sound_draw_has_no_warning() -> None:
    tables = [(2, 1, 4, 5), (6, 7, 8, 9)]  # 1 sat first twice already: not first again
    people = [*PEOPLE[:2], Entrant(3), *PEOPLE[3:]]
    assert check_tables(tables, [3], people, HISTORY, ONLY_FOURS) == []


def test_each_broken_rule_is_named() -> None:
    tables = [(1, 9, 4), (2, 2, 5, 6, 7, 8), (42,)]
    warnings = check_tables(tables, [3], PEOPLE, HISTORY, FOURS)
    messages = {w.code: w for w in warnings}
    assert sorted(codes(warnings)) == sorted(
        [
            "unknown",
            "seated_twice",
            "table_size",
            "table_size",
            "repeat",
            "repeat",
            "second_bye",
            "extra_bye",
            "seat_balance",
            "seat_balance",
        ]
    )
    assert str(messages["extra_bye"]) == "1 bye is given where none is needed"
    assert str(messages["unknown"]) == "entrant 42 is not an active entrant"
    assert str(messages["seated_twice"]) == "entrant 2 is seated twice"
    assert str(messages["second_bye"]) == "entrant 3 gets a second bye"
    sizes = [str(w) for w in warnings if w.code == "table_size"]
    assert sizes == ["table 2 has 6 players; allowed 3–5", "table 3 has 1 player; allowed 3–5"]
    seats = [str(w) for w in warnings if w.code == "seat_balance"]
    assert seats == [
        "entrant 1 sits in seat 1 again: 3 times now, never in seat 2",
        "entrant 9 sits in seat 2 again: 4 times now, never in seat 1",
    ]
    repeats = sorted(str(w) for w in warnings if w.code == "repeat")
    assert repeats == [
        "entrant 1 and entrant 9 already shared a table in rounds 2 and 4",
        "entrant 9 and entrant 4 already shared a table in round 3",
    ]


def test_missing_entrants_and_extra_byes() -> None:
    people = PEOPLE[:8]
    warnings = check_tables([(1, 2, 4, 5)], [6, 7], people, History(), FOURS)
    assert sorted(codes(warnings)) == ["extra_bye", "missing", "missing"]
    assert {str(w) for w in warnings if w.code == "missing"} == {
        "entrant 3 is missing from the draw",
        "entrant 8 is missing from the draw",
    }


def test_warnings_render_with_names() -> None:
    (warning,) = check_tables(
        [(5, 1, 9)], [], PEOPLE[:1] + PEOPLE[4:5] + PEOPLE[8:], HISTORY, FOURS
    )
    assert warning.entrants == (1, 9)
    assert warning.table == 1
    assert warning.render({1: "Alice", 9: "Bob"}) == (
        "Alice and Bob already shared a table in rounds 2 and 4"
    )


def test_a_second_bye_is_fine_when_everyone_seated_had_one() -> None:
    people = [Entrant(i, byes=1) for i in range(1, 6)]
    assert check_tables([(1, 2, 3, 4)], [5], people, History(), ONLY_FOURS) == []


def test_unbalanced_seats_name_the_player_the_seat_and_the_seat_they_lack() -> None:
    people = [
        Entrant(1, seat_counts=(2, 0, 1)),
        Entrant(2, seat_counts=(2, 1, 1)),
        Entrant(3, seat_counts=(4, 2, 2)),
        Entrant(4, seat_counts=(1, 1, 1)),
    ]
    first = check_seat_balance([(1, 4, 2)], people, History())
    assert [(w.code, w.entrants, w.table) for w in first] == [("seat_balance", (1,), 1)]
    assert str(first[0]) == "entrant 1 sits in seat 1 again: 3 times now, never in seat 2"
    again = check_seat_balance([(2, 4)], people, History())
    assert [str(w) for w in again] == [
        "entrant 2 sits in seat 1 again: 3 times now, only once in seat 2",
    ]
    most = check_seat_balance([(3, 1, 4)], people, History())
    assert [str(w) for w in most] == [
        "entrant 3 sits in seat 1 again: 5 times now, 2 times in seat 2",
    ]
    # Seats that no other seat of the table trails are no warning: a balanced seat.
    assert check_seat_balance([(4, 1, 2)], people, History()) == []


def test_seat_balance_counts_the_seats_of_the_table_and_the_history() -> None:
    # Five times at the 5th seat of a table of 5 says nothing about a table of 4.
    assert (
        check_seat_balance([(9, 8, 7, 6)], [Entrant(6, seat_counts=(0, 0, 0, 0, 5))], History())
        == []
    )
    # Without seat counts, the history's tables give them (here: 1 was first twice).
    warnings = check_seat_balance([(1, 2)], [Entrant(1), Entrant(2)], HISTORY)
    assert [str(w) for w in warnings] == [
        "entrant 1 sits in seat 1 again: 3 times now, never in seat 2"
    ]
    # A bye, or someone who is not an entrant, has no seat to balance.
    assert check_seat_balance([(1,), (42, 43)], [Entrant(1, seat_counts=(3,))], History()) == []


def test_missing_results_are_one_warning_per_round_with_its_tables() -> None:
    assert check_results_missing([]) == []
    warnings = check_results_missing([(3, 1), (2, 5), (2, 3), (2, 3)])
    assert [(w.code, w.entrants, w.table) for w in warnings] == [
        ("results_missing", (), None),
        ("results_missing", (), None),
    ]
    assert [w.render({}) for w in warnings] == [
        "Round 2, tables 3, 5 have no result: this draw counts their games for nothing",
        "Round 3, table 1 has no result: this draw counts its game for nothing",
    ]
