"""What a tournament needs to know about a game: it exists, its player range, its options.

The engine registry (``engine.get``) is the truth. The preferred table size is tournament
data, not a rule of the game, so it lives here as data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import engine
from engine.core.errors import InvalidOptions, UnknownGame
from tournaments.errors import InvalidInput

#: The table size a club usually plays each game at (inside the game's player range).
PREFERRED_TABLE: Mapping[str, int] = {
    "les-7-blasons": 5,
    "blazon": 4,
    "13-couronnes": 4,
}


@dataclass(frozen=True)
class GameFacts:
    """A registered game as a tournament sees it."""

    id: str
    name: str
    min_players: int
    max_players: int
    editions: tuple[str, ...]

    @property
    def preferred_table(self) -> int:
        default = PREFERRED_TABLE.get(self.id, 4)
        return max(self.min_players, min(default, self.max_players))


def game_facts(game_id: str) -> GameFacts:
    """The registered game ``game_id``, or :class:`InvalidInput` naming the known games."""
    try:
        game = engine.get(game_id)
    except UnknownGame as exc:
        raise InvalidInput(str(exc)) from None
    return GameFacts(
        id=game.id,
        name=game.name,
        min_players=game.min_players,
        max_players=game.max_players,
        editions=tuple(game.editions),
    )


def game_name(game_id: str) -> str:
    """The name a person reads ("Les 7 Blasons" for ``les-7-blasons``); the id itself if the
    engine no longer knows the game, so an old tournament's pages still render."""
    try:
        return engine.get(game_id).name
    except UnknownGame:
        return game_id


def game_options(game_id: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game's options validated with every default filled in (``InvalidInput`` if wrong)."""
    try:
        return engine.get(game_id).normalize_options(options)
    except (InvalidOptions, UnknownGame) as exc:
        raise InvalidInput(str(exc)) from None
