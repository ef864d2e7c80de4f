"""Elimination brackets: single and double for two players, top-K knockout for tables of N."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournaments.pairing.types import Bracket


def single_elimination(seeds: Sequence[int]) -> Bracket:
    """A single-elimination bracket; ``seeds`` are entrant ids, best first; byes go to the top seeds."""
    raise NotImplementedError


def double_elimination(seeds: Sequence[int]) -> Bracket:
    """A double-elimination bracket (winners, losers, grand final); byes go to the top seeds."""
    raise NotImplementedError


def knockout(seeds: Sequence[int], *, table_size: int, advance: int) -> Bracket:
    """A multiplayer knockout: tables of ``table_size``, the top ``advance`` of each go on."""
    raise NotImplementedError


def bracket_advance(bracket: Bracket, results: Mapping[str, Sequence[int]]) -> Bracket:
    """The bracket with ``results`` (match id -> finishing order, winner first) applied."""
    raise NotImplementedError
