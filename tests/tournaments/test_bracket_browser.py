"""The bracket in a real browser at a phone's width: the drawing scrolls inside its own box
(with the edge shadow of a scrolling box), the page itself never scrolls sideways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tournaments.factories import make_tournament, register_players
from tests.tournaments.test_brackets import finish_round
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_eight_player_bracket_fits_a_phone_by_scrolling_in_its_box(
    browser_page: Any, organiser: Any, tmp_path: Path
) -> None:
    tournament = make_tournament(
        organiser=organiser, format="double_elimination", table_preferred=None, table_allowed=None
    )
    register_players(tournament, 8)
    finish_round(services.round_pair_next(tournament=tournament))
    browser_page.goto(f"/tournaments/{tournament.pk}/bracket/")
    scroller = browser_page.locator(".bracket-scroll")
    page_width = browser_page.evaluate(
        "() => [document.documentElement.scrollWidth, window.innerWidth]"
    )
    assert page_width[0] <= page_width[1] == 390
    box = scroller.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= 390
    inside = scroller.evaluate(
        "el => [el.scrollWidth, el.clientWidth, getComputedStyle(el).overflowX]"
    )
    assert inside[0] > inside[1]
    assert inside[2] == "auto"
    # Scrolled to the grand final, still no sideways page; the final's box is in view.
    scroller.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    final = browser_page.locator('[data-match="GF-1"] .match-box').bounding_box()
    assert final is not None
    assert final["x"] >= 0
    assert final["x"] + final["width"] <= 390
    shot = tmp_path / "bracket-390.png"
    browser_page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 0
    assert browser_page.evaluate("document.documentElement.scrollWidth") <= 390
