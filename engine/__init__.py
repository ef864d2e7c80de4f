"""Herald's rules engines: pure Python, no Django. See engine/core for the contract."""

from engine.registry import games, get

__all__ = ["games", "get"]
