"""Re-record the golden games: ``python tests/engine/golden/record.py [game-id ...]``.

A golden game is a finished game stored as data — its setup record (with the engine version
it was played under), every move, every step's effects and the result — that
``test_golden.py`` replays through ``engine.core.replay`` and compares step by step (the
python-chess perft habit). An engine change that alters how a stored game replays fails there.

Re-recording is a deliberate act that goes with a version bump (engine/core/versions.py): a
file ``<game>-<version>.json`` is written for the engine version running now, and files of
earlier versions are never rewritten — they are the games recorded under those versions, which
this engine must keep replaying as they were played. Run it after bumping a game's version,
commit the new file next to the old ones, and say in docs/rules/ what the new version changes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.bots import GreedyBot, RandomBot, play_game  # noqa: E402
from engine.core import Game, GameState, SetupRecord  # noqa: E402
from engine.core.replay import start  # noqa: E402

HERE = Path(__file__).resolve().parent

#: The games recorded for each game id: (players, options, seed, bots by seat: "g"/"r").
#: Small on purpose: a few games per game, mixing greedy and random players.
GOLDEN: dict[str, list[tuple[int, dict[str, Any], str, str]]] = {
    "13-couronnes": [
        (2, {"max_turns": 60}, "golden-13c-1", "gg"),
        (3, {"max_turns": 60, "hidden_crowns": True}, "golden-13c-2", "grg"),
        (4, {"max_turns": 40}, "golden-13c-3", "rrrr"),
    ],
    "les-7-blasons": [
        (3, {}, "golden-7b-1", "ggg"),
        (5, {"tie_rule": "strict", "variants": [1, 2, 3, 4]}, "golden-7b-2", "grgrg"),
    ],
    "blazon": [
        (2, {}, "golden-bz-1", "gg"),
        (3, {"abatement": True}, "golden-bz-2", "grg"),
    ],
}


def replayed_steps(game: Game[Any], setup: SetupRecord,
                   moves: list[tuple[int, Any]]) -> tuple[GameState, list[dict[str, Any]]]:  # fmt: skip
    """Replay ``moves`` from ``setup`` (``engine.core.replay.start``, then each move validated)
    and write each step's effects down right after the step, as the event store records and
    compares them (a game may keep changing an object it noted, e.g. a hand)."""
    state = start(game, setup)
    steps = [{"seat": None, "move": None, "effects": [e.to_json() for e in state.effects]}]
    for seat, raw in moves:
        move = game.decode_move(raw)
        game.apply_in_place(state, seat, move)
        steps.append(
            {
                "seat": seat,
                "move": move.to_json(),
                "effects": [e.to_json() for e in state.effects],
            }
        )
    return state, steps


def record_one(game: Game[Any], players: int, options: dict[str, Any], seed: str,
               bots: str) -> dict[str, Any]:  # fmt: skip
    """Play one bot game and return it as golden data, written down from a replay."""
    chosen = [
        GreedyBot(f"{seed}/{s}") if kind == "g" else RandomBot(f"{seed}/{s}")
        for s, kind in enumerate(bots)
    ]
    played = play_game(game, chosen, seed=seed, options=options)
    setup = SetupRecord(game.id, game.editions[0], players, game.normalize_options(options), seed)
    moves = [(seat, move.to_json()) for seat, move in played.log]
    state, steps = replayed_steps(game, setup, moves)
    result = game.result(state)
    assert result is not None, f"{game.id} {seed}: the bot game did not end"
    return {
        "engine_version": game.engine_version,
        "setup": {**setup.to_json(), "engine_version": game.engine_version},
        "steps": steps,
        "result": result.to_json(),
    }


def path_for(game: Game[Any]) -> Path:
    """Where the golden games of ``game`` at its running version live."""
    return HERE / f"{game.id}-{game.engine_version}.json"


def record(game_id: str) -> Path:
    """Write ``<game>-<version>.json`` for the running engine version; refuse to overwrite."""
    game = engine.get(game_id)
    target = path_for(game)
    if target.exists():
        raise SystemExit(
            f"{target.name} exists: golden games of a released version are never re-recorded; "
            f"bump {game_id}'s engine version first (engine/core/versions.py)"
        )
    games = [record_one(game, *spec) for spec in GOLDEN[game_id]]
    lines = ",\n".join(json.dumps(g, separators=(",", ":"), sort_keys=True) for g in games)
    target.write_text(f"[\n{lines}\n]\n")
    return target


def main(argv: list[str]) -> None:
    for game_id in argv or list(GOLDEN):
        target = record(game_id)
        print(f"wrote {target.relative_to(ROOT)} ({target.stat().st_size} bytes)")


if __name__ == "__main__":
    main(sys.argv[1:])
