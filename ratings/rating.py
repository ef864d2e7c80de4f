"""The pure rating step: one game's ranks (ties allowed) into TrueSkill, one-player teams.

Nothing here touches the database, so the services, the recompute job, the benchmark and the
tests all rate games through exactly the same function.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import trueskill


@dataclass(frozen=True)
class EnvParams:
    """The TrueSkill environment of a pool (the package's defaults unless a pool says otherwise)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3
    beta: float = 25.0 / 6
    tau: float = 25.0 / 300
    draw_probability: float = 0.10


@dataclass(frozen=True)
class Skill:
    """A player's skill estimate: mean and uncertainty."""

    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """μ − 3σ: a rating the player is very likely to be above (leaderboards sort on it)."""
        return self.mu - 3 * self.sigma


_ENVIRONMENTS: dict[tuple[EnvParams, str | None], trueskill.TrueSkill] = {}


def environment(params: EnvParams, backend: str | None = None) -> trueskill.TrueSkill:
    """The ``trueskill.TrueSkill`` for ``params`` (cached: building one is not free)."""
    key = (params, backend)
    if key not in _ENVIRONMENTS:
        _ENVIRONMENTS[key] = trueskill.TrueSkill(
            mu=params.mu,
            sigma=params.sigma,
            beta=params.beta,
            tau=params.tau,
            draw_probability=params.draw_probability,
            backend=backend,
        )
    return _ENVIRONMENTS[key]


def rate_ranks(params: EnvParams, ratings: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """New skills after one game where seat ``i`` had ``ratings[i]`` and finished ``ranks[i]``.

    Ranks are 1-based and ties share a rank (lower is better, as ``trueskill`` expects). The
    default backend raises ``FloatingPointError`` when a result is so unlikely that its
    approximations underflow (a far stronger player finishing last); the game is then rated
    again with the arbitrary-precision ``mpmath`` backend, which gives a finite answer.

    >>> new = rate_ranks(EnvParams(), [Skill(25, 25 / 3), Skill(25, 25 / 3)], [1, 2])
    >>> new[0].mu > 25 > new[1].mu
    True
    """
    if len(ratings) != len(ranks):
        raise ValueError(f"{len(ratings)} ratings but {len(ranks)} ranks: one rank per player")
    if len(ratings) < 2:
        raise ValueError("a game needs at least two players to be rated")
    try:
        return _rate_with(environment(params), ratings, ranks)
    except FloatingPointError:
        return _rate_with(environment(params, "mpmath"), ratings, ranks)


def _rate_with(
    env: trueskill.TrueSkill, ratings: Sequence[Skill], ranks: Sequence[int]
) -> list[Skill]:
    groups = [(env.create_rating(mu=r.mu, sigma=r.sigma),) for r in ratings]
    rated = env.rate(groups, ranks=list(ranks))
    return [Skill(mu=float(team[0].mu), sigma=float(team[0].sigma)) for team in rated]


def edition_family(edition: str) -> str:
    """The rating family of an edition: the part before a "/" ("classic/2019" → "classic").

    Editions of one family (reprints, corrected card lists) share a rating pool; an edition
    without "/" is its own family.
    """
    return edition.split("/", 1)[0]
