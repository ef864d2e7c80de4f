"""The audit API counts moves as people do (docs/api.md, "Audit and verify"): ``?move=n`` is the
state after the n-th move, and every answer says which move its event belongs to."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from events.services import stream_open
from tests.ratings.games import play_stream
from tests.users import make_user

pytestmark = pytest.mark.django_db


def test_the_audit_api_counts_moves_too() -> None:
    """``GET …/audit?move=n`` is the state after move n, and every answer says which move its
    event belongs to (``move``) and how many the game has (``moves``); ``at`` stays the seq."""
    users = [make_user(f"audited{i}") for i in range(3)]
    stream = play_stream(stream_open(game_id="les-7-blasons", seats=users), stop_after=8)
    arbiter = make_user("auditor", groups=("arbiters",))
    client = Client()
    client.force_login(arbiter)
    url = reverse("stream-audit", kwargs={"stream_id": stream.pk})
    seqs = list(stream.events.filter(type="MoveMade").order_by("seq").values_list("seq", flat=True))
    by_move = client.get(url, {"move": 5}).json()
    assert by_move["at"] == seqs[4]
    assert by_move["move"] == by_move["steps"] == 5
    assert by_move["moves"] == 8
    assert by_move["event"]["type"] == "MoveMade"
    by_seq = client.get(url, {"at": seqs[4]}).json()
    assert by_seq["state"] == by_move["state"]
    assert client.get(url, {"at": 1}).json()["move"] == 0
    assert client.get(url, {"move": 0}).json()["at"] == 1
    refused = client.get(url, {"move": 9})
    assert refused.status_code == 400
    assert "8 moves" in refused.json()["detail"]
    both = client.get(url, {"move": 1, "at": 1})
    assert both.status_code == 400
    assert client.get(url).status_code == 400
