"""Writes to the event store: open a stream, append a move or a ruling, reshuffle a continued
game's unseen cards.

The layers under it: :mod:`events.store` runs the append's SQL (PostgreSQL or SQLite),
:mod:`events.payloads` gives each event type's payload, :mod:`events.outbox` sends the work a
fact causes to Celery (its names stay importable from here).

Every append is one transaction: lock the stream row, check the expected version, take the
state (cache, snapshot or replay), let the engine validate and apply the move, insert the
event(s) with their hashes, rewrite the snapshot, bump the stream's version and head hash.
On PostgreSQL a move that does not end the game skips the lock: the row is read, the move
validated, and one statement (a transaction by itself) writes it only if the version is still
the one read; otherwise the locked transaction takes it (:func:`_append_at_version`).
When the engine says the game is over, ``GameEnded`` (result and revealed seed) is appended in
the same transaction, with an outbox entry for the verification worker. An arbiter's "replay
from move n" ruling opens its continuation here too (:func:`stream_continue_from`).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

import engine
from engine.core import Game, GameState, InvalidOptions, seed_commitment
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
from events.live import announce_advanced
from events.models import Event, EventType, Stream, StreamSeat, StreamStatus

# The outbox lives in events.outbox; its public names stay importable from here.
from events.outbox import (
    DEFAULT_OUTBOX_ROUTES,
    OUTBOX_ENTRY_HEADER,
    outbox_dispatch,
    outbox_entry_of,
    outbox_publish,
    outbox_routes,
    outbox_sweep,
    outbox_task_done,
)
from events.payloads import (
    GameCreated,
    GameEnded,
    MoveMade,
    Payload,
    RulingMade,
    UnseenReshuffled,
    effect_record,
)
from events.states import (
    ReshuffleRule,
    current_state,
    game_of,
    set_snapshot,
    snapshot_state,
    state_cache,
)
from events.store import event_store, head_columns
from herald.texts import render

__all__ = [
    "DEFAULT_OUTBOX_ROUTES",
    "OUTBOX_ENTRY_HEADER",
    "AppendOutcome",
    "effect_record",
    "outbox_dispatch",
    "outbox_entry_of",
    "outbox_publish",
    "outbox_routes",
    "outbox_sweep",
    "outbox_task_done",
    "stream_append_move",
    "stream_append_ruling",
    "stream_continue_from",
    "stream_open",
    "stream_reshuffle_unseen",
]

SEED_BYTES = 32

#: A stream whose context sets this key to true has an outbox entry (topic
#: :data:`TURN_TOPIC`: stream and version) written with each move that leaves the game
#: running, for whoever follows its turns (the play app's house bots act on it). Other streams
#: write nothing more: the context comes with the lock query, so the check costs no query.
TURN_NOTICE = "turn_notice"
TURN_TOPIC = "stream.turn"


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


def _next_event(
    stream: Stream, data: Payload, *, seat: int | None = None,
    recorded_at: datetime | None = None, idempotency_key: str | None = None, digest: str = "",
) -> Event:  # fmt: skip
    """The stream's next event, of ``data``'s type, with its hash; advances ``stream.version``
    and ``head_hash`` in memory."""
    type, payload = data.type, data.to_payload()
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
        raise InvalidOptions(gettext("a player can hold only one seat at a table"))
    chosen_edition = game.check_setup(len(seats), edition)
    normalized = game.normalize_options(options)
    seed = seed or secrets.token_hex(SEED_BYTES)
    deal_seed = str((continues or {}).get("deal_seed") or "") or seed
    state = game.new_game(
        players=len(seats), seed=deal_seed, options=normalized, edition=chosen_edition
    )
    created_payload = GameCreated(
        game=game.id,
        edition=chosen_edition,
        engine_version=game.engine_version,
        options=normalized,
        seats=[user.get_username() for user in seats],
        seed_commitment=seed_commitment(seed),
        effects=[effect_record(e) for e in state.effects],
        continues=dict(continues) if continues else None,
    )
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
        created = _next_event(stream, created_payload)
        created.save()
        set_snapshot(stream, game, state)
        event_store().save_head(stream, head_columns())
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

    On PostgreSQL a move that does not end the game is first tried without the row lock
    (:func:`_append_at_version`); the locked transaction below takes every other case, and a
    move whose stream moved on between the read and the write.
    """
    digest = request_digest({"seat": seat, "move": move, "expected_version": expected_version})
    if _may_append_at_version():
        outcome = _append_at_version(
            stream_id, seat=seat, move=move, expected_version=expected_version,
            idempotency_key=idempotency_key, digest=digest,
        )  # fmt: skip
        if outcome is not None:
            return outcome
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
        state, event = _apply_move(
            stream, game, current_state(stream), seat=seat, move=move,
            idempotency_key=idempotency_key, digest=digest,
        )  # fmt: skip
        outcome = AppendOutcome(stream, [event])
        _end_if_over(stream, game, state, outcome)
        set_snapshot(stream, game, state)
        event_store().append(stream, outcome.events, head_columns(finished=stream.is_finished))
        _remember_on_commit(stream, game, state)
        announce_advanced(stream.pk, stream.version)
        _notify_turn(stream)
    return outcome


def _may_append_at_version() -> bool:
    """Whether this database can append without the lock, and nothing else must be written
    with the move: the outbox mode of the live messages writes an entry with every move."""
    return (
        event_store().appends_at_version
        and getattr(settings, "HERALD_LIVE_SEND", "direct") != "outbox"
    )


def _append_at_version(
    stream_id: UUID | str,
    *,
    seat: int,
    move: Any,
    expected_version: int,
    idempotency_key: str | None,
    digest: str,
) -> AppendOutcome | None:
    """The move appended without the row lock, or None for the locked transaction to take it.

    The stream row is read as it is now, with no lock and no transaction; what the read says
    is answered as the locked transaction would answer it at that moment (a retried key, a
    finished game, a stale version, a move out of turn or against the rules). A valid move is
    then written by one statement that moves the head only if the version is still the one
    read (:meth:`events.store.EventStore.append_at_version`). None when the move ends the game
    or the stream's turns are followed (an outbox entry must be written with it), when another
    append got there between the read and the write, or when the key was used meanwhile.
    """
    stream = _lock_stream(stream_id, idempotency_key, lock=False)
    if idempotency_key is not None:
        repeated = _repeated_append(stream, idempotency_key, digest)
        if repeated is not None:
            return repeated
    _check_appendable(stream, expected_version)
    if stream.context.get(TURN_NOTICE):
        return None
    game = game_of(stream)
    read = _state_as_read(stream, game)
    if read is None:
        return None
    state, event = _apply_move(
        stream, game, read, seat=seat, move=move, idempotency_key=idempotency_key, digest=digest
    )
    if game.result(state) is not None:
        return None  # the stream is read again under the lock: this copy is dropped
    outcome = AppendOutcome(stream, [event])
    set_snapshot(stream, game, state)
    try:
        if connection.in_atomic_block:  # a caller's transaction: a refusal must not break it
            with transaction.atomic():
                written = _write_at_version(stream, event, expected_version)
        else:
            written = _write_at_version(stream, event, expected_version)
    except IntegrityError:
        return None  # the key was used meanwhile: the locked transaction says how
    if not written:
        return None
    _remember_on_commit(stream, game, state)
    announce_advanced(stream.pk, stream.version)
    return outcome


def _state_as_read(stream: Stream, game: Game[Any]) -> GameState | None:
    """The state at the version read: this process's cached state, or the snapshot the read
    brought; None otherwise. Unlocked, the row may have moved on since the read, so nothing
    is read again (a deferred snapshot loaded now could be a newer version's)."""
    cached = state_cache.get(stream.id, version=stream.version, engine_version=game.engine_version)
    if cached is not None or "snapshot" in stream.get_deferred_fields():
        return cached
    state = snapshot_state(stream, game)
    if state is not None:
        state_cache.put(
            stream.id, version=stream.version, engine_version=game.engine_version, state=state
        )
    return state


def _write_at_version(stream: Stream, event: Event, expected_version: int) -> bool:
    return event_store().append_at_version(stream, event, head_columns(), expected_version)


def _check_turn(stream: Stream, game: Game[Any], state: GameState, seat: int) -> None:
    if seat not in game.to_act(state):
        names = [s.user.get_username() for s in stream.seats.select_related("user")]
        raise NotYourTurn(render(game.not_your_turn(state, seat), names))


def _apply_move(
    stream: Stream, game: Game[Any], read: GameState, *, seat: int, move: Any,
    idempotency_key: str | None, digest: str,
) -> tuple[GameState, Event]:  # fmt: skip
    """``move`` decoded, refused if it is not ``seat``'s turn, and applied to a copy of
    ``read`` (the stream's state, never mutated); the state after it and its ``MoveMade``
    event, which moves ``stream``'s version and head hash in memory."""
    parsed = game.decode_move(move)
    state = game.clone(read)
    _check_turn(stream, game, state, seat)
    game.apply_in_place(state, seat, parsed)
    event = _next_event(
        stream,
        MoveMade(
            seat=seat,
            move=parsed.to_json(),
            public_move=game.public_move(parsed, seat),
            effects=[effect_record(e) for e in state.effects],
        ),
        seat=seat,
        idempotency_key=idempotency_key,
        digest=digest,
    )
    return state, event


def _notify_turn(stream: Stream) -> None:
    """Tell whoever follows the stream's turns (:data:`TURN_NOTICE`) that it moved on."""
    if stream.context.get(TURN_NOTICE) and not stream.is_finished:
        outbox_publish(
            topic=TURN_TOPIC, payload={"stream": str(stream.pk), "version": stream.version}
        )


def _lock_stream(
    stream_id: UUID | str, idempotency_key: str | None = None, *, lock: bool = True
) -> Stream:
    """Lock the stream row, or only read it (:meth:`events.store.EventStore.lock_stream`): the
    same query says whether the key was used and brings the snapshot when this process has no
    cached state at the stream's version."""
    try:
        pk = stream_id if isinstance(stream_id, UUID) else UUID(str(stream_id))
    except ValueError:
        raise StreamNotFound(
            gettext("there is no game stream {stream_id}").format(stream_id=stream_id)
        ) from None
    stream = event_store().lock_stream(
        pk, idempotency_key, cached_version=state_cache.version_of(pk), lock=lock
    )
    if stream is None:
        raise StreamNotFound(
            gettext("there is no game stream {stream_id}").format(stream_id=stream_id)
        )
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
            gettext(
                "the Idempotency-Key {key} was already used with another request on this stream"
            ).format(key=repr(key))
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
        raise StreamFinished(gettext("the game is over: no more moves can be made in this stream"))
    if expected_version != stream.version:
        raise VersionConflict(
            (
                gettext(
                    "the stream is at version {version}, not {expected_version}: another "
                    "move got there first; reload and try again"
                ).format(version=stream.version, expected_version=expected_version)
            ),
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
            GameEnded(result=stream.result, seed=stream.seed),
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
            raise StreamFinished(gettext("the game is over: its cards are not shuffled again"))
        after_move = _reshuffle_point(stream)
        game = game_of(stream)
        state = game.clone(current_state(stream))
        game.reshuffle_unseen(state, stream.seed)
        event = _next_event(
            stream,
            UnseenReshuffled(
                after_move=after_move, effects=[effect_record(e) for e in state.effects]
            ),
        )
        set_snapshot(stream, game, state)
        event_store().append(stream, [event], head_columns())
        _remember_on_commit(stream, game, state)
        announce_advanced(stream.pk, stream.version)
    return event


def _reshuffle_point(stream: Stream) -> int:
    """The move after which this continued stream is reshuffled, once the rule
    (:class:`events.states.ReshuffleRule`) allows it here: a continuation, not yet
    reshuffled, whose last event is move n."""
    events = Event.objects.filter(stream=stream).order_by()
    created = GameCreated.from_payload(events.get(seq=1).payload)
    rule = ReshuffleRule(created.continued_after)
    refusal = rule.refuses_reshuffle(
        moves=events.filter(type=EventType.MOVE_MADE).count(),
        reshuffled=events.filter(type=EventType.UNSEEN_RESHUFFLED).exists(),
    )
    if refusal is not None or rule.continued_after is None:
        raise StreamError(refusal or "this game is not a continuation")
    return rule.continued_after


# -- a continued game: "replay from move n" -----------------------------------------------------


def stream_continue_from(
    *, stream_id: UUID | str, after_move: int, by: AbstractBaseUser | None = None
) -> Stream:
    """Open a new stream that continues ``stream_id`` from the state after its move ``after_move``.

    The new stream has the old one's game, edition, options and seats, and its own fresh secret
    seed (committed in its ``GameCreated``, revealed at its end). It is dealt with the old
    game's seed (public since the old game ended: ``continues.deal_seed``) so that the first
    ``after_move`` moves, appended again through :func:`stream_append_move`, replay and are
    validated as they were played. Then, in the same transaction and before any other move,
    :func:`stream_reshuffle_unseen` shuffles with the new seed every zone no seat has seen (the
    draw pile, face-down stock): the rest of the deal and every later chance outcome are as
    secret as in any game. What stays known is what the old game's public seed tells about the
    state after move ``after_move`` (docs/ratings.md says it game by game). ``by`` (the arbiter)
    is the new stream's creator. Refuses with :class:`StreamNotFound`, or :class:`StreamError`
    when the old game is not over or has no move ``after_move``.
    """
    old = Stream.objects.filter(pk=stream_id).first()
    if old is None:
        raise StreamNotFound(
            gettext("There is no game stream {stream_id}.").format(stream_id=stream_id)
        )
    if not old.is_finished:
        raise StreamError(
            gettext("The game is not over: a game is replayed from a move once it has ended.")
        )
    moves = list(Event.objects.filter(stream=old, type=EventType.MOVE_MADE).order_by("seq"))
    if not 0 <= after_move < len(moves):
        raise StreamError(
            gettext("The game has {len} moves: replay from a move between 0 and {value}.").format(
                len=len(moves), value=len(moves) - 1
            )
        )
    with transaction.atomic():
        new = _open_like(old, after_move=after_move, by=by)
        for index, event in enumerate(moves[:after_move], start=1):
            recorded = MoveMade.from_payload(event.payload)
            stream_append_move(
                stream_id=new.pk,
                seat=recorded.seat,
                move=recorded.move,
                expected_version=new.version,
                idempotency_key=f"continues:{old.pk}:{index}",
            )
            new.refresh_from_db(fields=["version"])
        stream_reshuffle_unseen(stream_id=new.pk)
        new.refresh_from_db()
    return new


def _open_like(old: Stream, *, after_move: int, by: AbstractBaseUser | None) -> Stream:
    """A new stream set up as ``old`` (its seats; dealt with its revealed seed, with a fresh
    seed of its own), saying which game and move it continues."""
    seats = StreamSeat.objects.filter(stream=old).order_by("seat").select_related("user")
    continues = {"stream": str(old.pk), "after_move": after_move, "deal_seed": old.seed}
    return stream_open(
        game_id=old.game,
        seats=[seat.user for seat in seats],
        options=old.options,
        edition=old.edition,
        created_by=by,
        context={**old.context, "continues": str(old.pk), "after_move": after_move},
        public=old.public,
        continues=continues,
    )


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
            RulingMade(
                kind=kind, reason=reason, arbiter=arbiter.get_username(), data=dict(data or {})
            ),
        )
        event.save()
        if snapshot_current:  # a ruling changes no game state: the snapshot stays valid
            stream.snapshot_version = stream.version
        event_store().save_head(stream, head_columns(snapshot=False))
        announce_advanced(stream.pk, stream.version)
        outbox_publish(
            topic="ruling.made", payload={"stream": str(stream.id), "seq": event.seq, "kind": kind}
        )
    return event
