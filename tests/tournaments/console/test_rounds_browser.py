"""In Chromium: the organiser pairs round 2 of a 9-player 13 Couronnes night at the console,
swaps two players by clicking them, sees the warnings change, confirms and publishes.

A live ASGI server (``asgi_server``), real PostgreSQL and Redis; the page fails on any console
error, failed request or CSP violation (``browser_problems``). Set ``HERALD_SHOTS=<dir>`` to keep
screenshots of each page at 390 and 1280 px.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.play.table_driver import context_for, fits, shot
from tests.tournaments.console.rounds_helpers import layout, play_round
from tests.tournaments.factories import make_tournament, register_players
from tournaments import services
from tournaments.models import Club, Round

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services()]


def test_the_organiser_pairs_swaps_confirms_and_publishes(
    browser: Any, asgi_server: Any, browser_problems: Any, organiser: Any, club: Club
) -> None:
    night = make_tournament(
        organiser=organiser, club=club, table_preferred=3, table_allowed=(3,), rounds_planned=3
    )
    assert night.game_id == "13-couronnes"
    register_players(night, 9)
    play_round(services.round_pair_next(tournament=night))
    page = context_for(browser, asgi_server, browser_problems, organiser)

    page.goto(f"/tournaments/{night.pk}/console/")
    shot(page, "console-hub")
    page.click("#pair-next")
    page.wait_for_url("**/console/rounds/2/")
    fits(page)
    shot(page, "console-round-draft")
    second = Round.objects.get(tournament=night, number=2)
    assert page.locator(".warning[data-code=repeat]").count() == 0

    # Two players whose swap seats one of them with a round-1 tablemate.
    mates = {r: set(t) - {r} for t in layout(night.rounds.get(number=1)) for r in t}
    tables = layout(second)
    a, b = next((a, b) for b in tables[1] for a in tables[0] if mates[b] & (set(tables[0]) - {a}))
    assert page.locator(".pick-help").is_visible()  # the script took over the names
    page.click(f".seat-name[data-reg='{a}']")
    with page.expect_navigation():
        page.click(f".seat-name[data-reg='{b}']")
    assert page.locator(".warning[data-code=repeat]").count() >= 1
    assert page.locator(f"#table-1 .seat-name[data-reg='{b}']").count() == 1
    assert b in layout(second)[0]
    assert a in layout(second)[1]
    shot(page, "console-round-swapped")

    page.click("#confirm-round")
    page.wait_for_selector("#publish-round")
    assert page.get_attribute(".console-round", "data-round-state") == "confirmed"
    page.click("#publish-round")
    page.wait_for_selector(".console-round[data-round-state=released]")
    shot(page, "console-round-published")
    second.refresh_from_db()
    assert second.state == Round.State.RELEASED
    assert all(t.stream_id for t in second.tables.all())  # every table plays on Herald
    page.context.close()
