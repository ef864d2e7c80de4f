"""The bracket layout: boxes in columns by round, no overlaps, connectors from a match to the
slot its finishers go to, rounds named, seeds and places kept apart."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.pairing.test_brackets import play_out, upsets
from tournaments.pairing import double_elimination, knockout, single_elimination
from tournaments.pairing.layout import (
    BOX_WIDTH,
    SLOT_HEIGHT,
    BracketLayout,
    MatchBox,
    bracket_layout,
)
from tournaments.pairing.types import Bracket


def titles(layout: BracketLayout, section: str = "winners") -> list[str]:
    return [c.title.key for c in layout.columns if c.section == section]


def box(layout: BracketLayout, match_id: str) -> MatchBox:
    return next(b for b in layout.matches if b.id == match_id)


def centre(b: MatchBox) -> float:
    return b.y + b.height / 2


def assert_drawable(layout: BracketLayout, bracket: Bracket) -> None:
    """Every match drawn once, inside the drawing, no two boxes overlapping, every connector
    going rightwards from its match's box to a slot of the match it names."""
    assert [b.id for b in layout.matches] == [m.id for m in bracket.matches]
    for b in layout.matches:
        assert b.x >= 0
        assert b.x + b.width <= layout.width
        assert b.label_y - 10 >= 0
        assert b.y + b.height <= layout.height
        assert b.height == len(b.slots) * SLOT_HEIGHT
    for a, b in combinations(layout.matches, 2):
        apart_x = a.x + a.width <= b.x or b.x + b.width <= a.x
        apart_y = a.y + a.height <= b.y or b.y + b.height <= a.y
        assert apart_x or apart_y, f"{a.id} and {b.id} overlap"
    for line in layout.connectors:
        source, target = box(layout, line.source), box(layout, line.target)
        (x0, y0), *_, (x1, y1) = line.points
        assert (x0, y0) == (source.x + source.width, centre(source))
        assert x1 == target.x > x0
        assert any(s.y < y1 < s.y + SLOT_HEIGHT for s in target.slots)


def test_eight_players_make_quarter_semi_final_with_a_line_into_every_later_slot() -> None:
    bracket = single_elimination(list(range(1, 9)))
    layout = bracket_layout(bracket)
    assert_drawable(layout, bracket)
    assert titles(layout) == ["quarter_final", "semi_final", "final"]
    assert len({b.x for b in layout.matches}) == 3  # three columns
    assert len(layout.connectors) == 4 + 2  # each quarter- and semi-final feeds one slot
    # A semi-final sits midway between the two quarter-finals that feed it; the final
    # between the semi-finals.
    assert (
        centre(box(layout, "W2-1"))
        == (centre(box(layout, "W1-1")) + centre(box(layout, "W1-2"))) / 2
    )
    assert (
        centre(box(layout, "W3-1"))
        == (centre(box(layout, "W2-1")) + centre(box(layout, "W2-2"))) / 2
    )
    # Seeds are the bracket's seeding (1 v 8 first); nobody has a place before a result.
    assert [(s.entrant, s.seed, s.place) for s in box(layout, "W1-1").slots] == [
        (1, 1, None),
        (8, 8, None),
    ]
    assert layout.champion is None


def test_six_players_give_the_top_two_seeds_byes_drawn_as_byes() -> None:
    bracket = single_elimination([31, 32, 33, 34, 35, 36])
    layout = bracket_layout(bracket)
    assert_drawable(layout, bracket)
    assert titles(layout) == ["quarter_final", "semi_final", "final"]
    byes = [b for b in layout.matches if b.is_bye]
    assert sorted(s.entrant for b in byes for s in b.slots if s.entrant) == [31, 32]
    assert all(any(s.bye for s in b.slots) for b in byes)
    # A bye sends its player on at once: the line into the semi-final is filled.
    filled = {(c.source, c.target) for c in layout.connectors if c.filled}
    assert ("W1-1", "W2-1") in filled
    semi = box(layout, "W2-1")
    assert semi.slots[0].entrant == 31
    assert semi.slots[0].seed == 1
    assert semi.slots[1].entrant is None
    assert semi.slots[1].feed is not None
    assert (semi.slots[1].feed.match, semi.slots[1].feed.place) == ("W1-2", 1)


def test_a_played_bracket_has_places_and_a_champion() -> None:
    bracket = play_out(single_elimination(list(range(1, 9))), upsets("x"))
    layout = bracket_layout(bracket)
    final = box(layout, "W3-1")
    places = sorted(s.place for s in final.slots)
    assert places == [1, 2]
    winner = next(s for s in final.slots if s.place == 1)
    assert winner.goes_on
    assert layout.champion == winner.entrant
    assert all(c.filled for c in layout.connectors)
    # Place and seed are different numbers of different things: seed 1 may lose.
    seeds_and_places = {(s.seed, s.place) for b in layout.matches for s in b.slots}
    assert any(seed != place for seed, place in seeds_and_places)


@pytest.mark.parametrize("reset", [False, True])
def test_double_elimination_stacks_winners_over_losers_and_the_grand_final_after(
    reset: bool,
) -> None:
    bracket = double_elimination(list(range(1, 9)), reset=reset)
    layout = bracket_layout(bracket)
    assert_drawable(layout, bracket)
    assert titles(layout) == ["winners_round", "winners_semi_final", "winners_final"]
    assert titles(layout, "losers") == ["losers_round"] * 3 + ["losers_final"]
    expected = ["grand_final", "grand_final_reset"] if reset else ["grand_final"]
    assert titles(layout, "final") == expected
    winners = [b for b in layout.matches if b.section == "winners"]
    losers = [b for b in layout.matches if b.section == "losers"]
    assert max(b.y + b.height for b in winners) < min(b.y for b in losers)
    grand = box(layout, "GF-1")
    assert grand.x > max(b.x for b in winners + losers)
    assert min(b.y for b in winners) < centre(grand) < max(b.y for b in losers)
    # Both finals feed the grand final; a winners' loser drops without a line, named instead.
    sources = {c.source for c in layout.connectors if c.target == "GF-1"}
    assert sources == {"W3-1", "L4-1"}
    assert not any(c.source.startswith("W") and c.target.startswith("L") for c in layout.connectors)
    dropped = box(layout, "L1-1").slots[0].feed
    assert dropped is not None
    assert (dropped.match, dropped.place) == ("W1-1", 2)


def test_a_knockout_names_its_final_table_and_marks_who_goes_on() -> None:
    bracket = play_out(knockout(list(range(1, 17)), table_size=4, advance=2))
    layout = bracket_layout(bracket)
    assert_drawable(layout, bracket)
    assert titles(layout, "knockout") == ["knockout_round", "knockout_round", "final_table"]
    assert layout.advance == 2
    first_round = [b for b in layout.matches if b.round == 1]
    assert len(first_round) == 4
    for table in first_round:
        assert sorted(s.place for s in table.slots) == [1, 2, 3, 4]
        assert [s.goes_on for s in sorted(table.slots, key=lambda s: s.place or 0)] == [
            True,
            True,
            False,
            False,
        ]
    # Every qualifier's line reaches the next round's tables.
    assert sum(1 for c in layout.connectors if box(layout, c.source).round == 1) == 8
    # The next round's tables are centred on the first round's column.
    second = [b for b in layout.matches if b.round == 2]
    middle = (centre(first_round[0]) + centre(first_round[-1])) / 2
    assert (centre(second[0]) + centre(second[-1])) / 2 == pytest.approx(middle)
    assert layout.champion is not None
    assert box(layout, "K3-1").x == 2 * (BOX_WIDTH + 44) + 6


@settings(max_examples=40, deadline=None)
@given(
    entrants=st.integers(min_value=2, max_value=40),
    kind=st.sampled_from(["single", "double", "knockout"]),
    seed=st.text(max_size=3),
    played=st.booleans(),
)
def test_every_bracket_is_drawable(entrants: int, kind: str, seed: str, played: bool) -> None:
    seeds = list(range(1, entrants + 1))
    if kind == "single":
        bracket = single_elimination(seeds)
    elif kind == "double":
        bracket = double_elimination(seeds, reset=entrants % 2 == 0)
    else:
        bracket = knockout(seeds, table_size=4, advance=2 if entrants > 4 else 1)
    if played:
        bracket = play_out(bracket, upsets(seed))
    assert_drawable(bracket_layout(bracket), bracket)
