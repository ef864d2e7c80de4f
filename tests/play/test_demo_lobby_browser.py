"""The demo's open games of Blazon and 13 Couronnes in Chromium on the live ASGI server.

On the demo data (``manage.py demo``, here on a small scale: the same ``demo_populate`` with
fewer bot games), the demo player opens each open game from the lobby at ``/games/`` and takes
a seat; the second demo player joins; both are sent to the table, and the seat to act makes a
first move there by clicking what its page offers (a move, or choices then their confirmation),
which the other page shows over the socket. Screenshots land in ``$HERALD_SHOTS``.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

import engine
from herald import demo
from play.models import OpenGame
from tests.play.table_driver import (
    AT_VERSION,
    COMPOSED,
    OFFERED,
    context_for,
    fits,
    send,
    shot,
    version_of,
)

pytestmark = pytest.mark.django_db(transaction=True)

TABLE_URL = re.compile(r".*/games/[0-9a-f-]{36}/$")


@pytest.fixture
def demo_data(monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo, with its bot tournaments kept small so that the test stays short."""
    small = {game.id: demo.DemoPlan(players=8, rounds=1) for game in engine.games()}
    small["13-couronnes"] = demo.DemoPlan(players=8, rounds=1, options={"max_turns": 5})
    monkeypatch.setattr(demo, "PLANS", small)
    demo.demo_populate(say=lambda _: None)


def first_move(page: Any, chooser: random.Random) -> None:
    """Click what the page offers until a move is made (choices first, when the move is
    composed of them)."""
    version = version_of(page)
    for _ in range(60):
        composed = page.locator(COMPOSED)
        if composed.count():
            control = composed.first
        else:
            offered = page.locator(OFFERED)
            assert offered.count(), "the seat to act is offered nothing"
            control = offered.nth(chooser.randrange(offered.count()))
        if control.get_attribute("data-move") is None:
            control.click()
            continue
        if send(page, control, version):
            return
    pytest.fail("no move was made in 60 clicks")


@pytest.mark.parametrize("game_id", ["blazon", "13-couronnes"])
def test_two_demo_players_open_the_demos_game_from_the_lobby_and_play(
    browser: Any, asgi_server: Any, browser_problems: Any, demo_data: None, game_id: str
) -> None:
    users = get_user_model().objects
    player, player2 = users.get(username=demo.PLAYER), users.get(username=demo.PLAYER2)
    made = OpenGame.objects.get(game=game_id, state=OpenGame.State.OPEN)
    assert made.players == 2
    first = context_for(browser, asgi_server, browser_problems, player)
    second = context_for(browser, asgi_server, browser_problems, player2)
    try:
        first.goto(reverse("play:lobby"))
        card = first.locator(f"#open-{made.pk}")
        assert engine.get(game_id).name in card.inner_text()
        card.locator("[data-join]").click()
        first.wait_for_selector(f"#open-{made.pk}[data-seated] .waiting")
        fits(first)
        shot(first, f"demo-lobby-{game_id}-waiting")
        second.goto(reverse("play:lobby"))
        second.click(f"#open-{made.pk} [data-join]")
        second.wait_for_url(TABLE_URL)  # the last seat starts the game
        first.wait_for_url(TABLE_URL, timeout=15_000)  # the lobby's polling took it there
        made.refresh_from_db()
        assert made.state == OpenGame.State.STARTED
        for page in (first, second):
            page.wait_for_selector(f'[data-stream][data-game="{game_id}"]')
        acting = [p for p in (first, second) if p.locator(".turn-line.your-turn").count()]
        assert len(acting) == 1, "exactly one of the two players is to act"
        waiting = second if acting[0] is first else first
        start = version_of(acting[0])
        first_move(acting[0], random.Random(f"demo/{game_id}"))
        waiting.wait_for_function(AT_VERSION % (start + 1), timeout=15_000)
        assert waiting.locator(".last-moves li").count() >= 1
        fits(acting[0])
        shot(acting[0], f"demo-{game_id}-first-move")
    finally:
        for page in (first, second):
            page.context.close()
    assert browser_problems.unexpected() == []
