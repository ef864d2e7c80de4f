"""Les 7 Blasons: a trick-taking game of 3–7 players collecting each other's blason tokens.

``GAME`` is the engine (rulings 7B-1..7B-4 and variants 1–4); see docs/rules/les-7-blasons.md.
"""

from engine.sept_blasons.game import SeptBlasons

GAME = SeptBlasons()

__all__ = ["GAME", "SeptBlasons"]
