"""Rating games in order with the bare ``trueskill`` package: what the pipeline must equal."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import trueskill


def rate_from_scratch(
    games: Iterable[tuple[Sequence[int], Sequence[int]]],
) -> dict[int, tuple[float, float, int]]:
    """``{player: (mu, sigma, games)}`` after rating ``(players, ranks)`` games in order."""
    env = trueskill.TrueSkill()
    ratings: dict[int, trueskill.Rating] = {}
    counts: dict[int, int] = {}
    for players, ranks in games:
        groups = [(ratings.get(p, env.create_rating()),) for p in players]
        try:
            rated = env.rate(groups, ranks=list(ranks))
        except FloatingPointError:
            mp = trueskill.TrueSkill(backend="mpmath")
            rated = mp.rate([(mp.create_rating(g[0].mu, g[0].sigma),) for g in groups], list(ranks))
        for player, team in zip(players, rated, strict=True):
            ratings[player] = team[0]
            counts[player] = counts.get(player, 0) + 1
    return {p: (float(r.mu), float(r.sigma), counts[p]) for p, r in ratings.items()}
