"""The live table in Chromium on real ASGI server processes and the Redis channel layer:

- through a whole game of Les 7 Blasons, everything each browser receives (the page, every
  WebSocket frame, every fetch) holds no other seat's hand, no colour of a face-down token the
  viewer may not know, and not the seed, before the end;
- two server processes, a player on each: each page shows the other's moves, and whether the
  other player is connected;
- a tournament's spectator delay of two moves: the spectator's page lags two moves behind and
  catches up when the game ends.

Screenshots land in ``$HERALD_SHOTS`` when it is set.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.urls import reverse

from engine.sept_blasons.cards import STANDARD
from events.models import Event, EventType, Stream
from events.services import stream_open
from events.states import current_state, game_of
from play.sept_blasons import colour_class
from tests.play.hidden_wire import views_by_version
from tests.play.table_driver import (
    AT_VERSION,
    ENABLED_MOVE,
    Wire,
    context_for,
    shot,
    version_of,
)
from tests.play.test_live_access import tournament_game
from tests.play.test_live_frames import hand_classes, move_once
from tests.users import make_user

pytestmark = pytest.mark.django_db(transaction=True)

HOUSES = STANDARD.colours
WAIT = 15_000  # ms


def drawn_tables(kind: str, text: str) -> list[str]:
    """The table drawings in one received text: a page or fragment, or a frame's html."""
    if kind == "ws":
        frame = json.loads(text)
        return [frame["html"]] if frame.get("type") == "table" else []
    return [text] if 'class="game-table sept-table"' in text else []


def root_attrs(html: str) -> dict[str, str]:
    tag = re.search(r"<section class=\"game-table[^\"]*\"([^>]*)>", html)
    assert tag is not None
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', tag.group(1)))


def drawn_tokens(html: str) -> dict[int, list[tuple[str, bool]]]:
    """Per player, each token drawn: its face, and whether a colour is drawn on it."""
    players = re.findall(
        r'data-player-seat="(\d+)">(.*?)<ul class="tokens"[^>]*>(.*?)</ul>', html, flags=re.S
    )
    drawn = {}
    for seat, _, tokens in players:
        drawn[int(seat)] = [
            (face, "blason-" in classes or "token-known" in classes)
            for classes, face in re.findall(
                r'<li class="(token[^"]*)" data-face="(up|down)"', tokens
            )
        ]
    return drawn


def check_wire(wire: Wire, stream: Stream, views: Any, ended_at: int) -> int:
    """Fail on anything the page received before the end that its viewer may not see; the
    number of drawings checked."""
    checked = 0
    for kind, text in wire.texts:
        for html in drawn_tables(kind, text):
            version = int(root_attrs(html)["version"])
            if version >= ended_at:
                continue
            assert stream.seed not in html
            view = views[version][wire.seat]
            # A seat's own hand, whole, in its house; a spectator none.
            expected = (
                [] if wire.seat is None else [colour_class(HOUSES[wire.seat])] * len(view["hand"])
            )
            assert hand_classes(html) == expected, (wire.seat, version)
            # Each token drawn with a colour exactly when the viewer's view gives it one.
            tokens = {
                p["seat"]: [(t["face"], bool(t.get("colour"))) for t in p["tokens"]]
                for p in view["players"]
            }
            assert drawn_tokens(html) == tokens, (wire.seat, version)
            checked += 1
        if kind == "ws" or text.lstrip().startswith(("{", "[")):
            body = json.loads(text)  # a frame, or an answer of the API (a move's)
            at = body.get("version") if isinstance(body, dict) else None
            if at is None or at < ended_at:
                assert stream.seed not in text
    return checked


def test_nothing_hidden_reaches_any_browser_through_a_whole_game(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    users = [make_user(name) for name in ("Josette", "Kilian", "Lucie")]
    stream = stream_open(game_id="les-7-blasons", seats=users, public=True)
    url = reverse("play:table", args=[stream.pk])
    pages = [context_for(browser, asgi_server, browser_problems, user) for user in users]
    spectator = context_for(browser, asgi_server, browser_problems, None)
    wires = [Wire(page, seat) for seat, page in enumerate(pages)] + [Wire(spectator, None)]
    for page in [*pages, spectator]:
        page.goto(url)
        page.wait_for_selector("[data-stream]")
    chooser = random.Random(f"wire/{stream.pk}")
    moves = 0
    try:
        while True:
            stream.refresh_from_db()
            if stream.is_finished:
                break
            for shown in [*pages, spectator]:
                shown.wait_for_function(AT_VERSION % stream.version, timeout=WAIT)
            seat = game_of(stream).to_act(current_state(stream))[0]
            controls = pages[seat].locator(ENABLED_MOVE)
            controls.nth(chooser.randrange(controls.count())).click()
            pages[seat].wait_for_function(AT_VERSION % (stream.version + 1), timeout=WAIT)
            moves += 1
            assert moves < 1000, "the game does not end"
        for page in [*pages, spectator]:
            page.wait_for_selector("[data-result]", timeout=WAIT)
    finally:
        for page in [*pages, spectator]:
            page.context.close()
    stream.refresh_from_db()
    ended = Event.objects.get(stream=stream, type=EventType.GAME_ENDED).seq
    views = views_by_version(stream)
    for wire in wires:
        frames = [t for k, t in wire.texts if k == "ws" and '"type": "table"' in t]
        assert len(frames) >= moves // 2  # the page followed the game by its frames
        assert check_wire(wire, stream, views, ended) > moves // 2
        # The end reveals the seed to everyone.
        assert any(stream.seed in text for _, text in wire.texts)
    assert browser_problems.unexpected() == []


def presence_of(page: Any, seat: int) -> str:
    return str(page.get_attribute(f'[data-presence-seat="{seat}"]', "data-online"))


def test_two_processes_a_player_on_each_see_each_others_moves_and_presence(
    browser: Any, asgi_server: Any, asgi_server_factory: Any, browser_problems: Any
) -> None:
    other = asgi_server_factory()
    users = [make_user(name) for name in ("Mireille", "Nestor", "Odile")]
    stream = stream_open(game_id="les-7-blasons", seats=users, public=False)
    url = reverse("play:table", args=[stream.pk])
    here = context_for(browser, asgi_server, browser_problems, users[0])
    there = context_for(browser, other, browser_problems, users[1])
    online = '(seat) => document.querySelector(`[data-presence-seat="${seat}"]`).dataset.online'
    try:
        here.goto(url)
        here.wait_for_function(f"() => ({online})(0) === 'true'", timeout=WAIT)
        assert presence_of(here, 1) == "false"
        shot(here, "live-presence-away")
        there.goto(url)
        here.wait_for_function(f"() => ({online})(1) === 'true'", timeout=WAIT)
        there.wait_for_function(f"() => ({online})(0) === 'true'", timeout=WAIT)
        assert presence_of(here, 2) == "false"
        shot(here, "live-presence-connected")
        # Play until each page has made moves; the third seat moves through the service.
        made = {0: 0, 1: 0}
        while min(made.values()) < 2:
            stream.refresh_from_db()
            seat = game_of(stream).to_act(current_state(stream))[0]
            if seat == 2:
                move_once(stream)
            else:
                page = (here, there)[seat]
                page.wait_for_function(AT_VERSION % stream.version, timeout=WAIT)
                page.locator(ENABLED_MOVE).first.click()
                page.wait_for_function(AT_VERSION % (stream.version + 1), timeout=WAIT)
                made[seat] += 1
            stream.refresh_from_db()
            for page in (here, there):  # each page, on its own process, shows every move
                page.wait_for_function(AT_VERSION % stream.version, timeout=WAIT)
        there.context.close()  # seat 1 closes its page
        here.wait_for_function(f"() => ({online})(1) === 'false'", timeout=WAIT)
        # ... and comes back (on the other process) to the game where it is.
        back = context_for(browser, other, browser_problems, users[1])
        back.goto(url)
        assert version_of(back) == stream.version
        here.wait_for_function(f"() => ({online})(1) === 'true'", timeout=WAIT)
        back.context.close()
    finally:
        here.context.close()
    assert browser_problems.unexpected() == []


def test_a_spectator_two_moves_behind_catches_up_at_the_end(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    stream, users, _ = tournament_game(public=True, delay=2, moves=3, tag="lagging")
    url = reverse("play:table", args=[stream.pk])
    spectator = context_for(browser, asgi_server, browser_problems, None)
    player = context_for(browser, asgi_server, browser_problems, users[0])
    try:
        spectator.goto(url)
        player.goto(url)
        assert version_of(spectator) == stream.version - 2
        assert version_of(player) == stream.version
        assert "2 moves behind" in spectator.inner_text(".spectator-delay")
        assert player.locator(".spectator-delay").count() == 0
        for _ in range(3):
            version = move_once(stream)
            spectator.wait_for_function(AT_VERSION % (version - 2), timeout=WAIT)
            player.wait_for_function(AT_VERSION % version, timeout=WAIT)
            assert version_of(spectator) == version - 2
        shot(spectator, "live-spectator-delayed")
        # Bots play the rest; once the game is over the spectator sees all of it.
        while not stream.is_finished:
            move_once(stream)
            stream.refresh_from_db()
        spectator.wait_for_selector("[data-result]", timeout=WAIT)
        assert version_of(spectator) == stream.version
    finally:
        spectator.context.close()
        player.context.close()
    assert browser_problems.unexpected() == []
