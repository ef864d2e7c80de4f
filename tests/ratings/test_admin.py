"""The ratings admin pages open for staff, with the dispute linking to the audit view."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from ratings.disputes import dispute_open
from ratings.verification import game_verify_and_rate

pytestmark = pytest.mark.django_db


def test_every_ratings_admin_page_opens(finished: Callable[..., Any], seated: list[Any]) -> None:
    stream = finished(3)
    game_verify_and_rate(stream_id=stream.pk)
    dispute = dispute_open(stream_id=stream.pk, user=seated[0], reason="look at move 2")
    staff = User.objects.create_superuser("boss", password="boss-pw-123")
    client = Client()
    client.force_login(staff)
    for model in ("ratingpool", "rating", "ratedgame", "ratingchange", "recomputejob",
                  "verification", "dispute"):  # fmt: skip
        page = client.get(f"/admin/ratings/{model}/")
        assert page.status_code == 200, model
    detail = client.get(f"/admin/ratings/dispute/{dispute.pk}/change/")
    assert detail.status_code == 200
    # The arbiter steps through the game in the replay viewer, opened at the disputed move.
    assert f"/games/{stream.pk}/replay?move=" in detail.content.decode()
