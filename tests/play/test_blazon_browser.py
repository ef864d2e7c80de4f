"""Whole games of Blazon played in Chromium on the live ASGI server: 2 and 4 players, each in
their own browser context (logged in by a session cookie), and a spectator. The test knows
nothing of the drawing: at each step it clicks, at random, one of the controls the page of the
seat to act offers (an enabled ``[data-move]``, or a ``[data-choice]``: a card of the hand,
which lights the spaces it may go to), until ``[data-result]`` appears everywhere
(FRONTEND.md, "Testable by anyone"). The other pages learn of each move over the socket only.

A random game of Blazon is long: about 340 moves with 2 players and 600 with 4 (measured with
the engine's random bot); the rules have no shorter game. Measured on the shared 2-core machine
(load about 12): the 2-player game takes about 4 minutes, the 4-player one about 8. Screenshots land in
``$HERALD_SHOTS`` when it is set. Skipped without Chromium, PostgreSQL or Redis; failed instead
under HERALD_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from events.services import stream_append_move, stream_open
from events.states import current_state
from tests.conftest import DESKTOP, PHONE
from tests.play.table_driver import AT_VERSION, context_for, version_of
from tests.ratings.games import play_stream
from tests.users import make_user

pytestmark = pytest.mark.django_db(transaction=True)

ENABLED_MOVE = "[data-stream] [data-move]:not([disabled])"
OFFERED = (
    "[data-stream] [data-move]:not([disabled]):visible, "
    "[data-stream] [data-choice]:not([disabled]):visible"
)
SPECTATOR_SHOT = 120  # the move after which the spectator's page is photographed
CHECK_EVERY = 20
FIT_CHECK = 40  # the move before which the actor's page is checked for sideways scrolling  # moves between the checks of what the other pages show


def shot(page: Any, name: str) -> None:
    """Screenshots of the page at a phone's and a laptop's width (with HERALD_SHOTS)."""
    shots = os.environ.get("HERALD_SHOTS")
    if not shots:
        return
    Path(shots, "parts").mkdir(parents=True, exist_ok=True)
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.screenshot(path=f"{shots}/blazon-{name}-{size['width']}.png", full_page=True)
        height = page.evaluate("() => document.documentElement.scrollHeight")
        for tile in range(0, min(height, 5 * size["height"]), size["height"]):
            clip = {"x": 0, "y": tile, "width": size["width"], "height": size["height"]}
            part = tile // size["height"]
            page.screenshot(
                path=f"{shots}/parts/blazon-{name}-{size['width']}-{part}.png",
                full_page=True,
                clip=clip,
            )
    page.set_viewport_size(PHONE)


def fits(page: Any) -> None:
    """Nothing on the page reaches past the phone's width (wide tables scroll in their box)."""
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
          .filter((e) => !(e.parentElement && e.parentElement.closest('.table-scroll, .bz-defs')) && e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
          .map((e) => e.tagName + '.' + e.className + ':' + Math.round(e.getBoundingClientRect().right)).slice(0, 5)"""
    )
    assert overflow <= 0, f"the table scrolls sideways by {overflow}px at 390px: {wide}"


def hand_size(page: Any) -> int:
    return page.locator(".bz-hand .bz-hand-card").count()


def play_by_clicking(
    browser: Any, server: Any, problems: Any, players: int, *, shots: bool = False
) -> int:
    """One whole game through the pages; returns the number of moves made."""
    users = [make_user(f"bz{players}-{n}") for n in range(players)]
    stream = stream_open(game_id="blazon", seats=users, public=True)
    url = reverse("play:table", args=[stream.pk])
    pages = [context_for(browser, server, problems, user) for user in users]
    spectator = context_for(browser, server, problems, None)
    for page in [*pages, spectator]:
        page.goto(url)
        page.wait_for_selector("[data-stream]")
    chooser = random.Random(f"blazon/{players}/{stream.pk}")
    moves = clicks = 0
    taken: set[str] = set()
    try:
        while True:
            stream.refresh_from_db()
            if stream.is_finished:
                break
            state = current_state(stream)
            seat = state.turn
            page = pages[seat]
            page.wait_for_function(AT_VERSION % stream.version, timeout=15_000)
            if moves % CHECK_EVERY == 0:
                check_the_other_pages(pages, spectator, state, seat, stream.version)
            if moves == FIT_CHECK:
                fits(page)
            if shots:
                take_shots(page, state, taken)
                if moves == SPECTATOR_SHOT:
                    shot(spectator, f"spectator-{players}")
            offered = page.locator(OFFERED)
            count = offered.count()
            assert count >= 1, f"seat {seat} is to act but its page offers nothing"
            control = offered.nth(chooser.randrange(count))
            clicks += 1
            assert clicks < 6000, "the game does not end"
            if control.get_attribute("data-move") is None:
                control.click()  # a card of the hand: its spaces light up, nothing is sent
                continue
            send(page, control, stream.version, problems)
            moves += 1
        stream.refresh_from_db()
        for page in [*pages, spectator]:
            page.wait_for_selector("[data-result]", timeout=15_000)
            assert version_of(page) == stream.version
            result = json.loads(page.get_attribute("[data-result]", "data-result"))
            assert result == stream.result
            assert page.locator(ENABLED_MOVE).count() == 0
        fits(pages[0])
        if shots:
            shot(pages[0], "game-over")
    finally:
        for page in [*pages, spectator]:
            page.context.close()
    return moves


def send(page: Any, control: Any, version: int, problems: Any) -> None:
    """Click a move and wait for the page to show the next version.

    table.js may swap the table twice for one move (after its own POST, and once more when the
    socket's frame arrived before that swap): a click that lands on the table just replaced is
    lost, as a person's would be, and the person clicks again. So does this test, on the same
    move in the table now shown, while the page still shows ``version`` and said nothing."""
    sent = control.get_attribute("data-move")
    again = page.locator(f"[data-stream] [data-move='{sent}']:not([disabled]):visible")
    for _attempt in range(3):
        control.click()
        try:
            page.wait_for_function(AT_VERSION % (version + 1), timeout=5_000)
            return
        except PlaywrightTimeout:
            said = page.locator(".table-message").inner_text()
            assert not said, f"{sent} was refused: {said!r}"
            assert version_of(page) == version
            control = again.first
    raise AssertionError(f"{sent} made no move: {problems.seen[-5:]}")


def check_the_other_pages(
    pages: list[Any], spectator: Any, state: Any, seat: int, version: int
) -> None:
    """Every page reaches the stream's version by the socket; only the seat to act may move;
    each seat sees its own hand as many cards as it holds, the spectator none."""
    for other, other_page in enumerate(pages):
        other_page.wait_for_function(AT_VERSION % version, timeout=15_000)
        if other != seat:
            assert other_page.locator(ENABLED_MOVE).count() == 0
        assert hand_size(other_page) == len(state.players[other].hand)
    spectator.wait_for_function(AT_VERSION % version, timeout=15_000)
    assert hand_size(spectator) == 0
    assert spectator.locator(ENABLED_MOVE).count() == 0


def take_shots(page: Any, state: Any, taken: set[str]) -> None:
    """The first turn, the blazon move's steps (a card chosen, paying) and the hand limit."""
    phase = state.phase
    if "turn" not in taken and phase == "main" and state.turn_number >= 3:
        taken.add("turn")
        fits(page)
        shot(page, "turn")
    elif "choose" not in taken and phase == "main" and page.locator(".bz-target:visible").count():
        taken.add("choose")
        fits(page)
        shot(page, "choose-a-space")
    elif "pay" not in taken and phase == "pay" and state.pay_due >= 2:
        taken.add("pay")
        fits(page)
        shot(page, "pay")
    elif "exchange" not in taken and phase == "exchange":
        taken.add("exchange")
        shot(page, "exchange")


def test_two_players_play_a_whole_game_by_clicking(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    moves = play_by_clicking(browser, asgi_server, browser_problems, 2, shots=True)
    assert moves > 50
    assert browser_problems.unexpected() == []


def test_four_players_play_a_whole_game_by_clicking(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    moves = play_by_clicking(browser, asgi_server, browser_problems, 4, shots=True)
    assert moves > 100
    assert browser_problems.unexpected() == []


def test_a_dropped_socket_catches_up_when_it_reconnects(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    """A player's socket drops and cannot come back for a while; two moves are made meanwhile;
    when it reconnects, its page draws the table at the stream's version."""
    users = [make_user(name) for name in ("Jeanne", "Karim")]
    stream = stream_open(game_id="blazon", seats=users, public=False)
    page = context_for(browser, asgi_server, browser_problems, users[1])
    network: dict[str, Any] = {"up": True, "sockets": []}

    def route(socket: Any) -> None:
        if not network["up"]:
            socket.close()  # the page sees a drop and tries again later
            return
        socket.connect_to_server()
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
        for deck in ("tincture", "device"):  # seat 0 acquires two cards
            stream.refresh_from_db()
            stream_append_move(
                stream_id=stream.pk,
                seat=0,
                move={"type": "draw", "deck": deck},
                expected_version=stream.version,
            )
        page.wait_for_timeout(1000)
        assert version_of(page) == start  # offline: nothing reached it
        network["up"] = True
        page.wait_for_function(AT_VERSION % (start + 2), timeout=20_000)
        assert page.locator(".last-moves li").count() == 2
    finally:
        page.context.close()
    assert browser_problems.unexpected() == []


def test_a_stale_page_is_refused_politely_and_refreshed(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    """Two browsers of the seat to act; the second one hears nothing from its socket, so it
    still shows the old table when the first has drawn a card. Its click is refused (409) and
    the page draws the table as it is, saying so."""
    users = [make_user(name) for name in ("Lise", "Marc")]
    stream = stream_open(game_id="blazon", seats=users, public=False)
    first = context_for(browser, asgi_server, browser_problems, users[0])
    second = context_for(browser, asgi_server, browser_problems, users[0])
    second.route_web_socket("**/ws/games/**", lambda socket: None)  # never connected
    draw = "[data-stream] .bz-pile [data-move]:not([disabled])"
    try:
        for page in (first, second):
            page.goto(reverse("play:table", args=[stream.pk]))
            page.wait_for_selector(draw)
        first.locator(draw).first.click()
        first.wait_for_function(AT_VERSION % (stream.version + 1), timeout=15_000)
        assert version_of(second) == stream.version  # stale: it heard nothing
        browser_problems.allow("answer 409")
        browser_problems.allow("409 (Conflict)")
        second.locator(draw).first.click()
        second.wait_for_function(AT_VERSION % (stream.version + 1), timeout=15_000)
        message = second.locator(".table-message")
        assert message.is_visible()
        assert "Another move got there first" in message.inner_text()
    finally:
        for page in (first, second):
            page.context.close()
    assert browser_problems.unexpected() == []


def test_the_table_fits_a_phone_in_french(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    """Four players well into a game, the table in French (longer words) at 390 px: nothing
    scrolls sideways; the seat to act, a seat waiting and a spectator."""
    users = [make_user(f"fr{n}") for n in range(4)]
    stream = play_stream(stream_open(game_id="blazon", seats=users, public=True), stop_after=150)
    actor = current_state(stream).turn
    for who, user in (
        ("actor", users[actor]),
        ("waiting", users[(actor + 1) % 4]),
        ("public", None),
    ):
        page = context_for(browser, asgi_server, browser_problems, user)
        try:
            page.context.add_cookies(
                [{"name": "django_language", "value": "fr", "url": asgi_server.url}]
            )
            page.goto(reverse("play:table", args=[stream.pk]))
            assert page.locator("html").get_attribute("lang") == "fr"
            fits(page)
            shot(page, f"french-{who}")
        finally:
            page.context.close()
    ended = play_stream(stream_open(game_id="blazon", seats=users, public=True))
    page = context_for(browser, asgi_server, browser_problems, users[0])
    try:
        page.context.add_cookies(
            [{"name": "django_language", "value": "fr", "url": asgi_server.url}]
        )
        page.goto(reverse("play:table", args=[ended.pk]))
        assert page.locator("[data-result]").count() == 1
        fits(page)
        shot(page, "french-game-over")
    finally:
        page.context.close()
    assert browser_problems.unexpected() == []
