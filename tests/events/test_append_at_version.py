"""A move appended without the row lock (PostgreSQL): read the head, validate, then one statement
that writes only if the head is still where it was read (events.store.append_at_version).

The racing case that matters, sixteen clients at once over HTTP, is test_concurrency.py; here
the statement itself, the fall-backs to the locked transaction, and what the move costs.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext

from events.models import Event, Stream
from events.services import _apply_move, stream_append_move
from events.states import current_state, game_of, set_snapshot, state_cache
from events.store import event_store, head_columns
from tests.events.conftest import play_one

pytestmark = [
    pytest.mark.services("postgres", reason="the unlocked append is PostgreSQL's"),
    pytest.mark.django_db(transaction=True),
]


def _next_move(toy: Any, stream: Stream) -> tuple[Stream, int, Any]:
    """The stream as read now (not locked), its seat to act and that seat's first legal move."""
    read = event_store().lock_stream(stream.pk, lock=False)
    assert read is not None
    state = current_state(read)
    seat = toy.to_act(state)[0]
    return read, seat, toy.legal_moves(state, seat)[0]


def _event_for(toy: Any, stream: Stream, seat: int, move: Any, key: str | None) -> Event:
    game = game_of(stream)
    state, event = _apply_move(
        stream, game, current_state(stream), seat=seat, move=move.to_json(),
        idempotency_key=key, digest="d" * 64,
    )  # fmt: skip
    set_snapshot(stream, game, state)
    return event


def test_a_move_is_two_statements_with_no_transaction_around_them(
    toy: Any, open_stream: Callable[..., Stream]
) -> None:
    stream = open_stream()
    play_one(toy, stream)  # this process now holds the state at the stream's version
    _, seat, move = _next_move(toy, stream)
    with CaptureQueriesContext(connection) as queries:
        outcome = stream_append_move(
            stream_id=stream.pk, seat=seat, move=move.to_json(), expected_version=2,
            idempotency_key="k",
        )  # fmt: skip
    statements = [query["sql"] for query in queries.captured_queries]
    assert len(statements) == 2, statements  # the read, then the write; no BEGIN, no COMMIT
    assert "FOR UPDATE" not in statements[0]
    assert statements[1].startswith("WITH head AS (UPDATE")
    assert outcome.version == 3
    stream.refresh_from_db()
    assert (stream.version, stream.snapshot_version) == (3, 3)
    assert stream.head_hash == outcome.events[0].hash
    assert Event.objects.get(stream=stream, seq=3).pk == outcome.events[0].pk


def test_the_write_refuses_once_another_append_moved_the_head(
    toy: Any, open_stream: Callable[..., Stream]
) -> None:
    stream = open_stream()
    read, seat, move = _next_move(toy, stream)
    event = _event_for(toy, read, seat, move, None)
    play_one(toy, stream)  # another append, between this one's read and its write
    assert not event_store().append_at_version(read, event, head_columns(), 1)
    assert Event.objects.filter(stream=stream).count() == 2
    stream.refresh_from_db()
    assert stream.version == 2


def test_a_key_used_meanwhile_is_an_integrity_error_and_writes_nothing(
    toy: Any, open_stream: Callable[..., Stream]
) -> None:
    stream = open_stream()
    play_one(toy, stream, key="taken")
    read, seat, move = _next_move(toy, stream)
    event = _event_for(toy, read, seat, move, "taken")
    with pytest.raises(IntegrityError):
        event_store().append_at_version(read, event, head_columns(), 2)
    stream.refresh_from_db()
    assert stream.version == 2
    assert Event.objects.filter(stream=stream).count() == 2


def test_a_stale_read_falls_back_to_the_lock_and_still_appends(
    toy: Any, open_stream: Callable[..., Stream]
) -> None:
    """The cached state is this process's; another process's append leaves it behind, and the
    row's snapshot (read with the head) is what the move is validated against."""
    stream = open_stream()
    play_one(toy, stream)
    Stream.objects.filter(pk=stream.pk).update(snapshot=None, snapshot_version=None)
    state_cache.clear()  # no state here and no snapshot in the row: the locked path replays
    _, seat, move = _next_move(toy, stream)
    state_cache.clear()
    Stream.objects.filter(pk=stream.pk).update(snapshot=None, snapshot_version=None)
    key = uuid.uuid4().hex
    with CaptureQueriesContext(connection) as queries:
        outcome = stream_append_move(
            stream_id=stream.pk, seat=seat, move=move.to_json(), expected_version=2,
            idempotency_key=key,
        )  # fmt: skip
    assert outcome.version == 3
    assert any("FOR UPDATE" in query["sql"] for query in queries.captured_queries)
    again = stream_append_move(
        stream_id=stream.pk, seat=seat, move=move.to_json(), expected_version=2,
        idempotency_key=key,
    )  # fmt: skip
    assert again.repeated
    assert again.events[0].pk == outcome.events[0].pk
