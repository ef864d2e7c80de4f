"""Whole games of 13 Couronnes played in Chromium on the live ASGI server: three and five
players, each in their own browser context, and a spectator. The test knows nothing of the
drawing beyond FRONTEND.md's "Testable by anyone": the shared driver (tests/play/table_driver.py)
clicks, on the page of the seat to act, at random, an enabled ``[data-move]`` or a
``[data-choice]`` (a card to reveal or discard, a joker, a blason) — and a confirm button once
the choices make a legal move — until ``[data-result]`` appears everywhere. The other pages
learn of each move over the stream's socket only; afterwards everything each page received is
searched for what its viewer may not see (tests/play/hidden_wire.py).

The games are kept short with the ``max_turns`` option (they end at the limit, or earlier at a
13th crown); one more test brings a game to the edge of a 13th crown with bots and makes the
winning move by clicking, to see the game end at once on every page with the winner named.
The table's contract (FRONTEND.md) has its tests here too: a dropped socket catching up, a
stale page refused politely and refreshed, a double click making one move, an engine refusal
in words.

Screenshots land in ``$HERALD_SHOTS`` when it is set. Skipped without Chromium, PostgreSQL or
Redis; failed instead under HERALD_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.urls import reverse

from engine.bots import GreedyBot
from engine.treize_couronnes.moves import RedoDiscard, RedoDraw
from events.models import Event, EventType, Stream
from events.services import stream_append_move, stream_open
from events.states import current_state, game_of
from play.treize_couronnes import card_words, law_choices
from tests.play.hidden_wire import (
    check_seed,
    public_ids,
    search_couronnes,
    states_by_version,
    views_by_version,
)
from tests.play.table_driver import (
    COMPOSED,
    Table,
    Turn,
    Wire,
    context_for,
    fits,
    open_table,
    play_by_clicking,
    shot,
    version_of,
)
from tests.users import make_user

pytestmark = pytest.mark.django_db(transaction=True)

ENABLED_MOVE = "[data-move]:not([disabled])"
AT_VERSION = "() => Number(document.querySelector('[data-stream]').dataset.version) >= %d"


def check_hands(table: Table, state: Any, seat: int) -> None:
    """Each page shows its own hand (as many cards as the seat holds) and no moves unless it is
    the page of the seat to act; the spectator has no hand. Under hidden_crowns each page shows
    its own crowns only (the spectator's none)."""
    spectator = table.spectator
    for other, other_page in enumerate(table.pages):
        if other != seat:
            assert other_page.locator(ENABLED_MOVE).count() == 0
            assert other_page.locator("[data-choice]").count() == 0
        assert other_page.locator(".tc-hand-card").count() == len(state.hands[other])
        if state.hidden_crowns:
            assert other_page.locator(".tc-players .tc-hidden").count() == state.players - 1
            mine = other_page.locator(".player.mine .tc-crowns").inner_text()
            assert mine.split("/")[0].strip() == str(state.crowns[other])
    assert spectator.locator(".tc-hand-card").count() == 0
    if state.hidden_crowns:
        assert spectator.locator(".tc-players .tc-hidden").count() == state.players


def check_game_over(pages: list[Any], spectator: Any, stream: Stream, wires: list[Wire]) -> None:
    """Every page shows the stream's result, with no move left; the socket said versions only."""
    for page in [*pages, spectator]:
        page.wait_for_selector("[data-result]", timeout=15_000)
    stream.refresh_from_db()
    assert stream.is_finished
    for page in [*pages, spectator]:
        assert version_of(page) == stream.version
        assert json.loads(page.get_attribute("[data-result]", "data-result")) == stream.result
        assert page.locator(ENABLED_MOVE).count() == 0
        assert page.locator("[data-choice]").count() == 0
        winner = stream.result["details"]["winner"]
        if winner is not None:
            assert "holds 13 crowns and wins" in page.locator(".game-over").inner_text()
    frames = [frame for wire in wires for frame in wire.frames()]
    assert frames
    for frame in frames:  # the socket's frames: a seat's own drawing, presence, versions
        data = json.loads(frame)
        assert data["type"] in {"joined", "advanced", "table", "presence"}, frame
        if data.get("version", 0) < stream.version:  # the seed is revealed by the last only
            assert stream.seed not in frame


@pytest.mark.parametrize(
    ("players", "options"),
    [(3, {"max_turns": 18}), (5, {"max_turns": 15, "hidden_crowns": True})],
    ids=["3-players", "5-players-hidden-crowns"],
)
def test_a_whole_game_is_played_by_clicking(
    browser: Any, asgi_server: Any, browser_problems: Any, players: int, options: dict[str, Any]
) -> None:
    """The shared driver plays (tests/play/table_driver.py); afterwards every frame and fetched
    drawing of each seat and of the spectator is searched for another hand's cards, the piles'
    cards and, under hidden_crowns, the crowns of the others (tests/play/hidden_wire.py)."""
    names = ["Aude", "Baptiste", "Clotilde", "Denis", "Eulalie"][:players]
    users = [make_user(f"{name}{players}") for name in names]
    stream = stream_open(game_id="13-couronnes", seats=users, public=True, options=options)
    table = open_table(browser, asgi_server, browser_problems, stream, users)
    name = f"couronnes-{players}p"
    taken: set[str] = set()

    def on_turn(turn: Turn) -> None:
        if "turn" not in taken and turn.step >= 6:
            taken.add("turn")
            fits(turn.page)
            shot(turn.page, f"{name}-turn")
            shot(table.spectator, f"{name}-spectator")
        if "choosing" not in taken and choose_a_law(turn.page):
            taken.add("choosing")
            fits(turn.page)
            shot(turn.page, f"{name}-law-chosen")

    try:
        moves = play_by_clicking(
            table,
            chooser=random.Random(f"couronnes/{players}/{stream.pk}"),
            on_turn=on_turn,
            check=check_hands,
        )
        check_game_over(table.pages, table.spectator, stream, table.wires)
        fits(table.pages[0])
        shot(table.pages[0], f"{name}-game-over")
    finally:
        table.close()
    assert moves > options["max_turns"]
    assert "choosing" in taken, "no law was chosen through its cards"
    check_what_each_page_received(table, stream)
    assert browser_problems.unexpected() == []


def choose_a_law(page: Any) -> bool:
    """Pick the parts of the first legal law move in the page's choice group, as a person
    would; then the confirm button carries that move. False when no law is offered."""
    group = page.locator("[data-stream] .tc-hand-area[data-choice-group]")
    if not group.count():
        return False
    candidates = json.loads(group.get_attribute("data-candidates") or "[]")
    if not candidates:
        return False
    for part in candidates[0]["choices"]:
        page.locator(f'[data-choice="{part}"][aria-pressed="false"]').first.click()
    assert json.loads(page.get_attribute(COMPOSED, "data-move")) == candidates[0]["move"]
    return True


def check_what_each_page_received(table: Table, stream: Stream) -> None:
    """No page received, before the end, a card it may not see or the seed; and the search
    found each seat's own cards (and own crowns) in its own drawings."""
    stream.refresh_from_db()
    ended = Event.objects.get(stream=stream, type=EventType.GAME_ENDED).seq
    states = states_by_version(stream)
    views = views_by_version(stream)
    public = public_ids(stream, views)
    for wire in table.wires:
        check_seed(wire, stream, ended)
        searched = search_couronnes(wire, states, views, public, ended)
        assert searched.drawings > 5, (wire.seat, searched)
        if wire.seat is not None:
            assert searched.found_allowed > searched.drawings, (wire.seat, searched)


def bring_to_the_edge(stream: Stream) -> dict[str, Any]:
    """Let greedy bots play ``stream`` until the seat to act has a move that wins at once;
    returns that move (as the API takes it)."""
    game = game_of(stream)
    bots: dict[int, GreedyBot] = {}
    for _ in range(3000):
        stream.refresh_from_db()
        state = current_state(stream)
        seat = game.to_act(state)[0]
        legal = game.legal_moves(state, seat)
        for move in legal:
            after = game.apply(state, seat, move)
            if not game.to_act(after) and after.winner == seat:
                return move.to_json()
        bot = bots.setdefault(seat, GreedyBot(f"edge/{seat}"))
        move = bot.choose(game, state, seat, legal)
        stream_append_move(
            stream_id=stream.pk, seat=seat, move=move.to_json(), expected_version=stream.version
        )
    pytest.fail("the greedy bots never came within one move of a 13th crown")


def click_move(page: Any, move: dict[str, Any]) -> None:
    """Make ``move`` on the page as a player would: pick a law's parts, then confirm; or click
    the button that carries it."""
    if move["type"] in ("reveal", "discard"):
        for part in law_choices(move):
            page.locator(f'[data-choice="{part}"][aria-pressed="false"]').first.click()
        composed = page.locator(COMPOSED)
        assert json.loads(composed.get_attribute("data-move")) == move
        shot(page, "couronnes-winning-choice")
        composed.click()
        return
    controls = page.locator(ENABLED_MOVE)
    for index in range(controls.count()):
        if json.loads(controls.nth(index).get_attribute("data-move")) == move:
            controls.nth(index).click()
            return
    pytest.fail(f"no control carries {move}")


def test_the_13th_crown_ends_the_game_at_once_on_every_page(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    users = [make_user(name) for name in ("Gaspard", "Hermine", "Isaure")]
    stream = stream_open(game_id="13-couronnes", seats=users, public=True, seed="edge-of-13")
    winning = bring_to_the_edge(stream)
    seat = game_of(stream).to_act(current_state(stream))[0]
    table = open_table(browser, asgi_server, browser_problems, stream, users)
    pages, spectator = table.pages, table.spectator
    try:
        click_move(pages[seat], winning)
        check_game_over(pages, spectator, stream, table.wires)
        for page in [*pages, spectator]:
            panel = page.locator(".game-over").inner_text()
            assert f"{users[seat].get_username()} holds 13 crowns and wins the game." in panel
        fits(pages[(seat + 1) % 3])
        shot(pages[(seat + 1) % 3], "couronnes-13th-crown-game-over")
    finally:
        for page in [*pages, spectator]:
            page.context.close()
    assert browser_problems.unexpected() == []


def test_a_dropped_socket_catches_up_when_it_reconnects(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    """A watching player's socket drops and cannot come back for a while; the seat to act
    makes moves meanwhile (its King changes, its hand count); when the socket is back, the
    page draws the table as it is now."""
    users = [make_user(name) for name in ("Jeanne", "Kilian", "Lucie")]
    stream = stream_open(game_id="13-couronnes", seats=users, public=False)
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
        hand = current_state(stream).hands[0]
        for move in (RedoDiscard(hand[0]), RedoDiscard(hand[1]), RedoDraw()):  # seat 0 redoes
            stream.refresh_from_db()
            stream_append_move(
                stream_id=stream.pk, seat=0, move=move.to_json(), expected_version=stream.version
            )
        page.wait_for_timeout(1000)
        assert version_of(page) == start  # offline: nothing reached it
        network["up"] = True
        page.wait_for_function(AT_VERSION % (start + 3), timeout=20_000)
        assert page.locator(".last-moves li").count() == 3
        assert "draws up to 6 cards" in page.locator(".last-moves li").first.inner_text()
    finally:
        page.context.close()
    assert browser_problems.unexpected() == []


KING_CHANGE = "[data-stream] .tc-crown-it:not([disabled])"


def test_a_stale_page_is_refused_politely_and_refreshed(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    """Two browsers of the seat to act; the second one hears nothing from its socket, so it
    still shows the old table when the first has changed the King. Its own King change is
    refused (409, a stale version) and the page draws the table as it is, saying so; nothing
    more is stored."""
    users = [make_user(name) for name in ("Pia", "Quentin", "Romane")]
    stream = stream_open(game_id="13-couronnes", seats=users, public=False)
    start = stream.version
    first = context_for(browser, asgi_server, browser_problems, users[0])
    second = context_for(browser, asgi_server, browser_problems, users[0])
    second.route_web_socket("**/ws/games/**", lambda socket: None)  # never connected
    try:
        for page in (first, second):
            page.goto(reverse("play:table", args=[stream.pk]))
            page.wait_for_selector(KING_CHANGE)
        first.locator(KING_CHANGE).first.click()
        first.wait_for_function(AT_VERSION % (start + 1), timeout=15_000)
        assert version_of(second) == start  # stale: it heard nothing
        browser_problems.allow("answer 409")
        browser_problems.allow("409 (Conflict)")
        second.locator(KING_CHANGE).last.click()
        second.wait_for_function(AT_VERSION % (start + 1), timeout=15_000)
        message = second.locator(".table-message")
        assert message.is_visible()
        assert "Another move got there first" in message.inner_text()
    finally:
        for page in (first, second):
            page.context.close()
    stream.refresh_from_db()
    assert stream.version == start + 1
    assert browser_problems.unexpected() == []


def test_a_double_click_sends_one_move(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    """A double click on a control makes its move once: the first click holds the table's
    controls while the move is on its way (table.js, ``sendingFrom``), so the second finds
    nothing to send. The stream advances by exactly one move, the page posted once, and nothing
    was refused or said (a second post would be a 409 and "Another move got there first")."""
    users = [make_user(name) for name in ("Sacha", "Tiphaine", "Ulysse")]
    stream = stream_open(game_id="13-couronnes", seats=users, public=False)
    start = stream.version
    page = context_for(browser, asgi_server, browser_problems, users[0])
    moves_url = reverse("stream-moves", args=[stream.pk])
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    try:
        page.goto(reverse("play:table", args=[stream.pk]))
        page.locator(KING_CHANGE).first.dblclick()
        page.wait_for_function(AT_VERSION % (start + 1), timeout=15_000)
        page.wait_for_timeout(1500)  # time for a second move to be sent and answered
        assert [url for url in posts if url.endswith(moves_url)] == [posts[0]]
        assert len(posts) == 1
        assert version_of(page) == start + 1
        assert page.locator(".table-message").is_hidden()
    finally:
        page.context.close()
    stream.refresh_from_db()
    assert stream.version == start + 1
    assert Event.objects.filter(stream=stream, type=EventType.MOVE_MADE).count() == 1
    assert browser_problems.unexpected() == []


def test_a_refused_move_shows_the_engines_sentence(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    """A control whose move the engine refuses (here one rewritten in the page to make a card
    the King that the player does not hold) gets the API's 422 and its sentence on the table;
    nothing is stored."""
    users = [make_user(name) for name in ("Maud", "Nils", "Oria")]
    stream = stream_open(game_id="13-couronnes", seats=users, public=False)
    state = current_state(stream)
    missing = next(c for c in state.draw if c not in state.hands[0])
    page = context_for(browser, asgi_server, browser_problems, users[0])
    browser_problems.allow("422")
    try:
        page.goto(reverse("play:table", args=[stream.pk]))
        control = page.locator(".tc-crown-it:not([disabled])").first
        control.evaluate(
            "(button, card) => { button.dataset.move = JSON.stringify("
            "{type: 'change-king', card: card, announce: ''}); }",
            missing,
        )
        control.click()
        message = page.locator(".table-message")
        message.wait_for(state="visible", timeout=15_000)
        # The card in words, as the table names it, never by its id.
        assert f"does not hold {card_words(missing)}" in message.inner_text()
        assert missing not in message.inner_text()
        assert users[0].get_username() in message.inner_text()  # the seat, by name
        assert version_of(page) == stream.version
    finally:
        page.context.close()
    stream.refresh_from_db()
    assert stream.version == 1
    assert browser_problems.unexpected() == []
