"""The pages under the Content-Security-Policy, in a real browser (Debian's Chromium via Playwright).

The policy allows scripts and styles from this site only. These tests load the pages a club
uses whose scripts or styles the policy could block, on a live ASGI server process (the
``asgi_server`` fixture: daphne, the test database, the Redis channel layer), and check that
what they do still happens: the API docs draw Swagger UI, a tournament sheet's Print link
prints, the admin is styled. ``browser_page`` fails them on any console error, failed request
or policy violation and keeps a screenshot of a failure. They skip without Chromium or
Playwright (fail under HERALD_REQUIRE_SERVICES=1, as CI sets it: `.ci/run` installs Chromium).
"""

from __future__ import annotations

from typing import Any

import pytest
import requests
from django.test import Client

from events.services import stream_open
from tests.tournaments.factories import make_tournament
from tests.users import make_user, token_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_api_docs_draw_swagger_ui_under_the_policy(browser_page: Any) -> None:
    browser_page.goto("/api/docs/")
    title = browser_page.wait_for_selector(".swagger-ui .info .title", timeout=15_000)
    assert "Herald API" in title.inner_text()
    assert browser_page.locator(".opblock").count() > 20  # the operations are listed


def test_a_tournament_sheets_print_link_prints(browser_page: Any) -> None:
    tournament = make_tournament()
    browser_page.add_init_script("window.print = () => { window.__printed = true; };")
    browser_page.goto(f"/tournaments/{tournament.pk}/")
    browser_page.click("[data-print]")
    assert browser_page.evaluate("window.__printed === true"), "print.js did not run"
    # The sheet's own stylesheet applied: tables are drawn with collapsed borders.
    collapse = browser_page.evaluate(
        "getComputedStyle(document.querySelector('table') || document.body).borderCollapse"
    )
    assert collapse == "collapse"


def test_the_admin_login_is_styled_under_the_policy(browser_page: Any) -> None:
    browser_page.goto("/admin/login/")
    header = browser_page.evaluate(
        "getComputedStyle(document.querySelector('#header')).backgroundColor"
    )
    assert header not in ("", "rgba(0, 0, 0, 0)"), "the admin's stylesheet did not apply"


def test_a_broken_page_fails_the_browser_fixture(browser_page: Any, browser_problems: Any) -> None:
    """The watch itself: a missing stylesheet and a console error are both seen."""
    browser_page.goto("/healthz")
    browser_page.evaluate(
        "() => { console.error('boom'); const l = document.createElement('link');"
        " l.rel = 'stylesheet'; l.href = '/static/herald/missing.css';"
        " document.head.appendChild(l); }"
    )
    browser_page.wait_for_timeout(500)
    seen = browser_problems.unexpected()
    assert any("console error: boom" in p for p in seen), seen
    assert any("answer 404" in p and "missing.css" in p for p in seen), seen
    browser_problems.allow("boom")
    browser_problems.allow("missing.css")
    browser_problems.allow("404 (Not Found)")


def test_a_players_browser_gets_the_frame_after_a_move(browser_page: Any, asgi_server: Any) -> None:
    """The page's socket under the policy (connect-src 'self'), on the session's cookie."""
    players = [make_user(name, password="a long enough password 42") for name in ("ann", "bob")]
    stream = stream_open(game_id="blazon", seats=players, public=False)
    client = Client()
    client.force_login(players[0])
    browser_page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": asgi_server.url}]
    )
    browser_page.goto("/")
    browser_page.evaluate(
        """(id) => { window.__frames = [];
        const socket = new WebSocket(`ws://${location.host}/ws/games/${id}/`);
        socket.onmessage = (event) => window.__frames.push(JSON.parse(event.data)); }""",
        str(stream.pk),
    )
    browser_page.wait_for_function("() => window.__frames.length === 1", timeout=10_000)
    assert browser_page.evaluate("window.__frames[0].type") == "joined"
    for user in players:
        headers = {"Authorization": f"Token {token_for(user)}"}
        view = requests.get(
            f"{asgi_server.url}/api/v1/streams/{stream.pk}/view", headers=headers, timeout=10
        ).json()
        if view.get("legal_moves"):
            answer = requests.post(
                f"{asgi_server.url}/api/v1/streams/{stream.pk}/moves",
                json={"move": view["legal_moves"][0], "expected_version": view["version"]},
                headers=headers,
                timeout=10,
            )
            assert answer.status_code == 201, answer.text
            break
    browser_page.wait_for_function("() => window.__frames.length === 2", timeout=10_000)
    assert browser_page.evaluate("window.__frames[1]") == {
        "type": "advanced",
        "stream": str(stream.pk),
        "version": 2,
    }
