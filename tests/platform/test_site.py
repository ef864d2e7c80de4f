"""The site shell: one layout and navigation on every page, the index and club pages, the
favicon and the error pages (with DEBUG off, through the test client)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client, override_settings
from django.utils import timezone

from ratings.models import Rating, RatingPool
from tests.tournaments.factories import (
    UserFactory,
    make_player,
    make_tournament,
    register_players,
)
from tests.users import make_user
from tournaments import services
from tournaments.models import Club, ClubMembership, Round, Tournament

pytestmark = pytest.mark.django_db


def get(url: str, client: Client | None = None, headers: dict[str, str] | None = None) -> str:
    response = (client or Client()).get(url, headers=headers or {})
    assert response.status_code == 200, (url, response.status_code)
    assert response["Content-Type"].startswith("text/html")
    return response.content.decode()


def text(html: str) -> str:
    """The page's visible text with tags dropped and spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def section(html: str, name: str) -> str:
    """The index page's group ``name`` (running, upcoming, finished): its <section>."""
    found = re.search(rf'<section class="tournament-group" id="{name}">.*?</section>', html, re.S)
    assert found is not None, f"no {name} section"
    return found.group()


def site_nav(html: str) -> str:
    found = re.search(r'<nav class="site-nav".*?</nav>', html, re.S)
    assert found is not None, "no site nav"
    return found.group()


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def planted() -> dict[str, Any]:
    """Two clubs; a running, an upcoming (registration open) and a finished tournament."""
    organiser = UserFactory(username="organiser")
    tower = services.club_get_or_create(name="La Tour")
    running = make_tournament(organiser=organiser, club=tower, name="Spring Swiss")
    register_players(running, 8)
    services.round_confirm(round_=services.round_pair_next(tournament=running))
    running.refresh_from_db()
    upcoming = make_tournament(organiser=organiser, club=tower, name="Summer Swiss")
    other = services.club_get_or_create(name="Les Pions")
    finished = make_tournament(
        organiser=UserFactory(username="pions-organiser"), club=other, name="Winter Cup"
    )
    services.tournament_finish(tournament=finished)
    return {
        "organiser": organiser,
        "tower": tower,
        "other": other,
        "running": running,
        "upcoming": upcoming,
        "finished": finished,
    }


# -- the layout and its navigation -------------------------------------------------------------
PUBLIC_PAGES = ["/", "/tournaments/", "/ratings/", "/clubs/"]


@pytest.mark.parametrize("url", PUBLIC_PAGES)
def test_every_page_has_the_one_layout_and_the_anonymous_nav(url: str) -> None:
    html = get(url)
    assert html.count("<!doctype html>") == 1
    assert re.findall(r'rel="stylesheet" href="([^"]+)"', html) == ["/static/herald/site.css"]
    assert '<link rel="icon" href="/static/herald/favicon.svg" type="image/svg+xml">' in html
    assert '<html lang="en">' in html
    nav = site_nav(html)
    for href in ('href="/"', 'href="/tournaments/"', 'href="/ratings/"', 'href="/clubs/"'):
        assert href in nav
    assert 'href="/api/docs/"' in nav
    assert 'href="/me/"' not in nav  # My games: for a signed-in person
    assert 'href="/admin/"' not in nav  # Admin: for staff
    assert f'href="/accounts/login/?next={url}"' in nav  # back here after logging in
    # The language switcher: a form posting to set_language, back to this page, one button a
    # language; no script.
    assert 'action="/i18n/setlang/"' in nav
    assert f'<input type="hidden" name="next" value="{url}">' in nav
    assert 'name="language" value="en"' in nav
    assert 'name="language" value="fr"' in nav
    assert "<script" not in html


def test_the_section_of_the_page_is_marked_in_the_nav() -> None:
    nav = site_nav(get("/ratings/"))
    assert re.search(r'href="/ratings/"\s+aria-current="page"', nav)
    assert not re.search(r'href="/tournaments/"\s+aria-current', nav)


def test_the_browsers_language_sets_the_pages_language() -> None:
    assert '<html lang="fr">' in get("/tournaments/", headers={"Accept-Language": "fr-FR,fr;q=0.9"})


def test_the_language_switcher_remembers_the_choice_and_goes_back() -> None:
    client = Client()
    response = client.post("/i18n/setlang/", {"language": "fr", "next": "/ratings/"})
    assert response.status_code == 302
    assert response["Location"] == "/ratings/"
    html = get("/ratings/", client)
    assert '<html lang="fr">' in html
    assert re.search(r'value="fr"[^>]*aria-pressed="true"', html)


def test_a_member_of_one_club_gets_my_club_my_games_and_a_logout_form(
    planted: dict[str, Any],
) -> None:
    player = make_player(club=planted["tower"], display_name="Ysolde Aubert")
    nav = site_nav(get("/tournaments/", logged_in(player.user)))
    assert f'href="/clubs/{planted["tower"].pk}/"' in nav
    assert "My club" in nav
    assert 'href="/me/"' in nav
    assert "My games" in nav
    logout = re.search(r'<form[^>]*action="/accounts/logout/".*?</form>', nav, re.S)
    assert logout is not None, "no logout form"
    assert 'method="post"' in logout.group()
    assert 'name="csrfmiddlewaretoken"' in logout.group()
    assert "/accounts/login/" not in nav
    assert 'href="/admin/"' not in nav


def test_a_member_of_two_clubs_or_none_gets_the_list_of_clubs(planted: dict[str, Any]) -> None:
    player = make_player(club=planted["tower"])
    services.club_member_add(club=planted["other"], user=player.user)
    nav = site_nav(get("/", logged_in(player.user)))
    assert re.search(r'href="/clubs/">\s*Clubs\s*<', nav)
    loner = make_user("loner")
    assert re.search(r'href="/clubs/">\s*Clubs\s*<', site_nav(get("/", logged_in(loner))))


def test_staff_get_the_admin_link() -> None:
    staff = make_user("desk", staff=True)
    assert 'href="/admin/"' in site_nav(get("/", logged_in(staff)))


def test_the_nav_looks_the_club_up_in_one_query(
    planted: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    client = logged_in(make_player(club=planted["tower"]).user)
    anonymous = Client()
    with django_assert_max_num_queries(0):
        anonymous.get("/favicon.ico")
    get("/clubs/", client)  # warm: the session is read once per request
    # session, user, the club list, the nav's club, whether the nav shows the arbiter's desk
    with django_assert_max_num_queries(5):
        get("/clubs/", client)


# -- /tournaments/ -----------------------------------------------------------------------------
def test_the_tournaments_index_groups_running_upcoming_and_finished(
    planted: dict[str, Any],
) -> None:
    html = get("/tournaments/")
    running, upcoming, finished = (
        section(html, name) for name in ("running", "upcoming", "finished")
    )
    assert "Spring Swiss" in running
    assert "Summer Swiss" not in running
    assert "Summer Swiss" in upcoming
    assert "Winter Cup" not in upcoming
    assert "Winter Cup" in finished
    assert "Spring Swiss" not in finished
    card = re.search(rf'data-tournament="{planted["running"].pk}".*?</li>', running, re.S)
    assert card is not None
    words = text(card.group())
    assert "13 Couronnes" in words  # the game's name, never its id
    assert "13-couronnes" not in card.group()
    assert "La Tour" in words
    assert " 1 round " in words
    # The page shows the club's local date; near midnight UTC it differs from the UTC date.
    confirmed = timezone.localtime(planted["running"].rounds.get().confirmed_at)
    assert confirmed.strftime("%-d %b %Y") in words
    pk = planted["running"].pk
    for href in (
        f"/tournaments/{pk}/",
        f"/tournaments/{pk}/standings/",
        f"/clubs/{planted['tower'].pk}/",
    ):
        assert f'href="{href}"' in card.group()
    assert "created " in text(section(html, "upcoming"))  # no round yet: the day it was made


def test_the_tournaments_index_on_an_empty_database() -> None:
    body = text(get("/tournaments/"))
    assert "No tournament is being played right now." in body
    assert "No tournament has finished yet." in body


def test_the_tournaments_index_reads_one_query(
    planted: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    with django_assert_max_num_queries(1):
        get("/tournaments/")


# -- /ratings/ ---------------------------------------------------------------------------------
def _rate(pool: RatingPool, name: str, mu: float, sigma: float, games: int) -> Any:
    player = make_player(display_name=name)
    Rating.objects.create(pool=pool, player=player.user, mu=mu, sigma=sigma, games=games)
    return player


def test_the_ratings_index_shows_each_pool_with_its_count_and_top_three() -> None:
    blazon = RatingPool.objects.create(game="blazon", edition_family="standard")
    couronnes = RatingPool.objects.create(game="13-couronnes", edition_family="reconstructed-1")
    RatingPool.objects.create(game="les-7-blasons", edition_family="standard")  # nobody yet
    _rate(blazon, "Aline", 30, 2, 9)  # 24
    _rate(blazon, "Bruno", 28, 1, 9)  # 25
    _rate(blazon, "Chloé", 25, 3, 2)  # 16, provisional
    _rate(blazon, "Denis", 20, 4, 7)  # 8: fourth, not shown
    _rate(blazon, "Émile", 40, 1, 0)  # no game: not rated, not counted
    _rate(couronnes, "Fanny", 25, 8, 1)
    html = get("/ratings/")
    cards = {
        int(pk): body
        for pk, body in re.findall(
            r'<li class="card pool" data-pool="(\d+)">(.*?)</li>\s*(?=<li class="card pool"|</ul>)',
            html,
            re.S,
        )
    }
    assert len(cards) == 3
    words = text(cards[blazon.pk])
    assert "Blazon" in words
    assert "standard" in words
    assert "4 rated players" in words
    assert words.index("Bruno") < words.index("Aline") < words.index("Chloé")
    assert "25.0" in words
    assert "24.0" in words
    assert "16.0" in words
    assert "Denis" not in words
    assert "Émile" not in words
    assert words.count("provisional") == 1
    assert f'href="/ratings/{blazon.pk}/"' in cards[blazon.pk]
    assert "1 rated player" in text(cards[couronnes.pk])
    assert "13 Couronnes" in text(cards[couronnes.pk])


def test_the_ratings_index_reads_three_queries_whatever_the_pools(
    django_assert_max_num_queries: Any,
) -> None:
    for index, game in enumerate(("blazon", "13-couronnes", "les-7-blasons")):
        pool = RatingPool.objects.create(game=game, edition_family="standard")
        for n in range(4):
            _rate(pool, f"Player {index}-{n}", 25 + n, 3, 5)
    with django_assert_max_num_queries(3):  # pools with counts, their leaders, names
        get("/ratings/")


def test_the_ratings_index_with_no_pool_says_so() -> None:
    assert "No rating pool yet" in text(get("/ratings/"))


# -- clubs -------------------------------------------------------------------------------------
def test_a_club_page_names_its_tournaments_organisers_and_size(planted: dict[str, Any]) -> None:
    tower: Club = planted["tower"]
    organiser = planted["organiser"]
    make_player(user=organiser, club=None, display_name="Odile the organiser")
    for n in range(3):
        make_player(club=tower, display_name=f"Member {n}")
    members = ClubMembership.objects.filter(club=tower).count()
    assert members == 4  # the organiser and three members
    html = get(f"/clubs/{tower.pk}/")
    body = text(html)
    assert "<h1>La Tour</h1>" in html
    assert f"{members} members" in body
    assert "2 tournaments" in body
    organisers = re.search(r'<ul class="organisers">(.*?)</ul>', html, re.S)
    assert organisers is not None
    assert text(organisers.group(1)).strip() == "Odile the organiser"  # names only, no member
    assert "Member 0" not in body
    assert "Spring Swiss" in body
    assert "Summer Swiss" in body
    assert "Winter Cup" not in body  # another club's
    assert "organiser@example.org" not in html


def test_the_club_list_counts_members_and_tournaments(planted: dict[str, Any]) -> None:
    body = text(get("/clubs/"))
    assert "La Tour 1 member · 2 tournaments" in body
    assert "Les Pions 1 member · 1 tournament" in body


def test_an_unknown_club_is_404() -> None:
    assert Client().get("/clubs/999999/").status_code == 404


def test_a_sheet_links_its_club() -> None:
    tournament = make_tournament(organiser=UserFactory(username="organiser"))
    assert tournament.club is not None
    assert f'href="/clubs/{tournament.club.pk}/"' in get(f"/tournaments/{tournament.pk}/")


# -- favicon -----------------------------------------------------------------------------------
def test_the_favicon_is_an_svg_and_favicon_ico_leads_to_it() -> None:
    path = finders.find("herald/favicon.svg")
    assert path, "herald/favicon.svg is not among the static files"
    with open(path, encoding="utf-8") as svg:
        assert svg.read().lstrip().startswith("<svg")
    response = Client().get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/herald/favicon.svg"


# -- error pages, DEBUG off --------------------------------------------------------------------
ERROR_URLS = "tests.platform.error_urls"


@override_settings(DEBUG=False)
def test_a_missing_page_is_the_sites_404_not_the_debug_page() -> None:
    response = Client().get("/no/such/page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert 'href="/static/herald/site.css"' in html
    assert "Page not found" in html
    assert 'href="/tournaments/"' in html  # the nav, as on every page
    assert "URLconf" not in html
    assert "DEBUG" not in html


@override_settings(DEBUG=False)
def test_an_unknown_tournament_is_the_sites_404() -> None:
    response = Client().get("/tournaments/999999/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


@override_settings(DEBUG=False, ROOT_URLCONF=ERROR_URLS)
def test_a_refusal_is_the_sites_403() -> None:
    response = Client().get("/test-errors/forbidden/")
    assert response.status_code == 403
    html = response.content.decode()
    assert "Not allowed" in html
    assert 'href="/static/herald/site.css"' in html
    assert "Traceback" not in html


@override_settings(DEBUG=False, ROOT_URLCONF=ERROR_URLS)
def test_a_server_bug_is_the_static_500_page() -> None:
    response = Client(raise_request_exception=False).get("/test-errors/crash/")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Server error" in html
    assert 'href="/static/herald/site.css"' in html
    assert "a test-only crash" not in html  # the exception's words never reach the visitor
    assert "Traceback" not in html


@override_settings(DEBUG=False, ROOT_URLCONF=ERROR_URLS)
def test_a_server_bug_under_api_stays_json() -> None:
    response = Client(raise_request_exception=False).get("/api/v1/test-crash")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"] == "server_error"
    assert "a test-only crash" not in response.content.decode()


@override_settings(DEBUG=False)
def test_the_api_404_stays_json() -> None:
    response = Client().get("/api/v1/no-such-endpoint")
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


def test_a_round_still_in_draft_is_not_on_the_index_as_a_published_round(
    planted: dict[str, Any],
) -> None:
    draft = make_tournament(
        organiser=planted["organiser"], club=planted["tower"], name="Draft Night"
    )
    register_players(draft, 8)
    services.round_pair_next(tournament=draft)  # a draft round: not published
    assert Round.objects.filter(tournament=draft, state=Round.State.DRAFT).exists()
    html = get("/tournaments/")
    card = re.search(rf'data-tournament="{draft.pk}".*?</li>', html, re.S)
    assert card is not None
    assert "created " in text(card.group())  # no published round: no round dates
    assert Tournament.objects.get(pk=draft.pk).status != Tournament.Status.FINISHED
