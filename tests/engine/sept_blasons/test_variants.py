"""Variants 1–4 and the bourgeoisie cards (rulebook, "The 4 Variants of the Game")."""

from __future__ import annotations

import pytest

from engine.core import IllegalMove
from engine.sept_blasons import GAME
from engine.sept_blasons.moves import (
    ConsultToken,
    ConsultTrick,
    Finish,
    PlayCard,
    TakeCard,
)
from engine.sept_blasons.state import BOURGEOISIE, PLAY, SeptState
from tests.engine.sept_blasons.helpers import act, first_legal, legal, new_game, play_cards

SMALL, MEDIUM, LARGE, HIGH = 1, 2, 3, 4


def _end_round(state: SeptState, totals: list[int]) -> None:
    """Finish the current round with a trick nobody wins (no score changes)."""
    state.totals = list(totals)
    state.trick_no = 7
    play_cards(state, [7] * state.players)


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ([30, 20, 10, 5], [HIGH, LARGE, MEDIUM, SMALL]),
        ([5, 10, 20, 30], [SMALL, MEDIUM, LARGE, HIGH]),
        ([30, 30, 20, 10], [0, 0, HIGH, LARGE]),
        ([30, 20, 20, 10], [HIGH, 0, 0, LARGE]),
    ],
)
def test_bourgeoisie_cards_go_by_the_ranking_and_a_tie_passes_the_card_on(
    totals: list[int], expected: list[int]
) -> None:
    state = new_game(players=4, seed="ranking", variants=[1])
    assert state.bourgeoisie == [0, 0, 0, 0], "no bourgeoisie card in the first round"
    _end_round(state, totals)
    assert state.round == 2
    assert state.bourgeoisie == expected


def test_three_players_use_the_small_medium_and_large_cards() -> None:
    state = new_game(players=3, seed="ranking", variants=[2])
    _end_round(state, [10, 30, 20])
    assert state.bourgeoisie == [SMALL, LARGE, MEDIUM]


def test_cards_are_assigned_after_rounds_1_and_2_only() -> None:
    state = new_game(players=3, seed="ranking", variants=[3])
    _end_round(state, [10, 30, 20])
    _end_round(state, [30, 20, 10])
    assert state.round == 3
    assert state.bourgeoisie == [LARGE, MEDIUM, SMALL]
    _end_round(state, [30, 30, 10])
    assert state.round == 4
    assert state.bourgeoisie == [LARGE, MEDIUM, SMALL]


def test_variant_4_alone_uses_no_bourgeoisie_card() -> None:
    state = new_game(players=3, seed="ranking", variants=[4])
    _end_round(state, [10, 30, 20])
    assert state.bourgeoisie == [0, 0, 0]


def test_a_bourgeoisie_card_is_activated_once_per_round_and_before_the_last_trick() -> None:
    state = new_game(players=3, seed="activate", variants=[1])
    state.bourgeoisie = [SMALL, 0, 0]
    assert PlayCard(4, True) in legal(state)
    assert not GAME.can_activate(state, 1)
    state.trick_no = 7
    assert PlayCard(4, True) not in legal(state)
    with pytest.raises(IllegalMove, match="cannot activate"):
        GAME.check(state, 0, PlayCard(4, True))
    state.trick_no = 0
    state.b_used[0] = True
    assert PlayCard(4, True) not in legal(state)


def _activated(variants: list[int], level: int = SMALL) -> SeptState:
    """Seat 0 holds a bourgeoisie card, activates it, and seat 1 wins the trick."""
    state = new_game(players=3, seed="bourgeois", variants=variants)
    state.bourgeoisie = [level, 0, 0]
    state.tricks = [[[8 + 3, 16 + 2]], [[0 + 2, 16 + 5, 8 + 1], [16 + 3]], [[0 + 5]]]
    act(state, PlayCard(4, bourgeoisie=True))
    act(state, PlayCard(7))
    act(state, PlayCard(6))
    first_legal(state)  # seat 1's free action
    assert state.phase == BOURGEOISIE
    assert GAME.actor(state) == 0
    return state


def test_variant_1_consult_up_to_the_cards_count_of_own_and_one_other_players_tricks() -> None:
    state = _activated([1])
    assert ConsultTrick(2, 0) in legal(state)
    act(state, ConsultTrick(1, 0))
    assert ConsultTrick(2, 0) not in legal(state), "only one other player may be consulted"
    with pytest.raises(IllegalMove, match="only one other player"):
        GAME.check(state, 0, ConsultTrick(2, 0))
    act(state, ConsultTrick(0, 0))
    assert state.phase == PLAY, "the small bourgeois consults 2 tricks, then it is over"
    mine = GAME.view(state, 0)["players"]
    assert [t["index"] for t in mine[1]["tricks_seen"]] == [0]
    assert [t["index"] for t in mine[0]["tricks_seen"]] == [0]
    owner = GAME.view(state, 1)["players"][1]
    assert [t["index"] for t in owner["tricks_seen"]] == [0], "the owner sees it too"
    assert "tricks_seen" not in GAME.view(state, 2)["players"][1]


def test_variant_2_the_small_bourgeois_takes_a_menetrier_from_a_trick() -> None:
    state = _activated([2])
    assert set(legal(state)) == {Finish(), TakeCard(1, 0)}, "the ménétriers in others' tricks"
    act(state, TakeCard(1, 0))
    assert state.tricks[1][0] == [16 + 5, 8 + 1]
    assert state.tricks[0][-1] == [0 + 2]
    assert state.phase == PLAY


def test_variant_2_the_high_bourgeois_takes_an_intendant() -> None:
    state = new_game(players=4, seed="bourgeois", variants=[2])
    state.bourgeoisie = [HIGH, 0, 0, 0]
    state.tricks = [[], [[16 + 5, 8 + 2]], [], []]
    act(state, PlayCard(4, bourgeoisie=True))
    play_cards(state, [7, 6, 3])
    while state.phase != BOURGEOISIE:
        first_legal(state)
    takes = [m for m in legal(state) if isinstance(m, TakeCard)]
    assert takes == [TakeCard(1, 2)]


def test_variant_3_consult_face_down_tokens_up_to_the_cards_count() -> None:
    state = _activated([3], level=MEDIUM)
    down = [(s, i) for s, f in enumerate(state.fronts) for i, t in enumerate(f) if not t.up]
    own = [(s, i) for s, i in down if s == 0]
    for seat, slot in own:
        act(state, ConsultToken(seat, slot))
    assert all(0 in state.fronts[s][i].known_by for s, i in own)
    assert state.b_count == len(own)


def test_combined_variants_the_holder_performs_only_one_of_the_actions() -> None:
    state = _activated([1, 2, 3])
    kinds = {type(m) for m in legal(state)}
    assert kinds == {Finish, ConsultTrick, TakeCard, ConsultToken}
    act(state, ConsultTrick(1, 1))
    assert {type(m) for m in legal(state)} == {Finish, ConsultTrick}
    with pytest.raises(IllegalMove, match="already used for variant 1"):
        GAME.check(state, 0, TakeCard(1, 0))
    act(state, Finish())
    assert state.phase == PLAY
