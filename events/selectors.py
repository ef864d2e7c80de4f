"""Reads of the event store: stream summaries, per-seat views and events, audit and verify.

Everything here answers for one viewer: hidden information of other seats (their moves' hidden
parts, effects not visible to them, the sealed seed) is withheld until the game ends, except
for arbiters and staff (see events.access).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext

from engine.core import Effect, EngineError, replay_compatible, seed_commitment
from events.access import StreamAccess
from events.hashing import HASH_FORMAT_FULL, HASH_FORMATS, MOVE_PART, event_hash, reveal_parts
from events.models import GENESIS_HASH, Event, EventType, Stream, StreamSeat
from events.payloads import (
    GameCreated,
    GameEnded,
    MoveMade,
    PayloadError,
    RulingMade,
    UnseenReshuffled,
    effect_record,
    read_payload,
)
from events.states import EventReplayError, StreamReplay, game_of, replay_stream, state_at
from herald.texts import render, seat_words

P = TypeVar("P", GameCreated, GameEnded)

# -- streams --------------------------------------------------------------------------------


def stream_summary(
    stream: Stream, seats: list[str] | None = None, *, access: StreamAccess | None = None
) -> dict[str, Any]:
    """The stream object of the API: setup, status, version, commitment, head; result and
    seed once finished. The head hash of a live stream hashed by the old full-payload rule is
    shown only to those who see everything (``access`` None: the caller opened the stream)."""
    if seats is None:
        seats = [s.user.get_username() for s in stream.seats.select_related("user")]
    data: dict[str, Any] = {
        "id": str(stream.id),
        "game": stream.game,
        "edition": stream.edition,
        "engine_version": stream.engine_version,
        "options": stream.options,
        "seats": seats,
        "status": stream.status,
        "version": stream.version,
        "seed_commitment": stream.seed_commitment,
        "head_hash": stream.head_hash
        if _shows_hashes(stream, full=access is None or access.sees_everything)
        else None,
        "context": stream.context,
    }
    if stream.is_finished:
        data["result"] = stream.result
        data["seed"] = stream.seed
    return data


def seat_names(stream_id: Any) -> list[str]:
    """The players of a stream in seat order, as sentences name them (their usernames)."""
    seats = StreamSeat.objects.filter(stream_id=stream_id).select_related("user").order_by("seat")
    return [s.user.get_username() for s in seats]


def stream_view(access: StreamAccess) -> dict[str, Any]:
    """What the caller may see now: their seat's view (or the public one) and, when they are
    to act, their legal moves. Arbiters and staff also get every seat's view. A delayed
    spectator (a tournament's spectator delay) sees the game as it was at
    ``access.shown_version``."""
    stream = access.stream
    game = game_of(stream)
    state = state_at(stream, access.shown_version)
    seat = access.seat
    to_act = game.to_act(state)
    data: dict[str, Any] = {
        "version": access.shown_version,
        "status": stream.status,
        "seat": seat,
        "to_act": to_act,
        "view": game.view(state, seat),
    }
    if seat is not None and seat in to_act:
        data["legal_moves"] = [move.to_json() for move in game.legal_moves(state, seat)]
    if access.sees_everything:
        data["seat_views"] = [game.view(state, s) for s in range(stream.players)]
    return data


# -- events ---------------------------------------------------------------------------------


def _shows_hashes(stream: Stream, *, full: bool) -> bool:
    """Whether the chain's hashes may be shown: always under the commitment rule; under the
    old full-payload rule (format 1) only after the end or to those who see everything
    (``full``), since a hidden value with few possibilities could be found there by hashing
    guesses."""
    return full or stream.hash_format != HASH_FORMAT_FULL or stream.is_finished


def effect_for_viewer(record: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A stored effect as ``seat`` may see it (data withheld unless visible to that seat)."""
    effect = Effect(
        record["kind"], record["text"], record.get("data", {}), record.get("visible_to")
    )
    return effect.public_json(seat)


def legacy_payload_for_viewer(event: Event, seat: int | None) -> dict[str, Any]:
    """A format-1 event's payload with what ``seat`` may not see removed."""
    payload = dict(event.payload)
    if "effects" in payload:
        payload["effects"] = [effect_for_viewer(e, seat) for e in payload["effects"]]
    if event.type == EventType.MOVE_MADE:
        public_move = payload.pop("public_move", payload["move"])
        if event.seat != seat:
            payload["move"] = public_move
    return payload


def payload_for_viewer(event: Event, stream: Stream, *, full: bool, seat: int | None) -> Any:
    """The event's payload as a viewer receives it.

    Under the commitment rule every hidden part carries its commitment; its value (with its
    salt) is kept where the viewer may see it: the mover's own move, an effect visible to
    their seat, everything when ``full``. Removing the revealed values gives the hashed
    payload, so every viewer can link the chain (events.hashing).
    """
    if stream.hash_format == HASH_FORMAT_FULL:
        return event.payload if full else legacy_payload_for_viewer(event, seat)
    effects = event.payload.get("effects")

    def shown(part: str) -> bool:
        if part == MOVE_PART:
            return seat is not None and event.seat == seat
        index = int(part.rsplit("/", 1)[1])
        visible_to = effects[index].get("visible_to") if isinstance(effects, list) else None
        return seat is not None and seat in (visible_to or [])

    return reveal_parts(
        stream_id=stream.id, seq=event.seq, type=event.type, payload=event.payload,
        seed=stream.seed, shown=None if full else shown,
    )  # fmt: skip


def event_json(
    event: Event, *, full: bool, seat: int | None = None, stream: Stream | None = None
) -> dict[str, Any]:
    """An event in the API's shape; ``full`` shows everything, else only what ``seat`` sees.

    The hashes of a live format-1 stream are left out (null) unless ``full``: they could be
    matched against guesses of what the payload withholds.
    """
    stream = stream or event.stream
    hashes = _shows_hashes(stream, full=full)
    return {
        "seq": event.seq,
        "type": event.type,
        "payload": payload_for_viewer(event, stream, full=full, seat=seat),
        "seat": event.seat,
        "recorded_at": event.recorded_at.isoformat(),
        "prev_hash": event.prev_hash if hashes else None,
        "hash": event.hash if hashes else None,
    }


def event_for_access(event: Event, access: StreamAccess) -> dict[str, Any]:
    """An event as this caller may see it."""
    return event_json(event, full=access.sees_everything, seat=access.seat, stream=access.stream)


def shown_events(
    access: StreamAccess, *, after: int = 0, read: Sequence[Event] | None = None
) -> Iterable[Event]:
    """The stream's events after seq ``after`` up to the version this caller is shown (a
    delayed spectator's stops there), in seq order, as stored: pass each through
    :func:`event_for_access` before the caller sees it. ``read``: the stream's events already
    read, in seq order, holding every seq from ``after + 1`` on (a table socket's moment,
    play.moments); otherwise they are read here."""
    if read is None:
        return Event.objects.filter(
            stream=access.stream, seq__gt=after, seq__lte=access.shown_version
        ).order_by("seq")
    return (e for e in read if after < e.seq <= access.shown_version)


def stream_events(
    access: StreamAccess, *, after: int = 0, read: Sequence[Event] | None = None
) -> list[dict[str, Any]]:
    """The stream's events after seq ``after``, as this caller may see them (up to the
    version they are shown: a delayed spectator's stops there); ``read`` as for
    :func:`shown_events`."""
    return [
        event_for_access(event, access) for event in shown_events(access, after=after, read=read)
    ]


# -- audit and verification -----------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    ok: bool
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "detail": self.detail}


def check_hash_chain(stream: Stream, events: list[Event]) -> Check:
    """Every event links to the one before and hashes to its stored value, seq 1, 2, 3...,
    by the stream's rule (``hash_format``)."""
    if stream.hash_format not in HASH_FORMATS:
        return Check(False, f"the stream's hash format {stream.hash_format} is unknown")
    previous = GENESIS_HASH
    for expected_seq, event in enumerate(events, start=1):
        if event.seq != expected_seq:
            return Check(False, f"event {expected_seq} is missing: seq {event.seq} follows")
        if event.prev_hash != previous:
            return Check(False, f"event {event.seq} does not link to event {event.seq - 1}")
        if event_hash(event, seed=stream.seed, hash_format=stream.hash_format) != event.hash:
            return Check(False, f"event {event.seq} does not match its hash: it was altered")
        previous = event.hash
    return Check(True, f"{len(events)} events chained from the genesis hash")


def _check_head(stream: Stream, events: list[Event]) -> Check | None:
    head = events[-1].hash if events else GENESIS_HASH
    if head != stream.head_hash or len(events) != stream.version:
        return Check(False, "the stream's head hash or version does not match its last event")
    return None


def _typed(cls: type[P], event: Event) -> P | None:
    """The event's typed payload, or None when it does not have its type's shape (a check
    then fails on the missing value)."""
    try:
        return cls.from_payload(event.payload)
    except PayloadError:
        return None


def check_seed(stream: Stream, events: list[Event]) -> Check:
    """The seed matches the commitment of event 1 (and the one revealed at the end)."""
    created = _typed(GameCreated, events[0]) if events else None
    commitment = created.seed_commitment if created else None
    if commitment != stream.seed_commitment or seed_commitment(stream.seed) != commitment:
        return Check(False, "the seed does not match the commitment recorded in event 1")
    ended = [e for e in events if e.type == EventType.GAME_ENDED]
    revealed = _typed(GameEnded, ended[0]) if ended else None
    if ended and (revealed.seed if revealed else None) != stream.seed:
        return Check(False, f"event {ended[0].seq} reveals a seed that is not the committed one")
    if not ended:
        return Check(True, "the sealed seed matches the commitment; it is revealed at the end")
    return Check(True, "the revealed seed matches the commitment of event 1")


def check_replay(stream: Stream, events: list[Event]) -> tuple[Check, Any]:
    """Replaying from event 1 accepts every move and reproduces every recorded effect.

    Effects are compared right after each step (a game may keep changing objects it noted).
    A continued game is dealt with the old game's seed and reshuffled with its own exactly
    once, right after the move it continues from (``UnseenReshuffled``: the rule is
    events.states.ReshuffleRule, applied by the replay itself).
    """
    game_of(stream)  # a game this installation lacks raises UnknownGame, as it always did
    try:
        replayed = StreamReplay(stream, events)
    except (EngineError, IndexError, KeyError, ValueError, TypeError) as exc:
        return Check(False, f"event 1 does not set the game up again: {exc}"), None
    state = replayed.state
    if _effects_json(state.effects) != replayed.created.effects:
        return Check(False, "event 1: the setup's chance outcomes differ from the replay's"), state
    try:
        for event, payload in replayed.steps():
            if _effects_json(state.effects) != payload.effects:
                return Check(False, f"event {event.seq}: {_EFFECTS_DIFFER[event.type]}"), None
    except EventReplayError as exc:
        problem = f"the move does not replay: {exc.reason}" if exc.bad_move else exc.reason
        return Check(False, f"event {exc.seq}: {problem}"), None
    return Check(True, f"{replayed.run.moves} moves replayed with the same outcomes"), state


_EFFECTS_DIFFER = {
    EventType.MOVE_MADE: "the replay's effects (chance outcomes) differ from the recorded ones",
    EventType.UNSEEN_RESHUFFLED: "the reshuffle's effects differ from the recorded ones",
}


def _effects_json(effects: Any) -> list[dict[str, Any]]:
    return [effect_record(effect) for effect in effects]


def check_result(stream: Stream, events: list[Event], state: Any) -> Check:
    """The replayed result equals the stored one (and none while the game goes on)."""
    if state is None:
        return Check(False, "no replayed state to compare (the replay failed)")
    replayed = game_of(stream).result(state)
    ended = [e for e in events if e.type == EventType.GAME_ENDED]
    if replayed is None:
        if ended or stream.is_finished:
            return Check(False, "the game is recorded as over but the replay has not ended")
        return Check(True, "the game goes on: no result yet")
    if not ended:
        return Check(False, "the replay has ended but no GameEnded event was recorded")
    recorded = _typed(GameEnded, ended[0])
    if (recorded.result if recorded else None) != replayed.to_json() or (
        stream.result != replayed.to_json()
    ):
        return Check(False, f"event {ended[0].seq}'s result differs from the replay's")
    return Check(True, "the recorded result equals the replay's")


#: The checks of a verification report, in the order a failure is named (the first failed
#: check is the reason a dispute gives).
CHECK_ORDER = ("engine_version", "hash_chain", "seed_commitment", "replay", "result")


def check_engine_version(stream: Stream, events: list[Event] | None = None) -> Check:
    """Whether this server's engine may vouch for the game: it runs the version the stream was
    recorded with, or a later one of the same major version (``engine.core.replay_compatible``),
    since a replay with an incompatible engine proves nothing. The stream row's version must
    be the one its (hashed) ``GameCreated`` records: the replay sets the game up under that."""
    recorded, running = stream.engine_version, game_of(stream).engine_version
    created = events[0].payload.get("engine_version") if events else recorded
    if created != recorded:
        return Check(
            False,
            f"the stream records engine version {recorded} but its event 1 records {created}: "
            "the stream row was altered",
        )
    if running == recorded:
        return Check(
            True, f"replayed with engine version {running}, the one the game was recorded with"
        )
    if replay_compatible(recorded, running):
        return Check(
            True,
            f"recorded with engine version {recorded}, replayed with {running}: the same major "
            "version, which replays recorded games the same way",
        )
    return Check(
        False,
        f"the game was recorded with engine version {recorded} but this server runs {running}: "
        "its replay cannot vouch for it",
    )


def stream_verify(stream: Stream) -> dict[str, Any]:
    """The verification report: engine version, hash chain, seed commitment, replay, result.

    The one verdict on a stream: ``GET …/verify``, the admin's action and the ratings worker
    all take it from here. Raises ``engine.core.UnknownGame`` for a game this installation
    lacks (the worker records that as a failed ``engine_version`` check).
    """
    events = list(Event.objects.filter(stream=stream).order_by("seq"))
    version = check_engine_version(stream, events)
    chain = check_hash_chain(stream, events)
    if chain.ok:
        chain = _check_head(stream, events) or chain
    seed = check_seed(stream, events)
    replayed, state = check_replay(stream, events)
    result = check_result(stream, events, state)
    checks = {
        "engine_version": version,
        "hash_chain": chain,
        "seed_commitment": seed,
        "replay": replayed,
        "result": result,
    }
    return {
        "ok": all(check.ok for check in checks.values()),
        "checks": {name: check.to_json() for name, check in checks.items()},
    }


def stream_moves(stream: Stream) -> int:
    """How many moves the stream holds: move n is its n-th ``MoveMade`` event (move 0 is the
    deal), as the replay, the audit, the disputes and "replay from move n" count them."""
    return Event.objects.filter(stream=stream, type=EventType.MOVE_MADE).count()


def move_seq(stream: Stream, move: int) -> int:
    """The seq of move ``move``'s event (1, ``GameCreated``, for move 0); the caller checks that
    the stream has that many moves (:func:`stream_moves`)."""
    if move == 0:
        return 1
    seqs = Event.objects.filter(stream=stream, type=EventType.MOVE_MADE).order_by("seq")
    return int(seqs.values_list("seq", flat=True)[move - 1])


def stream_audit(stream: Stream, *, at: int) -> dict[str, Any]:
    """The full state after event ``at``, that event in words, and the chain's health up to it.

    ``at`` is an event's seq; ``move`` in the answer is the move it belongs to (the number of
    moves up to it, 0 for the deal) and ``moves`` the stream's number of moves, since people
    count moves: the n-th move's event is :func:`move_seq`.

    When the log does not replay up to ``at`` (a tampered or broken record), ``state`` is None
    and ``replay_error`` says which step failed and why.
    """
    events = list(Event.objects.filter(stream=stream, seq__lte=at).order_by("seq"))
    event = events[-1]
    game = game_of(stream)
    audit: dict[str, Any] = {
        "at": at,
        "move": sum(1 for e in events if e.type == EventType.MOVE_MADE),
        "moves": stream_moves(stream),
        "event": event_json(event, full=True, stream=stream),
        "text": describe_event(event, game, names=seat_names(stream.pk)),
        "hash_ok": check_hash_chain(stream, events).ok,
        "state": None,
        "to_act": [],
        "steps": 0,
        "replay_error": None,
    }
    try:
        state, trail = replay_stream(stream, until=at)
    except EngineError as exc:
        audit["replay_error"] = str(exc)
        return audit
    moves = sum(1 for step in trail if step.move is not None)
    audit.update(state=game.state_to_json(state), to_act=game.to_act(state), steps=moves)
    return audit


def describe_event(event: Event, game: Any = None, names: list[str] | None = None) -> str:
    """One line a person reads, in the active language: the move in words (seats named by
    ``names``, the stream's players, when given), or what the event records."""
    try:
        payload = read_payload(event.type, event.payload)
    except PayloadError as exc:
        return gettext("{type}: an unreadable payload ({problem})").format(
            type=event.type, problem=exc
        )
    if isinstance(payload, GameCreated):
        return gettext("{game} ({edition}) is set up for {players}").format(
            game=payload.game, edition=payload.edition, players=", ".join(payload.seats)
        )
    if isinstance(payload, MoveMade):
        try:
            game = game or game_of(event.stream)
            return render(game.describe_text(game.decode_move(payload.move), payload.seat), names)
        except EngineError as exc:
            return gettext("{seat}: an unreadable move ({problem})").format(
                seat=seat_words(payload.seat, names), problem=exc
            )
    if isinstance(payload, GameEnded):
        return gettext("the game ends: ranks {ranks}, the seed is revealed").format(
            ranks=payload.result["ranks"]
        )
    if isinstance(payload, UnseenReshuffled):
        # The stored effects keep the engine's English words (they are hashed as written).
        shuffled = "; ".join(e["text"] for e in payload.effects)
        return gettext(
            "after move {move}, the cards no seat has seen are shuffled again with this game's "
            "own seed: {shuffled}"
        ).format(move=payload.after_move, shuffled=shuffled)
    if isinstance(payload, RulingMade):
        return gettext("ruling by {arbiter}: {kind} — {reason}").format(
            arbiter=payload.arbiter, kind=payload.kind, reason=payload.reason
        )
    return event.type


def stream_verify_cached(stream: Stream) -> dict[str, Any]:
    """:func:`stream_verify`'s report, from Django's cache when nothing it depends on changed.

    The key is (report shape, stream, version, installed engine version, hash format): a new
    event, an engine upgrade or a new chain rule makes a new report; otherwise a repeated call (the API's
    ``GET …/verify``) does not replay the game. Kept ``HERALD_VERIFY_CACHE_SECONDS``. The
    verification worker and the admin call :func:`stream_verify` itself, never this.
    """
    try:
        engine_version = game_of(stream).engine_version
    except EngineError:  # a game this installation lacks: the report says so, uncached
        return stream_verify(stream)
    key = f"herald:verify:2:{stream.pk}:{stream.version}:{engine_version}:{stream.hash_format}"
    report: dict[str, Any] | None = cache.get(key)
    if report is None:
        report = stream_verify(stream)
        cache.set(key, report, timeout=settings.HERALD_VERIFY_CACHE_SECONDS)
    return report


# -- a user's own games ---------------------------------------------------------------------


@dataclass(frozen=True)
class SeatedStream:
    """A stream a user sits in, with their seat (0-based, as the store keeps it)."""

    stream: Stream
    seat: int

    @property
    def my_rank(self) -> int | None:
        """The user's finishing rank once the game is over (None while it runs)."""
        ranks = (self.stream.result or {}).get("ranks") if self.stream.is_finished else None
        return int(ranks[self.seat]) if ranks and self.seat < len(ranks) else None

    @property
    def my_score(self) -> Any:
        """The user's game score once the game is over, when the game gives one."""
        scores = (self.stream.result or {}).get("scores") if self.stream.is_finished else None
        return scores[self.seat] if scores and self.seat < len(scores) else None


#: Stream columns a list of games never needs: the sealed seed and the state snapshot.
HEAVY_STREAM_COLUMNS = ("stream__seed", "stream__snapshot")


def user_streams(user: Any, *, limit: int = 50) -> list[SeatedStream]:
    """The streams ``user`` sits in, live ones first, then newest first; one query.

    The seed and the snapshot are not loaded: a list of games has no use for either, and the
    seed must not be in memory for a page that could show it by mistake.
    """
    if not getattr(user, "is_authenticated", False):
        return []
    seats = (
        StreamSeat.objects.filter(user_id=user.pk)
        .select_related("stream")
        .defer(*HEAVY_STREAM_COLUMNS)
        .order_by("-stream__status", "-stream__created_at")
    )
    return [SeatedStream(seat.stream, seat.seat) for seat in seats[:limit]]
