"""A "replay from move n" ruling: the continued game's unseen cards are not the old game's.

The old game's seed is public once it ended. The continued stream replays the first n moves
with it, then shuffles what no seat has seen with its own secret seed (``UnseenReshuffled``):
what comes after move n no longer follows the old seed, yet the stream verifies, replays from
event 1 to the same state and can be audited at every event.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import engine
from events.models import Event, EventType, Stream
from events.selectors import event_json, stream_audit, stream_verify
from events.services import stream_open
from events.states import current_state, replay_stream, state_cache
from ratings.disputes import DisputeError, stream_continue
from ratings.verification import game_verify_and_rate
from tests.ratings.games import play_stream, play_to_end

pytestmark = pytest.mark.django_db

AFTER = 4


def draws_after(stream: Stream, move: int) -> list[Any]:
    """The cards the toy game's seats drew at each move after ``move`` (chance outcomes)."""
    moves = Event.objects.filter(stream=stream, type=EventType.MOVE_MADE).order_by("seq")
    return [e.payload["effects"][0]["data"]["card"] for e in list(moves)[move:]]


def views_without_effects(game: Any, state: Any, players: int) -> list[Any]:
    quiet = game.clone(state)
    quiet.effects = []
    return [game.view(quiet, seat) for seat in [None, *range(players)]]


def test_a_continued_toy_game_no_longer_follows_the_old_seed_and_verifies(
    finished: Callable[..., Any], arbiter: Any
) -> None:
    old = finished(3, turns=16)
    new = stream_continue(stream_id=old.pk, after_move=AFTER, arbiter=arbiter)
    reshuffle = Event.objects.get(stream=new, seq=1 + AFTER + 1)
    assert reshuffle.type == EventType.UNSEEN_RESHUFFLED
    assert reshuffle.payload["after_move"] == AFTER
    assert all(e["visible_to"] is None for e in reshuffle.payload["effects"])
    assert old.seed not in json.dumps(reshuffle.payload)
    assert new.seed not in json.dumps(reshuffle.payload)
    game = engine.get(old.game)
    old_at_n, _ = replay_stream(old, until=1 + AFTER)
    continued = current_state(new)
    assert views_without_effects(game, continued, 3) == views_without_effects(game, old_at_n, 3)
    assert continued.rng.seed == new.seed != old.seed

    finished_new = play_stream(new, bot_seed="again")
    assert finished_new.is_finished
    # 12 draws of 1..10 after move 4: the old seed's and a fresh one's agree with odds 1e-12
    assert draws_after(finished_new, AFTER) != draws_after(old, AFTER)
    assert draws_after(finished_new, 0)[:AFTER] == draws_after(old, 0)[:AFTER]
    report = stream_verify(finished_new)
    assert report["ok"] is True, report
    assert game_verify_and_rate(stream_id=finished_new.pk).verification.ok is True  # type: ignore[union-attr]
    ended = Event.objects.get(stream=finished_new, type=EventType.GAME_ENDED)
    assert ended.payload["seed"] == finished_new.seed


def test_a_continued_stream_replays_from_event_one_and_audits_at_every_event(
    finished: Callable[..., Any], arbiter: Any
) -> None:
    old = finished(2, turns=12)
    new = play_stream(
        stream_continue(stream_id=old.pk, after_move=AFTER, arbiter=arbiter), bot_seed="on"
    )
    game = engine.get(new.game)
    kept = game.state_to_json(current_state(new))
    Stream.objects.filter(pk=new.pk).update(snapshot=None, snapshot_version=None)
    state_cache.clear()
    new.refresh_from_db()
    assert game.state_to_json(current_state(new)) == kept
    reshuffle_seq = 1 + AFTER + 1
    for at in range(1, new.version + 1):
        audit = stream_audit(new, at=at)
        assert audit["replay_error"] is None, at
        assert audit["hash_ok"] is True
        moves = min(at - 1, AFTER) + max(0, at - reshuffle_seq)
        assert audit["steps"] == min(moves, 12)  # GameEnded, the last event, is no move
        seed = audit["state"]["rng"]["seed"]
        assert seed == (old.seed if at < reshuffle_seq else new.seed), at
    assert stream_audit(new, at=1 + AFTER)["state"] == stream_audit(old, at=1 + AFTER)["state"]
    words = stream_audit(new, at=reshuffle_seq)["text"]
    assert words.startswith(f"after move {AFTER}, the cards no seat has seen are shuffled again")
    seen = event_json(Event.objects.get(stream=new, seq=reshuffle_seq), full=False, seat=0)
    assert seen["payload"]["effects"][0]["text"].startswith("the arbiter shuffles the stock")


def test_only_a_finished_game_is_continued(seated: list[Any], arbiter: Any) -> None:
    """A live game's seed is still sealed: it must not become a continuation's deal_seed."""
    live = stream_open(game_id="toy-draw", seats=seated[:2], options={"turns": 8})
    live = play_stream(live, stop_after=3)
    with pytest.raises(DisputeError, match="not over"):
        stream_continue(stream_id=live.pk, after_move=2, arbiter=arbiter)
    assert not Stream.objects.filter(context__continues=str(live.pk)).exists()


@pytest.mark.parametrize("game_id", ["13-couronnes", "blazon", "les-7-blasons"])
def test_a_continued_real_game_keeps_what_was_seen_and_plays_to_a_verified_end(
    game_id: str, seated: list[Any], arbiter: Any
) -> None:
    players = engine.get(game_id).min_players
    old = play_to_end(seated[:players], game_id=game_id, bot_seed=f"old-{game_id}")
    new = stream_continue(stream_id=old.pk, after_move=AFTER, arbiter=arbiter)
    game = engine.get(game_id)
    old_at_n, _ = replay_stream(old, until=1 + AFTER)
    continued = current_state(new)
    assert views_without_effects(game, continued, players) == views_without_effects(
        game, old_at_n, players
    )
    if game_id == "13-couronnes":  # ~25 cards: two shuffles agree with odds below 1e-24
        assert continued.draw != old_at_n.draw  # type: ignore[attr-defined]
        assert sorted(continued.draw) == sorted(old_at_n.draw)  # type: ignore[attr-defined]
    if game_id == "blazon":  # ~100 cards
        assert continued.decks != old_at_n.decks  # type: ignore[attr-defined]
    finished_new = play_stream(new, bot_seed=f"new-{game_id}")
    assert finished_new.is_finished
    report = stream_verify(finished_new)
    assert report["ok"] is True, report
