"""My Herald (/me/): a busy player's tables, games, tournaments, disputes and ratings, read
against what the apps' own records say; a user who is no player; the query count; and no other
seat's hand or the seed of a running game anywhere on the page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.template.defaultfilters import floatformat
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import engine
from events.models import Stream
from events.states import current_state, game_of
from herald import demo
from ratings.models import Rating, RatingChange
from tests.busy_player import Busy, busy_player, play_round_to_end, round_open, table_of
from tests.users import make_user
from tournaments import selectors as tournaments
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def busy() -> Busy:
    return busy_player()


def me_page(user: Any) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("me"))
    assert response.status_code == 200
    return response.content.decode()


def text(html: str) -> str:
    """The page's visible text with tags dropped and spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def section(html: str, heading_id: str) -> str:
    """The HTML of the page's section headed by ``heading_id``."""
    start = html.index(f'id="{heading_id}"')
    end = html.find("<section", start)
    return html[start : end if end != -1 else len(html)]


def test_anonymous_visitors_are_sent_to_log_in() -> None:
    response = Client().get(reverse("me"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_user_who_is_no_player_gets_a_sentence_not_an_error() -> None:
    html = me_page(make_user("visitor"))
    assert "data-no-player" in html
    assert "You are not entered as a player yet" in text(html)
    assert 'id="my-tables"' not in html
    assert 'id="my-games"' not in html


def test_my_table_now_names_the_round_table_seat_and_opponents(busy: Busy) -> None:
    tables = section(me_page(busy.player.user), "my-tables")
    table = busy.running_table
    seats = list(table.seats.select_related("registration__player").order_by("seat"))
    mine = next(s for s in seats if s.registration.player == busy.player)
    words = text(tables)
    assert f"Spring cup, round {table.round.number}, table {table.number}" in words
    assert f"You sit in seat {mine.seat + 1}" in words
    for seat in seats:
        if seat != mine:
            assert seat.registration.player.display_name in words
    assert busy.player.display_name not in words
    assert reverse("play:table", args=[busy.running.pk]) in tables
    # Tables with a result already are not "now": only the running one is listed.
    assert tables.count('class="my-table card"') == 1


def test_my_games_list_running_and_finished_with_my_rank(busy: Busy) -> None:
    games = section(me_page(busy.player.user), "my-games")
    body = games[games.index("<tbody>") :]
    rows = re.findall(r"<tr>(.*?)</tr>", body, flags=re.S)
    assert len(rows) == 1 + len(busy.finished)
    by_link = {re.search(r'href="/games/([0-9a-f-]+)/"', row).group(1): text(row) for row in rows}  # type: ignore[union-attr]
    assert "In play" in by_link[str(busy.running.pk)]
    for stream in busy.finished:
        seat = stream.seats.get(user=busy.player.user).seat
        rank = stream.result["ranks"][seat]
        assert f"rank {rank} of {stream.players}" in by_link[str(stream.pk)]
        assert "Finished" in by_link[str(stream.pk)]


def test_my_tournaments_show_status_and_standing(busy: Busy) -> None:
    words = text(section(me_page(busy.player.user), "my-tournaments"))
    for tournament in busy.tournaments:
        line = next(
            line
            for line in tournaments.tournament_standings(tournament)
            if line.name == busy.player.display_name
        )
        entrants = len(tournaments.standings_rows(tournament))
        assert f"{tournament.name}" in words
        points = floatformat(line.points, "-2")  # as the standings page prints them (2.33)
        assert f"rank {line.rank} of {entrants} · points {points}" in words
    assert words.count("Running") == 2


def test_my_disputes_show_the_one_i_opened(busy: Busy) -> None:
    disputes = section(me_page(busy.player.user), "my-disputes")
    assert reverse("play:table", args=[busy.dispute_stream.pk]) in disputes
    assert "by you" in text(disputes)
    assert "Please check move 5." in text(disputes)
    assert "Open" in text(disputes)


def test_a_dispute_on_my_game_opened_by_another_player_is_mine_too(busy: Busy) -> None:
    opponent = busy.dispute_stream.seats.exclude(user=busy.player.user).first().user  # type: ignore[union-attr]
    words = text(section(me_page(opponent), "my-disputes"))
    assert "by another player" in words


def test_my_ratings_match_the_rating_rows_and_chart(busy: Busy) -> None:
    html = section(me_page(busy.player.user), "my-ratings")
    rating = Rating.objects.get(player=busy.player.user)
    words = text(html)
    assert f"{rating.conservative:.1f} (μ − 3σ)" in words
    assert f"μ {rating.mu:.2f} · σ {rating.sigma:.2f}" in words
    assert f"{rating.games} games rated" in words
    assert rating.games == len(busy.finished) < 5
    assert "provisional" in words
    assert html.count("<circle") == rating.games
    assert (
        reverse("rating-pages:player-history", args=[rating.pool_id, busy.player.user.pk]) in html
    )


def test_the_page_costs_the_same_queries_with_more_games(
    busy: Busy, django_assert_max_num_queries: Any
) -> None:
    """No N+1: one more round played (a game, a rating change) adds no query."""
    client = Client()
    client.force_login(busy.player.user)
    with CaptureQueriesContext(connection) as before:
        client.get(reverse("me"))
    second = busy.tournaments[1]
    round_ = round_open(second, busy.organiser)
    play_round_to_end(round_)
    assert Stream.objects.filter(seats__user=busy.player.user).count() == len(busy.finished) + 2
    with django_assert_max_num_queries(len(before.captured_queries)):
        html = client.get(reverse("me")).content.decode()
    assert str(table_of(round_, busy.player).stream_id) in html
    assert len(before.captured_queries) <= 25, [q["sql"][:80] for q in before.captured_queries]


def hand_codes_hidden_from(stream: Stream, seat: int | None) -> set[str]:
    """The card codes in other seats' hands that ``seat``'s own view does not show."""
    game = game_of(stream)
    state = current_state(stream)
    seen = repr(game.view(state, seat))
    return {
        card
        for other, hand in enumerate(state.hands)
        if other != seat
        for card in hand
        if not re.search(rf"\b{card}\b", seen)
    }


def contains_code(html: str, code: str) -> bool:
    """The card code as a whole word (B01), not inside a longer token."""
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(code)}(?![A-Za-z0-9])", html) is not None


def test_no_other_hand_and_no_seed_on_my_page(busy: Busy) -> None:
    stream = Stream.objects.get(pk=busy.running.pk)
    seat = stream.seats.get(user=busy.player.user).seat
    hidden = hand_codes_hidden_from(stream, seat)
    assert len(hidden) >= 6  # three opponents' hands are there to be leaked
    # The search finds the codes where they are: in an opponent's own view.
    opponent = (seat + 1) % stream.players
    opponent_view = repr(game_of(stream).view(current_state(stream), opponent))
    assert any(contains_code(opponent_view, code) for code in hidden)
    html = me_page(busy.player.user)
    assert [code for code in hidden if contains_code(html, code)] == []
    assert stream.seed not in html


def test_the_page_in_french_keeps_the_chart_in_numbers(busy: Busy) -> None:
    """French writes 20,60: the page may, the SVG's coordinates may not."""
    client = Client()
    client.force_login(busy.player.user)
    response = client.get(reverse("me"), HTTP_ACCEPT_LANGUAGE="fr")
    assert response["Content-Language"] == "fr"
    html = response.content.decode()
    svg = re.search(r"<svg.*?</svg>", html, flags=re.S)
    assert svg is not None
    numbers = re.findall(r' (?:cx|cy|x1|y1|data-value)="([^"]*)"', svg.group(0))
    assert numbers
    assert [value for value in numbers if not re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", value)] == []


def test_a_demo_player_has_a_rating_and_chart_per_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo (every game, rated): one rating card per pool, each chart as long as its
    history, and the final rank in each finished tournament."""
    small = {game.id: demo.DemoPlan(players=4, rounds=2) for game in engine.games()}
    small["13-couronnes"] = demo.DemoPlan(players=4, rounds=2, options={"max_turns": 3})
    monkeypatch.setattr(demo, "PLANS", small)
    demo.demo_populate(say=lambda _: None)
    user = Player.objects.get(user__username="bot01").user
    page = me_page(user)
    finished = text(section(page, "my-tournaments"))
    for tournament in Tournament.objects.filter(status="finished"):  # they show the final rank
        line = next(
            line
            for line in tournaments.tournament_standings(tournament)
            if line.name == "Greedy bot 01"
        )
        assert (
            f"{tournament.name} · Herald Demo Club Finished rank {line.rank} of 4 · points"
            in finished
        )
    html = section(page, "my-ratings")
    cards = re.findall(r'<article class="my-rating card">(.*?)</article>', html, flags=re.S)
    pools = Rating.objects.filter(player=user, games__gt=0).values_list("pool_id", flat=True)
    assert len(cards) == len(pools) == len(list(engine.games()))
    for pool_id in pools:
        card = next(c for c in cards if f'id="rating-chart-{pool_id}-title"' in c)
        games = RatingChange.objects.filter(player=user, pool_id=pool_id, current=True).count()
        assert card.count("<circle") == games == 2
