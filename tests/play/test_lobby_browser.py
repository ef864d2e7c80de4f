"""The lobby in Chromium on the live ASGI server, with a real Celery worker for the house bot.

Two players, each in their own browser context, take the two free seats of an open game of
Les 7 Blasons (set up as the demo does: three seats, the house bot in the third). The second
seat starts the game: its player is sent to the table by the form, the first by the lobby's
polling. A spectator finds the game under "Being played" and watches. The players then click,
at random, an enabled ``[data-move]`` whenever their page offers one; the bot's moves are made
by the worker between them and reach every page over the socket. Every page ends on the
stream's result. Screenshots of the lobby and the set-up form land in ``$HERALD_SHOTS``.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.urls import reverse

from events.models import Stream
from events.states import current_state, game_of
from play import services
from play.models import OpenGame
from play.services import OpenGameSetup
from tests.conftest import wait_for
from tests.play.table_driver import AT_VERSION, ENABLED_MOVE, context_for, fits, shot
from tests.users import make_user

pytestmark = [
    pytest.mark.services("postgres", "redis", reason="a live server and a Celery worker"),
    pytest.mark.django_db(transaction=True),
]

BOT_SEAT = 2
TABLE_URL = re.compile(r".*/games/[0-9a-f-]{36}/$")


def to_act(stream: Stream) -> list[int]:
    return [] if stream.is_finished else game_of(stream).to_act(current_state(stream))


def test_two_players_join_from_the_lobby_and_play_the_house_bot_while_a_third_watches(
    browser: Any, asgi_server: Any, celery_worker_process: Any, browser_problems: Any
) -> None:
    organiser = make_user("organiser", staff=True)
    aline, bastien = make_user("aline"), make_user("bastien")
    setup = OpenGameSetup(
        game_id="les-7-blasons", players=3, options={}, house_bots=1, take_seat=False
    )
    made = services.open_game_create(by=organiser, setup=setup)
    first, second = (
        context_for(browser, asgi_server, browser_problems, u) for u in (aline, bastien)
    )
    spectator = context_for(browser, asgi_server, browser_problems, None)
    pages = [first, second, spectator]
    try:
        spectator.goto(reverse("play:lobby"))
        assert spectator.locator("[data-join]").count() == 0
        fits(spectator)
        shot(spectator, "lobby-anonymous")

        first.goto(reverse("play:lobby"))
        first.click(f"#open-{made.pk} [data-join]")
        first.wait_for_selector(f"#open-{made.pk}[data-seated] .waiting")
        fits(first)
        shot(first, "lobby-waiting")
        first.goto(reverse("play:lobby-new", args=["les-7-blasons"]))
        fits(first)
        shot(first, "lobby-new-form")
        first.goto(reverse("play:lobby"))
        first.wait_for_selector(f"#open-{made.pk}[data-seated]")

        second.goto(reverse("play:lobby"))
        second.click(f"#open-{made.pk} [data-join]")
        second.wait_for_url(TABLE_URL)  # the last seat starts the game: straight to the table
        first.wait_for_url(TABLE_URL, timeout=15_000)  # the lobby's polling took it there
        made.refresh_from_db()
        assert made.state == OpenGame.State.STARTED
        table_url = reverse("play:table", args=[made.stream_id])
        assert first.url.endswith(table_url)
        assert second.url.endswith(table_url)

        spectator.goto(reverse("play:lobby"))
        spectator.click(f'[data-started-game="{made.pk}"] a')
        spectator.wait_for_url(TABLE_URL)
        moves = play_to_the_end(made.stream_id, {0: first, 1: second}, spectator)

        stream = Stream.objects.get(pk=made.stream_id)
        for page in pages:
            page.wait_for_selector("[data-result]", timeout=15_000)
            result = json.loads(page.get_attribute("[data-result]", "data-result"))
            assert result == stream.result
        assert moves > 20
        assert stream.events.filter(type="MoveMade", seat=BOT_SEAT).count() > 5
    finally:
        for page in pages:
            page.context.close()
    unexpected = browser_problems.unexpected()
    assert unexpected == [], unexpected


class InFlight:
    """The table's requests (a move, a fragment) a page has sent and not yet seen answered.

    table.js ignores a click while its last move is still being sent, and that lasts until
    the fragment it fetches after the answer is drawn. The socket may draw the new version
    before (the server answers the move after its commit's live message and outbox work), so
    the test waits for the page's own requests to finish before clicking again.
    """

    def __init__(self, page: Any) -> None:
        self.count = 0
        page.on("request", lambda request: self._change(request, 1))
        page.on("requestfinished", lambda request: self._change(request, -1))
        page.on("requestfailed", lambda request: self._change(request, -1))

    def wait_until_answered(self, page: Any, *, polls: int = 300) -> None:
        """Let Playwright deliver the page's events (it does so only inside its own calls, so
        not during a plain sleep) until nothing is in flight; fail after ``polls`` tries."""
        for _ in range(polls):
            if self.count <= 0:
                return
            page.wait_for_timeout(50)
        pytest.fail(f"the page still waits for {self.count} answers")

    def _change(self, request: Any, by: int) -> None:
        if request.url.endswith(("/moves", "/fragment")):
            self.count += by


def play_to_the_end(stream_id: Any, seats: dict[int, Any], spectator: Any) -> int:
    """Click a random enabled move on the page of each person to act; wait for the worker on
    the bot's turns. Every page gets there by the socket alone."""
    chooser = random.Random(f"lobby/{stream_id}")
    in_flight = {seat: InFlight(page) for seat, page in seats.items()}
    moves = 0
    while True:
        stream = Stream.objects.get(pk=stream_id)
        acting = to_act(stream)
        if not acting:
            return moves
        if BOT_SEAT in acting:
            wait_for(
                lambda at=stream.version: Stream.objects.get(pk=stream_id).version > at,
                timeout=30,
                what=f"the house bot's move after version {stream.version}",
            )
            continue
        for shown in [*seats.values(), spectator]:
            shown.wait_for_function(AT_VERSION % stream.version, timeout=15_000)
        page = seats[acting[0]]
        in_flight[acting[0]].wait_until_answered(page)
        page.wait_for_function(AT_VERSION % stream.version, timeout=15_000)
        other = seats[1 - acting[0]]
        assert other.locator(ENABLED_MOVE).count() == 0
        assert spectator.locator(ENABLED_MOVE).count() == 0
        controls = page.locator(ENABLED_MOVE)
        count = controls.count()
        assert count >= 1, f"seat {acting[0]} is to act but its page offers no move"
        controls.nth(chooser.randrange(count)).click()
        page.wait_for_function(AT_VERSION % (stream.version + 1), timeout=15_000)
        moves += 1
        assert moves < 1000, "the game does not end"
