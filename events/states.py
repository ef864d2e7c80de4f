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
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import engine
from engine.core import Game, GameState, ReplayError, SetupRecord, TrailStep, replay
from events.models import Event, EventType, Stream

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


def setup_record(stream: Stream, created: Event) -> SetupRecord:
    """How the stream was set up, from its ``GameCreated`` event and its sealed seed.

    A game continued by a "replay from move n" ruling was dealt with the old game's (public)
    seed, recorded as ``continues.deal_seed``; its own seed takes over at ``UnseenReshuffled``.
    """
    payload = created.payload
    continues = payload.get("continues") or {}
    return SetupRecord(
        game=payload["game"],
        edition=payload["edition"],
        players=len(payload["seats"]),
        options=payload["options"],
        seed=stream.seed,
        deal_seed=str(continues.get("deal_seed") or ""),
        # The rules of the version the game was set up under (engine.core.rules_since): a
        # game recorded before a rule change replays as it was played.
        engine_version=str(payload.get("engine_version", "")),
    )


def replay_stream(stream: Stream, *, until: int | None = None) -> tuple[GameState, list[TrailStep]]:
    """Rebuild the state after event ``until`` (default: all) from event 1, validating each move.

    The trail has one step per ``MoveMade`` event, after the setup step, and one for an
    ``UnseenReshuffled`` event where it sits among the moves (the unseen cards are shuffled
    again with the stream's own seed there).
    """
    events = Event.objects.filter(stream=stream).order_by("seq")
    if until is not None:
        events = events.filter(seq__lte=until)
    created: Event | None = None
    moves: list[tuple[int, Any]] = []
    reshuffle_after: int | None = None
    for event in events.only("seq", "type", "payload", "seat"):
        if event.type == EventType.GAME_CREATED:
            created = event
        elif event.type == EventType.MOVE_MADE:
            moves.append((event.payload["seat"], event.payload["move"]))
        elif event.type == EventType.UNSEEN_RESHUFFLED:
            if reshuffle_after is not None:
                raise ReplayError(len(moves), "the unseen cards are reshuffled a second time")
            reshuffle_after = len(moves)
    if created is None:
        raise ValueError(f"stream {stream.id} has no GameCreated event")
    setup = setup_record(stream, created)
    return replay(game_of(stream), setup, moves, reshuffle_after=reshuffle_after)


def snapshot_state(stream: Stream, game: Game[Any]) -> GameState | None:
    """The stream row's snapshot when it is current for this version and engine, else None."""
    if (  # the version first: reading ``snapshot`` may load the deferred column
        stream.snapshot_version != stream.version
        or stream.snapshot_engine != game.engine_version
        or stream.snapshot is None
    ):
        return None
    return game.state_from_json(stream.snapshot)


def current_state(stream: Stream) -> GameState:
    """The state after the stream's last event. Read-only: callers must not mutate it."""
    game = game_of(stream)
    cached = state_cache.get(stream.id, version=stream.version, engine_version=game.engine_version)
    if cached is not None:
        return cached
    state = snapshot_state(stream, game)
    if state is None:
        state, _ = replay_stream(stream)
    state_cache.put(
        stream.id, version=stream.version, engine_version=game.engine_version, state=state
    )
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
