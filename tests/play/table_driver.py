"""Playing a whole game in Chromium, by clicking, for the browser tests of every game.

Each seat is in its own browser context (logged in by a session cookie) and a spectator in
another. The driver knows nothing of the drawing beyond FRONTEND.md's "Testable by anyone":
on the page of the seat to act it clicks, at random, an enabled ``[data-move]`` or a
``[data-choice]`` (a card of the hand: the spaces it goes to, the cards that pay, the cards to
reveal...), and confirms a choice group's ``[data-compose]`` once the choices make a legal
move, until ``[data-result]`` appears. At every move it checks on the DOM, with the game's
``check``, that no page shows another seat's hand (Les 7 Blasons' by default), and at some
moves that the phone-width page does not scroll sideways. Each page's :class:`Wire` keeps
what it received (pages, fragments, API answers, WebSocket frames) for the tests that search
it for hidden information.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.test import Client
from django.urls import reverse
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from engine.sept_blasons.cards import STANDARD
from events.models import Stream
from events.states import current_state, game_of
from play.sept_blasons import colour_class
from tests.conftest import DESKTOP, PHONE, WATCH_VIOLATIONS, watch_page

ENABLED_MOVE = "[data-move]:not([disabled])"
#: What the page of the seat to act offers to click: a move, or a choice of a choice group.
OFFERED = (
    "[data-stream] [data-move]:not([disabled]):visible, "
    "[data-stream] [data-choice]:not([disabled]):visible"
)
#: A choice group's confirm button once its choices make a legal move (choices.js).
COMPOSED = "[data-stream] [data-compose][data-move]:not([disabled])"
CONFIRM = 0.7  # how often the driver confirms a composed move when one is ready
AT_VERSION = "() => Number(document.querySelector('[data-stream]').dataset.version) >= %d"
HOUSES = STANDARD.colours  # seat n plays the n-th house
PHONE_WIDTH = PHONE["width"]


def context_for(browser: Any, server: Any, problems: Any, user: Any) -> Any:
    """A browser context at phone width logged in as ``user`` (None: a spectator), watched."""
    context = problems.close_after_test(browser.new_context(viewport=PHONE, base_url=server.url))
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


class Wire:
    """Everything one browser page receives: the documents and fetches (HTML and JSON) and
    the WebSocket frames, as text."""

    def __init__(self, page: Any, seat: int | None) -> None:
        self.seat = seat
        self.texts: list[tuple[str, str]] = []  # (kind, text)
        page.on("response", self.answer)
        page.on("websocket", self.socket)

    def answer(self, response: Any) -> None:
        kind = response.headers.get("content-type", "")
        if "html" in kind or "json" in kind:
            try:
                self.texts.append(("http", response.text()))
            except Exception:  # a redirect or an aborted request has no body
                return

    def socket(self, socket: Any) -> None:
        socket.on("framereceived", lambda payload: self.texts.append(("ws", str(payload))))

    def frames(self) -> list[str]:
        """The WebSocket frames received, in order."""
        return [text for kind, text in self.texts if kind == "ws"]


class Fetches:
    """The table fragments a page is fetching now. After a move the page fetches its table
    twice when the socket's frame for the new version arrives while the first fetch is on its
    way; the second swaps the table again, and a click landing during that swap hits the new
    drawing at the old place. The driver waits for the page to settle before clicking."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.pending = 0
        page.on("request", self.started)
        page.on("requestfinished", self.ended)
        page.on("requestfailed", self.ended)

    def started(self, request: Any) -> None:
        self.pending += "/fragment" in request.url

    def ended(self, request: Any) -> None:
        self.pending -= "/fragment" in request.url

    def settle(self) -> None:
        for _ in range(500):
            if self.pending <= 0:
                return
            self.page.wait_for_timeout(20)


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
    wires: list[Wire] = field(default_factory=list)  # the seats' (by seat), then the spectator's

    @property
    def everyone(self) -> list[Any]:
        return [*self.pages, *([self.spectator] if self.spectator is not None else [])]

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
    seats: list[int | None] = [*range(len(users)), None]
    table.wires = [Wire(page, seat) for page, seat in zip(table.everyone, seats, strict=True)]
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
    check: Callable[[Table, Any, int], None] | None = check_hands,
    fit_every: int = 20,
    max_moves: int = 3000,
    stop_after: int | None = None,
) -> int:
    """Click at random what the acting seat's page offers — a move, or a choice then its
    confirmation — until the game ends (or ``stop_after`` moves are made); the other pages
    follow by the socket alone. ``check`` (the table, the state, the seat to act) and
    ``on_turn`` run once per move. Returns the number of moves made."""
    stream = table.stream
    fetches = [Fetches(page) for page in table.pages]
    moves = clicks = 0
    checked = -1  # the version last checked
    while (acting := seat_to_act(table)) is not None and moves != stop_after:
        state, seat, page = acting
        if checked != stream.version:
            wait_for_everyone(table)
            fetches[seat].settle()
            if check is not None:
                check(table, state, seat)
            assert page.locator(".turn-line.your-turn").count() == 1
            assert page.title().startswith("Your turn")
            if moves % fit_every == 0:
                fits(page)
                fits(table.spectator)
            if on_turn is not None:
                on_turn(Turn(moves, seat, page, state))
            checked = stream.version
        fetches[seat].settle()
        composed = page.locator(COMPOSED)
        if composed.count() and chooser.random() < CONFIRM:
            control = composed.first
        else:
            offered = page.locator(OFFERED)
            count = offered.count()
            assert count >= 1, f"seat {seat} is to act but its page offers nothing"
            control = offered.nth(chooser.randrange(count))
        clicks += 1
        assert clicks < 20 * max_moves, "the game does not end"
        if control.get_attribute("data-move") is None:
            control.click()  # a choice: it lights up or joins a selection, nothing is sent
            continue
        moves += send(page, control, stream.version)
        assert moves < max_moves, "the game does not end"
    return moves


def seat_to_act(table: Table) -> tuple[Any, int, Any] | None:
    """The game's state, the seat to act and its page; None once the game is over."""
    stream = table.stream
    stream.refresh_from_db()
    if stream.is_finished:
        return None
    state = current_state(stream)
    seat = game_of(stream).to_act(state)[0]
    return state, seat, table.pages[seat]


def wait_for_everyone(table: Table) -> None:
    """Wait until every page of the table shows the stream's version."""
    for shown in table.everyone:
        shown.wait_for_function(AT_VERSION % table.stream.version, timeout=15_000)


def send(page: Any, control: Any, version: int) -> bool:
    """Click a move and wait for the page to show the next version; False when the click was
    lost with the choices it composed (the driver chooses again).

    table.js may swap the table twice for one move (after its own POST, and once more when the
    socket's frame arrived before that swap): a click that lands on the table just replaced is
    lost, as a person's would be, and the person clicks again. So does the driver, on the same
    move in the table now shown, while the page still shows ``version`` and said nothing."""
    sent = control.get_attribute("data-move")
    again = page.locator(f"[data-stream] [data-move='{sent}']:not([disabled])")
    for _attempt in range(3):
        control.click()
        try:
            page.wait_for_function(AT_VERSION % (version + 1), timeout=5_000)
            return True
        except PlaywrightTimeout:
            said = page.locator(".table-message").inner_text()
            assert not said, f"{sent} was refused: {said!r}"
            if version_of(page) > version:  # a slow answer (a loaded machine) came meanwhile
                return True
            assert version_of(page) == version
            if not again.count():  # a composed move: its choices are to be made again
                return False
            control = again.first
    raise AssertionError(f"{sent} made no move")


#: Everything the page offers to the seat to act, read in one go: each enabled move button (not
#: a choice group's confirm) and each choice group's candidates (choices.js).
OFFERS = """() => {
  const table = document.querySelector('[data-stream]');
  const buttons = [...table.querySelectorAll('[data-move]:not([disabled]):not([data-compose])')]
    .filter((b) => b.offsetParent !== null)
    .map((b) => ({move: JSON.parse(b.dataset.move), button: b.dataset.move}));
  const groups = [...table.querySelectorAll('[data-choice-group]')].flatMap((g, index) =>
    JSON.parse(g.dataset.candidates || '[]').map((c) => ({move: c.move, group: index, choices: c.choices})));
  return [...buttons, ...groups];
}"""


def play_with_bot(table: Table, bots: dict[int, Any], *, max_moves: int = 400) -> int:
    """Play the game by clicking, each seat's move chosen by its bot (``bots[seat]``, e.g. an
    ``engine.bots.GreedyBot``) among exactly what the acting page offers: its enabled
    ``[data-move]`` buttons and its choice groups' ``data-candidates``, decoded with the game.
    The driver clicks the chosen button, or the chosen choices (as a multiset) then the group's
    ``[data-compose]``. Every offer must be a legal move. Returns the number of moves made."""
    stream = table.stream
    game = game_of(stream)
    fetches = [Fetches(page) for page in table.pages]
    moves = 0
    while (acting := seat_to_act(table)) is not None:
        state, seat, page = acting
        wait_for_everyone(table)
        fetches[seat].settle()
        offers = page.evaluate(OFFERS)
        assert offers, f"seat {seat} is to act but its page offers nothing"
        decoded = [game.decode_move(offer["move"]) for offer in offers]
        legal = game.legal_moves(state, seat)
        assert all(move in legal for move in decoded), "the page offers an illegal move"
        chosen = bots[seat].choose(game, state, seat, decoded)
        offer = offers[decoded.index(chosen)]
        if "button" in offer:
            control = page.locator(f"[data-stream] [data-move='{offer['button']}']").first
        else:
            group = page.locator("[data-stream] [data-choice-group]").nth(offer["group"])
            for choice in offer["choices"]:
                group.locator(f'[data-choice="{choice}"][aria-pressed="false"]').first.click()
            control = group.locator("[data-compose][data-move]:not([disabled])")
            assert json.loads(control.get_attribute("data-move")) == offer["move"]
        moves += send(page, control, stream.version)
        assert moves < max_moves, "the game does not end"
    return moves


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
