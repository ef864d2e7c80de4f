"""Ruling 7B-1, the malandrin as a thief, and every malandrin example of the rulebook.

Cards are listed in play order from seat 0 (the leader); ``*`` is rank 0, the malandrin.
"""

from __future__ import annotations

import pytest

from engine.core import IllegalMove
from engine.sept_blasons import GAME
from engine.sept_blasons.moves import Steal
from engine.sept_blasons.state import FREE, POWER, SeptState
from tests.engine.sept_blasons.helpers import (
    act,
    first_legal,
    legal,
    new_game,
    play_cards,
    resolve_until,
    values,
)

STAR = 0


def _at_malandrin(ranks: list[int], position: int, **options: object) -> SeptState:
    state = new_game(players=len(ranks), seed="malandrin", **options)  # type: ignore[arg-type]
    play_cards(state, ranks)
    resolve_until(state, position)
    assert state.phase == POWER
    assert state.resolving == position
    return state


def _choices(state: SeptState) -> tuple[set[int], set[int]]:
    """(positions whose value may be taken, positions whose power may be taken)."""
    moves = legal(state)
    assert all(isinstance(m, Steal) for m in moves)
    value = {m.card for m in moves if isinstance(m, Steal) and m.mode == "value"}
    power = {m.card for m in moves if isinstance(m, Steal) and m.mode == "power"}
    return value, power


def _finish_powers(state: SeptState) -> None:
    while state.phase == POWER:
        first_legal(state)


def test_rulebook_example_malandrin_last_3_2_5_1_star_takes_value_5_only() -> None:
    state = _at_malandrin([3, 2, 5, 1, STAR], 4)
    value, power = _choices(state)
    assert power == set(), "every power has been used by the time the last malandrin chooses"
    assert value == {0, 1, 2, 3, 4}
    act(state, Steal(2, "value"))
    assert state.phase == FREE
    assert state.winner == 4
    assert values(state) == [3, 2, None, 1, 5]


def test_rulebook_example_malandrin_first_star_3_2_5_1_has_every_choice() -> None:
    state = _at_malandrin([STAR, 3, 2, 5, 1], 0)
    value, power = _choices(state)
    assert value == {0, 1, 2, 3, 4}
    assert power == {1, 2, 3, 4}
    act(state, Steal(3, "value"))
    _finish_powers(state)
    assert state.winner == 0


def test_rulebook_example_a_1_2_star_5_3_value_5_or_power_of_5_or_3() -> None:
    state = _at_malandrin([1, 2, STAR, 5, 3], 2)
    value, power = _choices(state)
    assert power == {3, 4}
    assert 3 in value
    act(state, Steal(3, "value"))
    _finish_powers(state)
    assert state.winner == 2


def test_rulebook_example_b_6_star_1_2_5_value_6_or_powers_1_2_5() -> None:
    state = _at_malandrin([6, STAR, 1, 2, 5], 1)
    value, power = _choices(state)
    assert power == {2, 3, 4}
    assert 0 in value
    act(state, Steal(0, "value"))
    _finish_powers(state)
    assert state.winner == 1


def test_ruling_7B_1_a_stolen_power_is_used_by_the_thief_at_the_cards_position() -> None:
    state = _at_malandrin([6, STAR, 1, 2, 5], 1)
    act(state, Steal(4, "power"))
    resolve_until(state, 4)
    assert state.resolving == 4
    assert GAME.actor(state) == 1, "seat 1's malandrin uses the intendant of seat 4"
    assert values(state)[1] is None, "a malandrin that took a power has no value"
    assert values(state)[4] == 5, "the robbed card keeps its value"


def test_ruling_7B_1_the_malandrin_cannot_take_a_power_already_used() -> None:
    state = _at_malandrin([1, 2, STAR, 5, 3], 2)
    with pytest.raises(IllegalMove, match="later in play order"):
        GAME.check(state, 2, Steal(0, "power"))
    with pytest.raises(IllegalMove, match="'value' or a 'power'"):
        GAME.check(state, 2, Steal(3, "valuex"))


def test_ruling_7B_1_a_card_without_power_cannot_have_its_power_taken() -> None:
    state = _at_malandrin([STAR, 7, 6, 4, 1], 0)
    _value, power = _choices(state)
    assert power == {4}, "bourgeois, bourgeoise and (without variant 4) religieux have none"
    state4 = _at_malandrin([STAR, 7, 6, 4, 1], 0, variants=[4])
    assert _choices(state4)[1] == {3, 4}


# -- two malandrins: (*, 3, 5, *, 2) -----------------------------------------------------------
def test_rulebook_example_two_malandrins_both_take_value_5_the_second_wins() -> None:
    state = _at_malandrin([STAR, 3, 5, STAR, 2], 0)
    act(state, Steal(2, "value"))
    resolve_until(state, 3)
    act(state, Steal(2, "value"))
    _finish_powers(state)
    assert values(state) == [None, 3, None, 5, 2]
    assert state.winner == 3


def test_rulebook_example_two_malandrins_the_first_takes_the_seconds_choice_and_wins() -> None:
    state = _at_malandrin([STAR, 3, 5, STAR, 2], 0)
    act(state, Steal(3, "power"))
    resolve_until(state, 3)
    assert GAME.actor(state) == 0, "the first malandrin makes the second one's choice"
    _value, power = _choices(state)
    assert power == {4}, "weakened: only the ménétrier's power is left to take"
    act(state, Steal(2, "value"))
    _finish_powers(state)
    assert values(state) == [5, 3, None, None, 2]
    assert state.winner == 0


def test_rulebook_example_two_malandrins_both_want_the_menetriers_power() -> None:
    state = _at_malandrin([STAR, 3, 5, STAR, 2], 0)
    act(state, Steal(4, "power"))
    resolve_until(state, 3)
    act(state, Steal(4, "power"))
    resolve_until(state, 4)
    assert state.resolving == 4
    assert GAME.actor(state) == 3, "the second malandrin re-stole the ménétrier's power"


def test_rulebook_example_two_malandrins_power_of_5_then_value_of_5() -> None:
    state = _at_malandrin([STAR, 3, 5, STAR, 2], 0)
    act(state, Steal(2, "power"))
    resolve_until(state, 2)
    assert GAME.actor(state) == 0, "the first malandrin uses the intendant"
    first_legal(state)  # the intendant chooses a token
    first_legal(state)  # ... and what to exchange it with
    assert state.resolving == 3
    act(state, Steal(2, "value"))
    _finish_powers(state)
    assert state.winner == 3


# -- ties: (7, 4, 7, *, 4) and (6, *, 6, 6, *) -------------------------------------------------
def test_rulebook_example_7_4_7_star_4_the_malandrin_wins_by_choosing_itself() -> None:
    state = _at_malandrin([7, 4, 7, STAR, 4], 3)
    act(state, Steal(3, "value"))
    _finish_powers(state)
    assert values(state) == [7, 4, 7, 0, 4]
    assert state.winner == 3


def test_ruling_7B_2_strict_tie_rule_gives_7_4_7_star_4_to_nobody() -> None:
    state = _at_malandrin([7, 4, 7, STAR, 4], 3, tie_rule="strict")
    act(state, Steal(3, "value"))
    _finish_powers(state)
    assert state.stats.nobody == 1
    assert len(state.set_aside) == 5


def _first_malandrin_wins(choice1: Steal, choice2: Steal) -> bool | None:
    """Play (6, *, 6, 6, *); None when ``choice2`` is not available after ``choice1``."""
    state = _at_malandrin([6, STAR, 6, 6, STAR], 1)
    act(state, choice1)
    resolve_until(state, 4)
    if state.phase != POWER or choice2 not in legal(state):
        return None
    act(state, choice2)
    return state.winner == 1


def test_rulebook_example_6_star_6_6_star_the_second_malandrin_can_stop_the_first() -> None:
    state = _at_malandrin([6, STAR, 6, 6, STAR], 1)
    replies = [Steal(p, "value") for p in range(5)]
    for choice1 in legal(state):
        assert isinstance(choice1, Steal)
        outcomes = [_first_malandrin_wins(choice1, reply) for reply in replies]
        assert False in outcomes, f"no reply stops the first malandrin after {choice1}"


def test_rulebook_example_6_star_6_6_star_the_sixes_always_cancel() -> None:
    for choice1 in [Steal(p, "value") for p in (0, 2, 3)]:
        for reply in [Steal(p, "value") for p in (0, 2, 3)]:
            trial = _at_malandrin([6, STAR, 6, 6, STAR], 1)
            act(trial, choice1)
            act(trial, reply)
            assert trial.stats.nobody == 1, "three sixes cancel: the trick is set aside"
            assert len(trial.set_aside) == 5


def _every_line_of_play(state: SeptState) -> list[SeptState]:
    """Every end of the trick's power resolution from ``state``, over every legal choice."""
    if state.phase != POWER:
        return [state]
    ends = []
    for move in legal(state):
        trial = GAME.clone(state)
        act(trial, move)
        ends.extend(_every_line_of_play(trial))
    return ends


def test_rulebook_6_star_6_6_star_is_set_aside_whatever_choice_either_malandrin_makes() -> None:
    """Rulebook: "With this case, the trick is set aside, whatever choice either malandrin
    makes, because it is equivalent to the case of a tie for the highest cards." Engine 1.2.0:
    every line of play ends with the trick set aside (before, e.g. the first taking a 6 and
    the second choosing itself gave the second malandrin the trick)."""
    ends = _every_line_of_play(_at_malandrin([6, STAR, 6, 6, STAR], 1))
    assert len(ends) > 10
    for end in ends:
        assert end.winner is None
        assert end.stats.nobody == 1
        assert len(end.set_aside) == 5


def test_a_game_set_up_under_1_1_keeps_the_winner_7B_2_gives_in_6_star_6_6_star() -> None:
    """Engine 1.1.0's rule for a game recorded under it: the cascade decides the trick."""
    state = _at_malandrin([6, STAR, 6, 6, STAR], 1)
    state.engine_version = "1.1.0"
    winners = {end.winner for end in _every_line_of_play(state)}
    assert None in winners
    assert winners - {None}, "under 1.1.0 some line of play gives the trick a winner"


def test_engine_reading_ER_8_a_stolen_malandrin_choice_cannot_take_star() -> None:
    # The first malandrin takes the second one's choice. Making it, it may not take `*`
    # (choosing itself is a malandrin's own choice), so the sixes cancel and nobody wins:
    # the rulebook's "set aside, whatever choice either malandrin makes" holds.
    state = _at_malandrin([6, STAR, 6, 6, STAR], 1)
    act(state, Steal(4, "power"))
    assert GAME.actor(state) == 1
    assert {m.card for m in legal(state) if isinstance(m, Steal)} == {0, 2, 3}
    for star in (1, 4):
        with pytest.raises(IllegalMove, match="cannot take the value"):
            GAME.apply(state, 1, Steal(star, "value"))
    act(state, Steal(0, "value"))
    assert state.winner is None
    assert state.stats.nobody == 1
