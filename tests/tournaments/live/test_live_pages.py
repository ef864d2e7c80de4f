"""The live regions' fragments, "your table" on the overview and the projector's page, over
HTTP: the same rights as the full pages (a draft is never public, a player's table is theirs)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern

from tests.tournaments.factories import UserFactory
from tests.tournaments.live.night import NAMES, finish_round, publish_round, register_named
from tournaments import services, urls_console, urls_pages
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def page(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, response.content.decode()[:500]
    return response.content.decode()


def region_attributes(html: str, region_id: str) -> dict[str, str]:
    tag = re.search(rf'<section[^>]*id="{region_id}"[^>]*>', html)
    assert tag is not None, f"no region #{region_id}"
    return dict(re.findall(r'data-(live-[a-z]+)="([^"]*)"', tag.group(0)))


def test_the_overview_shows_a_registered_player_their_table_once_published(
    organiser: Any, tournament: Tournament
) -> None:
    registrations = register_named(tournament)
    player = registrations[0].player
    client = client_for(player.user)
    before = page(client, f"/tournaments/{tournament.pk}/")
    attributes = region_attributes(before, "my-table")
    assert attributes["live-src"] == f"/tournaments/{tournament.pk}/my-table/fragment"
    assert "round" in attributes["live-kinds"].split()
    assert "appears here the moment round 1 is published" in before
    assert "tournaments/live.js" in before

    round_ = publish_round(tournament, organiser)
    table = round_.tables.get(seats__registration=registrations[0])
    seat = table.seats.get(registration=registrations[0]).seat + 1
    others = [s.registration.player.display_name for s in table.seats.exclude(seat=seat - 1)]
    fragment = page(client, f"/tournaments/{tournament.pk}/my-table/fragment")
    assert f"Table {table.number}" in fragment
    assert f"seat {seat}" in fragment
    assert all(name in fragment for name in others)
    assert f'href="/games/{table.stream_id}/"' in fragment
    # The fragment is the region itself, ready to replace it.
    assert region_attributes(fragment, "my-table") == attributes


def test_a_paper_table_links_to_its_report_page(organiser: Any, tournament: Tournament) -> None:
    registrations = register_named(tournament)
    round_ = publish_round(tournament, organiser)
    table = round_.tables.get(seats__registration=registrations[3])
    table.stream_id = None  # a table played with physical cards
    table.save(update_fields=["stream_id"])
    fragment = page(
        client_for(registrations[3].player.user), f"/tournaments/{tournament.pk}/my-table/fragment"
    )
    assert f'href="/tournaments/{tournament.pk}/tables/{table.pk}/report/"' in fragment
    assert "/games/" not in fragment


def test_your_table_is_nobody_elses(organiser: Any, tournament: Tournament) -> None:
    register_named(tournament)
    publish_round(tournament, organiser)
    stranger = UserFactory(username="stranger")
    for client in (Client(), client_for(stranger), client_for(organiser)):
        fragment = page(client, f"/tournaments/{tournament.pk}/my-table/fragment")
        assert " hidden" in re.search(r'<section[^>]*id="my-table"[^>]*>', fragment).group(0)
        assert not any(name in fragment for name in NAMES)
        assert "Your table" not in fragment


def test_a_draft_round_is_never_in_a_public_fragment(
    organiser: Any, tournament: Tournament
) -> None:
    register_named(tournament)
    draft = services.round_pair_next(tournament=tournament, by=organiser)
    for suffix in ("fragment", "by-name/fragment"):
        url = f"/tournaments/{tournament.pk}/pairings/{draft.number}/{suffix}"
        refused = page(Client(), url, status=404)
        assert not any(name in refused for name in NAMES)
        assert any(name in page(client_for(organiser), url) for name in NAMES)
    services.round_confirm(round_=draft)
    page(Client(), f"/tournaments/{tournament.pk}/pairings/1/fragment", status=404)
    services.round_release(round_=draft, by=organiser)
    shown = page(Client(), f"/tournaments/{tournament.pk}/pairings/1/by-name/fragment")
    positions = [shown.index(name) for name in sorted(NAMES)]
    assert positions == sorted(positions)
    assert region_attributes(shown, "pairings-by-name")["live-kinds"] == "round"


def test_the_pages_carry_their_live_regions(organiser: Any, tournament: Tournament) -> None:
    register_named(tournament)
    publish_round(tournament, organiser)
    client = Client()
    for url, region in [
        (f"/tournaments/{tournament.pk}/", "overview-rounds"),
        (f"/tournaments/{tournament.pk}/standings/", "standings"),
        (f"/tournaments/{tournament.pk}/pairings/1/", "pairings-by-table"),
        (f"/tournaments/{tournament.pk}/pairings/1/by-name/", "pairings-by-name"),
    ]:
        attributes = region_attributes(page(client, url), region)
        fragment = page(client, attributes["live-src"])
        assert region_attributes(fragment, region) == attributes
        assert "<html" not in fragment


def test_the_standings_fragment_follows_the_results(organiser: Any, tournament: Tournament) -> None:
    register_named(tournament)
    round_ = publish_round(tournament, organiser)
    url = f"/tournaments/{tournament.pk}/standings/fragment"
    assert "Standings after round 1" in page(Client(), url)
    finish_round(round_)
    after = page(Client(), url)
    winners = [t.seats.get(seat=0).registration.player.display_name for t in round_.tables.all()]
    first_rows = re.findall(r"<tr>\s*<td class=\"num\">1</td>\s*<td>([^<]+)", after)
    assert sorted(first_rows) == sorted(winners)


def test_the_screen_shows_the_round_by_name_a_qr_code_and_the_clock(
    organiser: Any, tournament: Tournament
) -> None:
    register_named(tournament)
    round_ = publish_round(tournament, organiser)
    screen = page(Client(), f"/tournaments/{tournament.pk}/screen")
    assert "site-header" not in screen  # no site chrome on the wall
    assert 'src="data:image/svg+xml' in screen
    assert f"http://testserver/tournaments/{tournament.pk}/" in screen
    assert 'data-timer-state="idle"' in screen
    assert "50:00" in screen
    positions = [screen.index(f"<td>{name}</td>") for name in sorted(NAMES)]
    assert positions == sorted(positions)
    assert region_attributes(screen, "screen-region")["live-src"].endswith("/screen/fragment")
    services.timer_start(round_=round_, minutes=30, by=organiser)
    assert 'data-timer-state="running"' in page(
        Client(), f"/tournaments/{tournament.pk}/screen/fragment"
    )


def test_between_rounds_the_screen_shows_the_standings(
    organiser: Any, tournament: Tournament
) -> None:
    register_named(tournament)
    before = page(Client(), f"/tournaments/{tournament.pk}/screen")
    assert "screen-standings" in before
    assert "data-timer" not in before
    round_ = publish_round(tournament, organiser)
    assert "screen-pairings" in page(Client(), f"/tournaments/{tournament.pk}/screen/fragment")
    finish_round(round_)
    after = page(Client(), f"/tournaments/{tournament.pk}/screen/fragment")
    assert "screen-standings" in after
    assert "Standings after round 1" in after
    assert "screen-pairings" not in after


def test_in_french(organiser: Any, tournament: Tournament) -> None:
    registrations = register_named(tournament)
    round_ = publish_round(tournament, organiser)
    services.timer_start(round_=round_, minutes=30, by=organiser)
    services.timer_pause(round_=round_, by=organiser)
    client = client_for(registrations[0].player.user)
    client.cookies["django_language"] = "fr"
    card = page(client, f"/tournaments/{tournament.pk}/my-table/fragment")
    assert "Votre table" in card
    assert "place " in card
    assert "en pause" in card
    wall = page(client, f"/tournaments/{tournament.pk}/screen")
    assert "Ronde 1" in wall
    assert "Votre table, les appariements et le classement sur votre téléphone" in wall


def test_every_live_region_refetches_from_a_fragment_url() -> None:
    """A live region's refetch in flight when its page moves on is aborted by the browser; the
    browser tests allow exactly that for URLs ending in "fragment", so every region's source
    (``data-live-src``) must be one (with or without a final slash)."""
    templates = Path(settings.BASE_DIR, "tournaments", "templates")
    names = {
        name
        for html in templates.rglob("*.html")
        for name in re.findall(
            r"data-live-src=\"\{% url 'tournament-pages:([\w-]+)'", html.read_text()
        )
    }
    routes = {
        pattern.name: str(pattern.pattern)
        for module in (urls_pages, urls_console)
        for pattern in module.urlpatterns
        if isinstance(pattern, URLPattern)
    }
    assert names, "no live region found"
    assert {
        name: routes[name] for name in names if not routes[name].rstrip("/").endswith("fragment")
    } == {}
