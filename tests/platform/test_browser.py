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

import engine
from herald import demo
from ratings import selectors as ratings
from tests.conftest import services_required
from tests.tournaments.factories import UserFactory, make_tournament, register_players
from tournaments import services
from tournaments.models import Club

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


# -- every public page at a phone's width --------------------------------------------------------
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def demo_like(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The demo on a small scale (every game played, verified and rated), plus a running
    knockout with a drawn bracket, a tournament open for registration and a second club."""
    small = {game.id: demo.DemoPlan(players=8, rounds=1) for game in engine.games()}
    small["13-couronnes"] = demo.DemoPlan(players=8, rounds=1, options={"max_turns": 5})
    monkeypatch.setattr(demo, "PLANS", small)
    made = demo.demo_populate(say=lambda _: None)
    organiser = UserFactory(username="tower-organiser")
    tower = services.club_get_or_create(name="La Tour de Vigie, cercle des joueurs de cartes")
    cup = make_tournament(
        organiser=organiser,
        club=tower,
        name="Coupe de la Tour de Vigie des joueurs de cartes du jeudi soir",
        format="single_elimination",
        table_preferred=None,
        table_allowed=None,
    )
    register_players(cup, 8)
    first = services.round_confirm(round_=services.round_pair_next(tournament=cup))
    for table in first.tables.all():
        services.result_enter(table=table, by=None, ranks=[1, 2])
    services.round_confirm(round_=services.round_pair_next(tournament=cup))
    make_tournament(organiser=organiser, club=tower, name="Winter Swiss")
    return {"tournaments": [*made["tournaments"], cup], "cup": cup}


def public_urls(data: dict[str, Any]) -> list[str]:
    """Every public page of the planted data: indexes, clubs, sheets, leaderboards, histories."""
    urls = ["/", "/tournaments/", "/ratings/", "/clubs/"]
    urls += [f"/clubs/{club.pk}/" for club in Club.objects.all()]
    for tournament in data["tournaments"]:
        base = f"/tournaments/{tournament.pk}"
        urls += [
            f"{base}/",
            f"{base}/standings/",
            f"{base}/pairings/1/",
            f"{base}/pairings/1/by-name/",
        ]
    urls.append(f"/tournaments/{data['cup'].pk}/bracket/")
    for pool in ratings.pool_list():
        urls.append(f"/ratings/{pool.pk}/")
        best = ratings.leaderboard(pool=pool, limit=1)[0]
        urls.append(f"/ratings/{pool.pk}/players/{best.player_id}/")
    return urls


def test_no_public_page_needs_sideways_scrolling_on_a_phone(
    live_server: Any, browser: Any, demo_like: dict[str, Any], tmp_path: Any
) -> None:
    context = browser.new_context(viewport=PHONE)
    tab = context.new_page()
    tab.add_init_script(WATCH_VIOLATIONS)
    problems: list[str] = []
    tab.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    tab.on("requestfailed", lambda r: problems.append(f"failed: {r.url} {r.failure}"))
    tab.on(
        "response",
        lambda r: (
            r.status >= 400
            and r.request.resource_type != "document"
            and problems.append(f"{r.status}: {r.url}")
        ),
    )
    urls = [*public_urls(demo_like), "/no/such/page/"]
    try:
        for url in urls:
            response = tab.goto(f"{live_server.url}{url}")
            assert response is not None
            expected = 404 if url == "/no/such/page/" else 200
            assert response.status == expected, url
            widths = tab.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert widths[0] <= widths[1], f"{url} is {widths[0]} px wide at {widths[1]} px"
            assert violations(tab) == [], url
            # The 404 document itself is reported on the console; nothing else may be.
            if expected == 404:
                problems[:] = [p for p in problems if "status of 404" not in p]
            assert problems == [], f"{url}: {problems}"
    except AssertionError as failure:
        shot = tmp_path / "phone-failure.png"
        tab.screenshot(path=str(shot), full_page=True)
        raise AssertionError(f"{failure} (screenshot: {shot})") from failure
    finally:
        context.close()
    assert len(urls) > 20
