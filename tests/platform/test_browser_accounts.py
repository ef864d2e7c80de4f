"""Accounts in a real browser (Debian's Chromium via Playwright) on a live ASGI server.

An organiser logs in on the site's login page, prints the invitations sheet (QR codes are
data: images the policy must allow), and the invited player opens the printed link in another
browser, sets a password and lands on My Herald. Every page is checked for CSP violations and
for sideways scrolling at 390 px. Skips without Chromium (fails under HERALD_REQUIRE_SERVICES=1).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import PHONE, WATCH_VIOLATIONS, watch_page
from tests.tournaments.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import Club

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "an-organiser-password-19"
CHOSEN = "my-own-secret-words-55"


def no_sideways_scroll(tab: Any) -> None:
    width = tab.evaluate("document.documentElement.scrollWidth")
    assert width <= tab.viewport_size["width"], f"{tab.url} is {width}px wide"


def test_an_organiser_prints_a_link_and_the_player_claims_the_account(
    browser_page: Any, browser: Any, browser_problems: Any, asgi_server: Any
) -> None:
    page = browser_page
    club = Club.objects.create(name="Les Pions")
    organiser = UserFactory(username="orga")
    organiser.set_password(PASSWORD)
    organiser.save()
    services.club_member_add(club=club, user=organiser, role="organiser")
    tournament = make_tournament(organiser=organiser, club=club, name="Jeudi")
    services.registration_enter(
        tournament=tournament, by=organiser, username="lea", display_name="Léa Petit"
    )

    page.goto(f"/tournaments/{tournament.pk}/invitations/")
    assert "/accounts/login/" in page.url  # sent to log in first
    page.fill("input[name=username]", "orga")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"**/tournaments/{tournament.pk}/invitations/")
    page.click("text=Make a fresh link")
    page.wait_for_selector("img.qr")
    assert page.evaluate("document.querySelector('img.qr').naturalWidth") > 0  # the QR drew
    link = page.get_attribute(".invitation-link a", "href")
    assert link.startswith(f"{asgi_server.url}/accounts/invite/")
    no_sideways_scroll(page)

    player = browser.new_context(viewport=PHONE)
    tab = player.new_page()
    tab.add_init_script(WATCH_VIOLATIONS)
    watch_page(tab, browser_problems)
    tab.goto(link)
    assert tab.inner_text("strong.username") == "lea"
    no_sideways_scroll(tab)
    tab.fill("input[name=new_password1]", CHOSEN)
    tab.fill("input[name=new_password2]", CHOSEN)
    tab.click("main button[type=submit]")
    tab.wait_for_url("**/me/")
    assert tab.evaluate("() => window.__violations") == []
    browser_problems.allow("410")  # the spent link's page answers 410 Gone, as it should
    tab.goto(link)  # the link is spent
    assert "already used" in tab.inner_text("main")
    player.close()
