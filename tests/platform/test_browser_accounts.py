"""Accounts in a real browser (Debian's Chromium via Playwright) against a live server.

An organiser logs in on the site's login page, prints the invitations sheet (QR codes are
data: images the policy must allow), and the invited player opens the printed link in another
browser, sets a password and lands on My Herald. Every page is checked for CSP violations and
for sideways scrolling at 390 px. Skips without Chromium (fails under HERALD_REQUIRE_SERVICES=1).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.platform.test_browser import (  # the one Chromium of these tests, and its checks
    browser,  # noqa: F401
    page,  # noqa: F401
    violations,
)
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
    live_server: Any,
    page: Any,  # noqa: F811
    browser: Any,  # noqa: F811
) -> None:
    club = Club.objects.create(name="Les Pions")
    organiser = UserFactory(username="orga")
    organiser.set_password(PASSWORD)
    organiser.save()
    services.club_member_add(club=club, user=organiser, role="organiser")
    tournament = make_tournament(organiser=organiser, club=club, name="Jeudi")
    services.registration_enter(
        tournament=tournament, by=organiser, username="lea", display_name="Léa Petit"
    )

    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/invitations/")
    assert "/accounts/login/" in page.url  # sent to log in first
    page.fill("input[name=username]", "orga")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"**/tournaments/{tournament.pk}/invitations/")
    page.click("text=Make a fresh link")
    page.wait_for_selector("img.qr")
    assert page.evaluate("document.querySelector('img.qr').naturalWidth") > 0  # the QR drew
    link = page.get_attribute(".invitation-link a", "href")
    assert link.startswith(f"{live_server.url}/accounts/invite/")
    no_sideways_scroll(page)
    assert violations(page) == []

    player = browser.new_context(viewport={"width": 390, "height": 844})
    tab = player.new_page()
    tab.add_init_script(
        "window.__violations = []; document.addEventListener('securitypolicyviolation',"
        " (e) => window.__violations.push(e.violatedDirective));"
    )
    tab.goto(link)
    assert tab.inner_text("strong.username") == "lea"
    no_sideways_scroll(tab)
    tab.fill("input[name=new_password1]", CHOSEN)
    tab.fill("input[name=new_password2]", CHOSEN)
    tab.click("button[type=submit]")
    tab.wait_for_url("**/me/")
    assert "Signed in as lea" in tab.inner_text("main")
    assert violations(tab) == []
    tab.goto(link)  # the link is spent
    assert "already used" in tab.inner_text("main")
    player.close()
