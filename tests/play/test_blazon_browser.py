"""Whole games of Blazon played in Chromium on the live ASGI server: 2 players (with the
abatement option on) and 4, each in their own browser context (logged in by a session cookie),
and a spectator. The test knows nothing of the drawing: at each step it clicks, at random, one
of the controls the page of the seat to act offers (an enabled ``[data-move]``, or a ``[data-choice]``: a card of the hand,
which lights the spaces it may go to), until ``[data-result]`` appears everywhere
(FRONTEND.md, "Testable by anyone"); a payment is made by choosing its cards and confirming.
The other pages learn of each move over the socket only. The shared driver
(tests/play/table_driver.py) clicks; afterwards every WebSocket frame and fetched drawing of
each seat and of the spectator is searched for what its viewer may not see
(tests/play/hidden_wire.py).

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

from engine.blazon.shield import TABLES, blazon_text
from events.models import Event, EventType
from events.services import stream_append_move, stream_open
from events.states import current_state
from tests.conftest import DESKTOP, PHONE
from tests.play import table_driver as driver
from tests.play.hidden_wire import check_seed, search_blazon, states_by_version
from tests.play.table_driver import AT_VERSION, Table, Turn, context_for, open_table, version_of
from tests.ratings.games import play_stream
from tests.users import make_user

pytestmark = pytest.mark.django_db(transaction=True)

ENABLED_MOVE = "[data-stream] [data-move]:not([disabled])"
SPECTATOR_SHOT = 120  # the move after which the spectator's page is photographed
FIT_CHECK = 40  # the move before which the actor's page is checked for sideways scrolling


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


def broken_words(page: Any, selector: str) -> list[str]:
    """The words in ``selector``'s elements that the page breaks across two lines (a name cut
    as "Montmo / rency0"): each word must sit on one line, the line breaks falling between
    words."""
    broken: list[str] = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].flatMap((cell) => {
          const found = [];
          const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const word of node.data.matchAll(/\\S+/g)) {
              const range = document.createRange();
              range.setStart(node, word.index);
              range.setEnd(node, word.index + word[0].length);
              const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
              if (lines.size > 1) found.push(word[0]);
            }
          }
          return found;
        })""",
        selector,
    )
    return broken


def hand_size(page: Any) -> int:
    return page.locator(".bz-hand .bz-hand-card").count()


def play_by_clicking(
    browser: Any,
    server: Any,
    problems: Any,
    players: int,
    *,
    shots: bool = False,
    options: dict[str, Any] | None = None,
    clicked: int | None = None,
) -> int:
    """One whole game through the pages with the shared driver (tests/play/table_driver.py),
    or its first ``clicked`` moves by clicking and the rest by random bots on the server, the
    pages following by their sockets; then every drawing each page received is searched for
    what its viewer may not see."""
    users = [make_user(f"bz{players}-{n}") for n in range(players)]
    stream = stream_open(game_id="blazon", seats=users, public=True, options=options)
    table = open_table(browser, server, problems, stream, users)
    taken: set[str] = set()

    def on_turn(turn: Turn) -> None:
        if turn.step == FIT_CHECK:
            fits(turn.page)
        if shots:
            take_shots(turn.page, turn.state, taken)
            if turn.step == SPECTATOR_SHOT:
                shot(table.spectator, f"spectator-{players}")

    def check(table: Table, state: Any, seat: int) -> None:
        if state.turn_number % 3 == 0 or state.phase == "pay":
            check_the_other_pages(table.pages, table.spectator, state, seat, stream.version)

    try:
        moves = driver.play_by_clicking(
            table,
            chooser=random.Random(f"blazon/{players}/{stream.pk}"),
            on_turn=on_turn,
            check=check,
            fit_every=10_000,  # the phone width is checked at FIT_CHECK and in the shots
            stop_after=clicked,
        )
        play_stream(stream, bot_seed=f"blazon/{players}")  # the rest, if any
        stream.refresh_from_db()
        for page in table.everyone:
            page.wait_for_selector("[data-result]", timeout=15_000)
            assert version_of(page) == stream.version
            result = json.loads(page.get_attribute("[data-result]", "data-result"))
            assert result == stream.result
            assert page.locator(ENABLED_MOVE).count() == 0
        # Each abatement token left on a shield is drawn there (−8), on every page.
        abated = sum(p.abated_space >= 0 for p in current_state(stream).players)
        for page in table.everyone:
            assert page.locator("[data-stream] .bz-abatement").count() == abated
        fits(table.pages[0])
        if shots:
            shot(table.pages[0], "game-over")
    finally:
        table.close()
    check_what_each_page_received(table, stream, moves)
    return moves


def check_what_each_page_received(table: Table, stream: Any, moves: int) -> None:
    """Every frame and fetched drawing of each seat and the spectator: no other seat's hand
    card and no deck's card (the next draws) before the end, no seed; the search finds each
    seat's own hand cards in its own drawings."""
    stream.refresh_from_db()
    ended = Event.objects.get(stream=stream, type=EventType.GAME_ENDED).seq
    states = states_by_version(stream)
    for wire in table.wires:
        assert len([f for f in wire.frames() if '"type": "table"' in f]) >= moves // 2
        check_seed(wire, stream, ended)
        searched = search_blazon(wire, states, ended)
        assert searched.drawings > moves // 2, (wire.seat, searched)
        if wire.seat is not None:
            assert searched.own_missing == 0, (wire.seat, searched)
            assert searched.found_allowed > 0, (wire.seat, searched)
        else:
            assert searched.found_allowed == 0


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


def choose_an_overpayment(page: Any) -> bool:
    """Pick, in the payment's choice group, the cards of a legal payment worth more than is
    due (a person's clicks); then the total and the no-change notice show and the confirm
    button carries that move. False when no payment overpays."""
    group = page.locator("[data-stream] [data-pay-due]")
    if not group.count():
        return False
    due = int(group.get_attribute("data-pay-due"))
    values = {
        c.get_attribute("data-choice"): int(c.get_attribute("data-choice-value"))
        for c in group.locator("[data-choice]").all()
    }
    for candidate in json.loads(group.get_attribute("data-candidates")):
        total = sum(values[c] for c in candidate["choices"])
        if total > due:
            for choice in candidate["choices"]:
                group.locator(f'[data-choice="{choice}"]').click()
            assert page.inner_text("[data-selection-total]") == str(total)
            composed = page.locator("[data-stream] [data-compose]")
            assert json.loads(composed.get_attribute("data-move")) == candidate["move"]
            return True
    return False


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
        if choose_an_overpayment(page):
            taken.add("pay")
            notice = page.locator("[data-overpay]")
            assert notice.is_visible()
            assert "No change given" in notice.inner_text()
            fits(page)
            shot(page, "pay")
    elif "exchange" not in taken and phase == "exchange":
        taken.add("exchange")
        shot(page, "exchange")


def test_two_players_play_a_whole_game_by_clicking(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    """With the abatement option on: its placements are among the controls clicked at random
    (a random game with it lasts as long as one without: about 335 moves against 330)."""
    moves = play_by_clicking(
        browser, asgi_server, browser_problems, 2, shots=True, options={"abatement": True}
    )
    assert moves > 50
    assert browser_problems.unexpected() == []


def test_four_players_play_a_whole_game(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    """The first 200 of some 600 moves by clicking (a few rounds of every phase for four
    seats), the rest by bots on the server; every page follows to the final scoring. The
    whole game by clicking took 8 of CI's minutes; the two-player game is clicked to its end."""
    moves = play_by_clicking(browser, asgi_server, browser_problems, 4, shots=True, clicked=200)
    assert moves == 200
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
    scrolls sideways; the seat to act, a seat waiting and a spectator. The blazon under each
    shield is the French one."""
    users = [make_user(f"fr{n}") for n in range(4)]
    stream = play_stream(stream_open(game_id="blazon", seats=users, public=True), stop_after=150)
    state = current_state(stream)
    actor = state.turn
    french = {blazon_text(p, TABLES[state.edition], "fr") for p in state.players} - {""}
    assert french
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
            shown = set(page.locator("[data-stream] .bz-blazon em").all_inner_texts())
            assert shown == french
            fits(page)
            shot(page, f"french-{who}")
        finally:
            page.context.close()
    # Long names: the final scores' columns are too narrow for them at 390 px.
    named = [make_user(f"Montmorency{n}") for n in range(4)]
    ended = play_stream(stream_open(game_id="blazon", seats=named, public=True))
    page = context_for(browser, asgi_server, browser_problems, named[0])
    try:
        page.context.add_cookies(
            [{"name": "django_language", "value": "fr", "url": asgi_server.url}]
        )
        page.goto(reverse("play:table", args=[ended.pk]))
        assert page.locator("[data-result]").count() == 1
        fits(page)
        assert broken_words(page, ".bz-final thead th") == []
        shot(page, "french-game-over")
    finally:
        page.context.close()
    assert browser_problems.unexpected() == []
