"""The event store's services: chain, seeds, snapshots, append-only, verify.

They run on SQLite (what ``make run`` serves) and on PostgreSQL; only the append-only triggers'
own test needs PostgreSQL, where they live.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.utils import DatabaseError

from engine.core import BadMove, IllegalMove, InvalidOptions, UnknownGame
from events.errors import IdempotencyConflict, NotYourTurn, StreamFinished, VersionConflict
from events.hashing import event_hash
from events.models import AppendOnlyError, Event, OutboxEntry, Stream, StreamStatus
from events.selectors import stream_audit, stream_verify
from events.services import stream_append_move, stream_append_ruling, stream_open
from events.states import current_state, replay_stream, state_cache
from tests.events.conftest import play_one
from tests.tamper import event_tamper

pytestmark = pytest.mark.django_db


def test_open_records_game_created_with_the_seed_sealed(open_stream: Callable[..., Stream]) -> None:
    stream = open_stream(n=3)
    [created] = Event.objects.filter(stream=stream)
    assert (created.seq, created.type, stream.version) == (1, "GameCreated", 1)
    payload = created.payload
    assert payload["seats"] == ["player0", "player1", "player2"]
    assert payload["engine_version"] == stream.engine_version == "toy-1"
    assert payload["edition"] == stream.edition == "basic"
    assert payload["options"] == {"turns": 12}
    assert payload["seed_commitment"] == hashlib.sha256(stream.seed.encode()).hexdigest()
    assert len(stream.seed) == 64
    assert stream.seed not in str(payload)
    assert stream.head_hash == created.hash
    assert open_stream().seed != stream.seed  # a fresh secret seed each time


def test_open_refuses_bad_setups_with_a_sentence(players: list[Any]) -> None:
    with pytest.raises(InvalidOptions, match="2 to 4 players"):
        stream_open(game_id="toy-draw", seats=players[:1])
    with pytest.raises(InvalidOptions, match="unknown option"):
        stream_open(game_id="toy-draw", seats=players[:2], options={"speed": 3})
    with pytest.raises(InvalidOptions, match="no edition"):
        stream_open(game_id="toy-draw", seats=players[:2], edition="gold")
    with pytest.raises(InvalidOptions, match="one seat"):
        stream_open(game_id="toy-draw", seats=[players[0], players[0]])
    with pytest.raises(UnknownGame):
        stream_open(game_id="chess", seats=players[:2])
    assert not Stream.objects.exists()


def test_seq_is_gap_free_and_the_chain_links(toy: Any, open_stream: Callable[..., Stream]) -> None:
    stream = open_stream(turns=6)
    for _ in range(6):
        play_one(toy, stream)
    events = list(Event.objects.filter(stream=stream).order_by("seq"))
    assert [e.seq for e in events] == list(range(1, 9))
    assert [e.type for e in events] == ["GameCreated", *["MoveMade"] * 6, "GameEnded"]
    assert events[0].prev_hash == "0" * 64
    for before, after in itertools.pairwise(events):
        assert after.prev_hash == before.hash
    stream.refresh_from_db()
    assert stream.head_hash == events[-1].hash
    assert stream.version == 8


def test_payload_read_back_from_jsonb_hashes_to_the_stored_value(
    toy: Any, open_stream: Callable[..., Stream]
) -> None:
    stream = open_stream()
    outcome = play_one(toy, stream)
    stream_append_ruling(
        stream.pk, arbiter=stream.seats.first().user, kind="note", reason="jsonb spelling",
        data={"z": 1e2, "a": [1.5, "é", None], "m": {"b": 2, "a": 1}},
    )  # fmt: skip
    for event in Event.objects.filter(stream=stream):  # fresh from jsonb: keys reordered
        assert event_hash(event, seed=stream.seed, hash_format=stream.hash_format) == event.hash
    assert outcome.events[0].hash == Event.objects.get(stream=stream, seq=2).hash


def test_the_end_is_recorded_in_the_same_transaction(
    toy: Any, open_stream: Callable[..., Stream]
) -> None:
    stream = open_stream(turns=2)
    play_one(toy, stream)
    outcome = play_one(toy, stream)
    assert [e.type for e in outcome.events] == ["MoveMade", "GameEnded"]
    assert outcome.version == 4
    stream.refresh_from_db()
    ended = outcome.events[1]
    assert ended.payload["seed"] == stream.seed
    assert ended.payload["result"] == stream.result
    assert stream.result is not None
    assert sorted(stream.result["ranks"])[0] == 1
    assert stream.status == StreamStatus.FINISHED
    assert stream.finished_at is not None
    [entry] = OutboxEntry.objects.all()
    assert entry.topic == "game.ended"
    assert entry.payload == {"stream": str(stream.pk)}
    with pytest.raises(StreamFinished):
        stream_append_move(
            stream_id=stream.pk, seat=0, move={"type": "play", "card": 1}, expected_version=4
        )


def test_refusals_store_nothing(toy: Any, open_stream: Callable[..., Stream]) -> None:
    stream = open_stream()
    state = current_state(stream)
    good = toy.legal_moves(state, 0)[0].to_json()
    absent = next(c for c in range(1, 11) if c not in state.hands[0])  # type: ignore[attr-defined]
    refusals: list[tuple[type[Exception], dict[str, Any]]] = [
        (VersionConflict, {"seat": 0, "move": good, "expected_version": 0}),
        (NotYourTurn, {"seat": 1, "move": good, "expected_version": 1}),
        (BadMove, {"seat": 0, "move": {"type": "fly"}, "expected_version": 1}),
        (BadMove, {"seat": 0, "move": [1, 2], "expected_version": 1}),
        (IllegalMove, {"seat": 0, "move": {"type": "play", "card": absent}, "expected_version": 1}),
    ]
    for error, kwargs in refusals:
        with pytest.raises(error):
            stream_append_move(stream_id=stream.pk, **kwargs)
    assert Event.objects.filter(stream=stream).count() == 1
    stream.refresh_from_db()
    assert stream.version == 1


def test_version_conflict_says_the_current_version(
    toy: Any, open_stream: Callable[..., Stream]
) -> None:
    stream = open_stream()
    play_one(toy, stream)
    with pytest.raises(VersionConflict) as caught:
        stream_append_move(
            stream_id=stream.pk, seat=1, move={"type": "play", "card": 1}, expected_version=1
        )
    assert caught.value.current_version == 2


def test_idempotent_retry_returns_the_first_events(
    toy: Any, open_stream: Callable[..., Stream]
) -> None:
    stream = open_stream()
    state = current_state(stream)
    move = toy.legal_moves(state, 0)[0].to_json()
    first = stream_append_move(
        stream_id=stream.pk, seat=0, move=move, expected_version=1, idempotency_key="k1"
    )
    again = stream_append_move(
        stream_id=stream.pk, seat=0, move=move, expected_version=1, idempotency_key="k1"
    )
    assert again.repeated
    assert [e.pk for e in again.events] == [e.pk for e in first.events]
    with pytest.raises(IdempotencyConflict):
        stream_append_move(
            stream_id=stream.pk, seat=0, move=move, expected_version=2, idempotency_key="k1"
        )
    assert Event.objects.filter(stream=stream).count() == 2


def drop_snapshots() -> None:
    Stream.objects.update(snapshot=None, snapshot_version=None, snapshot_engine="")
    state_cache.clear()


def test_dropping_snapshots_changes_no_answer(toy: Any, open_stream: Callable[..., Stream]) -> None:
    stream = open_stream(turns=30)
    for _ in range(9):
        play_one(toy, stream)
    stream.refresh_from_db()
    cached = toy.state_to_json(current_state(stream))
    from_snapshot = (stream.snapshot_version, stream.snapshot)
    drop_snapshots()
    stream.refresh_from_db()
    replayed, _ = replay_stream(stream)
    assert from_snapshot == (stream.version, cached)
    assert toy.state_to_json(current_state(stream)) == cached == toy.state_to_json(replayed)
    play_one(toy, stream)  # appends again without a snapshot, and writes a new one
    stream.refresh_from_db()
    assert stream.snapshot_version == 11


def test_a_snapshot_of_another_engine_version_is_ignored(
    toy: Any, open_stream: Callable[..., Stream]
) -> None:
    stream = open_stream()
    play_one(toy, stream)
    stream.refresh_from_db()
    truth = toy.state_to_json(current_state(stream))
    poisoned = dict(truth, scores=[999, 999])
    Stream.objects.filter(pk=stream.pk).update(snapshot_engine="toy-0", snapshot=poisoned)
    state_cache.clear()
    stream.refresh_from_db()
    assert toy.state_to_json(current_state(stream)) == truth


def test_appends_read_no_events_when_the_snapshot_is_current(
    toy: Any, open_stream: Callable[..., Stream], django_assert_max_num_queries: Any
) -> None:
    stream = open_stream()
    play_one(toy, stream)
    state_cache.clear()  # another process: only the stream row's snapshot to go on
    stream.refresh_from_db()
    state = current_state(stream)
    move = toy.legal_moves(state, 1)[0].to_json()
    state_cache.clear()
    with django_assert_max_num_queries(5) as queries:  # savepoint, lock, insert, update, release
        stream_append_move(
            stream_id=stream.pk, seat=1, move=move, expected_version=2, idempotency_key="k"
        )
    selects = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    assert len(selects) == 1  # the lock, which also brings the snapshot and the key's use
    assert selects[0].startswith('SELECT "events_stream"')


def test_events_refuse_changes_in_the_model(toy: Any, open_stream: Callable[..., Stream]) -> None:
    stream = open_stream()
    event = Event.objects.get(stream=stream, seq=1)
    event.type = "Forged"
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    with pytest.raises(AppendOnlyError):
        Event.objects.filter(stream=stream).update(type="Forged")
    with pytest.raises(AppendOnlyError):
        Event.objects.filter(stream=stream).delete()
    with pytest.raises(AppendOnlyError):
        stream.delete()


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events_event SET type = 'Forged' WHERE stream_id = %s",
        "DELETE FROM events_event WHERE stream_id = %s",
        "TRUNCATE events_event CASCADE",
    ],
)
@pytest.mark.services("postgres", reason="the append-only trigger (events/migrations/0002)")
def test_the_database_refuses_update_delete_and_truncate(
    open_stream: Callable[..., Stream], statement: str
) -> None:
    stream = open_stream()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL herald.allow_event_truncate = off")
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending FK checks before TRUNCATE
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            cursor.execute(statement, [stream.pk] if "%s" in statement else None)
    assert Event.objects.filter(stream=stream).count() == 1


def test_verify_finds_an_edited_payload_at_its_seq(
    toy: Any, open_stream: Callable[..., Stream]
) -> None:
    stream = open_stream(turns=6)
    for _ in range(6):
        play_one(toy, stream)
    stream.refresh_from_db()
    assert stream_verify(stream)["ok"] is True
    event_tamper(stream.pk, 4, lambda payload: payload["move"].update(card=99))
    report = stream_verify(stream)
    assert report["ok"] is False
    assert report["checks"]["hash_chain"] == {
        "ok": False,
        "detail": "event 4 does not match its hash: it was altered",
    }
    assert report["checks"]["seed_commitment"]["ok"] is True
    assert "event 4" in report["checks"]["replay"]["detail"]
    assert stream_audit(stream, at=3)["hash_ok"] is True
    broken = stream_audit(stream, at=5)
    assert broken["hash_ok"] is False
    assert broken["state"] is None
    assert "holds no card 99" in broken["replay_error"]


def test_verify_finds_a_forged_seed_and_result(
    toy: Any, open_stream: Callable[..., Stream]
) -> None:
    stream = open_stream(turns=2)
    play_one(toy, stream)
    play_one(toy, stream)
    event_tamper(stream.pk, 4, lambda payload: payload.update(seed="0000"))
    stream.refresh_from_db()
    checks = stream_verify(stream)["checks"]
    assert checks["seed_commitment"]["ok"] is False
    assert "event 4" in checks["seed_commitment"]["detail"]


def test_audit_rebuilds_the_state_at_each_step(
    toy: Any, open_stream: Callable[..., Stream]
) -> None:
    stream = open_stream(turns=4)
    states = []
    for _ in range(3):
        play_one(toy, stream)
        stream.refresh_from_db()
        states.append(toy.state_to_json(current_state(stream)))
    for step, expected in enumerate(states, start=2):
        audit = stream_audit(stream, at=step)
        assert audit["state"] == expected
        assert audit["text"].startswith("seat ")
        assert " plays a " in audit["text"]
        assert audit["hash_ok"] is True
    assert "set up for player0, player1" in stream_audit(stream, at=1)["text"]


def test_a_ruling_is_a_new_event_with_an_outbox_entry(
    toy: Any, open_stream: Callable[..., Stream], arbiter: Any
) -> None:
    stream = open_stream(turns=2)
    play_one(toy, stream)
    play_one(toy, stream)
    event = stream_append_ruling(stream.pk, arbiter=arbiter, kind="uphold", reason="checked")
    assert (event.seq, event.type, event.payload["arbiter"]) == (5, "RulingMade", "arbiter")
    assert OutboxEntry.objects.filter(topic="ruling.made").count() == 1
    stream.refresh_from_db()
    assert stream.version == 5
    assert stream.head_hash == event.hash
    assert stream_verify(stream)["ok"] is True
