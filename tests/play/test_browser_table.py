"""Whole games of Les 7 Blasons played in Chromium on the live ASGI server, by clicking: three
players, and five with variants 1 and 4, each player in their own browser context and a
spectator in another (the driver is tests/play/table_driver.py); a stale page; a dropped
socket.

Screenshots land in ``$HERALD_SHOTS`` when it is set. Skipped without Chromium, PostgreSQL or
Redis; failed instead under HERALD_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from events.services import stream_append_move, stream_open
from events.states import current_state, game_of
from tests.play.table_driver import (
    AT_VERSION,
    ENABLED_MOVE,
    Turn,
    check_game_over,
    context_for,
    open_table,
    play_by_clicking,
    shot,
    version_of,
)
from tests.users import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def test_three_players_play_a_whole_game_by_clicking(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    users = [make_user(name) for name in ("Aline", "Bastien", "Colette")]
    stream = stream_open(game_id="les-7-blasons", seats=users, public=True)
    table = open_table(browser, asgi_server, browser_problems, stream, users)
    taken: set[str] = set()

    def screenshots(turn: Turn) -> None:
        if "token" not in taken and turn.page.locator(".players .token-target").count():
            taken.add("token")
            shot(turn.page, "table-token-target")
        if turn.step == 30:
            shot(turn.page, "table-seat-midgame")
            shot(table.spectator, "table-spectator")

    try:
        moves = play_by_clicking(
            table, chooser=random.Random(f"table/{stream.pk}"), on_turn=screenshots
        )
        check_game_over(table)
        shot(table.pages[0], "table-game-over")
    finally:
        table.close()
    assert moves > 50
    unexpected = browser_problems.unexpected()
    assert unexpected == [], unexpected


def test_five_players_with_variants_1_and_4_play_a_whole_game_by_clicking(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    """Variant 1 (the bourgeois consult tricks: own tricks hidden until consulted) and 4 (the
    religieux moves a token to a player): the drawing's trick piles and players are clicked
    as targets along the way, and screenshots of those moments are taken."""
    users = [make_user(name) for name in ("Jeanne", "Kilian", "Louise", "Marius", "Noemie")]
    stream = stream_open(
        game_id="les-7-blasons", seats=users, public=True, options={"variants": [1, 4]}
    )
    table = open_table(browser, asgi_server, browser_problems, stream, users)
    seen: dict[str, int] = {}
    targets = {
        "player": ".player-target",  # the religieux's second step: to whose game
        "trick": ".trick-pile.token-target",  # variant 1: a trick to look at
        "pile": ".pile .token-target",  # the manant's or the winner's draw
        "steal": "button.steal",  # the malandrin's value or power, on the card
    }

    def screenshots(turn: Turn) -> None:
        for name, selector in targets.items():
            if turn.page.locator(selector).count():
                seen[name] = seen.get(name, 0) + 1
                if seen[name] == 1:
                    shot(turn.page, f"table5-{name}-target")
        if turn.step == 60:
            shot(turn.page, "table5-seat-midgame")
            shot(table.spectator, "table5-spectator")

    try:
        moves = play_by_clicking(
            table, chooser=random.Random(f"table5/{stream.pk}"), on_turn=screenshots
        )
        check_game_over(table)
        shot(table.pages[0], "table5-game-over")
        shot(table.spectator, "table5-game-over-spectator")
    finally:
        table.close()
    assert moves > 100
    assert seen.get("player", 0) >= 1, f"no religieux target a player in the game: {seen}"
    assert seen.get("trick", 0) >= 1, f"no trick was offered to look at: {seen}"
    unexpected = browser_problems.unexpected()
    assert unexpected == [], unexpected


def arrived(page: Any, frames: list[str], wanted: Callable[[dict[str, Any]], bool]) -> None:
    """Wait (up to 5 s) for a kept frame that is `wanted`. Frames reach the keeper as Playwright
    dispatches them, which it does while the page waits."""
    for _ in range(50):
        if any(wanted(json.loads(frame)) for frame in frames):
            return
        page.wait_for_timeout(100)
    raise AssertionError(
        f"no wanted frame among {len(frames)} kept: {[frame[:120] for frame in frames[-3:]]}"
    )


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
        # The page is drawn before its socket is in the stream's group; a move made before that
        # would send the second socket nothing to drop. Its presence frame comes once it is in.
        arrived(second, frames, lambda frame: frame.get("type") == "presence")
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

        # The move's frame (the seat's new drawing) was dropped, not lost: it reached `keep`.
        arrived(
            second,
            frames,
            lambda frame: (
                frame.get("type") in {"table", "advanced"}
                and frame.get("version") == stream.version
            ),
        )
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
