"""The admin's stream pages as an arbiter reads them: the log a page at a time, players by name,
seats counted from 1, the result as a table; the record's download and (superusers) its import."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from events.models import Event, Stream
from events.records import complete_record
from tests.events.conftest import make_user, play_one
from tests.events.records import finished_game, rehash
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture
def long_game(toy: Any, open_stream: Callable[..., Stream]) -> Stream:
    """A finished toy game of more than two pages of events (50 a page)."""
    stream = open_stream(n=2, turns=110)
    while not stream.is_finished:
        play_one(toy, stream)
    assert stream.version > 100
    return stream


@pytest.fixture
def arbiter_client(client: Client) -> Client:
    """An arbiter as the demo makes one: staff, in the arbiters group (view permissions)."""
    arbiter = make_user("desk", groups=("arbiters",), staff=True)
    client.force_login(arbiter)
    return client


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_stream_page_shows_its_log_fifty_events_a_page(
    admin_client: Client, long_game: Stream
) -> None:
    url = f"/admin/events/stream/{long_game.pk}/change/"
    first = admin_client.get(url).content.decode()
    pages = -(-long_game.version // 50)
    assert f"page 1 of {pages}" in first
    assert f"The log: {long_game.version} events" in first
    assert first.count('<tr>\n        <td class="num"><a href=') == 50
    assert '?at=50"' in first
    assert '?at=51"' not in first
    second = admin_client.get(url + "?events=2").content.decode()
    assert f"page 2 of {pages}" in second
    assert '?at=51"' in second
    assert '?at=50"' not in second
    assert "?events=1#stream-events" in second
    assert "?events=3#stream-events" in second
    last = admin_client.get(url + "?events=999").content.decode()  # past the end: the last page
    assert f"page {pages} of {pages}" in last
    assert admin_client.get(url + "?events=nonsense").status_code == 200


def test_the_log_numbers_moves_and_names_players_with_seats_from_one(
    admin_client: Client, players: list[User]
) -> None:
    ann = tournaments.player_create(username="ann", display_name="Ann Martin")
    stream = finished_game("les-7-blasons", {}, [ann.user, *players[1:3]])
    page = text_of(admin_client.get(f"/admin/events/stream/{stream.pk}/change/").content.decode())
    assert "1 · Ann Martin (ann)" in page
    assert "2 · player1" in page
    assert "3 · player2" in page
    assert "0 · " not in page  # no seat 0 anywhere a person reads
    first_move = Event.objects.filter(stream=stream, type="MoveMade").order_by("seq").first()
    assert re.search(rf"\b{first_move.seq} 1 MoveMade {first_move.seat + 1} · ", page), page[:2000]
    assert "Ann Martin" in page.split("The log")[1]  # the sentences name players too


def test_the_result_is_a_table_of_ranks_players_and_scores(
    admin_client: Client, players: list[User]
) -> None:
    stream = finished_game("blazon", {}, players[:2])
    html = admin_client.get(f"/admin/events/stream/{stream.pk}/change/").content.decode()
    table = html[html.index('<table class="herald-result">') :].split("</table>")[0]
    cells = r"<tr><td class=\"num\">(\d+)</td><td>([^<]+)</td><td class=\"num\">(\d+)</td>"
    rows = re.findall(cells, table)
    ranks = stream.result["ranks"]
    expected = sorted((rank, f"player{seat}", seat + 1) for seat, rank in enumerate(ranks))
    assert [(int(rank), who, int(seat)) for rank, who, seat in rows] == expected
    assert '"ranks"' not in html  # not the JSON


def test_the_event_list_of_one_stream_pages_by_fifty_with_names_and_moves(
    admin_client: Client, long_game: Stream, django_assert_max_num_queries: Any
) -> None:
    url = f"/admin/events/event/?stream__id__exact={long_game.pk}"
    with django_assert_max_num_queries(20):  # not one query per row
        html = admin_client.get(url).content.decode()
    assert f"{long_game.version} events" in html or f"{long_game.version} event" in html
    page = text_of(html)
    assert "1 · player0" in page
    assert "2 · player1" in page
    second = text_of(admin_client.get(url + "&p=2").content.decode())
    assert " 51 " in second


def test_an_event_page_names_its_player_and_move(admin_client: Client, long_game: Stream) -> None:
    event = Event.objects.filter(stream=long_game, type="MoveMade").order_by("seq")[2]
    page = text_of(admin_client.get(f"/admin/events/event/{event.pk}/change/").content.decode())
    assert f"{event.seat + 1} · player{event.seat}" in page
    assert "Move: 3 " in page


def test_the_demo_arbiter_reads_the_stream_pages(arbiter_client: Client, long_game: Stream) -> None:
    page = arbiter_client.get(f"/admin/events/stream/{long_game.pk}/change/")
    assert page.status_code == 200
    assert b"The log:" in page.content


# -- the record: download and import ------------------------------------------------------------


def test_the_stream_page_links_to_the_record(admin_client: Client, long_game: Stream) -> None:
    html = admin_client.get(f"/admin/events/stream/{long_game.pk}/change/").content.decode()
    assert f'href="/api/v1/streams/{long_game.pk}/record" download' in html
    assert "download the complete record" in html


@pytest.fixture
def record(players: list[User]) -> dict[str, Any]:
    stream = finished_game("les-7-blasons", {}, players[:3])
    data = complete_record(stream).to_json()
    # As if from another Herald: a new stream id, the chain rehashed for it.
    data["stream"] = "4f6e3e3c-5a7b-4c1e-9d2a-0b1c2d3e4f50"
    rehash(data)
    return data


def other_ranks(ranks: list[int]) -> list[int]:
    """Ranks that are surely not ``ranks``: rotated by one seat, which changes any list but one
    where everyone tied (reversing does not change a tie between the first and last seats)."""
    if len(set(ranks)) == 1:
        return list(range(1, len(ranks) + 1))
    return [ranks[-1], *ranks[:-1]]


def upload(client: Client, data: Any) -> Any:
    body = json.dumps(data).encode() if not isinstance(data, bytes) else data
    return client.post(
        "/admin/events/stream/import/",
        {"record": SimpleUploadedFile("game.json", body, content_type="application/json")},
    )


def test_a_superuser_imports_a_record_from_the_stream_list(
    admin_client: Client, record: dict[str, Any]
) -> None:
    assert b"Import a game record" in admin_client.get("/admin/events/stream/").content
    response = upload(admin_client, record)
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert response["Location"] == f"/admin/events/stream/{record['stream']}/change/"
    imported = Stream.objects.get(pk=record["stream"])
    assert imported.head_hash == record["head_hash"]
    assert imported.context["imported"]["by"] == "admin"


def test_a_record_that_does_not_verify_is_refused_on_the_page(
    admin_client: Client, record: dict[str, Any]
) -> None:
    tampered = copy.deepcopy(record)
    tampered["result"]["ranks"] = other_ranks(record["result"]["ranks"])
    streams = Stream.objects.count()
    response = upload(admin_client, tampered)
    assert response.status_code == 200
    assert "does not verify" in response.content.decode()
    assert upload(admin_client, b"{not json").status_code == 200
    assert Stream.objects.count() == streams


def test_only_superusers_import(arbiter_client: Client, record: dict[str, Any]) -> None:
    assert b"Import a game record" not in arbiter_client.get("/admin/events/stream/").content
    assert arbiter_client.get("/admin/events/stream/import/").status_code == 404
    assert upload(arbiter_client, record).status_code == 404
    assert not Stream.objects.filter(pk=record["stream"]).exists()


def test_one_streams_event_list_is_titled_with_its_game(
    admin_client: Client, long_game: Stream
) -> None:
    html = admin_client.get(f"/admin/events/event/?stream__id__exact={long_game.pk}").content
    assert f"Events of the toy-draw game {long_game.pk}".encode() in html
    assert admin_client.get("/admin/events/event/?stream__id__exact=nope").status_code in (200, 302)


def test_the_stream_list_names_each_games_players(
    admin_client: Client, long_game: Stream, players: list[User], django_assert_max_num_queries: Any
) -> None:
    ann = tournaments.player_create(username="ann", display_name="Ann Martin")
    named = finished_game("blazon", {}, [ann.user, players[1]])
    with django_assert_max_num_queries(15):  # the players of the page in one lookup
        page = text_of(admin_client.get("/admin/events/stream/").content.decode())
    assert "Ann Martin, player1" in page
    assert "player0, player1" in page
    assert str(named.pk) in page
