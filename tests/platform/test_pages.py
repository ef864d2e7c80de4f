"""The public pages: front page, tournament overview, ratings leaderboard and player history.

Data comes from the demo (bots play small tournaments through the services, every game is
verified and rated), so the pages are read against what the selectors say.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

import engine
from herald import demo
from ratings import pages, selectors
from ratings.models import RatingChange, RatingPool
from tests.tournaments.factories import UserFactory, make_tournament, register_players
from tournaments import services
from tournaments.models import Club, Player, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo_data(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The demo on a small scale: 8 players and one round per game, every game rated."""
    small = {game.id: demo.DemoPlan(players=8, rounds=1) for game in engine.games()}
    small["13-couronnes"] = demo.DemoPlan(players=8, rounds=1, options={"max_turns": 5})
    monkeypatch.setattr(demo, "PLANS", small)
    return demo.demo_populate(say=lambda _: None)


def page(url: str) -> str:
    response = Client().get(url)
    assert response.status_code == 200, url
    assert response["Content-Type"].startswith("text/html")
    return response.content.decode()


def status(url: str) -> int:
    return int(Client().get(url).status_code)


def text(html: str) -> str:
    """The page's visible text with tags dropped and spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# -- front page --------------------------------------------------------------------------------
def card(html: str, tournament: Tournament) -> str:
    """The tournament's card on an index page (its <li>)."""
    found = re.search(rf'data-tournament="{tournament.pk}".*?</li>', html, re.S)
    assert found is not None, f"no card for {tournament.name}"
    return found.group()


def test_home_lists_every_tournament_and_pool_with_links(demo_data: dict[str, Any]) -> None:
    html = page("/")
    assert 'href="/static/herald/site.css"' in html
    assert 'href="/api/docs/"' in html
    assert 'href="/admin/"' not in html  # the Admin link is for staff
    assert 'href="/tournaments/"' in html
    assert 'href="/ratings/"' in html
    for tournament in demo_data["tournaments"]:
        assert tournament.name in html
        assert f'href="/tournaments/{tournament.pk}/"' in html
        assert f'href="/tournaments/{tournament.pk}/standings/"' in html
        assert f'href="/tournaments/{tournament.pk}/bracket/"' not in html  # Swiss: no bracket
    # The finished nights and the night left open for registration.
    assert text(html).count("Herald Demo Club") == len(demo_data["tournaments"]) + 1
    assert text(html).count("Finished") == len(demo_data["tournaments"])
    pools = list(RatingPool.objects.all())
    assert len(pools) == len(demo_data["tournaments"])
    for pool in pools:
        assert f'href="/ratings/{pool.pk}/"' in html
        assert engine.get(pool.game).name in html


def test_home_counts_rounds_and_links_a_drawn_bracket() -> None:
    organiser = UserFactory(username="organiser")
    knockout = make_tournament(
        organiser=organiser,
        name="Cup of the Tower",
        format="single_elimination",
        table_preferred=None,
        table_allowed=None,
    )
    register_players(knockout, 4)
    services.round_pair_next(tournament=knockout)
    make_tournament(organiser=organiser, name="Thursday Swiss")
    swiss = Tournament.objects.get(name="Thursday Swiss")
    for url in ("/", "/tournaments/"):
        html = page(url)
        cup = card(html, knockout)
        assert f'href="/tournaments/{knockout.pk}/bracket/"' in cup
        assert " 1 round " in text(cup)  # one round drawn
        assert "bracket" not in card(html, swiss)
        assert " 0 rounds " in text(card(html, swiss))


def test_home_on_an_empty_database_says_what_is_missing() -> None:
    body = text(page("/"))
    assert "No tournament yet" in body
    assert "No rating pool yet" in body


def test_home_and_overview_read_a_bounded_number_of_queries(
    demo_data: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    with django_assert_max_num_queries(4):  # tournaments with counts, pools, leaders, names
        page("/")
    tournament = demo_data["tournaments"][0]
    with django_assert_max_num_queries(3):  # the tournament with counts, its rounds
        page(f"/tournaments/{tournament.pk}/")


# -- tournament overview -----------------------------------------------------------------------
def test_overview_puts_the_settings_in_words_and_links_each_published_round(
    demo_data: dict[str, Any],
) -> None:
    tournament = next(t for t in demo_data["tournaments"] if t.game_id == "13-couronnes")
    html = page(f"/tournaments/{tournament.pk}/")
    body = text(html)
    assert "13 Couronnes" in body
    assert "Swiss" in body
    assert f"{tournament.table_preferred} players preferred" in body
    assert "1st: " in body
    assert "2nd: " in body
    assert "Opp. points, then Game score" in body
    assert "Game options Turn limit: 5" in body  # in words, not the engine's keys
    assert "max_turns" not in body
    french = Client().get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="fr")
    assert "Options de jeu Limite de tours: 5" in text(french.content.decode())
    assert 'href="/"' in html  # back to the front page
    rounds = Round.objects.filter(tournament=tournament).exclude(state=Round.State.SUPERSEDED)
    assert rounds.exists()
    for round_ in rounds:
        base = f"/tournaments/{tournament.pk}/pairings/{round_.number}"
        assert f'href="{base}/"' in html
        assert f'href="{base}/by-name/"' in html
        assert f'href="{base}.csv"' in html
    assert f'href="/tournaments/{tournament.pk}/standings/"' in html


def test_overview_of_a_round_still_in_draft_does_not_link_its_pairings() -> None:
    tournament = make_tournament(organiser=UserFactory(username="organiser"))
    register_players(tournament, 8)
    services.round_pair_next(tournament=tournament)  # a draft: not published
    html = page(f"/tournaments/{tournament.pk}/")
    assert "Draft" in html
    assert "not published yet" in html
    assert f"/tournaments/{tournament.pk}/pairings/1/" not in html


def test_the_printable_pages_link_back_home_and_to_the_overview(
    demo_data: dict[str, Any],
) -> None:
    tournament = demo_data["tournaments"][0]
    html = page(f"/tournaments/{tournament.pk}/standings/")
    assert 'href="/"' in html
    assert f'href="/tournaments/{tournament.pk}/"' in html


# -- ratings -----------------------------------------------------------------------------------
def test_leaderboard_shows_every_rated_player_in_the_selector_order(
    demo_data: dict[str, Any],
) -> None:
    pool = RatingPool.objects.get(game="13-couronnes")
    rows = selectors.leaderboard(pool=pool)
    assert len(rows) == 8
    html = page(f"/ratings/{pool.pk}/")
    names = dict(Player.objects.values_list("user_id", "display_name"))
    positions = [html.index(f"/ratings/{pool.pk}/players/{row.player_id}/") for row in rows]
    assert positions == sorted(positions)
    body = text(html)
    for row in rows:
        line = (
            f"{row.position} {names[row.player_id]} {row.conservative:.1f} "
            f"{row.mu:.2f} {row.sigma:.2f} {row.games}"
            + (" provisional" if row.provisional else "")
        )
        assert line in body
    assert body.count(" provisional ") == sum(row.provisional for row in rows) == 8


def test_leaderboard_filters_by_club(demo_data: dict[str, Any]) -> None:
    pool = RatingPool.objects.get(game="blazon")
    rows = selectors.leaderboard(pool=pool)
    other = services.club_get_or_create(name="La Tour")
    moved = [row.player_id for row in rows[:3]]
    Player.objects.filter(user_id__in=moved).update(club=other)
    demo_club = Club.objects.get(name=demo.CLUB)

    html = page(f"/ratings/{pool.pk}/?club={other.pk}")
    assert f'<option value="{other.pk}" selected>La Tour</option>' in html
    shown = {int(pk) for pk in re.findall(rf"/ratings/{pool.pk}/players/(\d+)/", html)}
    assert shown == set(moved)

    html = page(f"/ratings/{pool.pk}/?club={demo_club.pk}")
    shown = {int(pk) for pk in re.findall(rf"/ratings/{pool.pk}/players/(\d+)/", html)}
    assert shown == {row.player_id for row in rows} - set(moved)

    html = page(f"/ratings/{pool.pk}/?club=")
    shown = {int(pk) for pk in re.findall(rf"/ratings/{pool.pk}/players/(\d+)/", html)}
    assert len(shown) == len(rows)


def test_leaderboard_and_history_read_a_bounded_number_of_queries(
    demo_data: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    pool = RatingPool.objects.get(game="les-7-blasons")
    with django_assert_max_num_queries(5):
        page(f"/ratings/{pool.pk}/")
    club = Club.objects.get(name=demo.CLUB)
    with django_assert_max_num_queries(5):
        page(f"/ratings/{pool.pk}/?club={club.pk}")
    best = selectors.leaderboard(pool=pool, limit=1)[0]
    with django_assert_max_num_queries(7):  # 6 whatever the number of games
        page(f"/ratings/{pool.pk}/players/{best.player_id}/")


def test_leaderboard_pages_continue_the_ranking(
    demo_data: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pages, "PAGE_SIZE", 3)
    pool = RatingPool.objects.get(game="13-couronnes")
    rows = selectors.leaderboard(pool=pool)
    assert len(rows) == 8

    def shown(html: str) -> list[int]:
        return [int(pk) for pk in re.findall(rf"/ratings/{pool.pk}/players/(\d+)/", html)]

    first = page(f"/ratings/{pool.pk}/")
    assert shown(first) == [row.player_id for row in rows[:3]]
    assert 'href="?page=2"' in first
    last = page(f"/ratings/{pool.pk}/?page=3")
    assert shown(last) == [row.player_id for row in rows[6:]]
    assert f"{rows[6].position} " in text(last)
    assert 'href="?page=2"' in last
    assert "?page=4" not in last
    assert "No one this far down the list" in page(f"/ratings/{pool.pk}/?page=9")


def test_player_history_shows_each_game_before_and_after(demo_data: dict[str, Any]) -> None:
    pool = RatingPool.objects.get(game="13-couronnes")
    best = selectors.leaderboard(pool=pool)[0]
    changes = list(selectors.player_history(pool=pool, player_id=best.player_id))
    assert changes
    html = page(f"/ratings/{pool.pk}/players/{best.player_id}/")
    body = text(html)
    player = Player.objects.get(user_id=best.player_id)
    assert player.display_name in body
    assert f"{best.conservative:.1f}" in body
    assert f'href="/ratings/{pool.pk}/"' in html
    tournament = Tournament.objects.get(
        game_id="13-couronnes", status=Tournament.Status.FINISHED
    )  # the demo's 13 Couronnes night left open has no game yet
    for change in changes:
        before = change.mu_before - 3 * change.sigma_before
        after = change.mu_after - 3 * change.sigma_after
        assert f"{before:.1f} → {after:.1f}" in body
        assert f"{tournament.name}, round " in body
    assert body.count(" → ") == len(changes)


def test_player_history_of_someone_without_games_in_the_pool(demo_data: dict[str, Any]) -> None:
    pool = RatingPool.objects.get(game="blazon")
    rated = {row.player_id for row in selectors.leaderboard(pool=pool)}
    idle = Player.objects.exclude(user_id__in=rated).first()
    assert idle is not None  # the demo makes 16 players; 8 play each game
    body = text(page(f"/ratings/{pool.pk}/players/{idle.user_id}/"))
    assert "No rated game in this pool" in body
    assert not RatingChange.objects.filter(pool=pool, player_id=idle.user_id).exists()


@pytest.mark.parametrize(
    "url",
    [
        "/tournaments/999999/",
        "/ratings/999999/",
        "/ratings/{pool}/players/999999/",
        "/ratings/999999/players/{player}/",
        "/ratings/{pool}/?club=999999",
        "/ratings/{pool}/?club=tower",
        "/ratings/{pool}/?page=0",
        "/ratings/{pool}/?page=last",
    ],
)
def test_unknown_ids_are_404(url: str) -> None:
    pool = RatingPool.objects.create(game="blazon", edition_family="standard")
    player = services.player_create(username="someone", display_name="Someone")
    assert status(url.format(pool=pool.pk, player=player.user_id)) == 404
