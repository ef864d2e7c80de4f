"""Standings: points by finishing rank (ties share), then ordered tie-breakers."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tournaments.pairing.types import GameRecord, PairingError, StandingRow, StandingRule

TIEBREAKERS = ("opponents_points", "game_score", "head_to_head", "wins")


@dataclass
class _Tally:
    """Everything counted for one entrant."""

    points: float = 0.0
    games: int = 0
    wins: int = 0
    byes: int = 0
    late_byes: int = 0
    game_score: float = 0.0
    opponents: list[list[int]] = field(default_factory=list)


def standings(
    entrants: Sequence[int], games: Sequence[GameRecord], rule: StandingRule
) -> list[StandingRow]:
    """The standings of ``entrants`` after ``games``, best first.

    Points come from ``rule.points_by_rank``; entrants who tie for a place split the points of
    the places they occupy. A bye earns ``rule.bye_points`` and counts neither as a game nor
    as a win; a round missed before a late entry earns ``rule.late_entry_points`` the same
    way. Tie-breakers apply in the rule's order; ``opponents_points`` is the multiplayer
    Buchholz (over each game, the final points of everyone else at the table; byes add
    nothing), ``head_to_head`` compares only the entrants still tied (finishing ahead of one of
    them at a table counts +1, behind -1). Entrants still level after every tie-breaker share
    the rank and are listed by id. Games of entrants not listed (e.g. dropped players) count
    for their opponents' tie-breakers.

    >>> rule = StandingRule(points_by_rank=(3, 1, 0), tiebreakers=("wins",))
    >>> [(r.entrant, r.rank, r.points) for r in standings([1, 2, 3], [GameRecord((1, 2, 3), (1, 2, 2))], rule)]
    [(1, 1, 3.0), (2, 2, 0.5), (3, 2, 0.5)]
    """
    _check_rule(rule)
    tallies = _tally(games, rule)
    for entrant in entrants:
        tallies.setdefault(entrant, _Tally())
    keys: dict[str, dict[int, float]] = {
        "opponents_points": {
            e: sum(tallies[o].points for table in tallies[e].opponents for o in table)
            for e in entrants
        },
        "game_score": {e: tallies[e].game_score for e in entrants},
        "wins": {e: float(tallies[e].wins) for e in entrants},
        "head_to_head": dict.fromkeys(entrants, 0.0),
    }
    groups = [sorted(entrants, key=lambda e: (-tallies[e].points, e))]
    groups = _split(groups, lambda e: tallies[e].points)
    for name in rule.tiebreakers:
        if name == "head_to_head":
            _head_to_head(groups, games, keys["head_to_head"])
        groups = _split(groups, keys[name].__getitem__)
    return _rows(groups, tallies, {n: keys[n] for n in rule.tiebreakers})


def finishing_points(ranks: Sequence[int], points_by_rank: Sequence[float]) -> list[float]:
    """Points per seat for one game: tied entrants split the points of the places they share.

    >>> finishing_points((1, 2, 2, 4), (4, 2, 1, 0))
    [4.0, 1.5, 1.5, 0.0]
    """
    shared: defaultdict[int, int] = defaultdict(int)
    for rank in ranks:
        shared[rank] += 1
    result: list[float] = []
    for rank in ranks:
        places = range(rank - 1, rank - 1 + shared[rank])
        earned = [points_by_rank[p] if p < len(points_by_rank) else 0.0 for p in places]
        result.append(float(sum(earned)) / len(earned))
    return result


def _check_rule(rule: StandingRule) -> None:
    unknown = [name for name in rule.tiebreakers if name not in TIEBREAKERS]
    if unknown:
        raise PairingError(
            f"Unknown tie-breaker(s) {', '.join(unknown)}; choose from {', '.join(TIEBREAKERS)}."
        )


def _tally(games: Sequence[GameRecord], rule: StandingRule) -> dict[int, _Tally]:
    tallies: dict[int, _Tally] = {}
    for game in games:
        _check_game(game)
        if game.bye or game.late_entry:
            tally = tallies.setdefault(game.table[0], _Tally())
            tally.points += rule.bye_points if game.bye else rule.late_entry_points
            tally.byes += game.bye
            tally.late_byes += game.late_entry
            continue
        earned = finishing_points(game.ranks, rule.points_by_rank)
        for seat, entrant in enumerate(game.table):
            tally = tallies.setdefault(entrant, _Tally())
            tally.points += earned[seat]
            tally.games += 1
            tally.wins += game.ranks[seat] == 1
            tally.game_score += game.scores[seat] if game.scores else 0.0
            tally.opponents.append([o for o in game.table if o != entrant])
    return tallies


def _check_game(game: GameRecord) -> None:
    where = f" (round {game.round_number})" if game.round_number else ""
    if len(game.ranks) != len(game.table) or not game.table:
        raise PairingError(f"A game{where} needs one finishing rank per seat.")
    if game.scores and len(game.scores) != len(game.table):
        raise PairingError(f"A game{where} has scores for some seats but not all.")
    if any(r < 1 or r > len(game.table) for r in game.ranks):
        raise PairingError(f"A game{where} has a finishing rank outside 1–{len(game.table)}.")
    if game.bye and len(game.table) != 1:
        raise PairingError(f"A bye{where} is given to exactly one entrant.")
    if game.late_entry and (game.bye or len(game.table) != 1):
        raise PairingError(f"A round missed by a late entrant{where} is one entrant's, not a bye.")


def _split(groups: list[list[int]], key: Callable[[int], float]) -> list[list[int]]:
    """Each still-tied group split by ``key`` (higher first), keeping entrant ids in order."""
    result: list[list[int]] = []
    for group in groups:
        values = sorted({key(e) for e in group}, reverse=True)
        for value in values:
            result.append(sorted(e for e in group if key(e) == value))
    return result


def _head_to_head(
    groups: Sequence[Sequence[int]], games: Sequence[GameRecord], score: dict[int, float]
) -> None:
    """Within each tied group, +1 for each game finished ahead of another member, -1 behind."""
    group_of = {e: i for i, group in enumerate(groups) for e in group if len(group) > 1}
    for game in games:
        if game.bye or game.late_entry:
            continue
        for i, a in enumerate(game.table):
            for j, b in enumerate(game.table):
                if a in group_of and group_of.get(b) == group_of[a] and i != j:
                    score[a] += (game.ranks[i] < game.ranks[j]) - (game.ranks[i] > game.ranks[j])


def _rows(
    groups: Sequence[Sequence[int]],
    tallies: dict[int, _Tally],
    keys: dict[str, dict[int, float]],
) -> list[StandingRow]:
    rows: list[StandingRow] = []
    for group in groups:
        rank = len(rows) + 1
        for entrant in group:
            tally = tallies[entrant]
            rows.append(
                StandingRow(
                    entrant=entrant,
                    rank=rank,
                    points=tally.points,
                    tiebreaks={name: values[entrant] for name, values in keys.items()},
                    games=tally.games,
                    wins=tally.wins,
                    byes=tally.byes,
                    late_byes=tally.late_byes,
                )
            )
    return rows
