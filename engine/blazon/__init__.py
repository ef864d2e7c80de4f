"""Blazon: place heraldic Element cards on a shield, earn distinctions (2–4 players)."""

from engine.blazon.game import BlazonGame
from engine.blazon.shield import blazon_text

GAME = BlazonGame()

__all__ = ["GAME", "BlazonGame", "blazon_text"]
