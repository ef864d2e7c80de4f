"""The engine contract, moves, results, the deterministic RNG and replay."""

from engine.core.codec import from_plain, to_plain
from engine.core.errors import (
    BadMove,
    EditionDataError,
    EngineError,
    IllegalMove,
    InvalidOptions,
    ReplayError,
    UnknownGame,
)
from engine.core.game import (
    PUBLIC,
    Effect,
    Game,
    GameInfo,
    GameState,
    Result,
    Termination,
    is_competition_ranking,
    ranks_from_keys,
    rules_since,
)
from engine.core.moves import Move, MoveSet, move_type
from engine.core.options import Option, normalize_options, options_schema
from engine.core.replay import Replay, SetupRecord, TrailStep, chance_outcomes, replay
from engine.core.rng import Rng, seed_commitment
from engine.core.seats import next_seat, seats_after
from engine.core.text import Seat, Text
from engine.core.versions import replay_compatible, version_at_least

__all__ = [
    "PUBLIC",
    "BadMove",
    "EditionDataError",
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
    "Replay",
    "ReplayError",
    "Result",
    "Rng",
    "Seat",
    "SetupRecord",
    "Termination",
    "Text",
    "TrailStep",
    "UnknownGame",
    "chance_outcomes",
    "from_plain",
    "is_competition_ranking",
    "move_type",
    "next_seat",
    "normalize_options",
    "options_schema",
    "ranks_from_keys",
    "replay",
    "replay_compatible",
    "rules_since",
    "seats_after",
    "seed_commitment",
    "to_plain",
    "version_at_least",
]
