"""13 Couronnes (2–5 players): apply the law of the King in power to be first to 13 crowns."""

from engine.treize_couronnes.game import GAME, TreizeCouronnes

__all__ = ["GAME", "TreizeCouronnes"]
