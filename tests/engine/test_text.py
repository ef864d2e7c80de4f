"""Engine sentences as message ids with parameters (engine/core/text.py)."""

from __future__ import annotations

import pytest

import engine
from engine.core import IllegalMove, Seat, Termination, Text
from engine.core.text import _


def test_str_is_the_english_sentence_with_seats_as_the_engine_wrote_them() -> None:
    text = _(
        "{seat} does not hold {card}", seat=Seat(2), card=_("the {colour} King", colour="blue")
    )
    assert str(text) == "seat 2 does not hold the blue King"
    listed = _("{seat} steals a crown from {victims}", seat=Seat(0), victims=(Seat(1), Seat(3)))
    assert str(listed) == "seat 0 steals a crown from seat 1, seat 3"
    nested = _("{seat} takes {token}", seat=Seat(1), token=_("a face-down token"))
    assert str(nested) == "seat 1 takes a face-down token"


def test_json_round_trip_keeps_seats_nested_texts_and_lists() -> None:
    text = _(
        "{who} moves {token} from {source} to {targets}",
        who=_("{seat} ({character})", seat=Seat(0), character="intendant"),
        token=_("a face-up {colour} token", colour="Bellay"),
        source=Seat(1),
        targets=(Seat(2), Seat(3)),
    )
    again = Text.from_json(text.to_json())
    assert again == text
    assert str(again) == str(text)
    assert again.params["source"] == Seat(1)


@pytest.mark.parametrize("game_id", ["blazon", "les-7-blasons", "13-couronnes"])
def test_a_refusal_carries_its_text_and_its_english_message(game_id: str) -> None:
    game = engine.get(game_id)
    state = game.new_game(players=3, seed="text")
    idle = next(s for s in range(3) if s not in game.to_act(state))
    move = game.legal_moves(state, game.to_act(state)[0])[0]
    with pytest.raises(IllegalMove) as refused:
        game.apply(state, idle, move)
    assert isinstance(refused.value.text, Text)
    assert str(refused.value) == str(refused.value.text)
    assert Seat(idle) in refused.value.text.params.values()


@pytest.mark.parametrize("game_id", ["blazon", "les-7-blasons", "13-couronnes"])
def test_describe_is_describe_text_in_english_and_effects_carry_their_message(
    game_id: str,
) -> None:
    game = engine.get(game_id)
    state = game.new_game(players=3, seed="text")
    seat = game.to_act(state)[0]
    move = game.legal_moves(state, seat)[0]
    assert game.describe(move, seat) == str(game.describe_text(move, seat))
    after = game.apply(state, seat, move)
    for effect in [*state.effects, *after.effects]:
        assert effect.message is not None
        assert effect.text == str(effect.message)
        assert effect.public_json(None)["message"] == effect.message.to_json()


def test_every_termination_has_a_sentence() -> None:
    assert all(isinstance(t.text, Text) and t.text.msgid for t in Termination)


@pytest.mark.parametrize("game_id", ["blazon", "les-7-blasons", "13-couronnes"])
def test_a_state_read_back_from_plain_data_keeps_its_effects_messages(game_id: str) -> None:
    """A snapshot (state_to_json) read by another process still shows effects translated."""
    game = engine.get(game_id)
    state = game.new_game(players=3, seed="snapshot")
    restored = game.state_from_json(game.state_to_json(state))
    assert restored == state
    assert [e.message for e in restored.effects] == [e.message for e in state.effects]
    assert game.state_to_json(restored) == game.state_to_json(state)
