"""Bad input to the ratings API and pages is a 4xx with a sentence, never a 500 (issue #12).

Each case once answered 500: a non-UUID ``?stream=`` reached a UUID column, superscript or huge
numbers reached ``int()`` or PostgreSQL's OFFSET, a NUL byte reached a text column.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from ratings.models import RatingPool
from ratings.services import pool_get_or_create
from tests.api import error_body
from tests.users import make_user

pytestmark = pytest.mark.django_db

HUGE = [str(2**63), str(10**30), "9" * 400]
NOT_ASCII_DIGITS = ["²", "١٢", " 1", "-1", "1_0", "+1", "1.0"]


@pytest.fixture
def pool(db: None) -> RatingPool:
    return pool_get_or_create(game="toy-draw", edition="1")


@pytest.fixture
def staff_client(db: None) -> APIClient:
    client = APIClient()
    client.force_authenticate(make_user("staffer", staff=True))
    return client


def test_a_dispute_filter_by_a_stream_that_is_not_a_uuid_is_a_400(
    staff_client: APIClient,
) -> None:
    for value in ("not-a-uuid", "1", "\u0000"):
        body = error_body(staff_client.get("/api/v1/disputes", {"stream": value}), 400, "invalid")
        assert "stream" in body["detail"]


@pytest.mark.parametrize("name", ["offset", "limit", "club"])
@pytest.mark.parametrize("value", HUGE + NOT_ASCII_DIGITS)
def test_leaderboard_numbers_that_are_huge_or_not_ascii_digits_are_a_400(
    pool: RatingPool, name: str, value: str
) -> None:
    response = APIClient().get(f"/api/v1/ratings/pools/{pool.pk}/leaderboard", {name: value})
    assert name in error_body(response, 400, "invalid")["detail"]


@pytest.mark.parametrize("value", HUGE + NOT_ASCII_DIGITS)
def test_the_recompute_list_refuses_a_bad_pool_number_with_a_400(
    staff_client: APIClient, value: str
) -> None:
    error_body(staff_client.get("/api/v1/ratings/recomputes", {"pool": value}), 400, "invalid")


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/ratings/pools/{pool}/leaderboard".replace("{pool}", str(2**63)),
        "/api/v1/ratings/pools/" + "9" * 40 + "/leaderboard",
        "/api/v1/ratings/recomputes/" + str(2**63),
        "/api/v1/disputes/" + str(10**30),
        "/api/v1/ratings/streams/not-a-uuid/verification",
        "/api/v1/ratings/pools/x/leaderboard",
        "/api/v1/no-such-endpoint",
    ],
)
def test_api_paths_with_ids_that_cannot_exist_are_a_json_404(
    staff_client: APIClient, path: str
) -> None:
    error_body(staff_client.get(path), 404, "not_found")


def test_a_nul_byte_in_a_username_path_is_a_json_404(pool: RatingPool, db: None) -> None:
    for path in (
        "/api/v1/ratings/players/bad%00name",
        f"/api/v1/ratings/pools/{pool.pk}/players/bad%00name/history",
    ):
        error_body(APIClient().get(path), 404, "not_found")


@pytest.mark.parametrize("value", ["²", str(10**30), str(2**63), "9" * 400, "0"])
def test_a_leaderboard_page_number_that_cannot_be_is_a_404_page(
    pool: RatingPool, client: Any, value: str
) -> None:
    response = client.get(f"/ratings/{pool.pk}/", {"page": value})
    assert response.status_code == 404


def test_the_leaderboard_page_still_pages(pool: RatingPool, client: Any, db: None) -> None:
    assert client.get(f"/ratings/{pool.pk}/", {"page": "2"}).status_code == 200
    assert client.get(f"/ratings/{pool.pk}/", {"club": "²"}).status_code == 404


def test_an_unknown_site_page_stays_html(client: Any, db: None) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")


def test_good_numbers_still_work(pool: RatingPool, staff_client: APIClient) -> None:
    response = APIClient().get(
        f"/api/v1/ratings/pools/{pool.pk}/leaderboard", {"offset": "0", "limit": "10"}
    )
    assert response.status_code == 200
    assert staff_client.get("/api/v1/ratings/recomputes", {"pool": str(pool.pk)}).status_code == 200
    assert (
        staff_client.get(
            "/api/v1/disputes", {"stream": "5f1c7ad2-6a5e-4a43-9f35-0a2f4f7d9e11"}
        ).status_code
        == 200
    )
