"""Game records and the admin's stream pages in Debian's Chromium on the live ASGI server: a
spectator downloads a finished game's record from the game page and the offline verifier
accepts the file; the demo arbiter reads a long game's stream page in the admin a page of
events at a time, players named and seats counted from 1, and its result as a table.

Screenshots of each page land in ``$HERALD_SHOTS`` when it is set (to look at them).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.conf import global_settings
from django.utils import timezone

import engine
from events.models import Stream
from herald import demo
from tests.conftest import DESKTOP, PHONE
from tests.events.records import verify_file

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo_night(
    monkeypatch: pytest.MonkeyPatch, settings: Any, real_games_only: None
) -> dict[str, Any]:
    """A small demo night of the real games. Its passwords keep the default hasher (not the
    events tests' fast one): the server process checks them with its own settings."""
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
    small = {game.id: demo.DemoPlan(players=8, rounds=1) for game in engine.games()}
    small["13-couronnes"] = demo.DemoPlan(players=8, rounds=1, options={"max_turns": 4})
    monkeypatch.setattr(demo, "PLANS", small)
    return demo.demo_populate(say=lambda _: None)


def shot(page: Any, name: str) -> None:
    shots = os.environ.get("HERALD_SHOTS")
    if not shots:
        return
    Path(shots).mkdir(parents=True, exist_ok=True)
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.screenshot(path=f"{shots}/{name}-{size['width']}.png", full_page=True)
    page.set_viewport_size(PHONE)


def fits_the_width(page: Any) -> None:
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"{page.url} is {widths[0]} px wide at {widths[1]} px"


def test_a_spectator_downloads_a_finished_game_that_verifies_offline(
    browser_page: Any, demo_night: dict[str, Any], tmp_path: Path
) -> None:
    stream = Stream.objects.filter(game="les-7-blasons").order_by("created_at").first()
    page = browser_page
    page.goto(f"/games/{stream.pk}/")
    link = page.locator("a.record-link")
    assert link.inner_text() == "Download the game record"
    fits_the_width(page)
    shot(page, "game-page-record-link")
    with page.expect_download() as caught:
        link.click()
    download = caught.value
    day = timezone.localtime(stream.created_at).date().isoformat()
    assert download.suggested_filename.startswith(f"les-7-blasons-{day}-")
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    checked = verify_file(path)
    assert checked.returncode == 0, checked.stdout
    assert "VERIFIED: the whole game checks out" in checked.stdout


def test_the_arbiter_reads_a_long_game_a_page_of_events_at_a_time(
    browser_page: Any, demo_night: dict[str, Any]
) -> None:
    stream = Stream.objects.filter(game="blazon").order_by("-version").first()
    assert stream.version > 50, "a Blazon game fills more than one page"
    page = browser_page
    page.goto(f"/admin/events/stream/{stream.pk}/change/")
    page.wait_for_url("**/admin/login/**")
    page.fill("#login-form input[name=username]", demo.ARBITER)
    page.fill("#login-form input[name=password]", demo_night["password"])
    page.click("#login-form [type=submit]")
    page.wait_for_url(f"**/admin/events/stream/{stream.pk}/change/")
    log = page.locator("#stream-events")
    assert "page 1 of" in log.inner_text()
    assert page.locator("#stream-events tbody tr").count() == 50
    seats = page.locator(".inline-group td.field-seat_number").all_inner_texts()
    assert [seat.strip() for seat in seats] == [str(n) for n in range(1, len(seats) + 1)]
    assert len(seats) == stream.players
    ranks = page.locator("table.herald-result td:first-child").all_inner_texts()
    assert sorted(int(rank) for rank in ranks) == sorted(stream.result["ranks"])
    shot(page, "admin-stream")
    page.click("#stream-events .paginator >> text=next ›")
    page.wait_for_url("**?events=2#stream-events")
    first_row = page.locator("#stream-events tbody tr").first.inner_text()
    assert first_row.split()[0] == "51"
    page.click("text=All of this stream's events in the event list")
    page.wait_for_url("**/admin/events/event/?stream__id__exact=*")
    assert page.locator("#result_list tbody tr").count() == 50
    shot(page, "admin-event-list")
