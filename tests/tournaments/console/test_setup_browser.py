"""The setup part in a real browser (Debian's Chromium via Playwright) on a live ASGI server.

An organiser creates a 13 Couronnes tournament from the form (changing the game refills the
defaults in place), reads the join link on the console; two players open it in their own
browser contexts, register and check in from their phones; the organiser's players page
then shows both ticked. Every page is watched for console errors, failed requests and CSP
violations (``browser_page`` and ``watch_page``), and none scrolls sideways at 390 px.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import DESKTOP, PHONE, WATCH_VIOLATIONS, watch_page
from tests.tournaments.browser_people import log_in, no_sideways_scroll, person
from tournaments.models import Club, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_organiser_creates_a_night_and_two_players_join_and_check_in(
    browser_page: Any, browser: Any, browser_problems: Any, asgi_server: Any
) -> None:
    club = Club.objects.create(name="Les Pions")
    person("orga", club, role="organiser")
    page = browser_page
    page.set_viewport_size(DESKTOP)

    page.goto("/tournaments/")
    page.click("text=Log in")
    log_in(page, "orga")
    page.wait_for_url("**/tournaments/")
    page.click("#new-tournament")
    page.select_option("select[name=game]", "blazon")
    page.click("text=Next: the settings")
    page.wait_for_selector("input[name=points_4]")
    assert page.locator("input[name=points_5]").count() == 0  # Blazon seats 4 at most
    # With JS the game refills the settings in place: 13 Couronnes seats up to 5.
    page.fill("input[name=name]", "Jeudi des Couronnes")
    page.select_option("select[name=game]", "13-couronnes")
    page.wait_for_selector("input[name=points_5]")
    assert page.input_value("input[name=name]") == "Jeudi des Couronnes"
    assert page.is_checked("input[name=table_allowed][value='3']")
    page.uncheck("input[name=table_allowed][value='5']")
    page.fill("input[name=rounds_planned]", "3")
    page.fill("input[name=points_5]", "")
    page.click("button[name=create]")
    page.wait_for_url("**/console/")
    tournament = Tournament.objects.get(name="Jeudi des Couronnes")
    assert tournament.game_id == "13-couronnes"
    assert tournament.table_allowed == [3, 4]
    assert tournament.rounds_planned == 3
    link = page.get_attribute("#join-url", "href")
    assert link.endswith(f"/tournaments/{tournament.pk}/join/{tournament.join_token}/")
    assert page.locator("#join svg").count() == 1  # the QR code, inline

    for username in ("ana", "bruno"):
        person(username, club)
        context = browser.new_context(viewport=PHONE, base_url=asgi_server.url)
        tab = context.new_page()
        tab.add_init_script(WATCH_VIOLATIONS)
        watch_page(tab, browser_problems)
        tab.goto(link)
        tab.click("main a.button")  # "Log in" to register
        log_in(tab, username)
        tab.wait_for_url(f"**/join/{tournament.join_token}/")
        no_sideways_scroll(tab)
        tab.click("button[name=join]")
        tab.wait_for_url(f"**/tournaments/{tournament.pk}/check-in/")
        no_sideways_scroll(tab)
        tab.click("button[name=check_in]")
        tab.wait_for_selector("[data-checked-in]")
        tab.goto(f"/tournaments/{tournament.pk}/")  # the tournament page says so too
        assert tab.locator("[data-checked-in]").count() == 1
        assert tab.evaluate("window.__violations") == []
        context.close()

    page.goto(f"/tournaments/{tournament.pk}/console/players/")
    for username in ("ana", "bruno"):
        row = page.locator(f"tr[data-registration]:has-text('{username}')")
        assert row.locator("button.tick.ticked").count() == 1
    assert tournament.registrations.filter(checked_in=True).count() == 2
    page.set_viewport_size(PHONE)
    no_sideways_scroll(page)
