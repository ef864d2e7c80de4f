"""``stream_reshuffle_unseen``: only a continued game, only once, only right after move n.

The ruling that asks for a continuation is tested in tests/ratings; here the event store's
services (opening the continuation, reshuffling it) and its verification.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from engine.core import Rng
from events.errors import StreamError, StreamFinished, StreamNotFound
from events.models import Event, EventType, Stream
from events.selectors import describe_event, stream_verify
from events.services import (
    stream_append_move,
    stream_continue_from,
    stream_open,
    stream_reshuffle_unseen,
)
from events.states import current_state, replay_stream, state_cache
from tests.ratings.games import play_stream

pytestmark = pytest.mark.django_db

OLD_SEED = "the old game's revealed seed"


def continuation(players: list[Any], *, after_move: int, moves: int | None = None) -> Stream:
    """A toy stream dealt with ``OLD_SEED`` that says it continues after ``after_move``; bots
    play ``moves`` moves (default: ``after_move``) without any reshuffle."""
    stream = stream_open(
        game_id="toy-draw",
        seats=players[:2],
        options={"turns": 10},
        continues={"stream": "old", "after_move": after_move, "deal_seed": OLD_SEED},
    )
    return play_stream(stream, bot_seed="bots", stop_after=after_move if moves is None else moves)


def test_a_continuation_is_dealt_with_the_old_seed_and_committed_to_its_own(
    players: list[Any],
) -> None:
    stream = continuation(players, after_move=0)
    created = Event.objects.get(stream=stream, seq=1)
    assert current_state(stream).rng.seed == OLD_SEED
    assert stream.seed != OLD_SEED
    assert created.payload["continues"]["deal_seed"] == OLD_SEED
    assert stream.seed not in str(created.payload)
    event = stream_reshuffle_unseen(stream_id=stream.pk)
    assert (event.seq, event.type, event.payload["after_move"]) == (2, "UnseenReshuffled", 0)
    stream.refresh_from_db()
    assert stream.snapshot_version == stream.version == 2
    assert current_state(stream).rng.seed == stream.seed


def test_the_reshuffle_is_refused_outside_its_one_moment(players: list[Any]) -> None:
    own = stream_open(game_id="toy-draw", seats=players[:2])
    with pytest.raises(StreamError, match="dealt with its own seed"):
        stream_reshuffle_unseen(stream_id=own.pk)
    early = continuation(players, after_move=3, moves=2)
    with pytest.raises(StreamError, match="holds 2 moves"):
        stream_reshuffle_unseen(stream_id=early.pk)
    ready = continuation(players, after_move=3)
    stream_reshuffle_unseen(stream_id=ready.pk)
    with pytest.raises(StreamError, match="already shuffled again"):
        stream_reshuffle_unseen(stream_id=ready.pk)
    done = play_stream(ready)
    with pytest.raises(StreamFinished):
        stream_reshuffle_unseen(stream_id=done.pk)
    assert Event.objects.filter(type=EventType.UNSEEN_RESHUFFLED).count() == 1


def test_a_reshuffled_continuation_verifies_and_replays_from_event_one(
    players: list[Any],
) -> None:
    stream = continuation(players, after_move=3)
    event = stream_reshuffle_unseen(stream_id=stream.pk)
    assert describe_event(event).startswith("after move 3, the cards no seat has seen")
    stream = play_stream(stream)
    report = stream_verify(stream)
    assert report["ok"] is True, report
    kept = current_state(stream)
    state_cache.clear()
    replayed, trail = replay_stream(stream)
    assert replayed == kept
    assert [(s.step, s.move is None) for s in trail[3:6]] == [(3, False), (3, True), (4, False)]


def test_a_continuation_played_on_without_its_reshuffle_fails_verification(
    players: list[Any],
) -> None:
    stream = play_stream(continuation(players, after_move=3))  # to the end, never reshuffled
    report = stream_verify(stream)
    assert report["checks"]["replay"] == {
        "ok": False,
        "detail": "event 5: move 4 was played before the unseen cards were shuffled again",
    }


def test_after_the_reshuffle_chance_follows_the_streams_own_seed(players: list[Any]) -> None:
    stream = continuation(players, after_move=2)
    stream_reshuffle_unseen(stream_id=stream.pk)
    stream.refresh_from_db()
    state = current_state(stream)
    rng = Rng(state.rng.seed, state.rng.counter)
    assert rng.seed == stream.seed
    seat = state.turn  # type: ignore[attr-defined]
    outcome = stream_append_move(
        stream_id=stream.pk,
        seat=seat,
        move={"type": "play", "card": state.hands[seat][0]},  # type: ignore[attr-defined]
        expected_version=stream.version,
    )
    assert outcome.events[0].payload["effects"][0]["data"]["card"] == 1 + rng.randbelow(10)


def test_the_event_store_opens_the_continuation_of_a_finished_game(players: list[Any]) -> None:
    """``stream_continue_from``: the moves up to n copied, then one reshuffle, its own seed;
    the refusals are the store's (``StreamError``), and a refused call stores nothing."""
    old = play_stream(stream_open(game_id="toy-draw", seats=players[:2], options={"turns": 6}))
    old_moves = list(Event.objects.filter(stream=old, type=EventType.MOVE_MADE).order_by("seq"))
    new = stream_continue_from(stream_id=old.pk, after_move=3, by=players[2])
    events = list(Event.objects.filter(stream=new).order_by("seq"))
    assert [e.type for e in events] == ["GameCreated", *["MoveMade"] * 3, "UnseenReshuffled"]
    assert [e.payload["move"] for e in events[1:4]] == [e.payload["move"] for e in old_moves[:3]]
    continues = events[0].payload["continues"]
    assert (continues["stream"], continues["after_move"]) == (str(old.pk), 3)
    assert (new.created_by, new.seed != old.seed, new.version) == (players[2], True, 5)
    assert new.context["continues"] == str(old.pk)
    assert stream_verify(new)["checks"]["replay"]["ok"] is True
    streams = Stream.objects.count()
    live = stream_open(game_id="toy-draw", seats=players[:2])
    with pytest.raises(StreamError, match="not over"):
        stream_continue_from(stream_id=live.pk, after_move=0)
    with pytest.raises(StreamError, match="between 0 and"):
        stream_continue_from(stream_id=old.pk, after_move=len(old_moves))
    with pytest.raises(StreamNotFound):
        stream_continue_from(stream_id=uuid.uuid4(), after_move=0)
    assert Stream.objects.count() == streams + 1
