"""Stages: split entrants into groups, then cut the best of the groups to a bracket."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournaments.pairing.types import StandingRow


def split_groups(seeds: Sequence[int], groups: int) -> list[list[int]]:
    """Entrant ids in seed order dealt into ``groups`` groups by snake seeding."""
    raise NotImplementedError


def cut(
    standings: Sequence[StandingRow],
    *,
    top: int,
    groups: Mapping[int, str] | None = None,
) -> list[int]:
    """The entrants who go through to the bracket, in seed order for it.

    Without ``groups``: the ``top`` best overall. With ``groups`` (entrant id -> group name,
    standings rows of all groups together): the ``top`` best of each group, all group winners
    first, then all runners-up, and so on.
    """
    raise NotImplementedError
