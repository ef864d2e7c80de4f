"""The admin: read-only streams and events, the log in words, the replay, the verify action."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from events.models import Event, Stream
from tests.events.conftest import play_one

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(toy: Any, open_stream: Callable[..., Stream]) -> Stream:
    stream = open_stream(turns=4)
    for _ in range(3):
        play_one(toy, stream)
    return stream


def test_the_stream_page_shows_the_log_in_words_and_the_chain(
    admin_client: Client, played: Stream
) -> None:
    page = admin_client.get(f"/admin/events/stream/{played.pk}/change/").content.decode()
    assert "is set up for player0, player1" in page
    assert "seat 1 plays a " in page
    assert "intact: 4 events chained" in page
    assert f"/admin/events/stream/{played.pk}/replay/?at=1" in page
    assert f"/games/{played.pk}/replay?move=1" in page  # the site's replay viewer, first


def test_the_replay_steps_through_the_events(admin_client: Client, played: Stream) -> None:
    page = admin_client.get(f"/admin/events/stream/{played.pk}/replay/?at=3").content.decode()
    assert "event 3 of 4" in page
    assert "?at=2" in page
    assert "?at=4" in page
    assert "seat 1 plays a " in page
    assert played.seed in page  # the full state, for the arbiter


def test_events_cannot_be_changed_or_deleted_here(admin_client: Client, played: Stream) -> None:
    event = Event.objects.get(stream=played, seq=2)
    assert admin_client.get(f"/admin/events/event/{event.pk}/change/").status_code == 200
    assert admin_client.post(f"/admin/events/event/{event.pk}/delete/").status_code == 403
    assert admin_client.get("/admin/events/event/add/").status_code == 403
    assert Event.objects.filter(stream=played).count() == 4


def test_the_verify_action_reports_each_stream(admin_client: Client, played: Stream) -> None:
    response = admin_client.post(
        "/admin/events/stream/",
        {"action": "verify_selected", "index": 0, "_selected_action": [str(played.pk)]},
        follow=True,
    )
    page = response.content.decode()
    shown = page[page.find('<ul class="messagelist">') :][:600]
    assert f"Stream {played.pk}: all checks pass" in page, shown
