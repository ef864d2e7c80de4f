"""What the ratings API shows of private games and of disputes, and to whom.

A private stream is a 404 to anyone but its players, arbiters and staff (events.access); the
ratings API follows that door: the verification of a private game, the stream link of its
rating history entries. Recompute jobs show their progress to all, and only to arbiters and
staff why they run (the dispute and who opened it).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from events.services import stream_open
from ratings.disputes import dispute_open, dispute_rule
from ratings.models import RatingPool
from ratings.verification import game_verify_and_rate
from tests.api import client_for
from tests.ratings.games import play_stream
from tests.users import make_user

pytestmark = pytest.mark.django_db


def verified_game(users: list[User], *, public: bool, bot_seed: str) -> Any:
    stream = stream_open(game_id="toy-draw", seats=users, options={"turns": 8}, public=public)
    stream = play_stream(stream, bot_seed=bot_seed)
    game_verify_and_rate(stream_id=stream.pk)
    return stream


@pytest.fixture
def games(seated: list[User]) -> tuple[Any, Any]:
    """A public game of seated[0..3], then a private one of seated[0], [1], [4], [5]."""
    public = verified_game(seated[:4], public=True, bot_seed="public")
    private = verified_game(
        [seated[0], seated[1], seated[4], seated[5]], public=False, bot_seed="p"
    )
    return public, private


def test_the_verification_of_a_private_game_is_a_404_to_outsiders(
    games: tuple[Any, Any], seated: list[User], arbiter: User
) -> None:
    public, private = games
    url = f"/api/v1/ratings/streams/{private.pk}/verification"
    for outsider in (None, seated[2]):
        answer = client_for(outsider).get(url)
        assert answer.status_code == 404
        assert answer.json()["error"] == "not_found"
    for insider in (seated[4], arbiter, make_user("clerk", staff=True)):
        answer = client_for(insider).get(url)
        assert answer.status_code == 200
        assert answer.json()["verified"] is True
    public_url = f"/api/v1/ratings/streams/{public.pk}/verification"
    assert client_for(None).get(public_url).json()["verified"] is True
    unknown = client_for(arbiter).get(
        "/api/v1/ratings/streams/00000000-0000-0000-0000-000000000000/verification"
    )
    assert unknown.status_code == 404


def test_a_history_entry_of_a_private_game_links_its_stream_only_for_those_who_may_see_it(
    games: tuple[Any, Any], seated: list[User], arbiter: User
) -> None:
    public, private = games
    pool = RatingPool.objects.get()
    url = f"/api/v1/ratings/pools/{pool.pk}/players/{seated[0].username}/history"

    def streams(viewer: User | None) -> list[str | None]:
        return [change["stream"] for change in client_for(viewer).get(url).json()["changes"]]

    # Everyone sees both entries (the rating and its game count are public) ...
    assert streams(None) == [str(public.pk), None]
    assert streams(seated[2]) == [str(public.pk), None]  # played the public game only
    # ... and those who may see the private game see which one it is.
    for insider in (seated[0], seated[5], arbiter):
        assert streams(insider) == [str(public.pk), str(private.pk)]


def test_recompute_jobs_show_who_disputed_what_to_arbiters_and_staff_only(
    games: tuple[Any, Any], seated: list[User], arbiter: User
) -> None:
    public, _ = games
    dispute = dispute_open(stream_id=public.pk, user=seated[1], reason="miscount")
    ruled = dispute_rule(dispute_id=dispute.pk, arbiter=arbiter, ruling="annul", reason="void")
    assert ruled.recompute is not None
    job_url = f"/api/v1/ratings/recomputes/{ruled.recompute.pk}"
    for outsider in (None, seated[2]):
        listed = client_for(outsider).get("/api/v1/ratings/recomputes").json()
        shown = client_for(outsider).get(job_url).json()
        for job in (*listed, shown):
            assert {"reason", "from_stream_id", "error"}.isdisjoint(job)
            assert seated[1].username not in str(job)
            assert str(public.pk) not in str(job)
        assert [job["id"] for job in listed] == [ruled.recompute.pk]
        assert shown["status"] == "queued"
    for insider in (arbiter, make_user("clerk", staff=True)):
        listed = client_for(insider).get("/api/v1/ratings/recomputes").json()
        assert seated[1].username in listed[0]["reason"]
        assert listed[0]["from_stream_id"] == str(public.pk)
        assert client_for(insider).get(job_url).json()["reason"] == listed[0]["reason"]
