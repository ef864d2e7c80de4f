"""My Herald, the game page and a player's rating history in Chromium, at a phone's width and
a laptop's: no console error, no failed request, no CSP violation, no sideways scrolling.

Screenshots of every page land in ``$HERALD_SHOTS`` when it is set (to look at them).
Skipped without Chromium or Playwright; failed instead under HERALD_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Rating
from tests.busy_player import busy_player
from tests.platform.test_browser import WATCH_VIOLATIONS, browser, violations
from tests.users import make_user

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["browser"]  # the module's Chromium, shared with the CSP tests

WIDTHS = (390, 1280)


def session_cookie(user: Any, url: str) -> dict[str, str]:
    """The session cookie of ``user`` logged in by Django's test client, for the browser."""
    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}


def _counts(message: Any) -> bool:
    """A console error, except the browser's own ask for /favicon.ico (the site layout's
    part of issue 14 adds the icon; until it lands the request is a 404)."""
    return bool(message.type == "error" and "favicon.ico" not in message.location.get("url", ""))


@pytest.fixture
def watched(browser: Any) -> Iterator[Any]:
    """A function opening a page in a fresh context, checking it, saving a screenshot."""
    contexts: list[Any] = []

    def open_page(url: str, *, width: int, user: Any = None, shot: str) -> Any:
        context = browser.new_context(viewport={"width": width, "height": 900})
        contexts.append(context)
        if user is not None:
            context.add_cookies([session_cookie(user, url)])
        tab = context.new_page()
        tab.add_init_script(WATCH_VIOLATIONS)
        problems: list[str] = []
        tab.on("console", lambda m: problems.append(m.text) if _counts(m) else None)
        tab.on("requestfailed", lambda r: problems.append(f"failed {r.url}"))
        response = tab.goto(url)
        assert response is not None
        assert response.status == 200, url
        overflow = tab.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        shots = os.environ.get("HERALD_SHOTS")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            tab.screenshot(path=f"{shots}/{shot}-{width}.png", full_page=True)
        assert problems == [], url
        assert violations(tab) == [], url
        assert overflow <= 0, f"{url} scrolls sideways by {overflow}px at {width}px"
        return tab

    yield open_page
    for context in contexts:
        context.close()


def test_my_pages_fit_a_phone_and_a_laptop(live_server: Any, watched: Any) -> None:
    busy = busy_player()
    me = busy.player.user
    pool_id = Rating.objects.get(player=me).pool_id
    visitor = make_user("visitor")
    base = live_server.url
    for width in WIDTHS:
        tab = watched(f"{base}{reverse('me')}", width=width, user=me, shot="me-busy")
        assert tab.locator(".my-table").count() == 1
        assert tab.locator("svg.rating-chart-svg circle").count() == 3
        tab.click(".my-table a.button")
        assert tab.locator(f'[data-stream="{busy.running.pk}"]').count() == 1
        watched(f"{base}{reverse('me')}", width=width, user=visitor, shot="me-no-player")
        running = reverse("play:table", args=[busy.running.pk])
        tab = watched(f"{base}{running}", width=width, user=me, shot="game-running")
        assert tab.get_attribute(".game-table", "data-seat") != ""
        finished = reverse("play:table", args=[busy.finished[0].pk])
        tab = watched(f"{base}{finished}", width=width, shot="game-finished")
        assert tab.locator("[data-result]").count() == 1
        history = reverse("rating-pages:player-history", args=[pool_id, me.pk])
        watched(f"{base}{history}", width=width, shot="player-history")
