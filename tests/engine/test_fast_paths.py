"""The replay's fast paths (issue #19) give what the plain paths give: decoded moves shared
between decodes, effect and trail sentences written when first read, shared seat values, and
13 Couronnes' direct check of a theft."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

import engine
from engine.blazon.moves import Pay, Place
from engine.bots import RandomBot, play_game
from engine.core import BadMove, Effect, Rng, Seat, SetupRecord, TrailStep, replay
from engine.core.text import _
from engine.treize_couronnes import legality as couronnes
from engine.treize_couronnes.moves import Reveal, StealCards, StealCrowns
from engine.treize_couronnes.state import CouronnesState

PLACE = {"type": "place", "card": 3, "space": 1, "align": "top", "herald": True, "abate": False}


def test_a_move_decoded_again_is_the_same_value_and_only_for_the_exact_types() -> None:
    blazon = engine.get("blazon")
    first = blazon.decode_move({"type": "pay", "card": 5})
    assert first == Pay(5)
    assert blazon.decode_move({"type": "pay", "card": 5}) is first
    assert blazon.decode_move(dict(PLACE)) == Place(3, 1, "top", True, False)
    # True == 1 and hash(True) == hash(1): the cache must not hand either for the other
    with pytest.raises(BadMove, match="expected an integer"):
        blazon.decode_move({"type": "pay", "card": True})
    with pytest.raises(BadMove, match="expected true or false"):
        blazon.decode_move({**PLACE, "herald": 1})
    with pytest.raises(BadMove, match="unexpected fields"):
        blazon.decode_move({"type": "pay", "card": 5, "extra": 1})


def test_tuple_fields_are_decoded_directly_as_the_full_decoder_does() -> None:
    couronnes_game = engine.get("13-couronnes")
    data: dict[str, Any] = {"type": "reveal", "cards": ["B01", "R02"], "jokers": [], "blasons": []}
    move = couronnes_game.decode_move(data)
    assert move == Reveal(("B01", "R02"), (), ())
    assert isinstance(move, Reveal)
    assert type(move.cards) is tuple
    assert couronnes_game.decode_move({"type": "steal-crowns", "victims": [1, 1]}) == StealCrowns(
        (1, 1)
    )
    with pytest.raises(BadMove, match="expected a string"):
        couronnes_game.decode_move({**data, "cards": ["B01", 2]})
    with pytest.raises(BadMove, match="expected an integer"):
        couronnes_game.decode_move({"type": "steal-cards", "victims": [True]})


def test_a_noted_effect_writes_its_sentence_when_read_and_equals_one_built_eagerly() -> None:
    message = _("{seat} draws {card}", seat=Seat(2), card="a tincture")
    noted = Effect.noted("chance", message, {"card": 7}, [2])
    eager = Effect("chance", "seat 2 draws a tincture", {"card": 7}, [2])
    assert noted.text == "seat 2 draws a tincture" == str(message)
    assert noted == eager
    assert noted.to_json() == eager.to_json()
    assert repr(noted) == repr(eager)
    eager.text = "another sentence"  # still a plain field to write
    assert eager.text == "another sentence"
    assert noted != eager


@pytest.mark.parametrize("game_id", ["blazon", "les-7-blasons", "13-couronnes"])
def test_every_trail_step_reads_as_the_game_describes_its_move(game_id: str) -> None:
    game = engine.get(game_id)
    played = play_game(game, [RandomBot(f"trail/{s}") for s in range(3)], seed="trail")
    setup = SetupRecord(game.id, game.editions[0], 3, game.normalize_options(None), "trail")
    _state, trail = replay(game, setup, [(s, m.to_json()) for s, m in played.log])
    assert trail[0].text == "the game is set up"
    for step, (seat, move) in zip(trail[1:], played.log, strict=True):
        assert (step.seat, step.move) == (seat, move)
        assert step.text == game.describe(move, seat)
    _again, same = replay(game, setup, played.log)
    assert same == trail
    step = trail[1]
    written = TrailStep(step.step, step.seat, step.move, step.text, step.effects)
    assert written == step
    assert repr(written) == repr(step)
    assert TrailStep(step.step, step.seat, step.move, "other words", step.effects) != step


def test_a_seat_is_one_shared_frozen_value_that_copies_and_pickles() -> None:
    assert Seat(3) is Seat(3)
    assert Seat(3) == copy.deepcopy(Seat(3)) == pickle.loads(pickle.dumps(Seat(3)))
    assert str(Seat(3)) == "seat 3"
    assert Seat(3) != Seat(4)
    with pytest.raises(AttributeError):
        Seat(3).index = 4  # type: ignore[misc]
    assert Seat(3).index == 3


def _theft_candidates(state: CouronnesState, seat: int) -> list[Any]:
    """Every listed theft and near misses: unsorted, one more or one fewer, self, bools."""
    listed = couronnes._reward_moves(state, seat)
    others: list[Any] = []
    for move in listed:
        if not isinstance(move, (StealCrowns, StealCards)):
            continue
        cls, victims = type(move), move.victims
        others += [cls(tuple(reversed(victims))), cls(victims[1:]), cls((*victims, seat))]
        others += [cls((*victims, o)) for o in range(state.players)]
        others += [cls(tuple(v == 1 if v == 1 else v for v in victims))]
        other = StealCards if cls is StealCrowns else StealCrowns
        others.append(other(victims))
    return [*listed, *others]


def test_the_direct_theft_check_accepts_exactly_the_listed_splits() -> None:
    """``_reward_allows`` agrees with membership in ``_reward_moves`` at every pending theft
    of many random games (with hidden crowns too), for the listed moves and near misses."""
    game = engine.get("13-couronnes")
    checked = 0
    for k in range(40):
        players = 2 + k % 4
        options = {"hidden_crowns": k % 3 == 0}
        state = game.new_game(players=players, seed=f"theft-{k}", options=options)
        bot = RandomBot(f"theft-{k}")
        while seats := game.to_act(state):
            seat = seats[0]
            if state.pending and state.pending[0].startswith("steal"):
                listed = couronnes._reward_moves(state, seat)
                for move in _theft_candidates(state, seat):
                    assert couronnes._reward_allows(state, seat, move) == (move in listed), move
                    checked += 1
            moves = game.legal_moves(state, seat)
            game.apply_in_place(state, seat, bot.choose(game, state, seat, moves))
    assert checked > 100


def test_a_shuffle_draws_as_randbelow_at_each_position_from_the_last_down() -> None:
    """``Rng.shuffle`` writes the draws out in one loop: the same as the plain Fisher–Yates."""
    for size in (0, 1, 2, 3, 7, 64, 121):
        for start in (0, 5):
            fast, plain = Rng(f"shuffle-{size}"), Rng(f"shuffle-{size}")
            fast.counter = plain.counter = start
            shuffled, expected = list(range(size)), list(range(size))
            fast.shuffle(shuffled)
            for i in range(size - 1, 0, -1):
                j = plain.randbelow(i + 1)
                expected[i], expected[j] = expected[j], expected[i]
            assert shuffled == expected
            assert fast.counter == plain.counter
