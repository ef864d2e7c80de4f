"""The engine contract, moves, results, the deterministic RNG and replay."""

from engine.core.codec import from_plain, to_plain
from engine.core.errors import (
    BadMove,
    EngineError,
    IllegalMove,
    InvalidOptions,
    ReplayError,
    UnknownGame,
)
from engine.core.game import PUBLIC, Effect, Game, GameInfo, GameState, Result, ranks_from_keys
from engine.core.moves import Move, MoveSet, move_type
from engine.core.options import Option, normalize_options, options_schema
from engine.core.replay import SetupRecord, TrailStep, chance_outcomes, replay
from engine.core.rng import Rng, seed_commitment
from engine.core.versions import replay_compatible

__all__ = [
    "PUBLIC",
    "BadMove",
    "Effect",
    "EngineError",
    "Game",
    "GameInfo",
    "GameState",
    "IllegalMove",
    "InvalidOptions",
    "Move",
    "MoveSet",
    "Option",
    "ReplayError",
    "Result",
    "Rng",
    "SetupRecord",
    "TrailStep",
    "UnknownGame",
    "chance_outcomes",
    "from_plain",
    "move_type",
    "normalize_options",
    "options_schema",
    "ranks_from_keys",
    "replay",
    "replay_compatible",
    "seed_commitment",
    "to_plain",
]
