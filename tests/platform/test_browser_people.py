"""Issue 14's first browser tests, as the demo's people use the site: in Debian's Chromium on
the live ASGI server (``browser_page``: it fails on any console error, failed request or CSP
violation, and keeps a screenshot of a failure).

- a player logs in on the site's form, opens My Herald, switches to French and reads French;
- the arbiter logs in to the admin and opens the demo's dispute, with its ruling button;
- at a phone's width none of these pages needs sideways scrolling.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

import engine
from herald import demo
from ratings.models import Dispute

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo_night(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A small demo night (every game played, verified and rated, one dispute open). The
    passwords keep the default hasher: the server process checks them with its own settings."""
    small = {game.id: demo.DemoPlan(players=8, rounds=1) for game in engine.games()}
    small["13-couronnes"] = demo.DemoPlan(players=8, rounds=1, options={"max_turns": 4})
    monkeypatch.setattr(demo, "PLANS", small)
    return demo.demo_populate(say=lambda _: None)


def fits_the_width(page: Any) -> None:
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"{page.url} is {widths[0]} px wide at {widths[1]} px"


def french(english: str) -> str:
    """``english`` as the French catalogue has it; refuses a sentence left untranslated."""
    with translation.override("fr"):
        translated = translation.gettext(english)
    assert translated != english, f"{english!r} has no French translation"
    return translated


def log_in(page: Any, username: str, password: str, *, form: str = "main form") -> None:
    page.fill(f"{form} input[name=username]", username)
    page.fill(f"{form} input[name=password]", password)
    page.click(f"{form} [type=submit]")


def test_a_player_logs_in_opens_my_herald_and_switches_to_french(
    browser_page: Any, demo_night: dict[str, Any]
) -> None:
    page = browser_page
    page.goto("/")
    page.click("nav >> text=Log in")
    page.wait_for_url("**/accounts/login/**")
    fits_the_width(page)
    log_in(page, "player", demo_night["password"])
    page.wait_for_selector("nav >> text=Log out")  # back on the front page, signed in
    page.click("nav >> text=My games")
    page.wait_for_url("**/me/")
    assert page.inner_text("h1") == "My Herald"
    assert page.locator("svg.rating-chart-svg").count() == len(engine.games())
    fits_the_width(page)

    page.click("button[name=language][value=fr]")
    page.wait_for_url("**/me/")
    assert page.get_attribute("html", "lang") == "fr"
    assert page.inner_text("h1") == french("My Herald")
    assert french("My ratings") in page.inner_text("main")
    fits_the_width(page)
    page.click("nav >> text=" + french("Tournaments"))
    assert page.get_attribute("html", "lang") == "fr"  # the choice stays for the next page


def test_the_arbiter_opens_the_dispute_in_the_admin(
    browser_page: Any, demo_night: dict[str, Any]
) -> None:
    dispute = Dispute.objects.get()
    page = browser_page
    page.goto(f"/admin/ratings/dispute/{dispute.pk}/change/")
    page.wait_for_url("**/admin/login/**")
    log_in(page, "arbiter", demo_night["password"], form="#login-form")
    page.wait_for_url(f"**/admin/ratings/dispute/{dispute.pk}/change/")
    body = page.inner_text("body")
    assert "You don’t have permission" not in body
    assert dispute.reason in body
    ruling = page.locator("a", has_text="Rule on this dispute")
    assert ruling.count() == 1
    ruling.click()
    page.wait_for_selector("form [name=ruling]")
