"""The replay viewer in Chromium on the live ASGI server: an arbiter steps through a finished
game of Les 7 Blasons with the keyboard (and the slider) and sees every hand at each step; a
player sees only their own hand in the replay of a running game, and every hand once it has
ended. Each page fits a phone (390 px) without sideways scrolling; an arbiter's replay of a
game of Blazon, one column per seat at 1280 px, keeps each seat's drawing in its own column.

Screenshots land in ``$HERALD_SHOTS`` when it is set. Skipped without Chromium, PostgreSQL or
Redis; failed instead under HERALD_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from engine.sept_blasons.cards import STANDARD
from events.services import stream_open
from play.sept_blasons import colour_class
from tests.conftest import DESKTOP, PHONE
from tests.play.table_driver import context_for, fits
from tests.ratings.games import play_stream
from tests.users import make_user

pytestmark = pytest.mark.django_db(transaction=True)

HOUSES = STANDARD.colours  # seat n plays the n-th house


def shot(page: Any, name: str) -> None:
    """Screenshots at 390 and 1280 px in ``$HERALD_SHOTS``, in slices of at most 1,600 px
    (a whole omniscient replay is too tall to look at in one image)."""
    shots = os.environ.get("HERALD_SHOTS")
    if not shots:
        return
    Path(shots).mkdir(parents=True, exist_ok=True)
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        height = page.evaluate("() => document.documentElement.scrollHeight")
        for part, top in enumerate(range(0, height, SLICE)):
            clip = {"x": 0, "y": top, "width": size["width"], "height": min(SLICE, height - top)}
            path = f"{shots}/{name}-{size['width']}-{part + 1}.png"
            page.screenshot(path=path, full_page=True, clip=clip)
    page.set_viewport_size(PHONE)


SLICE = 1600


def shown_move(page: Any) -> int:
    return int(page.get_attribute("[data-replay]", "data-replay-move"))


def keys_ready(page: Any) -> None:
    """Wait until the replay's module listens to the keyboard: a key pressed while the new
    step's page still loads its module would be lost."""
    page.wait_for_selector("[data-replay][data-keys='on']", state="attached", timeout=15_000)


def press(page: Any, key: str, expected: int) -> None:
    """Press ``key`` (once the keys work) and wait for the replay to show move ``expected``
    with its keys working again."""
    keys_ready(page)
    page.keyboard.press(key)
    page.wait_for_function(
        f"() => document.querySelector('[data-replay]')?.dataset.replayMove === '{expected}'",
        timeout=15_000,
    )
    keys_ready(page)


def test_an_arbiter_steps_through_a_finished_game_with_the_keyboard(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    users = [make_user(name) for name in ("Aurore", "Basile", "Capucine")]
    stream = play_stream(stream_open(game_id="les-7-blasons", seats=users))
    assert stream.is_finished
    moves = stream.events.filter(type="MoveMade").count()
    arbiter = make_user("Arbitre", groups=("arbiters",))
    page = context_for(browser, asgi_server, browser_problems, arbiter)
    url = reverse("play:replay", args=[stream.pk])
    try:
        page.goto(f"{url}?move=0")
        assert shown_move(page) == 0
        for move in range(1, 5):
            press(page, "ArrowRight", move)
            # Every hand, each in its seat's colour, at every step.
            assert page.locator(".replay-board").count() == 3
            for seat in range(3):
                board = page.locator(f".replay-board[data-view-seat='{seat}']")
                cards = board.locator(".hand .card")
                assert cards.count() >= 1
                assert board.locator(f".hand .card.{colour_class(HOUSES[seat])}").count() == (
                    cards.count()
                )
                # Each board names its seat: the arbiter is not the player it shows.
                name = users[seat].get_username()
                assert board.get_by_role("heading", name=f"{name}'s hand").count() == 1
                assert board.get_by_text("you", exact=True).count() == 0
            assert page.locator(".step-words").inner_text().strip() != ""
            assert page.locator("[data-move]").count() == 0  # nothing is played from a replay
            assert page.locator("[data-changed]").count() >= 2  # the words and a seat
            # No connected/away marks: a replay has no socket to know them by.
            assert page.locator(".replay-board .presence").count() >= 3
            assert page.locator(".replay-board .presence:visible").count() == 0
        assert "Omniscient" in page.locator(".replay-sight").inner_text() or (
            "Every hand is shown" in page.locator(".replay-sight").inner_text()
        )
        fits(page)
        shot(page, "replay-arbiter-midgame")
        press(page, "ArrowLeft", 3)
        press(page, "End", moves)
        page.wait_for_selector("[data-result]")
        fits(page)
        shot(page, "replay-arbiter-end")
        press(page, "Home", 0)
        assert page.locator("a[data-step='previous']").count() == 0
        # The slider goes to the move it is set to.
        page.eval_on_selector(
            ".replay-slider input[type=range]",
            "(slider) => { slider.value = '7'; slider.dispatchEvent(new Event('change')); }",
        )
        page.wait_for_function(
            "() => document.querySelector('[data-replay]')?.dataset.replayMove === '7'",
            timeout=15_000,
        )
        assert page.locator(".replay-where").inner_text().startswith("Move 7 of")
    finally:
        page.context.close()
    assert browser_problems.unexpected() == []


def test_a_player_sees_only_their_own_hand_until_the_game_is_over(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    users = [make_user(name) for name in ("Damien", "Eloise", "Firmin")]
    stream = play_stream(stream_open(game_id="les-7-blasons", seats=users), stop_after=9)
    page = context_for(browser, asgi_server, browser_problems, users[1])
    spectator = context_for(browser, asgi_server, browser_problems, None)
    url = reverse("play:replay", args=[stream.pk])
    own = f".hand .card.{colour_class(HOUSES[1])}"
    try:
        page.goto(reverse("play:table", args=[stream.pk]))
        page.click("a.replay-link")  # the game page's link, in its heading
        page.wait_for_selector("[data-replay]")
        assert shown_move(page) == 9  # the replay of a running game stops where the game is
        assert page.locator("a[data-step='next']").count() == 0
        for move in (9, 8, 7):
            if move != 9:
                press(page, "ArrowLeft", move)
            assert page.locator(".replay-board").count() == 1
            assert page.locator(".hand").count() == 1
            assert page.locator(own).count() == page.locator(".hand .card").count() >= 1
            assert "Your view" in page.locator(".replay-sight").inner_text()
        fits(page)
        shot(page, "replay-player-running")
        spectator.goto(f"{url}?move=5")
        assert spectator.locator(".hand").count() == 0
        assert spectator.locator(".replay-board").count() == 1
        shot(spectator, "replay-spectator-running")
        play_stream(stream)  # the game goes on to its end
        page.goto(f"{url}?move=5")
        assert page.locator(".replay-board").count() == 3
        assert page.locator(".hand").count() == 3
        assert "Every hand is shown" in page.locator(".replay-sight").inner_text()
        spectator.goto(f"{url}?move=5")
        assert spectator.locator(".hand").count() == 3
        fits(spectator)
    finally:
        for opened in (page, spectator):
            opened.context.close()
    assert browser_problems.unexpected() == []


def test_the_replay_fits_a_phone_in_french(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    """French sentences run longer: the omniscient replay of a running game, in French, still
    fits 390 px."""
    users = [make_user(name) for name in ("Gaëlle", "Hippolyte", "Iseult")]
    stream = play_stream(stream_open(game_id="les-7-blasons", seats=users), stop_after=14)
    arbiter = make_user("Arbitre-fr", groups=("arbiters",))
    page = context_for(browser, asgi_server, browser_problems, arbiter)
    page.set_extra_http_headers({"Accept-Language": "fr"})
    try:
        page.goto(reverse("play:replay", args=[stream.pk]) + "?move=12")
        assert page.locator(".replay-where").inner_text().startswith("Coup 12 sur 14")
        assert "Rejeu omniscient" in page.locator(".replay-sight").inner_text()
        assert page.locator(".replay-board .hand").count() == 3
        fits(page)
        shot(page, "replay-arbiter-running-fr")
    finally:
        page.context.close()
    assert browser_problems.unexpected() == []


# Each seat's column and the box drawn by everything in it (outside the boxes that scroll in
# place): the column's own box says nothing of what runs out of it.
SEAT_COLUMNS = """() => [...document.querySelectorAll('.replay-board')].map((board) => {
  const box = board.getBoundingClientRect();
  const drawn = [box.left, box.top, box.right, box.bottom];
  for (const e of board.querySelectorAll('*')) {
    if (e.closest('.bz-defs') || e.parentElement.closest('.table-scroll')) continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;  // hidden, or an empty box its children may leave
    drawn[0] = Math.min(drawn[0], r.left); drawn[1] = Math.min(drawn[1], r.top);
    drawn[2] = Math.max(drawn[2], r.right); drawn[3] = Math.max(drawn[3], r.bottom);
  }
  return {seat: board.dataset.viewSeat, box: [box.left, box.top, box.right, box.bottom],
          drawn: drawn.map(Math.round)};
})"""


def overlap(a: list[float], b: list[float]) -> bool:
    """Whether two boxes (left, top, right, bottom) share more than a pixel's edge."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def seats_apart(page: Any) -> None:
    """The page does not scroll sideways, and what each seat's column draws stays in that
    column: no seat's hand or centre runs into the next seat's."""
    scroll, width = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    columns = page.evaluate(SEAT_COLUMNS)
    assert scroll <= width, f"the page scrolls sideways by {scroll - width}px: {columns}"
    for column in columns:
        left, _, right, _ = column["box"]
        drawn = column["drawn"]
        assert left - 1 <= drawn[0] <= drawn[2] <= right + 1, (
            f"seat {column['seat']} draws from {drawn[0]} to {drawn[2]}px, out of its column "
            f"({round(left)} to {round(right)}px)"
        )
    for n, one in enumerate(columns):
        for other in columns[n + 1 :]:
            assert not overlap(one["drawn"], other["drawn"]), (one, other)


def test_a_blazon_replay_keeps_each_seat_in_its_own_column(
    browser: Any, asgi_server: Any, browser_problems: Any
) -> None:
    """Blazon draws the shield beside the hand and the centre on a wide screen; three seats'
    views side by side at 1280 px leave each about 400 px, and the hands and the centres once
    ran into the next seat's column, the page scrolling 144 px sideways. At 390 px the views
    stack and nothing scrolls sideways either."""
    users = [make_user(name) for name in ("Jourdain", "Kenza", "Léandre")]
    stream = play_stream(stream_open(game_id="blazon", seats=users), stop_after=30)
    arbiter = make_user("Arbitre-bz", groups=("arbiters",))
    page = context_for(browser, asgi_server, browser_problems, arbiter)
    url = reverse("play:replay", args=[stream.pk])
    try:
        for asked in (0, 30):
            page.set_viewport_size(DESKTOP)
            # The bots' game is random: after some moves every hand may be empty (the cards
            # placed), and an empty hand is not drawn. The latest move from ``asked`` down at
            # which two hands are drawn or more: the columns are checked with hands in them.
            for move in range(asked, -1, -1):
                page.goto(f"{url}?move={move}")
                assert shown_move(page) == move
                if page.locator(".replay-board .bz-hand").count() >= 2:
                    break
            assert page.locator(".replay-board").count() == 3
            assert page.locator(".replay-board .bz-side").count() == 3  # hand and centre
            assert page.locator(".replay-board .bz-hand").count() >= 2
            tops = {round(box["box"][1]) for box in page.evaluate(SEAT_COLUMNS)}
            assert len(tops) == 1  # the three seats side by side, a third of the page each
            seats_apart(page)
            page.set_viewport_size(PHONE)
            fits(page)
        shot(page, "replay-blazon-arbiter")
    finally:
        page.context.close()
    assert browser_problems.unexpected() == []
