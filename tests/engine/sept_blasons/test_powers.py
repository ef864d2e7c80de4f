"""Character powers, compulsory and in play order; impossible powers skipped; the free action.

Rulebook, "Character Powers" and "Playing the Game"; ruling 7B-4 (tokens keep their face,
taking "as it is"). Three players, seat 0 leads; 7 and 6 have no power.
"""

from __future__ import annotations

import pytest

from engine.core import IllegalMove
from engine.sept_blasons import GAME
from engine.sept_blasons.moves import (
    ChooseToken,
    ExchangeWith,
    MoveTo,
    PlayCard,
    RemoveToken,
    Steal,
    TakeToken,
    TurnUp,
)
from engine.sept_blasons.state import FREE, PLAY, POWER, SeptState
from tests.engine.sept_blasons.helpers import act, legal, new_game, play_cards, set_tokens

GB, BY, CT = 0, 1, 2  # colours of seats 0, 1, 2 (Aubigny, Bellay, Contades)


def _table(**options: object) -> SeptState:
    state = new_game(players=3, seed="powers", **options)  # type: ignore[arg-type]
    set_tokens(
        state,
        [[(BY, True), (CT, False)], [(GB, False)], [(GB, True), (BY, False)]],
        pile=[(CT, True), (GB, False), (CT, False), (BY, True)],
    )
    return state


def _faces(state: SeptState) -> list[list[tuple[int, bool]]]:
    return [[(t.colour, t.up) for t in front] for front in state.fronts]


def test_powers_resolve_after_the_last_card_in_play_order() -> None:
    state = _table()
    act(state, PlayCard(3))
    assert state.phase == PLAY, "no power before the last card of the table turn"
    act(state, PlayCard(2))
    act(state, PlayCard(1))
    assert state.phase == POWER
    assert state.resolving == 0
    assert GAME.actor(state) == 0, "the magistrat of the first card resolves first"


def test_using_a_power_is_compulsory() -> None:
    state = _table()
    play_cards(state, [1, 7, 6])
    assert all(isinstance(m, TakeToken) for m in legal(state))
    with pytest.raises(IllegalMove, match="must now use the power"):
        GAME.check(state, 0, PlayCard(5))


def test_manant_takes_a_face_up_token_by_colour_or_a_random_face_down_one() -> None:
    state = _table()
    play_cards(state, [1, 7, 6])
    assert set(legal(state)) == {TakeToken(-1), TakeToken(CT), TakeToken(BY)}
    act(state, TakeToken(BY))
    assert _faces(state)[0] == [(BY, True), (CT, False), (BY, True)]
    state = _table()
    play_cards(state, [1, 7, 6])
    act(state, TakeToken(-1))
    taken = state.fronts[0][-1]
    assert not taken.up, "taken as it is: it stays face down"
    chance = [e for e in state.effects if e.kind == "chance"]
    assert chance
    assert chance[0].visible_to == [], "nobody sees which face-down token it was"


def test_menetrier_turns_up_a_token_in_any_game_or_in_the_pile() -> None:
    state = _table()
    play_cards(state, [2, 7, 6])
    assert set(legal(state)) == {TurnUp(0, 1), TurnUp(1, 0), TurnUp(2, 1), TurnUp(-1, -1)}
    act(state, TurnUp(1, 0))
    assert state.fronts[1][0].up
    state = _table()
    play_cards(state, [2, 7, 6])
    act(state, TurnUp(-1, -1))
    assert sum(t.up for t in state.pile) == 3
    assert any(e.kind == "chance" and e.visible_to is None for e in state.effects)


def test_magistrat_puts_another_players_token_into_the_pile_face_as_it_was() -> None:
    state = _table()
    play_cards(state, [3, 7, 6])
    assert all(isinstance(m, RemoveToken) and m.seat != 0 for m in legal(state))
    with pytest.raises(IllegalMove, match="another player"):
        GAME.check(state, 0, RemoveToken(0, 0))
    act(state, RemoveToken(2, 0))
    assert _faces(state)[2] == [(BY, False)]
    assert (state.pile[-1].colour, state.pile[-1].up) == (GB, True)


def test_intendant_exchanges_two_players_tokens() -> None:
    state = _table()
    play_cards(state, [5, 7, 6])
    act(state, ChooseToken(1, 0))
    with pytest.raises(IllegalMove, match="another player's game"):
        GAME.check(state, 0, ExchangeWith(1, 0))
    act(state, ExchangeWith(2, 1))
    assert _faces(state)[1] == [(BY, False)]
    assert _faces(state)[2] == [(GB, True), (GB, False)]


def test_intendant_exchanges_with_the_draw_pile() -> None:
    state = _table()
    play_cards(state, [5, 7, 6])
    act(state, ChooseToken(0, 0))
    act(state, ExchangeWith(-1, CT))
    assert _faces(state)[0] == [(CT, True), (CT, False)]
    assert (BY, True) in [(t.colour, t.up) for t in state.pile]


def test_religieux_has_no_power_without_variant_4() -> None:
    state = _table()
    play_cards(state, [4, 7, 6])
    assert state.phase == FREE, "the religieux's power is only used in variant 4"


def test_variant_4_religieux_moves_a_token_as_it_is() -> None:
    state = _table(variants=[4])
    play_cards(state, [4, 7, 6])
    act(state, ChooseToken(2, 0))
    assert set(legal(state)) == {MoveTo(0), MoveTo(1)}
    act(state, MoveTo(1))
    assert _faces(state)[1] == [(GB, False), (GB, True)]


def test_an_impossible_power_is_skipped_and_the_log_says_so() -> None:
    state = _table()
    set_tokens(state, [[(BY, True)], [], []], pile=[])
    play_cards(state, [3, 1, 6])
    skipped = [e.text for e in state.effects if e.kind == "skip"]
    assert any("magistrat" in text for text in skipped)
    assert any("manant" in text for text in skipped)
    assert len(state.fronts[0]) == 1


def test_the_winner_takes_a_free_action_then_collects_the_trick() -> None:
    state = _table()
    play_cards(state, [7, 6, 4])
    assert state.phase == FREE
    assert GAME.actor(state) == 0
    moves = set(legal(state))
    assert {TurnUp(0, 1), TurnUp(1, 0), TakeToken(-1)} <= moves
    assert TurnUp(-1, -1) not in moves, "the free action turns up a player's token only"
    act(state, TurnUp(0, 1))
    assert state.tricks[0] == [[0 * 8 + 7, 1 * 8 + 6, 2 * 8 + 4]]
    assert state.phase == PLAY
    assert state.leader == 0, "the winner leads the next trick"


def test_no_free_action_possible_is_skipped() -> None:
    state = _table()
    set_tokens(state, [[(BY, True)], [], []], pile=[])
    play_cards(state, [7, 6, 4])
    assert state.phase == PLAY
    assert state.tricks[0]
    assert any(e.kind == "skip" and "free action" in e.text for e in state.effects)


def test_taking_the_power_of_a_card_then_its_owner_does_not_use_it() -> None:
    state = _table()
    play_cards(state, [0, 3, 6])
    act(state, Steal(1, "power"))
    assert GAME.actor(state) == 0, "seat 0's malandrin now holds the magistrat's power"
    assert all(isinstance(m, RemoveToken) and m.seat != 0 for m in legal(state))
