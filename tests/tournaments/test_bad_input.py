"""Bad CSV seeds are refused line by line, never a 500 (issue #12).

``str.isdigit`` let superscript digits through to ``int()`` (a ValueError), and a seed of
2**63 reached PostgreSQL's integer column (an overflow).
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.users import token_for
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seed", ["²", "١", str(2**63), "9" * 400, "-1"])
def test_a_csv_seed_that_is_not_a_small_whole_number_is_refused(
    tournament: Tournament, organiser: Any, seed: str
) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(organiser)}")
    csv = f"display_name,username,email,club,seed\nAnna,anna,,,1\nBen,ben,,,{seed}\n"
    response = client.post(
        f"/api/v1/tournaments/{tournament.pk}/registrations/import", {"csv": csv}, format="json"
    )
    assert response.status_code == 400, response.content[:300]
    assert response.json()["error"] == "invalid"
    assert "line 3" in response.json()["detail"]
    assert not Registration.objects.exists()
