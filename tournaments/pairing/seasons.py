"""A club's season: its players ranked by placement points over the season's tournaments.

Pure, like the standings: :func:`season_ranking` reads each tournament's final places
(player id -> place, 1 the winner; tied players share a place) and the season's points by
place (e.g. 10, 7, 5, 3, 1; places beyond the list earn nothing).

Players tied for a place in a tournament are scored by the season's tie rule:
``share`` (the default) splits the points of the places they occupy between them, as the
standings do with a game's ranks (two tied for 2nd under 10/7/5 get 6 each);
``higher`` gives each of them the points of the place they tied for (7 each).

The season's own order: points, then countback (more 1st places, then more 2nd places, ...),
then more tournaments played; players still level share the rank and are listed by id.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.pairing.types import PairingError, gettext_noop

#: The tie rules a season may use.
TIE_RULES = ("share", "higher")


@dataclass(frozen=True)
class SeasonTournament:
    """One tournament of the season: its id and each player's final place (ties share one)."""

    id: int
    places: Mapping[int, int]


@dataclass(frozen=True)
class SeasonEntry:
    """What one tournament gave a player: their final place and the season points for it."""

    tournament: int
    place: int
    points: float


@dataclass(frozen=True)
class SeasonRow:
    """A player's line of the season's ranking; ``entries`` follow the tournaments' order."""

    rank: int
    player: int
    points: float
    played: int
    best: int
    entries: tuple[SeasonEntry, ...]


def placement_points(
    places: Mapping[int, int], points_by_place: Sequence[float], tie_rule: str = "share"
) -> dict[int, float]:
    """Season points per player for one tournament's final places.

    >>> placement_points({1: 1, 2: 2, 3: 2, 4: 4}, (10, 7, 5, 3, 1))
    {1: 10.0, 2: 6.0, 3: 6.0, 4: 3.0}
    >>> placement_points({1: 1, 2: 2, 3: 2, 4: 4}, (10, 7, 5, 3, 1), "higher")
    {1: 10.0, 2: 7.0, 3: 7.0, 4: 3.0}
    """
    _check(points_by_place, tie_rule)
    sharing = Counter(places.values())
    earned: dict[int, float] = {}
    for player, place in places.items():
        if place < 1:
            raise PairingError(f"A final place is 1 or more (player {player} has {place}).")
        if tie_rule == "higher":
            earned[player] = _worth(points_by_place, place - 1)
        else:
            occupied = range(place - 1, place - 1 + sharing[place])
            earned[player] = sum(_worth(points_by_place, p) for p in occupied) / sharing[place]
    return earned


def season_ranking(
    tournaments: Sequence[SeasonTournament],
    points_by_place: Sequence[float],
    tie_rule: str = "share",
) -> list[SeasonRow]:
    """Every player who played a tournament of the season, best first.

    >>> rows = season_ranking(
    ...     [SeasonTournament(1, {7: 1, 8: 2, 9: 3}), SeasonTournament(2, {8: 1, 9: 2})],
    ...     (10, 7, 5),
    ... )
    >>> [(r.rank, r.player, r.points, r.played, r.best) for r in rows]
    [(1, 8, 17.0, 2, 1), (2, 9, 12.0, 2, 2), (3, 7, 10.0, 1, 1)]
    """
    _check(points_by_place, tie_rule)
    entries: dict[int, list[SeasonEntry]] = {}
    for tournament in tournaments:
        earned = placement_points(tournament.places, points_by_place, tie_rule)
        for player, place in tournament.places.items():
            entry = SeasonEntry(tournament.id, place, earned[player])
            entries.setdefault(player, []).append(entry)
    depth = max((e.place for mine in entries.values() for e in mine), default=0)
    keys = {player: _order_key(mine, depth) for player, mine in entries.items()}
    rows: list[SeasonRow] = []
    for position, player in enumerate(sorted(keys, key=lambda p: (keys[p], p)), start=1):
        rank = rows[-1].rank if rows and keys[rows[-1].player] == keys[player] else position
        mine = entries[player]
        rows.append(
            SeasonRow(
                rank=rank,
                player=player,
                points=_season_points(mine),
                played=len(mine),
                best=min(e.place for e in mine),
                entries=tuple(mine),
            )
        )
    return rows


def parse_numbers(text: str) -> tuple[float, ...]:
    """Numbers as an organiser types a list of them: "10/7/5/3/1", "4, 3, 2" or "3 4 5";
    ``ValueError`` for a word that is not a number (the caller says what was expected).

    >>> parse_numbers("4, 3; 2/1.5 0")
    (4.0, 3.0, 2.0, 1.5, 0.0)
    """
    words = text.replace("/", " ").replace(",", " ").replace(";", " ").split()
    numbers = tuple(float(w) for w in words)
    if not all(math.isfinite(n) for n in numbers):
        raise ValueError(text)
    return numbers


def parse_points(text: str) -> tuple[float, ...]:
    """Points by place as an organiser types them: "10/7/5/3/1", "10, 7, 5" or "10 7 5".

    >>> parse_points("10/7/5/3/1")
    (10.0, 7.0, 5.0, 3.0, 1.0)
    """
    try:
        points = parse_numbers(text)
    except ValueError:
        raise PairingError(
            gettext_noop(
                "Write the points by place as numbers separated by slashes, e.g. 10/7/5/3/1."
            )
        ) from None
    _check(points, "share")
    return points


def _worth(points_by_place: Sequence[float], index: int) -> float:
    return float(points_by_place[index]) if index < len(points_by_place) else 0.0


def _order_key(entries: Sequence[SeasonEntry], depth: int) -> tuple[float, tuple[int, ...], int]:
    """Smaller is better: more points, then more of each place from 1st down to ``depth``,
    then more tournaments played."""
    counts = Counter(e.place for e in entries)
    countback = tuple(-counts.get(place, 0) for place in range(1, depth + 1))
    return (-_season_points(entries), countback, -len(entries))


def _season_points(entries: Sequence[SeasonEntry]) -> float:
    """A player's season points, rounded to 9 decimals: shared places give thirds and sixths,
    whose float sums differ in the last digit with the order they are added in (3.666…665
    against 3.666…67). Rounded, players level on points are equal, ranked together and shown
    alike."""
    return round(sum(e.points for e in entries), 9)


def _check(points_by_place: Sequence[float], tie_rule: str) -> None:
    if tie_rule not in TIE_RULES:
        raise PairingError(f"Unknown tie rule {tie_rule!r}: use one of {', '.join(TIE_RULES)}.")
    if not points_by_place:
        raise PairingError(gettext_noop("A season needs points for at least the 1st place."))
    if any(p < 0 for p in points_by_place):
        raise PairingError(gettext_noop("Points by place cannot be negative."))
    if any(a < b for a, b in itertools.pairwise(points_by_place)):
        raise PairingError(
            gettext_noop("Points by place cannot grow: a better place earns at least as much.")
        )
