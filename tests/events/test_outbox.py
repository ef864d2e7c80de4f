"""The outbox: a finished game's entry survives a broker that is down, and goes out later.

The app's broker is pointed at a dead port (redis://127.0.0.1:1) while a game ends: the commit
still succeeds and the entry stays pending with the error noted; once the broker is back, the
sweeper sends it. Committed data is needed for ``on_commit``: transactional tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction

from events.models import OutboxEntry, Stream
from events.services import (
    outbox_publish,
    outbox_routes,
    outbox_sweep,
    outbox_task_done,
)
from herald.celery import app
from tests.events.conftest import play_one
from tests.ratings.workers import RedisServer, broker

pytestmark = pytest.mark.django_db(transaction=True)
#: The tests of a broker (up, down, unread) need Redis; the database may be SQLite or PostgreSQL.
needs_a_broker = pytest.mark.services("redis")

DEAD_BROKER = "redis://127.0.0.1:1"


@pytest.fixture(autouse=True)
def harmless_routes(settings: Any) -> None:
    """Send these tests' entries to the no-op task, not to another app's worker."""
    settings.HERALD_OUTBOX_ROUTES = {"game.ended": "events.outbox_noop"}


def _use_broker(url: str) -> None:
    app.conf.broker_url = url
    app._pool = None  # the connection pools are rebuilt for the new URL on next use
    app.amqp._producer_pool = None


@contextmanager
def broker_down() -> Iterator[None]:
    """The Celery app publishes to a port where nothing listens, then to the real broker again."""
    _use_broker(DEAD_BROKER)
    try:
        yield
    finally:
        _use_broker(settings.CELERY_BROKER_URL)


def finish(toy: Any, stream: Stream) -> None:
    while not stream.is_finished:
        play_one(toy, stream)


@needs_a_broker
def test_an_entry_survives_a_broker_outage_and_the_sweeper_sends_it(
    toy: Any, open_stream: Callable[..., Stream]
) -> None:
    stream = open_stream(turns=2)
    with broker_down():
        finish(toy, stream)  # the game's end commits although the broker is unreachable
        entry = OutboxEntry.objects.get()
        assert entry.topic == "game.ended"
        assert entry.dispatched_at is None
        assert entry.attempts == 1
        assert entry.last_error
        assert outbox_sweep() == 0  # still down: still pending, nothing lost
    stream.refresh_from_db()
    assert stream.status == "finished"
    assert OutboxEntry.objects.get().attempts == 2
    assert outbox_sweep() == 1
    entry = OutboxEntry.objects.get()
    assert entry.dispatched_at is not None
    assert entry.last_error == ""
    assert outbox_sweep() == 0  # sent once


@needs_a_broker
def test_with_the_broker_up_an_entry_is_sent_on_commit(open_stream: Callable[..., Stream]) -> None:
    with transaction.atomic():
        entry = outbox_publish(topic="game.ended", payload={"stream": "x"})
        assert OutboxEntry.objects.get(pk=entry.pk).dispatched_at is None  # not before commit
    assert OutboxEntry.objects.get(pk=entry.pk).dispatched_at is not None


def test_routes_can_be_extended_by_settings(settings: Any) -> None:
    settings.HERALD_OUTBOX_ROUTES = {"game.ended": "ratings.verify_game"}
    assert outbox_routes()["game.ended"] == "ratings.verify_game"
    assert outbox_routes()["ruling.made"] == "events.outbox_noop"
    with pytest.raises(ValueError, match="no Celery task"):
        outbox_publish(topic="unknown.topic", payload={})


@needs_a_broker
def test_an_entry_whose_task_never_reports_done_is_sent_again_after_a_while(
    settings: Any,
) -> None:
    """Sent to a private redis-server that no worker reads, as if its worker had been killed."""
    private = RedisServer()
    private.start()
    try:
        with broker(private.url):
            with transaction.atomic():
                entry = outbox_publish(topic="game.ended", payload={"stream": "x"})
            entry.refresh_from_db()
            assert entry.dispatched_at is not None
            assert entry.done_at is None
            assert outbox_sweep() == 0  # out for less than HERALD_OUTBOX_REDELIVER_AFTER
            settings.HERALD_OUTBOX_REDELIVER_AFTER = 0
            assert outbox_sweep() == 1
            assert OutboxEntry.objects.get(pk=entry.pk).attempts == 2
            settings.HERALD_OUTBOX_MAX_ATTEMPTS = 2
            assert outbox_sweep() == 0  # a task that never succeeds is not sent forever
            settings.HERALD_OUTBOX_MAX_ATTEMPTS = 10
            assert outbox_task_done(entry_id=entry.pk)
            assert outbox_sweep() == 0  # done: never sent again
    finally:
        private.stop()


def test_an_eager_task_marks_its_entry_done() -> None:
    """The embedded default runs tasks in-process: their success marks the entry done too."""
    app.conf.task_always_eager = True
    try:
        with transaction.atomic():
            entry = outbox_publish(topic="game.ended", payload={"stream": "x"})
    finally:
        app.conf.task_always_eager = False
    entry.refresh_from_db()
    assert entry.dispatched_at is not None
    assert entry.done_at is not None
