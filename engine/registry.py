"""The registry of games: ``engine.games()`` and ``engine.get("les-7-blasons")``.

Game modules are listed here and imported on first use; each module exposes ``GAME``.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.core.errors import UnknownGame
from engine.core.game import Game

GAME_MODULES: tuple[str, ...] = ("engine.treize_couronnes", "engine.blazon", "engine.sept_blasons")

_registry: dict[str, Game[Any]] = {}


def _load() -> dict[str, Game[Any]]:
    if not _registry:
        for module_name in GAME_MODULES:
            game: Game[Any] = importlib.import_module(module_name).GAME
            _registry[game.id] = game
    return _registry


def games() -> list[Game[Any]]:
    """Every registered game, in registry order."""
    return list(_load().values())


def get(game_id: str) -> Game[Any]:
    """The game with this id, or :class:`UnknownGame` listing the known ids."""
    registry = _load()
    try:
        return registry[game_id]
    except KeyError:
        known = ", ".join(registry)
        raise UnknownGame(f"unknown game {game_id!r}; games: {known}") from None
