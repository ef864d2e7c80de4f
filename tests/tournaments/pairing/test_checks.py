"""check_tables: every rule a hand-edited draw breaks, as a structured warning."""

from __future__ import annotations

from tournaments.pairing import DrawWarning, Entrant, History, TableRule, check_tables

FOURS = TableRule(preferred=4, allowed=(3, 4, 5))
ONLY_FOURS = TableRule(preferred=4, allowed=(4,))
PEOPLE = [Entrant(i, byes=1 if i == 3 else 0) for i in range(1, 10)]
HISTORY = History(tables=((1, 9, 20), (4, 9, 21), (1, 9, 22)), round_numbers=(2, 3, 4))


def codes(warnings: list[DrawWarning]) -> list[str]:
    return [w.code for w in warnings]


def test_a_sound_draw_has_no_warning() -> None:
    tables = [(1, 2, 4, 5), (6, 7, 8, 9)]
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
        ]
    )
    assert str(messages["extra_bye"]) == "1 bye is given where none is needed"
    assert str(messages["unknown"]) == "entrant 42 is not an active entrant"
    assert str(messages["seated_twice"]) == "entrant 2 is seated twice"
    assert str(messages["second_bye"]) == "entrant 3 gets a second bye"
    sizes = [str(w) for w in warnings if w.code == "table_size"]
    assert sizes == ["table 2 has 6 players; allowed 3–5", "table 3 has 1 player; allowed 3–5"]
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
        [(1, 9, 5)], [], PEOPLE[:1] + PEOPLE[4:5] + PEOPLE[8:], HISTORY, FOURS
    )
    assert warning.entrants == (1, 9)
    assert warning.table == 1
    assert warning.render({1: "Alice", 9: "Bob"}) == (
        "Alice and Bob already shared a table in rounds 2 and 4"
    )


def test_a_second_bye_is_fine_when_everyone_seated_had_one() -> None:
    people = [Entrant(i, byes=1) for i in range(1, 6)]
    assert check_tables([(1, 2, 3, 4)], [5], people, History(), ONLY_FOURS) == []
