"""The house bot: it plays its seats' turns after each commit, under eager Celery (as `make run`
does, inside the player's request but after its commit) and with a real worker process; only
streams with a house bot write anything more per move; and a game with a bot is not rated."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from events.models import OutboxEntry, Stream
from events.services import TURN_TOPIC, stream_append_move, stream_open
from events.states import current_state, game_of
from herald.celery import app
from play import services
from play.models import OpenGame
from play.services import OpenGameSetup, house_bot_seats
from ratings.models import RatedGame, Rating, RatingChange
from tests.conftest import wait_for
from tests.users import make_user

SEPT = "les-7-blasons"


def bot_game(*people: Any, players: int = 3) -> Stream:
    """A started open game of Les 7 Blasons: ``people`` in the first seats, bots in the rest."""
    made = services.open_game_create(
        by=people[0], setup=OpenGameSetup(game_id=SEPT, players=players, options={})
    )
    for person in people[1:]:
        services.open_game_join(open_game_id=made.pk, user=person)
    services.open_game_start(open_game_id=made.pk, by=people[0])
    made.refresh_from_db()
    return Stream.objects.get(pk=made.stream_id)


def to_act(stream: Stream) -> list[int]:
    stream.refresh_from_db()
    return [] if stream.is_finished else game_of(stream).to_act(current_state(stream))


def a_legal_move(stream: Stream, seat: int, chooser: random.Random) -> dict[str, Any]:
    moves = game_of(stream).legal_moves(current_state(stream), seat)
    return chooser.choice(moves).to_json()


def assert_not_rated(stream: Stream) -> None:
    rated = RatedGame.objects.get(stream_id=stream.pk)
    assert rated.status == RatedGame.Status.EXCLUDED
    assert rated.excluded_reason == "a house bot played in this game"
    assert not RatingChange.objects.filter(stream_id=stream.pk).exists()
    assert not Rating.objects.filter(pool=rated.pool, games__gt=0).exists()


@pytest.fixture
def eager() -> Iterator[None]:
    """Celery tasks run in the process that sends them, as in `make run` (no broker)."""
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = False


@pytest.mark.django_db
def test_only_streams_with_a_house_bot_write_a_turn_notice_under_the_lock() -> None:
    """A followed stream's move is written with its turn notice by the locked transaction
    (the notice must not be lost if the process stops between two statements); a plain
    stream's move writes no outbox entry."""
    people = [make_user(name) for name in ("aline", "bastien", "colette")]
    plain = stream_open(game_id=SEPT, seats=people, seed="same")
    followed = stream_open(game_id=SEPT, seats=people, seed="same", context={"turn_notice": True})
    seat = game_of(plain).to_act(current_state(plain))[0]
    move = a_legal_move(plain, seat, random.Random(1))
    outbox = OutboxEntry._meta.db_table
    written = []
    for stream in (plain, followed):
        current_state(stream)  # both from this process's cache, as a busy server has them
        with CaptureQueriesContext(connection) as queries:
            stream_append_move(stream_id=stream.pk, seat=seat, move=move, expected_version=1)
        statements = [query["sql"] for query in queries.captured_queries]
        inserts = [sql for sql in statements if sql.startswith(f'INSERT INTO "{outbox}"')]
        written.append((len(inserts), any("FOR UPDATE" in sql for sql in statements)))
    if connection.vendor == "postgresql":  # SQLite always takes the locked transaction
        assert written == [(0, False), (1, True)]
    else:
        assert [inserts for inserts, _ in written] == [0, 1]
    notices = OutboxEntry.objects.filter(topic=TURN_TOPIC)
    assert [entry.payload for entry in notices] == [{"stream": str(followed.pk), "version": 2}]


@pytest.mark.django_db
def test_the_bot_does_nothing_when_it_is_not_its_turn_or_the_game_is_over() -> None:
    aline, bastien = make_user("aline"), make_user("bastien")
    stream = bot_game(aline, bastien)
    assert house_bot_seats(stream) == {2}
    while 2 in to_act(stream):  # the bot plays first if it leads
        services.house_bot_move(stream_id=stream.pk)
    version = stream.version
    assert services.house_bot_move(stream_id=stream.pk) is None
    stream.refresh_from_db()
    assert stream.version == version
    assert services.house_bot_move(stream_id="7c0a4b9e-0000-4000-8000-000000000000") is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager")
def test_under_eager_celery_the_bot_moves_after_the_player_s_move_commits() -> None:
    """Two people play a whole game through the game API against a bot. Each answer is the
    person's own move (its version), and by the time it arrives the bot has played: the bot's
    moves ran after the person's transaction committed, in their request."""
    people = [make_user("aline"), make_user("bastien")]
    stream = bot_game(*people)
    clients = []
    for person in people:
        client = APIClient()
        client.force_authenticate(person)
        clients.append(client)
    chooser = random.Random("eager")
    moves = 0
    while seats := to_act(stream):
        assert 2 not in seats, "the bot's turn was left waiting"
        seat = seats[0]
        before = stream.version
        answer = clients[seat].post(
            f"/api/v1/streams/{stream.pk}/moves",
            {"move": a_legal_move(stream, seat, chooser), "expected_version": before},
            format="json",
        )
        assert answer.status_code == 201, answer.content
        # The answer is the person's own move (and GameEnded after it if it ended the game).
        assert answer.json()["event"]["seq"] == before + 1
        assert answer.json()["event"]["seat"] == seat
        moves += 1
        assert moves < 1000
    stream.refresh_from_db()
    assert stream.is_finished
    bot_moves = stream.events.filter(type="MoveMade", seat=2).count()
    assert bot_moves > 5
    assert_not_rated(stream)


@pytest.mark.services("postgres", "redis", reason="a real Celery worker plays the bot")
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_plays_the_bot_s_turns_between_the_people_s_moves(
    celery_worker_process: Any,
) -> None:
    people = [make_user("aline"), make_user("bastien")]
    stream = bot_game(*people)
    chooser = random.Random("worker")
    moves = 0
    while True:
        seats = wait_for(lambda: to_act(stream) or ["over"], timeout=30, what="the next turn")
        if seats == ["over"]:
            break
        if 2 in seats:  # the worker's turn: wait for it to move
            version = stream.version
            wait_for(
                lambda at=version: Stream.objects.get(pk=stream.pk).version > at,
                timeout=30,
                what=f"the bot's move after version {version}",
            )
            continue
        seat = seats[0]
        stream_append_move(
            stream_id=stream.pk, seat=seat, move=a_legal_move(stream, seat, chooser),
            expected_version=stream.version,
        )  # fmt: skip
        moves += 1
        assert moves < 1000
    assert stream.events.filter(type="MoveMade", seat=2).count() > 5
    wait_for(
        lambda: RatedGame.objects.filter(stream_id=stream.pk).exists(),
        timeout=60,
        what="the worker's verification",
    )
    assert_not_rated(stream)
    assert OpenGame.objects.get(stream_id=stream.pk).state == OpenGame.State.STARTED


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager")
def test_under_eager_celery_six_bots_play_around_one_person_to_the_end() -> None:
    """The longest runs of bot turns: each bot move runs in the commit callbacks of the one
    before, one level deeper; a whole game of six bots and one person stays well within it."""
    aline = make_user("aline")
    made = services.open_game_create(
        by=aline, setup=OpenGameSetup(game_id=SEPT, players=7, options={}, start_now=True)
    )
    made.refresh_from_db()
    stream = Stream.objects.get(pk=made.stream_id)
    chooser = random.Random("six bots")
    while seats := to_act(stream):
        assert seats == [0], "a bot's turn was left waiting"
        stream_append_move(
            stream_id=stream.pk, seat=0, move=a_legal_move(stream, 0, chooser),
            expected_version=stream.version,
        )  # fmt: skip
    stream.refresh_from_db()
    assert stream.is_finished
    assert stream.events.filter(type="MoveMade").exclude(seat=0).count() > 40
    assert_not_rated(stream)
