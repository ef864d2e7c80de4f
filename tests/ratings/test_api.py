"""The ratings API: leaderboards, histories, verification, disputes and rulings, recompute jobs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ratings.models import RatingPool
from ratings.services import recompute_run
from ratings.verification import game_verify_and_rate
from tests.api import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(finished: Callable[..., Any]) -> list[Any]:
    streams = [finished(4, first=i % 3, bot_seed=f"api-{i}") for i in range(4)]
    for stream in streams:
        game_verify_and_rate(stream_id=stream.pk)
    return streams


def test_leaderboard_and_history(rated: list[Any], seated: list[Any]) -> None:
    pool = RatingPool.objects.get()
    pools = client_for(None).get("/api/v1/ratings/pools").json()
    assert [p["id"] for p in pools] == [pool.pk]
    board = client_for(None).get(f"/api/v1/ratings/pools/{pool.pk}/leaderboard").json()
    rows = board["rows"]
    assert len(rows) == 6
    assert [r["conservative"] for r in rows] == sorted(
        (r["conservative"] for r in rows), reverse=True
    )
    assert all(r["provisional"] == (r["games"] < board["provisional_games"]) for r in rows)
    history = (
        client_for(None).get(f"/api/v1/ratings/pools/{pool.pk}/players/seated1/history").json()
    )
    games = [c["stream"] for c in history["changes"]]
    assert games == [str(s.pk) for s in rated if s.seats.filter(user=seated[1]).exists()]
    mine = client_for(None).get("/api/v1/ratings/players/seated1").json()
    assert [(r["pool"]["id"], r["games"]) for r in mine] == [(pool.pk, len(games))]
    missing = client_for(None).get(f"/api/v1/ratings/pools/{pool.pk}/players/nobody/history")
    assert missing.status_code == 404
    assert missing.json()["error"] == "not_found"


def test_verification_is_shown_per_stream(rated: list[Any]) -> None:
    body = client_for(None).get(f"/api/v1/ratings/streams/{rated[0].pk}/verification").json()
    assert body["verified"] is True
    assert set(body["checks"]) == {
        "engine_version", "hash_chain", "seed_commitment", "replay", "result",
    }  # fmt: skip
    assert body["counts"] is True
    assert body["rating_status"] == "rated"


def test_dispute_then_ruling_through_the_api(
    rated: list[Any], seated: list[Any], arbiter: Any
) -> None:
    stream = rated[1]
    player = stream.seats.get(seat=0).user
    outsider = next(u for u in seated if not stream.seats.filter(user=u).exists())
    refused = client_for(outsider).post(
        "/api/v1/disputes", {"stream": str(stream.pk), "reason": "x"}, format="json"
    )
    assert refused.status_code == 403
    assert refused.json()["error"] == "forbidden"
    opened = client_for(player).post(
        "/api/v1/disputes", {"stream": str(stream.pk), "reason": "wrong count"}, format="json"
    )
    assert opened.status_code == 201, opened.json()
    dispute = opened.json()
    assert (dispute["status"], dispute["opened_by"], dispute["automatic"]) == (
        "open",
        player.username,
        False,
    )
    again = client_for(player).post(
        "/api/v1/disputes", {"stream": str(stream.pk), "reason": "again"}, format="json"
    )
    assert again.status_code == 409
    assert client_for(outsider).get("/api/v1/disputes").json() == []
    listed = client_for(arbiter).get("/api/v1/disputes?status=open").json()
    assert [d["id"] for d in listed] == [dispute["id"]]
    url = f"/api/v1/disputes/{dispute['id']}/ruling"
    body = {"ruling": "amend", "reason": "recount", "ranks": [4, 3, 2, 1]}
    assert client_for(player).post(url, body, format="json").status_code == 403
    bad = client_for(arbiter).post(url, {**body, "ranks": [1, 1]}, format="json")
    assert bad.status_code == 400
    assert "one rank per seat" in bad.json()["detail"]
    ruled = client_for(arbiter).post(url, body, format="json")
    assert ruled.status_code == 200, ruled.json()
    outcome = ruled.json()
    assert outcome["dispute"]["status"] == "ruled"
    assert outcome["dispute"]["amended_ranks"] == [4, 3, 2, 1]
    job = outcome["recompute"]
    assert job["status"] == "queued"
    recompute_run(job_id=job["id"])
    shown = client_for(None).get(f"/api/v1/ratings/recomputes/{job['id']}").json()
    assert (shown["status"], shown["done"], shown["total"], shown["progress"]) == (
        "done",
        3,
        3,
        1.0,
    )
    twice = client_for(arbiter).post(url, body, format="json")
    assert twice.status_code == 409


def test_only_arbiters_start_a_recompute(rated: list[Any], seated: list[Any], arbiter: Any) -> None:
    pool = RatingPool.objects.get()
    url = f"/api/v1/ratings/pools/{pool.pk}/recompute"
    assert client_for(seated[0]).post(url, {"reason": "x"}, format="json").status_code == 403
    started = client_for(arbiter).post(url, {"reason": "audit"}, format="json")
    assert started.status_code == 202
    assert started.json()["status"] == "queued"
    jobs = client_for(None).get(f"/api/v1/ratings/recomputes?pool={pool.pk}").json()
    assert [j["id"] for j in jobs] == [started.json()["id"]]
