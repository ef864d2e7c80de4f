"""A whole game of Les 7 Blasons played in Chromium on the live ASGI server: three players,
each in their own browser context (logged in by a session cookie), and a spectator. The test
knows nothing of the drawing: it clicks, at random, an enabled ``[data-move]`` in whichever
page offers one, until ``[data-result]`` appears everywhere (FRONTEND.md, "Testable by
anyone"). The other pages learn of each move over the stream's socket only.

Screenshots land in ``$HERALD_SHOTS`` when it is set. Skipped without Chromium, PostgreSQL or
Redis; failed instead under HERALD_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine.sept_blasons.cards import STANDARD
from events.services import stream_append_move, stream_open
from events.states import current_state, game_of
from play.sept_blasons import colour_class
from tests.conftest import DESKTOP, PHONE, WATCH_VIOLATIONS, watch_page
from tests.users import make_user

pytestmark = pytest.mark.django_db(transaction=True)

ENABLED_MOVE = "[data-move]:not([disabled])"
AT_VERSION = "() => Number(document.querySelector('[data-stream]').dataset.version) >= %d"
HOUSES = STANDARD.colours  # seat n plays the n-th house


def context_for(browser: Any, server: Any, problems: Any, user: Any) -> Any:
    """A browser context at phone width logged in as ``user`` (None: a spectator), watched."""
    context = browser.new_context(viewport=PHONE, base_url=server.url)
    if user is not None:
        client = Client()
        client.force_login(user)
        context.add_cookies(
            [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": server.url}]
        )
    page = context.new_page()
    page.add_init_script(WATCH_VIOLATIONS)
    watch_page(page, problems)
    return page


def version_of(page: Any) -> int:
    return int(page.get_attribute("[data-stream]", "data-version"))


def shot(page: Any, name: str) -> None:
    shots = os.environ.get("HERALD_SHOTS")
    if not shots:
        return
    Path(shots).mkdir(parents=True, exist_ok=True)
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.screenshot(path=f"{shots}/{name}-{size['width']}.png", full_page=True)
    page.set_viewport_size(PHONE)


def fits(page: Any) -> None:
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
          .filter((e) => !(e.parentElement && e.parentElement.closest('.table-scroll')) && e.getBoundingClientRect().right > document.documentElement.clientWidth)
          .map((e) => e.tagName + '.' + e.className + ':' + Math.round(e.getBoundingClientRect().right)).slice(0, 5)"""
    )
    assert overflow <= 0, f"the table scrolls sideways by {overflow}px at 390px: {wide}"


def test_three_players_play_a_whole_game_by_clicking(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    users = [make_user(name) for name in ("Aline", "Bastien", "Colette")]
    stream = stream_open(game_id="les-7-blasons", seats=users, public=True)
    url = reverse("play:table", args=[stream.pk])
    pages = [context_for(browser, asgi_server, browser_problems, user) for user in users]
    spectator = context_for(browser, asgi_server, browser_problems, None)
    for page in [*pages, spectator]:
        page.goto(url)
        page.wait_for_selector("[data-stream]")
    chooser = random.Random(f"table/{stream.pk}")
    moves = 0
    token_shot = False
    try:
        while True:
            stream.refresh_from_db()
            if stream.is_finished:
                break
            state = current_state(stream)
            seat = game_of(stream).to_act(state)[0]
            page = pages[seat]
            # Every page gets there by the socket alone (the actor's page may already show it).
            for shown in [*pages, spectator]:
                shown.wait_for_function(AT_VERSION % stream.version, timeout=15_000)
            for other, other_page in enumerate(pages):
                if other != seat:
                    assert other_page.locator(ENABLED_MOVE).count() == 0
                # Its own hand and no other: as many cards as the seat holds, in its colour.
                own = f".hand .card.{colour_class(HOUSES[other])}"
                assert other_page.locator(".hand .card").count() == len(state.hands[other])
                assert other_page.locator(own).count() == len(state.hands[other])
            assert spectator.locator(".hand .card").count() == 0
            controls = page.locator(ENABLED_MOVE)
            count = controls.count()
            assert count >= 1, f"seat {seat} is to act but its page offers no move"
            assert page.locator(".turn-line.your-turn").count() == 1
            assert page.title().startswith("Your turn")
            if not token_shot and page.locator(".token-target").count():
                token_shot = True
                shot(page, "table-token-target")
            if moves == 30:
                fits(page)
                shot(page, "table-seat-midgame")
                shot(spectator, "table-spectator")
            before = stream.version
            controls.nth(chooser.randrange(count)).click()
            page.wait_for_function(AT_VERSION % (before + 1), timeout=15_000)
            moves += 1
            assert moves < 1000, "the game does not end"
        stream.refresh_from_db()
        for page in [*pages, spectator]:
            page.wait_for_selector("[data-result]", timeout=15_000)
            assert version_of(page) == stream.version
            result = json.loads(page.get_attribute("[data-result]", "data-result"))
            assert result == stream.result
            assert page.locator(ENABLED_MOVE).count() == 0
        fits(pages[0])
        shot(pages[0], "table-game-over")
    finally:
        for page in [*pages, spectator]:
            page.context.close()
    assert moves > 50
    unexpected = browser_problems.unexpected()
    assert unexpected == [], unexpected


def test_a_stale_page_is_refused_politely_and_refreshed(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    """Two browsers of the seat to act; the second one's socket stops delivering frames (its
    frames from the server are dropped on the way), so it still shows the old table when the
    first one has moved. Its click is refused (409) and the page draws the table as it is."""
    users = [make_user(name) for name in ("Dora", "Emile", "Fanny")]
    stream = stream_open(game_id="les-7-blasons", seats=users, public=False)
    seat = game_of(stream).to_act(current_state(stream))[0]
    url = reverse("play:table", args=[stream.pk])
    first = context_for(browser, asgi_server, browser_problems, users[seat])
    second = context_for(browser, asgi_server, browser_problems, users[seat])
    frames: list[str] = []

    def keep(message: str) -> None:  # Playwright wants a Python function, not a builtin
        frames.append(message)

    def deaf(socket: Any) -> None:
        server = socket.connect_to_server()
        server.on_message(keep)  # the server's frames are kept here, never delivered

    second.route_web_socket("**/ws/games/**", deaf)
    try:
        for page in (first, second):
            page.goto(url)
            page.wait_for_selector(ENABLED_MOVE)
        first.locator(ENABLED_MOVE).first.click()
        first.wait_for_function(AT_VERSION % (stream.version + 1), timeout=15_000)
        assert version_of(second) == stream.version  # stale: it heard nothing
        browser_problems.allow("answer 409")
        browser_problems.allow("409 (Conflict)")
        second.locator(ENABLED_MOVE).first.click()
        second.wait_for_function(AT_VERSION % (stream.version + 1), timeout=15_000)
        message = second.locator(".table-message")
        assert message.is_visible()
        assert "Another move got there first" in message.inner_text()
        stream.refresh_from_db()
        assert stream.version == version_of(second) == version_of(first)

        # The dropped frames reach `keep` as Playwright dispatches them (while it waits): give
        # the move's frame (the seat's new drawing) a moment to be counted, then require it.
        def dropped_the_move() -> bool:
            return any(
                json.loads(frame).get("type") in {"table", "advanced"}
                and json.loads(frame).get("version") == stream.version
                for frame in frames
            )

        for _ in range(50):
            if dropped_the_move():
                break
            second.wait_for_timeout(100)
        assert dropped_the_move()
    finally:
        for page in (first, second):
            page.context.close()
    assert browser_problems.unexpected() == []


def test_a_dropped_socket_catches_up_when_it_reconnects(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    """A player's socket drops (closed on the way) and cannot come back for a while; two moves
    are made meanwhile; when it reconnects, its page shows them (the "joined" frame's version
    differs from the page's, so it draws the table again)."""
    users = [make_user(name) for name in ("Gaston", "Hortense", "Ines")]
    stream = stream_open(game_id="les-7-blasons", seats=users, public=False)
    game = game_of(stream)
    page = context_for(browser, asgi_server, browser_problems, users[0])
    network = {"up": True, "sockets": []}

    def route(socket: Any) -> None:
        if not network["up"]:
            socket.close()  # the page sees a drop and tries again later
            return
        socket.connect_to_server()  # frames pass both ways
        network["sockets"].append(socket)

    page.route_web_socket("**/ws/games/**", route)
    try:
        page.goto(reverse("play:table", args=[stream.pk]))
        for _ in range(100):  # the page's socket is open once the route has passed it on
            if network["sockets"]:
                break
            page.wait_for_timeout(100)
        start = stream.version
        network["up"] = False
        network["sockets"][-1].close()
        for _ in range(2):
            stream.refresh_from_db()
            state = current_state(stream)
            seat = game.to_act(state)[0]
            move = game.legal_moves(state, seat)[0].to_json()
            stream_append_move(
                stream_id=stream.pk, seat=seat, move=move, expected_version=stream.version
            )
        page.wait_for_timeout(1000)
        assert version_of(page) == start  # offline: nothing reached it
        network["up"] = True
        page.wait_for_function(AT_VERSION % (start + 2), timeout=20_000)
        assert page.locator(".last-moves li").count() == 2
    finally:
        page.context.close()
    assert browser_problems.unexpected() == []
