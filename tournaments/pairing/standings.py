"""Standings: points by finishing rank, ties share, ordered tie-breakers."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.types import GameRecord, StandingRow, StandingRule

TIEBREAKERS = ("opponents_points", "game_score", "head_to_head", "wins")


def standings(
    entrants: Sequence[int], games: Sequence[GameRecord], rule: StandingRule
) -> list[StandingRow]:
    """The standings of ``entrants`` after ``games``, best first."""
    raise NotImplementedError
