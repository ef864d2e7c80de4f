"""Stages: deal entrants into groups, then cut the best of the groups to a bracket."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournaments.pairing.types import PairingError, StandingRow


def split_groups(seeds: Sequence[int], groups: int) -> list[list[int]]:
    """Entrant ids in seed order dealt into ``groups`` groups by snake seeding, so every group
    gets a fair share of strong and weak entrants.

    >>> split_groups([1, 2, 3, 4, 5, 6, 7], 3)
    [[1, 6, 7], [2, 5], [3, 4]]
    """
    if groups < 1:
        raise PairingError("There must be at least one group.")
    if len(set(seeds)) != len(seeds):
        raise PairingError("An entrant appears twice in the group seeding.")
    dealt: list[list[int]] = [[] for _ in range(groups)]
    for position, entrant in enumerate(seeds):
        row, column = divmod(position, groups)
        dealt[column if row % 2 == 0 else groups - 1 - column].append(entrant)
    return dealt


def cut(
    standings: Sequence[StandingRow],
    *,
    top: int,
    groups: Mapping[int, str] | None = None,
) -> list[int]:
    """The entrants who go through to the bracket, in seed order for it.

    ``standings`` rows are best first (within each group when there are groups). Without
    ``groups``: the ``top`` best overall. With ``groups`` (entrant id -> group name): the
    ``top`` best of each group; all group winners are seeded first, then all runners-up, and
    so on, each tier ordered by points and then the tie-breaks.

    >>> rows = [StandingRow(e, r, p, {}, 3, 0, 0) for e, r, p in [(7, 1, 9), (3, 2, 5), (4, 3, 1)]]
    >>> cut(rows, top=2)
    [7, 3]
    """
    if top < 1:
        raise PairingError("At least one entrant per cut must go through.")
    if groups is None:
        if top > len(standings):
            raise PairingError(f"Only {len(standings)} entrants are ranked; cannot take {top}.")
        return [row.entrant for row in standings[:top]]
    return _cut_groups(standings, top, groups)


def _cut_groups(standings: Sequence[StandingRow], top: int, groups: Mapping[int, str]) -> list[int]:
    by_group: dict[str, list[StandingRow]] = {}
    for row in standings:
        if row.entrant not in groups:
            raise PairingError(f"Entrant {row.entrant} is ranked but belongs to no group.")
        by_group.setdefault(groups[row.entrant], []).append(row)
    short = sorted(name for name, rows in by_group.items() if len(rows) < top)
    if short:
        raise PairingError(
            f"Group(s) {', '.join(short)} have fewer than {top} ranked entrants to send through."
        )
    seeded: list[int] = []
    for place in range(top):
        tier = [rows[place] for rows in by_group.values()]
        tier.sort(key=lambda r: (-r.points, *(-v for v in r.tiebreaks.values()), r.rank, r.entrant))
        seeded.extend(row.entrant for row in tier)
    return seeded
