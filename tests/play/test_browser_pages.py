"""My Herald, the game page and a player's rating history in Chromium (the live ASGI server),
at a phone's width and a laptop's: no console error, no failed request, no CSP violation
(``browser_page`` fails the test on those), no sideways scrolling.

Screenshots of every page land in ``$HERALD_SHOTS`` when it is set (to look at them).
Skipped without Chromium or Playwright; failed instead under HERALD_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Rating
from tests.busy_player import busy_player
from tests.users import make_user

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = (390, 1280)


def log_in(page: Any, user: Any, url: str) -> None:
    """Give the browser ``user``'s session (logged in by Django's test client); None logs out."""
    page.context.clear_cookies()
    if user is None:
        return
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}]
    )


def visit(page: Any, path: str, *, width: int, shot: str) -> Any:
    """Open ``path``, check it answers 200 and fits the width, keep a screenshot if asked."""
    page.set_viewport_size({"width": width, "height": 900})
    response = page.goto(path)
    assert response is not None
    assert response.status == 200, path
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    shots = os.environ.get("HERALD_SHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{shots}/{shot}-{width}.png", full_page=True)
    assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at {width}px"
    return page


def test_my_pages_fit_a_phone_and_a_laptop(browser_page: Any, asgi_server: Any) -> None:
    busy = busy_player()
    me = busy.player.user
    pool_id = Rating.objects.get(player=me).pool_id
    visitor = make_user("visitor")
    page = browser_page
    for width in WIDTHS:
        log_in(page, me, asgi_server.url)
        visit(page, reverse("me"), width=width, shot="me-busy")
        assert page.locator(".my-table").count() == 1
        assert page.locator("svg.rating-chart-svg circle").count() == 3
        page.click(".my-table a.button")
        assert page.locator(f'[data-stream="{busy.running.pk}"]').count() == 1
        running = reverse("play:table", args=[busy.running.pk])
        visit(page, running, width=width, shot="game-running")
        assert page.get_attribute(".game-table", "data-seat") != ""
        log_in(page, visitor, asgi_server.url)
        visit(page, reverse("me"), width=width, shot="me-no-player")
        log_in(page, None, asgi_server.url)
        finished = reverse("play:table", args=[busy.finished[0].pk])
        visit(page, finished, width=width, shot="game-finished")
        assert page.locator("[data-result]").count() == 1
        history = reverse("rating-pages:player-history", args=[pool_id, me.pk])
        visit(page, history, width=width, shot="player-history")
