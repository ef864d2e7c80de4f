"""Rating a pool's games in completion order, once, and recomputing from the stored history."""

from __future__ import annotations

import datetime as dt
import itertools
import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.test import override_settings

from ratings import selectors, services
from ratings.models import RatedGame, Rating, RatingChange, RecomputeJob
from ratings.rating import Skill
from tests.ratings.reference import rate_from_scratch

pytestmark = pytest.mark.django_db
T0 = dt.datetime(2026, 11, 1, 20, 0, tzinfo=dt.UTC)
FOUR_PLAYER_RANKS = ([1, 2, 3, 4], [2, 1, 4, 3], [1, 1, 3, 4], [4, 3, 2, 1], [3, 1, 2, 2])


@pytest.fixture
def players() -> list[int]:
    user_model = get_user_model()
    return [user_model.objects.create_user(f"p{i}").pk for i in range(8)]


def schedule(players: list[int], count: int) -> list[tuple[list[int], list[int]]]:
    """``count`` 4-player games among ``players``, with varied ranks and ties."""
    games = []
    for index in range(count):
        seated = [players[(index + k * 3) % len(players)] for k in range(4)]
        games.append((seated, list(FOUR_PLAYER_RANKS[index % len(FOUR_PLAYER_RANKS)])))
    return games


def register(players: list[int], ranks: list[int], minute: int, **extra: Any) -> RatedGame:
    return services.rated_game_register(
        stream_id=uuid.uuid4(),
        game="blazon",
        edition="standard",
        completed_at=T0 + dt.timedelta(minutes=minute),
        players=players,
        ranks=ranks,
        **extra,
    )


def current_ratings(pool_id: int) -> dict[int, tuple[float, float, int]]:
    return {
        r.player_id: (r.mu, r.sigma, r.games)
        for r in Rating.objects.filter(pool_id=pool_id, games__gt=0)
    }


def assert_same_ratings(got: dict[int, Any], expected: dict[int, Any]) -> None:
    assert got.keys() == expected.keys()
    for player, (mu, sigma, games) in expected.items():
        assert got[player][0] == pytest.approx(mu, abs=1e-9)
        assert got[player][1] == pytest.approx(sigma, abs=1e-9)
        assert got[player][2] == games


def test_games_are_rated_in_completion_order_like_bare_trueskill(players: list[int]) -> None:
    games = schedule(players, 12)
    entries = [register(p, r, minute) for minute, (p, r) in enumerate(games)]
    pool_id = entries[0].pool_id
    assert services.pool_rate_all_pending(pool_id=pool_id) == 12
    assert_same_ratings(current_ratings(pool_id), rate_from_scratch(games))
    sequences = list(RatedGame.objects.order_by("completed_at").values_list("sequence", flat=True))
    assert sequences == list(range(1, 13))


def test_rating_twice_or_registering_twice_changes_nothing(players: list[int]) -> None:
    games = schedule(players, 5)
    entries = [register(p, r, minute) for minute, (p, r) in enumerate(games)]
    pool_id = entries[0].pool_id
    services.pool_rate_all_pending(pool_id=pool_id)
    before = current_ratings(pool_id)
    again = services.rated_game_register(
        stream_id=entries[2].stream_id,
        game="blazon",
        edition="standard",
        completed_at=entries[2].completed_at,
        players=entries[2].players,
        ranks=[4, 3, 2, 1],
    )
    assert again.pk == entries[2].pk
    assert again.ranks == entries[2].ranks
    assert services.pool_rate_all_pending(pool_id=pool_id) == 0
    assert current_ratings(pool_id) == before
    assert RatingChange.objects.filter(current=True).count() == 5 * 4


def test_the_database_refuses_a_second_current_change_for_a_game(players: list[int]) -> None:
    entry = register(players[:4], [1, 2, 3, 4], 0)
    services.pool_rate_all_pending(pool_id=entry.pool_id)
    first = RatingChange.objects.filter(game=entry).first()
    assert first is not None
    first.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        first.save()


def test_a_game_verified_late_takes_its_place_in_completion_order(players: list[int]) -> None:
    games = schedule(players, 8)
    late_minute = 3
    entries = [register(p, r, m) for m, (p, r) in enumerate(games) if m != late_minute]
    pool_id = entries[0].pool_id
    services.pool_rate_all_pending(pool_id=pool_id)
    late = register(*games[late_minute], late_minute)
    services.pool_rate_all_pending(pool_id=pool_id)
    assert_same_ratings(current_ratings(pool_id), rate_from_scratch(games))
    late.refresh_from_db()
    assert late.sequence == late_minute + 1
    superseded = RatingChange.objects.filter(current=False).count()
    assert superseded == 4 * (len(games) - late_minute - 1), "later changes are kept, superseded"


@pytest.mark.parametrize("change", ["annul", "amend"])
def test_recompute_after_a_ruling_equals_rating_the_corrected_history(
    players: list[int], change: str
) -> None:
    games = schedule(players, 10)
    entries = [register(p, r, m) for m, (p, r) in enumerate(games)]
    pool = entries[0].pool
    services.pool_rate_all_pending(pool_id=pool.pk)
    target = entries[2]
    if change == "annul":
        services.rated_game_exclude(stream_id=target.stream_id, reason="annulled")
        corrected = games[:2] + games[3:]
    else:
        services.rated_game_count_again(stream_id=target.stream_id, ranks=[4, 3, 2, 1])
        corrected = [*games[:2], (games[2][0], [4, 3, 2, 1]), *games[3:]]
    job = services.recompute_request(pool=pool, reason=change, from_game=target)
    services.recompute_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == RecomputeJob.Status.DONE
    assert job.done == job.total == len(corrected) - 2
    assert_same_ratings(current_ratings(pool.pk), rate_from_scratch(corrected))


def test_a_full_recompute_gives_the_same_ratings(players: list[int]) -> None:
    games = schedule(players, 9)
    entries = [register(p, r, m) for m, (p, r) in enumerate(games)]
    pool = entries[0].pool
    services.pool_rate_all_pending(pool_id=pool.pk)
    before = current_ratings(pool.pk)
    job = services.recompute_request(pool=pool, reason="check")
    services.recompute_run(job_id=job.pk, batch=2)
    assert_same_ratings(current_ratings(pool.pk), before)
    assert RecomputeJob.objects.get(pk=job.pk).done == 9


def test_a_player_in_two_seats_is_not_rated(players: list[int]) -> None:
    entry = register([players[0], players[1], players[0]], [1, 2, 3], 0)
    assert entry.status == RatedGame.Status.EXCLUDED
    assert "two seats" in entry.excluded_reason
    assert services.pool_rate_all_pending(pool_id=entry.pool_id) == 0


@override_settings(HERALD_PROVISIONAL_GAMES=3)
def test_leaderboard_sorts_on_conservative_rating_and_marks_provisional(
    players: list[int],
) -> None:
    games = schedule(players, 6)
    entries = [register(p, r, m) for m, (p, r) in enumerate(games)]
    pool = entries[0].pool
    services.pool_rate_all_pending(pool_id=pool.pk)
    rows = selectors.leaderboard(pool=pool)
    scores = [row.conservative for row in rows]
    assert scores == sorted(scores, reverse=True)
    assert [row.position for row in rows] == list(range(1, len(rows) + 1))
    for row in rows:
        assert row.provisional == (row.games < 3)
        assert row.conservative == pytest.approx(Skill(row.mu, row.sigma).conservative)
    assert any(row.provisional for row in rows)
    assert not all(row.provisional for row in rows)


def test_history_lists_current_changes_in_pool_order(players: list[int]) -> None:
    games = schedule(players, 6)
    entries = [register(p, r, m) for m, (p, r) in enumerate(games)]
    services.pool_rate_all_pending(pool_id=entries[0].pool_id)
    history = list(selectors.player_history(pool=entries[0].pool, player_id=players[0]))
    assert [c.sequence for c in history] == sorted(c.sequence for c in history)
    for earlier, later in itertools.pairwise(history):
        assert later.mu_before == earlier.mu_after
    rating = Rating.objects.get(pool=entries[0].pool, player_id=players[0])
    assert (history[-1].mu_after, history[-1].sigma_after) == (rating.mu, rating.sigma)


def test_a_lopsided_game_is_rated_through_the_pipeline_with_mpmath(players: list[int]) -> None:
    pool = services.pool_get_or_create(game="blazon", edition="standard")
    skills = [(200.0, 0.5), (0.0, 0.5), (0.0, 0.5), (0.0, 0.5)]
    for player, (mu, sigma) in zip(players, skills, strict=False):
        Rating.objects.create(pool=pool, player_id=player, mu=mu, sigma=sigma, games=0)
    entry = register(players[:4], [4, 1, 2, 3], 0)
    assert services.pool_rate_all_pending(pool_id=pool.pk) == 1
    favourite = RatingChange.objects.get(game=entry, player_id=players[0])
    assert favourite.mu_before == 200.0
    assert 100.0 < favourite.mu_after < 200.0
    assert RatingChange.objects.filter(game=entry, current=True).count() == 4
