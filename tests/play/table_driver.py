"""Playing a whole game of Les 7 Blasons in Chromium, by clicking, for the browser tests.

Each seat is in its own browser context (logged in by a session cookie) and a spectator in
another. The driver knows nothing of the drawing beyond FRONTEND.md's "Testable by anyone":
it clicks, at random, an enabled ``[data-move]`` on the page of the seat to act, until
``[data-result]`` appears. At every step it checks on the DOM that no page shows another
seat's hand, and at some steps that the phone-width page does not scroll sideways.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.test import Client
from django.urls import reverse

from engine.sept_blasons.cards import STANDARD
from events.models import Stream
from events.states import current_state, game_of
from play.sept_blasons import colour_class
from tests.conftest import DESKTOP, PHONE, WATCH_VIOLATIONS, watch_page

ENABLED_MOVE = "[data-move]:not([disabled])"
AT_VERSION = "() => Number(document.querySelector('[data-stream]').dataset.version) >= %d"
HOUSES = STANDARD.colours  # seat n plays the n-th house
PHONE_WIDTH = PHONE["width"]


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
    """Screenshots of the whole page at 390 and 1280 px into ``$HERALD_SHOTS`` when set."""
    shots = os.environ.get("HERALD_SHOTS")
    if not shots:
        return
    Path(shots).mkdir(parents=True, exist_ok=True)
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.screenshot(path=f"{shots}/{name}-{size['width']}.png", full_page=True)
    page.set_viewport_size(PHONE)


def fits(page: Any) -> None:
    """The page does not scroll sideways at its (phone) width; names what sticks out if it does."""
    width = page.evaluate("() => document.documentElement.scrollWidth")
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
          .filter((e) => !(e.parentElement && e.parentElement.closest('.table-scroll')) && e.getBoundingClientRect().right > document.documentElement.clientWidth)
          .map((e) => e.tagName + '.' + e.className + ':' + Math.round(e.getBoundingClientRect().right)).slice(0, 5)"""
    )
    assert width <= PHONE_WIDTH, f"the table is {width}px wide at {PHONE_WIDTH}px: {wide}"


@dataclass
class Turn:
    """What the step's callback learns: the step number, the acting page, the state."""

    step: int
    seat: int
    page: Any
    state: Any


@dataclass
class Table:
    """The seats' pages (by seat) and the spectator's, on one stream's game page."""

    stream: Stream
    pages: list[Any]
    spectator: Any

    @property
    def everyone(self) -> list[Any]:
        return [*self.pages, self.spectator]

    def close(self) -> None:
        for page in self.everyone:
            page.context.close()


def open_table(browser: Any, server: Any, problems: Any, stream: Stream, users: list[Any]) -> Table:
    """Every seat's page and a spectator's, opened on the game page."""
    url = reverse("play:table", args=[stream.pk])
    table = Table(
        stream,
        [context_for(browser, server, problems, user) for user in users],
        context_for(browser, server, problems, None),
    )
    for page in table.everyone:
        page.goto(url)
        page.wait_for_selector("[data-stream]")
    return table


def check_hands(table: Table, state: Any, seat_to_act: int) -> None:
    """Each seat's page shows its own hand and no other (as many cards as it holds, all in
    its colour), offers moves only to the seat to act; the spectator's shows no hand."""
    for other, page in enumerate(table.pages):
        if other != seat_to_act:
            assert page.locator(ENABLED_MOVE).count() == 0
        own = f".hand .card.{colour_class(HOUSES[other])}"
        assert page.locator(".hand .card").count() == len(state.hands[other])
        assert page.locator(own).count() == len(state.hands[other])
    assert table.spectator.locator(".hand").count() == 0


def play_by_clicking(
    table: Table,
    *,
    chooser: random.Random,
    on_turn: Callable[[Turn], None] | None = None,
    fit_every: int = 20,
    max_moves: int = 3000,
) -> int:
    """Click a random enabled move on the acting seat's page until the game ends; the other
    pages follow by the socket alone. Returns the number of moves made."""
    stream = table.stream
    game = game_of(stream)
    moves = 0
    while True:
        stream.refresh_from_db()
        if stream.is_finished:
            return moves
        state = current_state(stream)
        seat = game.to_act(state)[0]
        page = table.pages[seat]
        for shown in table.everyone:
            shown.wait_for_function(AT_VERSION % stream.version, timeout=15_000)
        check_hands(table, state, seat)
        controls = page.locator(ENABLED_MOVE)
        count = controls.count()
        assert count >= 1, f"seat {seat} is to act but its page offers no move"
        assert page.locator(".turn-line.your-turn").count() == 1
        assert page.title().startswith("Your turn")
        if moves % fit_every == 0:
            fits(page)
            fits(table.spectator)
        if on_turn is not None:
            on_turn(Turn(moves, seat, page, state))
        before = stream.version
        controls.nth(chooser.randrange(count)).click()
        page.wait_for_function(AT_VERSION % (before + 1), timeout=15_000)
        moves += 1
        assert moves < max_moves, "the game does not end"


def check_game_over(table: Table) -> None:
    """Every page ends on the game-over panel: the stream's result, the final totals in the
    ranking's order, no move left to click, and the page still fits a phone."""
    stream = table.stream
    stream.refresh_from_db()
    result = stream.result
    expected = sorted(range(len(result["ranks"])), key=lambda s: (result["ranks"][s], s))
    for page in table.everyone:
        page.wait_for_selector("[data-result]", timeout=15_000)
        assert version_of(page) == stream.version
        assert json.loads(page.get_attribute("[data-result]", "data-result")) == result
        totals = page.locator(".final-scores tbody .final-total").all_inner_texts()
        assert [float(t) for t in totals] == [result["scores"][s] for s in expected]
        assert page.locator(ENABLED_MOVE).count() == 0
        fits(page)
