"""PostgreSQL itself guards the record: the stream row's head and setup, the rating history, and
TRUNCATE, which no session can switch on with SET outside the test suite's own database.

Each forbidden statement is sent as raw SQL through a cursor and must be refused by the
database (events/migrations/0006, ratings/migrations/0003); the writes the app makes pass (the
events and ratings suites run them all).
"""

from __future__ import annotations

import importlib
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, connection, transaction

from events.models import Stream
from ratings.models import RatingChange
from ratings.verification import game_verify_and_rate
from tests.conftest import database_url_for_worker
from tests.ratings.games import play_stream

pytestmark = [
    pytest.mark.services("postgres", reason="its guard triggers and TRUNCATE setting"),
    pytest.mark.django_db,
]


def refused(statement: str, params: list[Any] | None = None, *, match: str) -> None:
    """Run ``statement``; the database must refuse it with a message matching ``match``."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending FK checks before TRUNCATE
        cursor.execute("SET LOCAL herald.allow_event_truncate = off")
        with pytest.raises(DatabaseError, match=match), transaction.atomic():
            cursor.execute(statement, params)


def accepted(statement: str, params: list[Any] | None = None) -> int:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.rowcount


@pytest.fixture
def finished(open_stream: Callable[..., Stream]) -> Stream:
    """A finished toy game of two players, verified and rated (so it has rating changes)."""
    stream = play_stream(open_stream(2, turns=4))
    assert stream.is_finished
    game_verify_and_rate(stream_id=stream.pk)
    assert RatingChange.objects.filter(stream_id=stream.pk, current=True).count() == 2
    return stream


@pytest.fixture
def live(open_stream: Callable[..., Stream]) -> Stream:
    return open_stream(2, turns=4)


# -- the stream row ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("assignment", "match"),
    [
        ("version = version - 1", "never goes back"),
        ("head_hash = md5(head_hash) || md5(head_hash)", "head hash of stream"),
        ("version = version + 1", "head hash of stream"),
        ("seed = 'known'", "setup of stream"),
        ("seed_commitment = md5('x')", "setup of stream"),
        ("game = 'other-game'", "setup of stream"),
        ("edition = 'other'", "setup of stream"),
        ("engine_version = '0.0.1'", "setup of stream"),
        ("hash_format = 1", "setup of stream"),
        ("options = '{}'::jsonb", "setup of stream"),
        ("players = 3", "setup of stream"),
        ("public = NOT public", "setup of stream"),
        ("context = '{\"x\": 1}'::jsonb", "setup of stream"),
        ("created_at = created_at - interval '1 day'", "setup of stream"),
        ("id = gen_random_uuid()", "setup of stream"),
        ("status = 'live'", "is finished"),
        ("result = '{\"ranks\": [2, 1]}'::jsonb", "is finished"),
        ("finished_at = finished_at - interval '1 day'", "is finished"),
    ],
)
def test_the_database_refuses_to_rewrite_a_finished_stream(
    finished: Stream, assignment: str, match: str
) -> None:
    before = Stream.objects.values().get(pk=finished.pk)
    refused(f"UPDATE events_stream SET {assignment} WHERE id = %s", [finished.pk], match=match)
    assert Stream.objects.values().get(pk=finished.pk) == before


def test_a_live_stream_finishes_only_with_the_event_that_ends_it(live: Stream) -> None:
    refused(
        "UPDATE events_stream SET status = 'finished', finished_at = now() WHERE id = %s",
        [live.pk],
        match="finishes only with the event",
    )


def test_the_creator_is_only_ever_cleared(live: Stream, players: list[User]) -> None:
    refused(
        "UPDATE events_stream SET created_by_id = %s WHERE id = %s",
        [players[1].pk, live.pk],
        match="creator of stream",
    )
    assert accepted("UPDATE events_stream SET created_by_id = NULL WHERE id = %s", [live.pk]) == 1


def test_the_snapshot_cache_may_be_cleared(finished: Stream) -> None:
    cleared = "UPDATE events_stream SET snapshot = NULL, snapshot_version = NULL WHERE id = %s"
    assert accepted(cleared, [finished.pk]) == 1


def test_the_database_refuses_to_delete_or_truncate_streams(finished: Stream) -> None:
    refused("DELETE FROM events_stream WHERE id = %s", [finished.pk], match="DELETE of stream")
    refused("TRUNCATE events_stream CASCADE", match="TRUNCATE on events_stream|append-only")
    assert Stream.objects.filter(pk=finished.pk).exists()


# -- the rating history --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE ratings_ratingchange SET mu_after = mu_after + 10 WHERE stream_id = %s",
        "UPDATE ratings_ratingchange SET current = false, rank = rank + 1 WHERE stream_id = %s",
        "UPDATE ratings_ratingchange SET sequence = sequence + 1 WHERE stream_id = %s",
        "DELETE FROM ratings_ratingchange WHERE stream_id = %s",
    ],
)
def test_the_database_refuses_to_rewrite_the_rating_history(
    finished: Stream, statement: str
) -> None:
    before = list(RatingChange.objects.filter(stream_id=finished.pk).values())
    refused(statement, [finished.pk], match="rating history is append-only")
    assert list(RatingChange.objects.filter(stream_id=finished.pk).values()) == before


def test_a_recompute_may_only_supersede_a_change(finished: Stream) -> None:
    supersede = "UPDATE ratings_ratingchange SET current = false WHERE stream_id = %s"
    assert accepted(supersede, [finished.pk]) == 2
    refused(
        "UPDATE ratings_ratingchange SET current = true WHERE stream_id = %s",
        [finished.pk],
        match="rating history is append-only",
    )


def test_the_database_refuses_to_truncate_the_rating_history(finished: Stream) -> None:
    refused("TRUNCATE ratings_ratingchange", match="rating history is append-only")


# -- TRUNCATE outside the test suite's database --------------------------------------------------


@pytest.fixture
def scratch_database() -> Iterator[str]:
    """A database not named ``test_…`` with an events table and 0002 + 0006's triggers on it."""
    event_triggers = importlib.import_module("events.migrations.0002_append_only_trigger")
    guards = importlib.import_module("events.migrations.0006_stream_guards")
    base = database_url_for_worker()
    name = f"herald_guard_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = base.rsplit("/", 1)[0] + f"/{name}"
    try:
        with psycopg.connect(url, autocommit=True) as scratch:
            scratch.execute("CREATE TABLE events_event (id integer)")
            scratch.execute(event_triggers.CREATE)
            scratch.execute(guards.TRUNCATE_ALLOWED)
            scratch.execute(guards.EVENT_GUARD)
            scratch.execute("INSERT INTO events_event VALUES (1)")
        yield url
    finally:
        with psycopg.connect(base, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_no_session_setting_lets_truncate_through_outside_a_test_database(
    scratch_database: str,
) -> None:
    with psycopg.connect(scratch_database) as session:
        for setting in ("SET LOCAL", "SET"):
            with session.transaction():
                session.execute(f"{setting} herald.allow_event_truncate = on")
                with pytest.raises(psycopg.Error, match="append-only"), session.transaction():
                    session.execute("TRUNCATE events_event")
        count = session.execute("SELECT count(*) FROM events_event").fetchone()
        assert count == (1,)
