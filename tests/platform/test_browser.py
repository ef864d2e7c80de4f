"""The pages under the Content-Security-Policy, in a real browser (Debian's Chromium via Playwright).

The policy allows scripts and styles from this site only. These tests load the pages a club
uses whose scripts or styles the policy could block, and check that what they do still happens:
the API docs draw Swagger UI, a tournament sheet's Print link prints, the admin is styled, and
the browser reports no policy violation. They skip without Chromium or Playwright (fail under
HERALD_REQUIRE_SERVICES=1, as CI sets it: `.ci/run` installs Chromium).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from tests.conftest import services_required
from tests.tournaments.factories import make_tournament

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Chromium's own calls home are refused by this network; without these flags it retries them.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
# Collects the page's CSP violations (the browser's securitypolicyviolation events).
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(e.violatedDirective + " " + e.blockedURI));
"""

pytestmark = pytest.mark.django_db(transaction=True)


def _unavailable(reason: str) -> None:
    if services_required():
        pytest.fail(f"HERALD_REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module."""
    if not shutil.which(CHROMIUM):
        _unavailable(f"Chromium is not installed ({CHROMIUM}; apt-get install chromium)")
    # Playwright's sync API keeps an event loop in this thread; Django's database calls in the
    # tests (fixtures, factories) are synchronous code beside it, not async code.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    tab = context.new_page()
    tab.add_init_script(WATCH_VIOLATIONS)
    yield tab
    context.close()


def violations(page: Any) -> list[str]:
    found: list[str] = page.evaluate("window.__violations")
    return found


def test_the_api_docs_draw_swagger_ui_under_the_policy(live_server: Any, page: Any) -> None:
    page.goto(f"{live_server.url}/api/docs/")
    title = page.wait_for_selector(".swagger-ui .info .title", timeout=15_000)
    assert "Herald API" in title.inner_text()
    assert page.locator(".opblock").count() > 20  # the operations are listed
    assert violations(page) == []


def test_a_tournament_sheets_print_link_prints(live_server: Any, page: Any) -> None:
    tournament = make_tournament()
    page.add_init_script("window.print = () => { window.__printed = true; };")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    page.click("[data-print]")
    assert page.evaluate("window.__printed === true"), "print.js did not run"
    # The sheet's own stylesheet applied: tables are drawn with collapsed borders.
    collapse = page.evaluate(
        "getComputedStyle(document.querySelector('table') || document.body).borderCollapse"
    )
    assert collapse == "collapse"
    assert violations(page) == []


def test_the_admin_login_is_styled_under_the_policy(live_server: Any, page: Any) -> None:
    page.goto(f"{live_server.url}/admin/login/")
    header = page.evaluate("getComputedStyle(document.querySelector('#header')).backgroundColor")
    assert header not in ("", "rgba(0, 0, 0, 0)"), "the admin's stylesheet did not apply"
    assert violations(page) == []
