"""Game states of streams: from the in-process cache, the snapshot row, or a replay.

Three sources, one answer: the state after the stream's last event. A replay from event 1 is
the truth; the snapshot (columns of the stream row, rewritten by every append) and the in-process
cache (bounded, per worker process) only make it cheap. Each is keyed by the stream version
and the engine version it was made with, so a stale or foreign entry is simply not used.

Cached states are never mutated after they are stored: the append path clones before it
applies a move, and stores the new state only once the transaction has committed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import engine
from engine.core import EngineError, Game, GameState, Replay, ReplayError, SetupRecord, TrailStep
from engine.core.continuation import ReshuffleRule
from events.models import Event, EventType, Stream
from events.payloads import GameCreated, MoveMade, PayloadError, UnseenReshuffled

CACHE_SIZE = 1024


@dataclass(frozen=True)
class CachedState:
    version: int
    engine_version: str
    state: GameState


class StateCache:
    """A small thread-safe LRU of stream states (never mutated once stored)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._items: OrderedDict[UUID, CachedState] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, stream_id: UUID, *, version: int, engine_version: str) -> GameState | None:
        """The cached state of this stream at exactly this version, or None."""
        with self._lock:
            item = self._items.get(stream_id)
            if item is None or item.version != version or item.engine_version != engine_version:
                return None
            self._items.move_to_end(stream_id)
            return item.state

    def version_of(self, stream_id: UUID) -> int | None:
        """The version of the stream's cached state, or None."""
        item = self._items.get(stream_id)  # one dict read: atomic, no lock needed
        return None if item is None else item.version

    def put(self, stream_id: UUID, *, version: int, engine_version: str, state: GameState) -> None:
        """Remember ``state`` as the stream's state after event ``version`` (never newer ones)."""
        with self._lock:
            current = self._items.get(stream_id)
            if current is not None and current.version > version:
                return
            self._items[stream_id] = CachedState(version, engine_version, state)
            self._items.move_to_end(stream_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


state_cache = StateCache()


def game_of(stream: Stream) -> Game[Any]:
    """The engine game a stream plays."""
    return engine.get(stream.game)


def setup_record(stream: Stream, created: Event | GameCreated) -> SetupRecord:
    """How the stream was set up, from its ``GameCreated`` event and its sealed seed.

    A game continued by a "replay from move n" ruling was dealt with the old game's (public)
    seed, recorded as ``continues.deal_seed``; its own seed takes over at ``UnseenReshuffled``.
    """
    payload = (
        created if isinstance(created, GameCreated) else GameCreated.from_payload(created.payload)
    )
    return SetupRecord(
        game=payload.game,
        edition=payload.edition,
        players=len(payload.seats),
        options=payload.options,
        seed=stream.seed,
        deal_seed=payload.deal_seed,
        # The rules of the version the game was set up under (engine.core.rules_since): a
        # game recorded before a rule change replays as it was played.
        engine_version=payload.engine_version,
    )


# -- the reshuffle of a continued game: once, right after move n ------------------------------
# The rule is engine.core.continuation.ReshuffleRule (the offline record verifier asks it too);
# it stays importable from here.


# -- the one replay loop ---------------------------------------------------------------------


class EventReplayError(ReplayError):
    """An event of the stream that does not replay: ``seq`` names it, ``reason`` says why;
    ``bad_move`` when the logged move itself is refused (not where it stands)."""

    def __init__(self, seq: int, step: int, reason: str, *, bad_move: bool = False) -> None:
        super().__init__(step, reason)
        self.seq = seq
        self.bad_move = bad_move


ReplayedPayload = MoveMade | UnseenReshuffled


class StreamReplay:
    """A stream's events replayed from event 1, on :class:`engine.core.Replay`.

    Built from the events (``GameCreated`` first; raises ``PayloadError``, ``EngineError`` or
    ``ValueError`` when it does not set the game up), then :meth:`steps` replays each
    ``MoveMade`` and ``UnseenReshuffled`` in order under the :class:`ReshuffleRule`, yielding
    each event with its typed payload while ``state`` is the state right after it. The first
    event that does not replay raises :class:`EventReplayError`.
    """

    def __init__(self, stream: Stream, events: Sequence[Event]) -> None:
        if not events or events[0].type != EventType.GAME_CREATED:
            raise ValueError(f"stream {stream.id} has no GameCreated event")
        self.events = events
        self.created = GameCreated.from_payload(events[0].payload)
        self.setup = setup_record(stream, self.created)
        self.rule = ReshuffleRule(self.created.continued_after)
        self.run = Replay(game_of(stream), self.setup)
        self.reshuffled = False

    @property
    def state(self) -> GameState:
        return self.run.state

    @property
    def trail(self) -> list[TrailStep]:
        return self.run.trail

    def steps(self) -> Iterator[tuple[Event, ReplayedPayload]]:
        for event in self.events:
            if event.type == EventType.MOVE_MADE:
                yield event, self._move(event)
            elif event.type == EventType.UNSEEN_RESHUFFLED:
                yield event, self._reshuffle(event)

    def _move(self, event: Event) -> MoveMade:
        step = self.run.moves + 1
        try:
            move = MoveMade.from_payload(event.payload)
            self.run.move(move.seat, move.move)
        except ReplayError as exc:
            raise EventReplayError(event.seq, exc.step, exc.reason, bad_move=True) from exc
        except (EngineError, KeyError, ValueError, TypeError) as exc:  # PayloadError included
            raise EventReplayError(event.seq, step, str(exc), bad_move=True) from exc
        refusal = self.rule.refuses_move(moves=self.run.moves, reshuffled=self.reshuffled)
        if refusal:
            raise EventReplayError(event.seq, self.run.moves, refusal)
        return move

    def _reshuffle(self, event: Event) -> UnseenReshuffled:
        moves = self.run.moves
        try:
            reshuffle = UnseenReshuffled.from_payload(event.payload)
        except PayloadError as exc:
            raise EventReplayError(event.seq, moves, str(exc)) from exc
        refusal = self.rule.refuses_reshuffle(moves=moves, reshuffled=self.reshuffled)
        if refusal:
            raise EventReplayError(event.seq, moves, refusal)
        self.reshuffled = True
        self.run.reshuffle()
        return reshuffle


def replay_stream(stream: Stream, *, until: int | None = None) -> tuple[GameState, list[TrailStep]]:
    """Rebuild the state after event ``until`` (default: all) from event 1, validating each move.

    The trail has one step per ``MoveMade`` event, after the setup step, and one for an
    ``UnseenReshuffled`` event where it sits among the moves (the unseen cards are shuffled
    again with the stream's own seed there). Raises :class:`EventReplayError` (a
    ``ReplayError``) at the first event that does not replay.
    """
    events = Event.objects.filter(stream=stream).order_by("seq")
    if until is not None:
        events = events.filter(seq__lte=until)
    replayed = StreamReplay(stream, list(events.only("seq", "type", "payload", "seat")))
    for _ in replayed.steps():
        pass
    return replayed.state, replayed.trail


def snapshot_state(stream: Stream, game: Game[Any]) -> GameState | None:
    """The stream row's snapshot when it is current for this version and engine (or the state
    the instance holds in its place, :func:`hold_state`), else None."""
    held = getattr(stream, HELD_STATE, None)
    if held is not None and (held.version, held.engine_version) == (
        stream.version,
        game.engine_version,
    ):
        return held.state
    if (  # the version first: reading ``snapshot`` may load the deferred column
        stream.snapshot_version != stream.version
        or stream.snapshot_engine != game.engine_version
        or stream.snapshot is None
    ):
        return None
    return game.state_from_json(stream.snapshot)


#: The instance attribute where :func:`hold_state` keeps a stream's decoded state.
HELD_STATE = "_held_state"


def hold_state(stream: Stream) -> GameState:
    """The stream's current state, decoded now and held by the instance in place of its parsed
    snapshot, which is let go (``stream.snapshot`` becomes None: never save such an instance).

    For an instance that lives on after it was read: a socket server's moment (play.moments)
    until the table's next move. Its parsed snapshot is JSON, lists and dicts by the dozen
    (about 70 for a Les 7 Blasons table), which the collector's young generation held and
    scanned at each collection: with 1,250 sockets on one daphne (bench/live.py, level 3),
    the snapshots were about half of what a young collection looked through. The state is
    what the drawings read; the snapshot only ever served to decode it."""
    state = current_state(stream)
    setattr(stream, HELD_STATE, CachedState(stream.version, game_of(stream).engine_version, state))
    stream.snapshot = None
    return state


def current_state(stream: Stream) -> GameState:
    """The state after the stream's last event. Read-only: callers must not mutate it."""
    game = game_of(stream)
    cached = state_cache.get(stream.id, version=stream.version, engine_version=game.engine_version)
    if cached is not None:
        return cached
    state = snapshot_state(stream, game)
    if state is None:
        # Up to the version read only: a move appended since then must not be counted in it.
        state, _ = replay_stream(stream, until=stream.version)
    state_cache.put(
        stream.id, version=stream.version, engine_version=game.engine_version, state=state
    )
    return state


# The states delayed spectators are shown (events.access: StreamAccess.shown_version), one per
# stream, at the version last asked: each move moves it on by one replay, not one per viewer.
delayed_cache = StateCache(size=256)


def state_at(stream: Stream, version: int) -> GameState:
    """The state after event ``version`` (the current state when that is the stream's
    version; else a replay to it, cached per stream). Read-only, as :func:`current_state`."""
    if version >= stream.version:
        return current_state(stream)
    game = game_of(stream)
    cached = delayed_cache.get(stream.id, version=version, engine_version=game.engine_version)
    if cached is not None:
        return cached
    state, _ = replay_stream(stream, until=version)
    delayed_cache.put(stream.id, version=version, engine_version=game.engine_version, state=state)
    return state


def set_snapshot(stream: Stream, game: Game[Any], state: GameState) -> None:
    """Put the state in the stream's snapshot fields (in memory; the caller saves the row)."""
    stream.snapshot = game.state_to_json(state)
    stream.snapshot_version = stream.version
    stream.snapshot_engine = game.engine_version


def save_snapshot(stream: Stream, game: Game[Any], state: GameState) -> None:
    """Write the state as the stream's snapshot at its current version (one UPDATE)."""
    set_snapshot(stream, game, state)
    Stream.objects.filter(pk=stream.pk).update(
        snapshot=stream.snapshot,
        snapshot_version=stream.snapshot_version,
        snapshot_engine=stream.snapshot_engine,
    )
