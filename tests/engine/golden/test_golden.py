"""Golden games: recorded games stored as data, replayed through ``engine.core.replay``.

Each ``<game>-<version>.json`` holds a few finished games played under that engine version:
the setup record, every move, every step's effects and the result. Replaying them with the
engine running now must give the very same effects at every step and the same result — the
promise ``engine/core/versions.py`` makes for every version of the same major. A change that
alters how a stored game replays fails here and must either keep the old behaviour for games
set up under the old version or bump the major version. ``record.py`` (same folder) records
the games of a new version; see its docstring.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.core import EngineError, SetupRecord, replay, replay_compatible
from tests.engine.golden.record import GOLDEN, path_for, replayed_steps

HERE = Path(__file__).resolve().parent
FILES = sorted(HERE.glob("*.json"))


def _golden_games() -> list[tuple[str, int, dict[str, Any]]]:
    found = []
    for path in FILES:
        for index, data in enumerate(json.loads(path.read_text())):
            found.append((path.name, index, data))
    return found


GAMES = _golden_games()


def _setup(data: dict[str, Any], *, as_recorded: bool = True) -> SetupRecord:
    """The golden game's setup record, under the engine version it was recorded with (as the
    event store's ``GameCreated`` record gives it) or, ``as_recorded=False``, the running one."""
    setup = dict(data["setup"])
    setup["engine_version"] = data["engine_version"] if as_recorded else ""
    return SetupRecord.from_json(setup)


def _moves(data: dict[str, Any]) -> list[tuple[int, Any]]:
    return [(step["seat"], step["move"]) for step in data["steps"][1:]]


def _first_difference(data: dict[str, Any], setup: SetupRecord) -> int | None:
    """The first step whose replay differs from the record (effects, or a refused move)."""
    game = engine.get(setup.game)
    recorded = data["steps"]
    for number in range(len(recorded)):
        try:
            _, steps = replayed_steps(game, setup, _moves(data)[:number])
        except EngineError:
            return number
        if steps[number] != recorded[number]:
            return number
    return None


def test_every_game_has_golden_games_for_its_running_version() -> None:
    """A version bump comes with the golden games of the new version (record.py)."""
    for game_id in GOLDEN:
        assert path_for(engine.get(game_id)).exists(), (
            f"run tests/engine/golden/record.py {game_id}"
        )


@pytest.mark.parametrize(("name", "index", "data"), GAMES, ids=[f"{n}#{i}" for n, i, _ in GAMES])
def test_golden_game_replays_step_by_step_as_recorded(
    name: str, index: int, data: dict[str, Any]
) -> None:
    """Every step's effects and the result are those recorded under the game's version."""
    setup = _setup(data)
    game = engine.get(setup.game)
    assert replay_compatible(data["engine_version"], game.engine_version), name
    _, steps = replayed_steps(game, setup, _moves(data))
    assert len(steps) == len(data["steps"])
    for number, (replayed, recorded) in enumerate(zip(steps, data["steps"], strict=True)):
        assert replayed == recorded, f"{name} game {index}: step {number} differs"
    state, trail = replay(game, setup, _moves(data))  # the replay the event store runs
    assert len(trail) == len(steps)
    result = game.result(state)
    assert result is not None
    assert result.to_json() == data["result"]


def test_a_13_couronnes_1_2_game_differs_under_1_3_only_from_its_first_reshuffle() -> None:
    """Why 13 Couronnes 1.3.0 keeps the 1.2.0 reshuffle for games set up under 1.2.0: replayed
    with the 1.3.0 rule (the covered Kings go back into the pile), the recorded game with a
    reshuffle differs exactly at that reshuffle. As recorded (under 1.2.0) it replays as played."""
    data = json.loads((HERE / "13-couronnes-1.2.0.json").read_text())[2]
    first = _first_difference(data, _setup(data, as_recorded=False))
    assert first is not None
    reshuffles = [
        number
        for number, step in enumerate(data["steps"])
        if any("shuffled into a new draw pile" in e["text"] for e in step["effects"])
    ]
    assert first == reshuffles[0]
    assert _first_difference(data, _setup(data)) is None
