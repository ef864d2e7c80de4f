"""The pure rating step: trueskill with one-player teams, ties, and the mpmath fallback."""

from __future__ import annotations

import pytest
import trueskill

from ratings.rating import EnvParams, Skill, edition_family, environment, rate_ranks

PARAMS = EnvParams()
FRESH = Skill(PARAMS.mu, PARAMS.sigma)
# A far stronger player finishing last of four: the default backend underflows on it.
LOPSIDED = [Skill(200.0, 0.5), Skill(0.0, 0.5), Skill(0.0, 0.5), Skill(0.0, 0.5)]
LOPSIDED_RANKS = [4, 1, 2, 3]


def test_matches_a_bare_trueskill_call_with_ties() -> None:
    env = trueskill.TrueSkill()
    ranks = [2, 1, 2, 4]
    expected = env.rate([(env.create_rating(),) for _ in ranks], ranks=ranks)
    got = rate_ranks(PARAMS, [FRESH] * 4, ranks)
    assert [(s.mu, s.sigma) for s in got] == [(t[0].mu, t[0].sigma) for t in expected]
    assert got[0].mu == pytest.approx(got[2].mu, abs=0.05), "tied players move alike"
    assert got[1].mu > got[0].mu > got[3].mu


def test_the_default_backend_really_fails_on_the_lopsided_game() -> None:
    env = trueskill.TrueSkill()
    groups = [(env.create_rating(mu=s.mu, sigma=s.sigma),) for s in LOPSIDED]
    with pytest.raises(FloatingPointError):
        env.rate(groups, ranks=LOPSIDED_RANKS)


def test_a_lopsided_game_is_rated_with_the_mpmath_backend() -> None:
    got = rate_ranks(PARAMS, LOPSIDED, LOPSIDED_RANKS)
    env = environment(PARAMS, "mpmath")
    groups = [(env.create_rating(mu=s.mu, sigma=s.sigma),) for s in LOPSIDED]
    expected = env.rate(groups, ranks=LOPSIDED_RANKS)
    assert [s.mu for s in got] == [float(t[0].mu) for t in expected]
    assert got[0].mu < 200.0 < got[0].mu + 100, "the favourite loses rating, by a finite amount"
    assert all(isinstance(s.mu, float) and s.sigma > 0 for s in got)


def test_refuses_mismatched_or_lonely_input() -> None:
    with pytest.raises(ValueError, match="one rank per player"):
        rate_ranks(PARAMS, [FRESH, FRESH], [1])
    with pytest.raises(ValueError, match="at least two players"):
        rate_ranks(PARAMS, [FRESH], [1])


def test_conservative_rating_and_edition_families() -> None:
    assert Skill(30.0, 2.0).conservative == 24.0
    assert edition_family("classic/2019") == edition_family("classic/2023") == "classic"
    assert edition_family("standard") == "standard"
