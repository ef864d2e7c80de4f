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
from engine.core import SetupRecord, replay, replay_compatible
from tests.engine.golden.record import GOLDEN, effect_json, path_for

HERE = Path(__file__).resolve().parent
FILES = sorted(HERE.glob("*.json"))


def _golden_games() -> list[tuple[str, int, dict[str, Any]]]:
    found = []
    for path in FILES:
        for index, data in enumerate(json.loads(path.read_text())):
            found.append((path.name, index, data))
    return found


GAMES = _golden_games()


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
    setup = SetupRecord.from_json(data["setup"])
    game = engine.get(setup.game)
    assert replay_compatible(data["engine_version"], game.engine_version), name
    steps = data["steps"]
    moves = [(step["seat"], step["move"]) for step in steps[1:]]
    state, trail = replay(game, setup, moves)
    assert len(trail) == len(steps)
    for number, (replayed, recorded) in enumerate(zip(trail, steps, strict=True)):
        effects = [effect_json(e) for e in replayed.effects]
        assert effects == recorded["effects"], f"{name} game {index}: step {number} differs"
    result = game.result(state)
    assert result is not None
    assert result.to_json() == data["result"]
