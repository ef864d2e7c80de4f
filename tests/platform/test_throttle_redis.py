"""Rate limits counted in Redis (herald.throttling.SLIDING_WINDOW), as deployed with REDIS_URL.

Against the live Redis of REDIS_URL, under a key prefix of each test's own. The same limits on
the local-memory cache (DRF's own counting) are tested in tests/platform/test_auth.py.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

from events.services import stream_open
from events.throttling import MoveThrottle

# The toy game registered for every test here, DRF's own counting on the local-memory cache, and
# a move posted as the view offers it: as the same limits' tests on that cache have them.
from tests.platform.test_auth import post_move, throttling, toy  # noqa: F401
from tests.users import make_user, token_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_throttling(settings: Any, redis_client: Any) -> Iterator[Any]:
    """Throttles on, counting in the live Redis under this test's own prefix (deleted after)."""
    prefix = f"throttle-test-{uuid.uuid4().hex}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": settings.REDIS_URL,
            "KEY_PREFIX": prefix,
        }
    }
    settings.HERALD_THROTTLE = True
    yield settings
    for key in redis_client.scan_iter(f"{prefix}:*"):
        redis_client.delete(key)


class Caller:
    """What a throttle reads of a request: its user."""

    def __init__(self, user_id: int) -> None:
        self.user = _User(user_id)
        self.META: dict[str, str] = {}


class _User:
    is_authenticated = True

    def __init__(self, pk: int) -> None:
        self.pk = pk


def test_moves_are_throttled_per_user(redis_throttling: Any) -> None:
    redis_throttling.HERALD_THROTTLE_RATES = {"moves": "3/minute"}
    ann, bob = make_user("ann"), make_user("bob")
    stream = stream_open(game_id="toy-draw", seats=[ann, bob], options={"turns": 40})
    anns, bobs = APIClient(), APIClient()
    anns.credentials(HTTP_AUTHORIZATION=f"Token {token_for(ann)}")
    bobs.credentials(HTTP_AUTHORIZATION=f"Token {token_for(bob)}")
    # Ann moves, then is refused twice as it is Bob's turn: each request counts.
    assert [post_move(anns, stream).status_code for _ in range(3)] == [201, 403, 403]
    version = APIClient().get(f"/api/v1/streams/{stream.pk}/view").json()["version"]
    refused = post_move(anns, stream)
    assert refused.status_code == 429, refused.content
    assert refused.json()["error"] == "throttled"
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert "try again in" in refused.json()["detail"]
    after = APIClient().get(f"/api/v1/streams/{stream.pk}/view").json()["version"]
    assert after == version  # the refused move changed nothing
    assert post_move(bobs, stream).status_code == 201


def test_requests_at_once_are_each_counted(redis_throttling: Any) -> None:
    """Two requests of one user served at once must not both read the same count: of 80 asked
    together by 8 threads against a limit of 20, exactly 20 pass (DRF's read-then-write let
    some through uncounted)."""
    redis_throttling.HERALD_THROTTLE_RATES = {"moves": "20/minute"}
    allowed: list[bool] = []
    start = threading.Barrier(8)

    def ask() -> None:
        start.wait()
        for _ in range(10):
            allowed.append(MoveThrottle().allow_request(Caller(7), None))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(allowed) == 80
    assert allowed.count(True) == 20


def test_the_window_slides(redis_throttling: Any) -> None:
    redis_throttling.HERALD_THROTTLE_RATES = {"moves": "2/minute"}
    clock = [1_000.0]

    def ask(user_id: int = 7) -> bool:
        throttle = MoveThrottle()
        throttle.timer = lambda: clock[0]
        return bool(throttle.allow_request(Caller(user_id), None))

    assert ask()
    clock[0] += 30
    assert ask()
    assert not ask()
    assert ask(8)  # another user
    clock[0] += 30  # the first request leaves the window (DRF: a time <= now - 60)
    assert ask()
    assert not ask()


@pytest.mark.parametrize("counts", [["redis_throttling"], ["throttling"]])
def test_the_wait_is_drfs(counts: list[str], request: pytest.FixtureRequest) -> None:
    """A refused request's wait: the window's length less the oldest request's age, as DRF's
    own throttle says (the local-memory cache counts with DRF's code)."""
    settings = request.getfixturevalue(counts[0])
    settings.HERALD_THROTTLE_RATES = {"moves": "3/minute"}
    clock = [5_000.0]
    throttle = MoveThrottle()
    throttle.timer = lambda: clock[0]
    for step in (0.0, 10.0, 5.0):
        clock[0] += step
        assert throttle.allow_request(Caller(9), None)
    clock[0] += 20.0
    assert not throttle.allow_request(Caller(9), None)
    assert throttle.wait() == pytest.approx(60.0 - 35.0)
