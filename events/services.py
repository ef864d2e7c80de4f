"""Writes to the event store: open a stream, append a move or a ruling, reshuffle a continued
game's unseen cards, the outbox.

Every append is one transaction: lock the stream row, check the expected version, take the
state (cache, snapshot or replay), let the engine validate and apply the move, insert the
event(s) with their hashes, rewrite the snapshot, bump the stream's version and head hash.
When the engine says the game is over, ``GameEnded`` (result and revealed seed) is appended in
the same transaction, with an outbox entry for the verification worker.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

import engine
from engine.core import Effect, Game, GameState, InvalidOptions, seed_commitment, to_plain
from events.errors import (
    IdempotencyConflict,
    NotYourTurn,
    StreamError,
    StreamFinished,
    StreamNotFound,
    VersionConflict,
)
from events.hashing import (
    CURRENT_HASH_FORMAT,
    chain_hash,
    event_body,
    hashed_payload,
    request_digest,
)
from events.models import Event, EventType, OutboxEntry, Stream, StreamSeat, StreamStatus
from events.states import current_state, game_of, set_snapshot, state_cache

logger = logging.getLogger(__name__)

SEED_BYTES = 32
BROKER_TIMEOUT = 2.0  # seconds to reach the broker before leaving an entry to the sweeper
DEFAULT_OUTBOX_ROUTES = {
    "game.ended": "events.outbox_noop",
    "ruling.made": "events.outbox_noop",
}


@dataclass
class AppendOutcome:
    """What an append stored: the move's event first, then ``GameEnded`` if the game ended.

    ``repeated`` is True when an idempotent retry found the events stored by the first request.
    """

    stream: Stream
    events: list[Event] = field(default_factory=list)
    repeated: bool = False

    @property
    def version(self) -> int:
        return self.events[-1].seq


# -- building events ------------------------------------------------------------------------


def effect_record(effect: Effect) -> dict[str, Any]:
    """An engine effect as stored: everything, with ``visible_to`` so readers can withhold."""
    return {
        "kind": effect.kind,
        "text": effect.text,
        "data": to_plain(effect.data),
        "visible_to": effect.visible_to,
    }


def _next_event(
    stream: Stream, *, type: str, payload: dict[str, Any], seat: int | None = None,
    recorded_at: datetime | None = None, idempotency_key: str | None = None, digest: str = "",
) -> Event:  # fmt: skip
    """The stream's next event with its hash; advances ``stream.version``/``head_hash`` in memory."""
    seq = stream.version + 1
    moment = recorded_at or timezone.now()
    hashed = hashed_payload(
        stream_id=stream.id, seq=seq, type=type, payload=payload, seed=stream.seed,
        hash_format=stream.hash_format,
    )  # fmt: skip
    body = event_body(
        stream_id=stream.id, seq=seq, type=type, seat=seat, recorded_at=moment, payload=hashed
    )
    event = Event(
        stream=stream,
        seq=seq,
        type=type,
        payload=payload,
        seat=seat,
        recorded_at=moment,
        idempotency_key=idempotency_key,
        request_digest=digest,
        prev_hash=stream.head_hash,
        hash=chain_hash(stream.head_hash, body),
    )
    stream.version = seq
    stream.head_hash = event.hash
    return event


def _head_columns(*, finished: bool = False, snapshot: bool = True) -> list[str]:
    """The stream columns an append changes: version and head hash, the result once
    ``finished``, the snapshot unless told not to."""
    columns = ["version", "head_hash", "snapshot_version"]
    if finished:
        columns += ["status", "result", "finished_at"]
    if snapshot:
        columns += ["snapshot", "snapshot_engine"]
    return columns


def _save_head(stream: Stream, *, finished: bool = False, snapshot: bool = True) -> None:
    """Write the stream's new head (see :func:`_head_columns`) in one UPDATE."""
    sql, values = _update_stream_sql(stream, _head_columns(finished=finished, snapshot=snapshot))
    with connection.cursor() as cursor:
        cursor.execute(sql, values)


# The append's statements are written in SQL: building them with the ORM cost more CPU than
# everything else in an append. Values pass through their model fields' own conversion
# (get_db_prep_save), so the SQL stays the same on PostgreSQL and SQLite.
_EVENT_FIELDS = [f for f in Event._meta.concrete_fields if not f.primary_key]
_EVENT_COLUMNS = ", ".join(f.column for f in _EVENT_FIELDS)
_EVENT_ROW = "(" + ", ".join(["%s"] * len(_EVENT_FIELDS)) + ")"


def _update_stream_sql(stream: Stream, columns: Sequence[str]) -> tuple[str, list[Any]]:
    """UPDATE these columns of the stream row from the instance's values."""
    fields = [Stream._meta.get_field(name) for name in columns]
    assignments = ", ".join(f"{f.column} = %s" for f in fields)
    values = [f.get_db_prep_save(getattr(stream, f.attname), connection) for f in fields]
    values.append(Stream._meta.pk.get_db_prep_value(stream.pk, connection))
    return f"UPDATE {Stream._meta.db_table} SET {assignments} WHERE id = %s", values


def _insert_events_sql(events: Sequence[Event]) -> tuple[str, list[Any]]:
    """INSERT the events in one statement, returning their ids in the same order."""
    rows = ", ".join([_EVENT_ROW] * len(events))
    values = [
        f.get_db_prep_save(getattr(e, f.attname), connection) for e in events for f in _EVENT_FIELDS
    ]
    return (
        f"INSERT INTO {Event._meta.db_table} ({_EVENT_COLUMNS}) VALUES {rows} RETURNING id",
        values,
    )


def _store_append(stream: Stream, events: Sequence[Event], columns: Sequence[str]) -> None:
    """Insert the events and update the stream's head; set the events' ids.

    On PostgreSQL it is one statement (the UPDATE in a WITH clause, which runs even though
    nothing reads it): one round trip less while the stream row is locked.
    """
    update, update_values = _update_stream_sql(stream, columns)
    insert, insert_values = _insert_events_sql(events)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"WITH head AS ({update}) {insert}", update_values + insert_values)
        else:
            cursor.execute(update, update_values)
            cursor.execute(insert, insert_values)
        ids = [row[0] for row in cursor.fetchall()]
    for event, pk in zip(events, ids, strict=True):  # RETURNING keeps the VALUES order
        event.pk = pk
        event._state.adding = False
        event._state.db = connection.alias


# -- opening a stream -----------------------------------------------------------------------


def stream_open(
    *,
    game_id: str,
    seats: Sequence[AbstractBaseUser],
    options: Mapping[str, Any] | None = None,
    edition: str | None = None,
    created_by: AbstractBaseUser | None = None,
    context: Mapping[str, Any] | None = None,
    public: bool = True,
    seed: str | None = None,
    continues: Mapping[str, Any] | None = None,
    hash_format: int = CURRENT_HASH_FORMAT,
) -> Stream:
    """Set a game up and store its first event, ``GameCreated``.

    ``seats`` are the players in seat order (seat 0 first). ``context`` says where the game
    belongs (e.g. ``{"tournament_table": 12}``). Raises ``engine.core.UnknownGame`` or
    ``engine.core.InvalidOptions`` with a sentence when the game cannot be set up.
    A game gets a fresh secret seed (``seed`` is for tests that need a known one), committed
    here and revealed at ``GameEnded``. An arbiter's "replay from move n" ruling says in
    ``continues`` which stream and move it carries on, with the old game's (public) seed as
    ``deal_seed``: the game is dealt with it, so the old moves replay, until
    :func:`stream_reshuffle_unseen` hands over to the new game's own seed. ``hash_format``
    is the chain's rule (events.hashing); only tests of the old rule pass another.
    """
    game = engine.get(game_id)
    if len({user.pk for user in seats}) != len(seats):
        raise InvalidOptions("a player can hold only one seat at a table")
    chosen_edition = game.check_setup(len(seats), edition)
    normalized = game.normalize_options(options)
    seed = seed or secrets.token_hex(SEED_BYTES)
    deal_seed = str((continues or {}).get("deal_seed") or "") or seed
    state = game.new_game(
        players=len(seats), seed=deal_seed, options=normalized, edition=chosen_edition
    )
    created_payload: dict[str, Any] = {
        "game": game.id,
        "edition": chosen_edition,
        "engine_version": game.engine_version,
        "options": normalized,
        "seats": [user.get_username() for user in seats],
        "seed_commitment": seed_commitment(seed),
        "effects": [effect_record(e) for e in state.effects],
    }
    if continues:
        created_payload["continues"] = dict(continues)
    with transaction.atomic():
        stream = Stream.objects.create(
            game=game.id,
            edition=chosen_edition,
            engine_version=game.engine_version,
            options=normalized,
            players=len(seats),
            seed=seed,
            seed_commitment=seed_commitment(seed),
            created_by=created_by,
            context=dict(context or {}),
            public=public,
            hash_format=hash_format,
        )
        StreamSeat.objects.bulk_create(
            StreamSeat(stream=stream, seat=index, user=user) for index, user in enumerate(seats)
        )
        created = _next_event(stream, type=EventType.GAME_CREATED, payload=created_payload)
        created.save()
        set_snapshot(stream, game, state)
        _save_head(stream)
        _remember_on_commit(stream, game, state)
    return stream


def _remember_on_commit(stream: Stream, game: Game[Any], state: GameState) -> None:
    version = stream.version
    transaction.on_commit(
        lambda: state_cache.put(
            stream.id, version=version, engine_version=game.engine_version, state=state
        )
    )


# -- appending a move -----------------------------------------------------------------------


def stream_append_move(
    *,
    stream_id: UUID | str,
    seat: int,
    move: Any,
    expected_version: int,
    idempotency_key: str | None = None,
) -> AppendOutcome:
    """Validate ``move`` for ``seat`` and append it (and ``GameEnded`` if it ends the game).

    Refuses with :class:`VersionConflict` (``expected_version`` is not the stream's version),
    :class:`IdempotencyConflict` (the key was used with another request),
    :class:`StreamFinished`, :class:`NotYourTurn`, ``engine.core.BadMove`` (malformed) or
    ``engine.core.IllegalMove`` (the rules refuse it). Nothing is stored when it refuses.
    The same key with the same request returns the events the first request stored.
    """
    digest = request_digest({"seat": seat, "move": move, "expected_version": expected_version})
    with transaction.atomic():
        stream = _lock_stream(stream_id, idempotency_key)
        if idempotency_key is not None:
            if stream.version != expected_version:
                _recheck_key(stream, idempotency_key)
            repeated = _repeated_append(stream, idempotency_key, digest)
            if repeated is not None:
                return repeated
        _check_appendable(stream, expected_version)
        game = game_of(stream)
        parsed = game.decode_move(move)
        state = game.clone(current_state(stream))
        if seat not in game.to_act(state):
            raise NotYourTurn(game.not_your_turn(state, seat))
        game.apply_in_place(state, seat, parsed)
        outcome = AppendOutcome(stream)
        outcome.events.append(
            _next_event(
                stream,
                type=EventType.MOVE_MADE,
                seat=seat,
                payload={
                    "seat": seat,
                    "move": parsed.to_json(),
                    "public_move": game.public_move(parsed, seat),
                    "effects": [effect_record(e) for e in state.effects],
                },
                idempotency_key=idempotency_key,
                digest=digest,
            )
        )
        _end_if_over(stream, game, state, outcome)
        set_snapshot(stream, game, state)
        _store_append(stream, outcome.events, _head_columns(finished=stream.is_finished))
        _remember_on_commit(stream, game, state)
    return outcome


_LOCKED_COLUMNS = (
    "game", "engine_version", "status", "version", "head_hash", "seed", "hash_format",
    "snapshot_version", "snapshot_engine",
)  # fmt: skip


def _lock_sql() -> str:
    stream, event = f'"{Stream._meta.db_table}"', f'"{Event._meta.db_table}"'
    used = f"FROM {event} WHERE {event}.stream_id = {stream}.id AND idempotency_key = %s"
    columns = ", ".join(f'{stream}."{name}"' for name in _LOCKED_COLUMNS)
    return (
        f"SELECT {columns}, (SELECT seq {used}), (SELECT request_digest {used}),"
        f" CASE WHEN {stream}.version = %s THEN NULL ELSE {stream}.snapshot END"
        f" FROM {stream} WHERE {stream}.id = %s"
    )


_LOCK_STREAM = _lock_sql()
_SNAPSHOT = Stream._meta.get_field("snapshot")


def _lock_stream(stream_id: UUID | str, idempotency_key: str | None = None) -> Stream:
    """Lock the stream row; the same query says whether the key was used and brings the
    snapshot when this process has no cached state at the stream's version.

    The key's first use comes back as ``key_seq`` and ``key_digest`` (the (stream, key)
    unique index answers the subqueries directly). The other JSON columns (options,
    result...) stay deferred: Django loads a deferred column if something reads it. So does
    the snapshot when the cache held the state at the version: it is not sent for nothing.
    """
    try:
        pk = stream_id if isinstance(stream_id, UUID) else UUID(str(stream_id))
    except ValueError:
        raise StreamNotFound(f"there is no game stream {stream_id}") from None
    sql = _LOCK_STREAM + (" FOR UPDATE" if connection.features.has_select_for_update else "")
    cached = state_cache.version_of(pk)
    db_pk = Stream._meta.pk.get_db_prep_value(pk, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [idempotency_key, idempotency_key, cached, db_pk])
        row = cursor.fetchone()
    if row is None:
        raise StreamNotFound(f"there is no game stream {stream_id}")
    *columns, key_seq, key_digest, snapshot = row
    values = dict(zip(_LOCKED_COLUMNS, columns, strict=True), id=pk)
    if cached != values["version"]:
        values["snapshot"] = _SNAPSHOT.from_db_value(snapshot, None, connection)
    names = [f.attname for f in Stream._meta.concrete_fields if f.attname in values]
    stream = Stream.from_db(connection.alias, names, [values[name] for name in names])
    stream.key_seq, stream.key_digest = key_seq, key_digest
    return stream


def _recheck_key(stream: Stream, key: str) -> None:
    """Look the key up again after waiting for the lock.

    The lock query's subqueries see the database as it was when the query began: a request
    that waited for the lock while another one with the same key committed would not see that
    key. The other append also moved the version, so a stale version is the only case where
    the key must be looked up again, by a new statement that sees the committed rows.
    """
    used = Event.objects.filter(stream=stream, idempotency_key=key).order_by()
    for seq, digest in used.values_list("seq", "request_digest")[:1]:
        stream.key_seq, stream.key_digest = seq, digest


def _repeated_append(stream: Stream, key: str, digest: str) -> AppendOutcome | None:
    """The first answer to a retried request, None for a new key, or IdempotencyConflict."""
    first_seq = getattr(stream, "key_seq", None)
    if first_seq is None:
        return None
    if getattr(stream, "key_digest", None) != digest:
        raise IdempotencyConflict(
            f"the Idempotency-Key {key!r} was already used with another request on this stream"
        )
    events = list(
        Event.objects.filter(stream=stream, seq__in=[first_seq, first_seq + 1]).order_by("seq")
    )
    kept = [events[0]]
    if len(events) > 1 and events[1].type == EventType.GAME_ENDED:
        kept.append(events[1])
    return AppendOutcome(stream, kept, repeated=True)


def _check_appendable(stream: Stream, expected_version: int) -> None:
    if stream.is_finished:
        raise StreamFinished("the game is over: no more moves can be made in this stream")
    if expected_version != stream.version:
        raise VersionConflict(
            f"the stream is at version {stream.version}, not {expected_version}: "
            "another move got there first; reload and try again",
            current_version=stream.version,
        )


def _end_if_over(stream: Stream, game: Game[Any], state: GameState, outcome: AppendOutcome) -> None:
    """Append ``GameEnded`` (result, revealed seed) and its outbox entry when the game is over."""
    result = game.result(state)
    if result is None:
        return
    stream.status = StreamStatus.FINISHED
    stream.result = result.to_json()
    stream.finished_at = timezone.now()
    outcome.events.append(
        _next_event(
            stream,
            type=EventType.GAME_ENDED,
            payload={"result": stream.result, "seed": stream.seed},
            recorded_at=stream.finished_at,
        )
    )
    outbox_publish(topic="game.ended", payload={"stream": str(stream.id)})


# -- a continued game: the unseen cards shuffled again ----------------------------------------


def stream_reshuffle_unseen(*, stream_id: UUID | str) -> Event:
    """Shuffle again, with the stream's own seed, what no seat has seen; append
    ``UnseenReshuffled`` and save the snapshot.

    It belongs to a game continued by a "replay from move n" ruling, right after its n
    re-appended moves: that game was dealt with the old game's seed, public since the old game
    ended, so without it anyone could replay the draw pile and every later chance outcome.
    From here on the stream's own secret seed decides (engine ``Game.reshuffle_unseen``). The
    event carries the reshuffle's public effects only: no seed, no card. Refuses, with
    :class:`StreamFinished` or :class:`StreamError`, a finished stream, a stream that is not
    such a continuation, one already reshuffled, or one not exactly after move n.
    """
    with transaction.atomic():
        stream = _lock_stream(stream_id)
        if stream.is_finished:
            raise StreamFinished("the game is over: its cards are not shuffled again")
        after_move = _reshuffle_point(stream)
        game = game_of(stream)
        state = game.clone(current_state(stream))
        game.reshuffle_unseen(state, stream.seed)
        event = _next_event(
            stream,
            type=EventType.UNSEEN_RESHUFFLED,
            payload={
                "after_move": after_move,
                "effects": [effect_record(e) for e in state.effects],
            },
        )
        set_snapshot(stream, game, state)
        _store_append(stream, [event], _head_columns())
        _remember_on_commit(stream, game, state)
    return event


def _reshuffle_point(stream: Stream) -> int:
    """The move after which this continued stream is reshuffled: it must be the stream's
    last move, and the stream must be a continuation not yet reshuffled."""
    events = Event.objects.filter(stream=stream).order_by()
    created = events.get(seq=1)
    continues = created.payload.get("continues") or {}
    if not continues.get("deal_seed"):
        raise StreamError(
            "only a game continued by a 'replay from move n' ruling has its unseen cards "
            "shuffled again: this game was dealt with its own seed"
        )
    if events.filter(type=EventType.UNSEEN_RESHUFFLED).exists():
        raise StreamError("the unseen cards of this game were already shuffled again")
    after_move = int(continues["after_move"])
    played = events.filter(type=EventType.MOVE_MADE).count()
    if played != after_move:
        raise StreamError(
            f"this game continues the old one after move {after_move}, but it holds {played} "
            f"moves: the unseen cards are shuffled again right after move {after_move}"
        )
    return after_move


# -- rulings --------------------------------------------------------------------------------


def stream_append_ruling(
    stream_id: UUID | str,
    *,
    arbiter: AbstractBaseUser,
    kind: str,
    reason: str,
    data: Mapping[str, Any] | None = None,
) -> Event:
    """Append an arbiter's ruling (uphold, annul, amend result...) and an outbox entry.

    A ruling never edits an earlier event; it is a new fact that consumers (ratings) act on.
    """
    with transaction.atomic():
        stream = _lock_stream(stream_id)
        snapshot_current = stream.snapshot_version == stream.version
        event = _next_event(
            stream,
            type=EventType.RULING_MADE,
            payload={
                "kind": kind,
                "reason": reason,
                "arbiter": arbiter.get_username(),
                "data": dict(data or {}),
            },
        )
        event.save()
        if snapshot_current:  # a ruling changes no game state: the snapshot stays valid
            stream.snapshot_version = stream.version
        _save_head(stream, snapshot=False)
        outbox_publish(
            topic="ruling.made", payload={"stream": str(stream.id), "seq": event.seq, "kind": kind}
        )
    return event


# -- the outbox -----------------------------------------------------------------------------

OUTBOX_ENTRY_HEADER = "herald_outbox_entry"  # task message header naming the outbox entry


def outbox_routes() -> dict[str, str]:
    """Topic → Celery task name: the defaults, extended by ``settings.HERALD_OUTBOX_ROUTES``."""
    return {**DEFAULT_OUTBOX_ROUTES, **getattr(settings, "HERALD_OUTBOX_ROUTES", {})}


def outbox_publish(*, topic: str, payload: Mapping[str, Any]) -> OutboxEntry:
    """Write an entry in the caller's transaction; it is sent to Celery once that commits.

    If the broker is down then, the entry stays pending and the sweeper sends it later.
    """
    if topic not in outbox_routes():
        raise ValueError(f"no Celery task is routed for outbox topic {topic!r}")
    entry = OutboxEntry.objects.create(topic=topic, payload=dict(payload))
    transaction.on_commit(lambda: outbox_dispatch(entry_id=entry.pk))
    return entry


def outbox_dispatch(*, entry_id: int) -> bool:
    """Send one pending entry to its task and mark it dispatched; False if it stays pending."""
    with transaction.atomic():
        entry = (
            OutboxEntry.objects.select_for_update(skip_locked=True)
            .filter(pk=entry_id, dispatched_at__isnull=True)
            .first()
        )
        return entry is not None and _send(entry)


def outbox_sweep(*, limit: int = 100) -> int:
    """Send the entries nobody else is sending now; returns how many went out.

    Those are the pending ones (the broker was down) and the ones dispatched more than
    ``HERALD_OUTBOX_REDELIVER_AFTER`` seconds ago whose task never reported done: its worker
    was killed, and the broker would hand the message out again only after its visibility
    timeout (an hour). Tasks are idempotent, so a slow task sent twice is harmless; an entry
    is sent again at most ``HERALD_OUTBOX_MAX_ATTEMPTS`` times in all.
    """
    sent = 0
    with transaction.atomic():
        for entry in _sweepable_entries()[:limit]:
            if entry.dispatched_at is not None:
                logger.warning(
                    "outbox entry %s sent again: its task has not reported done since %s",
                    entry.pk,
                    entry.dispatched_at.isoformat(),
                )
            sent += _send(entry)
    return sent


def _sweepable_entries() -> Any:
    """Pending entries, and dispatched ones left undone for too long, oldest first, locked."""
    stale = timezone.now() - timedelta(seconds=settings.HERALD_OUTBOX_REDELIVER_AFTER)
    redeliver = Q(dispatched_at__lte=stale, attempts__lt=settings.HERALD_OUTBOX_MAX_ATTEMPTS)
    return (
        OutboxEntry.objects.select_for_update(skip_locked=True)
        .filter(done_at__isnull=True)
        .filter(Q(dispatched_at__isnull=True) | redeliver)
        .order_by("id")
    )


def _send(entry: OutboxEntry) -> bool:
    """Enqueue the entry's task; record success or the error. Never raises for a broker fault."""
    entry.attempts += 1
    try:
        _enqueue(outbox_routes()[entry.topic], entry.payload, entry_id=entry.pk)
    except Exception as exc:
        entry.last_error = f"{exc.__class__.__name__}: {exc}"[:1000]
        OutboxEntry.objects.filter(pk=entry.pk).update(
            attempts=entry.attempts, last_error=entry.last_error
        )
        logger.warning("outbox entry %s not sent (will retry): %s", entry.pk, entry.last_error)
        return False
    entry.dispatched_at = timezone.now()
    OutboxEntry.objects.filter(pk=entry.pk).update(
        attempts=entry.attempts, dispatched_at=entry.dispatched_at, last_error=""
    )
    return True


def _enqueue(name: str, kwargs: dict[str, Any], *, entry_id: int) -> None:
    """Publish one task message, failing fast when the broker is down (the sweeper retries).

    Without the explicit connection, kombu would retry for many seconds inside the request
    that finished the game. The message carries the entry's id in a header, so that the
    worker can mark the entry done when the task succeeds (``outbox_task_done``).
    """
    from herald.celery import app

    headers = {OUTBOX_ENTRY_HEADER: entry_id}
    task = app.tasks.get(name)
    if app.conf.task_always_eager and task is not None:
        task.apply_async(kwargs=kwargs, headers=headers)
        return
    with app.connection_for_write() as connection:
        connection.ensure_connection(max_retries=1, interval_start=0, timeout=BROKER_TIMEOUT)
        if task is not None:
            task.apply_async(kwargs=kwargs, headers=headers, connection=connection, retry=False)
        else:
            app.send_task(name, kwargs=kwargs, headers=headers, connection=connection, retry=False)


def outbox_entry_of(request: Any) -> int | None:
    """The outbox entry a Celery task request was sent for, or None (not sent by the outbox).

    A worker exposes custom message headers as attributes of the request; an eager call
    keeps them in ``request.headers``.
    """
    entry_id = getattr(request, OUTBOX_ENTRY_HEADER, None)
    if entry_id is None:
        entry_id = (getattr(request, "headers", None) or {}).get(OUTBOX_ENTRY_HEADER)
    return None if entry_id is None else int(entry_id)


def outbox_task_done(*, entry_id: int) -> bool:
    """Mark the entry done (its task succeeded): the sweeper no longer sends it. Idempotent."""
    done = OutboxEntry.objects.filter(pk=entry_id, done_at__isnull=True)
    return bool(done.update(done_at=timezone.now()))
