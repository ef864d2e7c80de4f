"""The engine contract, written once and run against every registered game.

Each game package provides ``testing.plant_hidden_markers(state, viewer) -> list[str]``: it
writes unique marker values into everything hidden from ``viewer`` (other hands, face-down
tokens, deck and pile order...) and returns them; no marker may then appear in the view.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import json
from collections.abc import Iterator
from typing import Any

import pytest

import engine
from engine.bots import RandomBot, play_game
from engine.core import (
    BadMove,
    Game,
    GameState,
    IllegalMove,
    Move,
    SetupRecord,
    Termination,
    replay,
)
from engine.registry import GAME_MODULES

GAMES = {game.id: game for game in engine.games()}
GAME_IDS = sorted(GAMES)
SEAT_COUNTS = [
    (gid, n) for gid in GAME_IDS for n in range(GAMES[gid].min_players, GAMES[gid].max_players + 1)
]


def _testing_module(game: Game[Any]) -> Any:
    module = next(m for m in GAME_MODULES if importlib.import_module(m).GAME is game)
    return importlib.import_module(f"{module}.testing")


def _random_game(game: Game[Any], players: int, seed: str) -> Any:
    bots = [RandomBot(f"{seed}/bot{seat}") for seat in range(players)]
    return play_game(game, bots, seed=seed)


def _walk(game: Game[Any], players: int, seed: str) -> Iterator[tuple[GameState, int]]:
    """Yield (state, seat to act) along a random game."""
    state = game.new_game(players=players, seed=seed)
    bot = RandomBot(f"{seed}/walk")
    while seats := game.to_act(state):
        yield state, seats[0]
        moves = game.legal_moves(state, seats[0])
        game.apply_in_place(state, seats[0], bot.choose(game, state, seats[0], moves))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_registry_describes_the_game(game_id: str) -> None:
    info = GAMES[game_id].info().to_json()
    assert info["id"] == game_id == engine.get(game_id).id
    assert 1 <= info["min_players"] <= info["max_players"]
    assert info["editions"]
    assert info["engine_version"]
    assert info["options"]["type"] == "object"
    json.dumps(info)


@pytest.mark.parametrize(("game_id", "players"), SEAT_COUNTS)
def test_random_play_always_ends_with_a_result(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    for k in range(8):
        played = _random_game(game, players, f"ends-{players}-{k}")
        result = game.result(played.state)
        assert result is not None
        assert game.to_act(played.state) == []
        assert len(result.scores) == len(result.ranks) == players
        assert min(result.ranks) == 1
        assert isinstance(result.termination, Termination), "every result says why it ended"
        assert set(result.to_json()) == {"scores", "ranks", "details"}
        json.dumps(result.to_json())


@pytest.mark.parametrize(("game_id", "players"), SEAT_COUNTS)
def test_legal_moves_are_exactly_what_apply_accepts(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    for state, seat in _walk(game, players, f"exact-{players}"):
        legal = game.legal_moves(state, seat)
        assert legal, "a seat to act must have a legal move"
        assert len(set(legal)) == len(legal), "legal_moves lists a move twice"
        for move in legal:
            game.apply(state, seat, move)  # accepted, and ``state`` is untouched
        for move in _mutations(legal):
            if move not in legal:
                with pytest.raises(IllegalMove):
                    game.apply(state, seat, move)
        for other in range(players):
            if other not in game.to_act(state):
                assert game.legal_moves(state, other) == []
                with pytest.raises(IllegalMove):
                    game.apply(state, other, legal[0])


def _mutations(legal: list[Move]) -> Iterator[Move]:
    """Nearby moves: each integer field shifted, each tuple field trimmed or extended."""
    for move in legal[:12]:
        for field in dataclasses.fields(move):
            value = getattr(move, field.name)
            if isinstance(value, bool):
                yield dataclasses.replace(move, **{field.name: not value})
            elif isinstance(value, int):
                for delta in (-1, 1, 7, 1000):
                    yield dataclasses.replace(move, **{field.name: value + delta})
            elif isinstance(value, tuple):
                yield dataclasses.replace(move, **{field.name: value[:-1]})
                yield dataclasses.replace(move, **{field.name: (*value, *value[-1:])})
            elif isinstance(value, str):
                yield dataclasses.replace(move, **{field.name: value + "x"})


@pytest.mark.parametrize(("game_id", "players"), SEAT_COUNTS)
def test_moves_and_views_round_trip_through_json(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    for state, seat in _walk(game, players, f"json-{players}"):
        for move in game.legal_moves(state, seat):
            data = json.loads(json.dumps(move.to_json()))
            assert game.decode_move(data) == move
        for viewer in [None, *range(players)]:
            view = game.view(state, viewer)
            assert json.loads(json.dumps(view)) == view
        restored = game.state_from_json(json.loads(json.dumps(game.state_to_json(state))))
        assert game.state_to_json(restored) == game.state_to_json(state)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_bad_move_json_is_refused_as_malformed(game_id: str) -> None:
    game = GAMES[game_id]
    for data in ([], {"type": "no-such-move"}, {"no": "type"}, {"type": ["finish"]}):
        with pytest.raises(BadMove):
            game.decode_move(data)


@pytest.mark.parametrize(("game_id", "players"), SEAT_COUNTS)
def test_replay_of_a_logged_game_is_identical(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    seed = f"replay-{players}"
    played = _random_game(game, players, seed)
    setup = SetupRecord(game.id, game.editions[0], players, game.normalize_options(None), seed)
    logged = [(seat, json.loads(json.dumps(move.to_json()))) for seat, move in played.log]
    state, trail = replay(game, setup, logged)
    assert game.state_to_json(state) == game.state_to_json(played.state)
    assert game.result(state) == game.result(played.state)
    assert len(trail) == len(played.log) + 1
    # The audit view: stopping at step n gives the state after n moves.
    n = len(played.log) // 2
    partial, partial_trail = replay(game, setup, logged, until=n)
    assert len(partial_trail) == n + 1
    assert partial.step == n


@pytest.mark.parametrize(("game_id", "players"), SEAT_COUNTS)
def test_same_seed_and_moves_give_the_same_game(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    first = _random_game(game, players, "same")
    second = _random_game(game, players, "same")
    assert first.log == second.log
    assert game.state_to_json(first.state) == game.state_to_json(second.state)
    other = _random_game(game, players, "different")
    assert game.state_to_json(other.state) != game.state_to_json(first.state)


@pytest.mark.parametrize(("game_id", "players"), SEAT_COUNTS)
def test_views_hide_what_is_hidden_from_the_viewer(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    testing = _testing_module(game)
    checked = 0
    for index, (state, _seat) in enumerate(_walk(game, players, f"hidden-{players}")):
        if index % 3:
            continue
        for viewer in [None, *range(players)]:
            planted = game.clone(state)
            planted.rng.seed = "SEED-MARKER-5f1c"
            markers = [*testing.plant_hidden_markers(planted, viewer), "SEED-MARKER-5f1c"]
            text = json.dumps(game.view(planted, viewer))
            leaked = [marker for marker in markers if marker in text]
            assert not leaked, f"view for {viewer} shows hidden {leaked}"
            checked += len(markers)
    assert checked > 0


def _check_clone_independence(game: Game[Any], players: int, seed: str) -> None:
    """Along a random game: a clone equals its state, and a move played on either one leaves
    the other as it was (no list, dict or token shared between them)."""
    state = game.new_game(players=players, seed=seed)
    bot = RandomBot(f"{seed}/clone")
    while seats := game.to_act(state):
        seat = seats[0]
        move = bot.choose(game, state, seat, game.legal_moves(state, seat))
        twin = game.clone(state)
        before = game.state_to_json(state)
        assert game.state_to_json(twin) == before
        game.apply_in_place(twin, seat, move)
        assert game.state_to_json(state) == before, "a move on the clone changed the original"
        after = game.state_to_json(twin)
        game.apply_in_place(state, seat, move)
        assert game.state_to_json(twin) == after, "a move on the original changed the clone"
        assert game.state_to_json(state) == after


@pytest.mark.parametrize(("game_id", "players"), SEAT_COUNTS)
def test_a_clone_is_independent_of_its_original(game_id: str, players: int) -> None:
    _check_clone_independence(GAMES[game_id], players, f"clone-{players}")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_clone_check_catches_a_shallow_copy(game_id: str) -> None:
    """The check above can fail: a game whose clone shares the state's lists is caught."""
    game = GAMES[game_id]
    shallow = type("Shallow", (type(game),), {"clone": lambda self, state: copy.copy(state)})()
    with pytest.raises(AssertionError, match="changed the"):
        _check_clone_independence(shallow, game.min_players, "clone-shallow")
