"""In Chromium: the organiser runs a stages night's groups and cut from the console, at a
phone's width: deals the groups, makes the cut once the groups are over, pairs the playoff.

A live ASGI server, real PostgreSQL and Redis; any console error, failed request or CSP
violation fails it. ``HERALD_SHOTS=<dir>`` keeps screenshots at 390 and 1280 px.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.play.table_driver import context_for, fits, shot
from tests.tournaments.factories import make_tournament, register_players
from tests.tournaments.test_stages_night import play
from tournaments import services
from tournaments.models import Club, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services()]


def test_the_organiser_deals_groups_makes_the_cut_and_pairs_the_playoff(
    browser: Any, asgi_server: Any, browser_problems: Any, organiser: Any, club: Club
) -> None:
    night = make_tournament(
        organiser=organiser, club=club, format="stages", rounds_planned=2, cut_top=2
    )
    register_players(night, 8)
    page = context_for(browser, asgi_server, browser_problems, organiser)
    page.goto(f"/tournaments/{night.pk}/console/")
    assert page.get_attribute("#console-stages", "data-stage") == "groups"
    fits(page)
    shot(page, "console-stages-groups")
    page.fill("#groups-count", "2")
    with page.expect_navigation():
        page.click("#groups-deal")
    assert "A, B" in page.inner_text("#console-stages")

    for _ in range(2):
        play(services.round_pair_next(tournament=night))
    page.goto(f"/tournaments/{night.pk}/console/")
    assert page.get_attribute("#console-stages", "data-stage") == "cut"
    assert page.input_value("#cut-top") == "2"
    fits(page)
    shot(page, "console-stages-cut")
    # How many go on from each table is asked for a knockout only.
    assert not page.is_visible("#cut-advance")
    page.select_option("#cut-format", "knockout")
    assert page.is_visible("#cut-advance")
    shot(page, "console-stages-cut-knockout")
    page.select_option("#cut-format", "single_elimination")
    assert not page.is_visible("#cut-advance")
    with page.expect_navigation():
        page.click("#cut-make")
    assert page.get_attribute("#console-stages", "data-stage") == "playoff"
    fits(page)
    shot(page, "console-stages-playoff")

    page.click("#pair-next")
    page.wait_for_url("**/console/rounds/3/")
    assert page.locator(".table-card:not(.bye)").count() == 2  # the semi-finals, at tables of 2
    assert page.locator(".warning[data-code=table_size]").count() == 0
    fits(page)
    shot(page, "console-stages-semis")
    night.refresh_from_db()
    assert night.status == Tournament.Status.RUNNING
    assert browser_problems.unexpected() == []
