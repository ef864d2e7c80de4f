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

import engine
from events.services import stream_open
from herald import demo
from ratings import selectors as ratings
from tests.tournaments.factories import UserFactory, make_tournament, publish, register_players
from tests.users import make_user, token_for
from tournaments import services
from tournaments.models import Club

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


# -- every public page at a phone's width --------------------------------------------------------
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
    first = publish(services.round_pair_next(tournament=cup))
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
    browser_page: Any, browser_problems: Any, demo_like: dict[str, Any]
) -> None:
    """At 390 px every public page fits its width (wide tables scroll in their own box)."""
    urls = [*public_urls(demo_like), "/no/such/page/"]
    for url in urls:
        response = browser_page.goto(url)
        assert response is not None
        expected = 404 if url == "/no/such/page/" else 200
        assert response.status == expected, url
        widths = browser_page.evaluate(
            "() => [document.documentElement.scrollWidth, window.innerWidth]"
        )
        assert widths[0] <= widths[1], f"{url} is {widths[0]} px wide at {widths[1]} px"
    # The 404 document itself is reported on the console; nothing else may be.
    browser_problems.allow("/no/such/page/")
    browser_problems.allow("status of 404")
    assert len(urls) > 20
