"""Typed payloads (events/payloads.py) give back exactly the stored JSON, so no hash changes.

Real games of each kind are played to the end through the services, a ruling is appended and a
continued game is reshuffled; every payload read back from PostgreSQL (jsonb rewrites key order)
must come out of ``to_payload(from_payload(p))`` equal to itself, and each stream verifies.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from events.models import Event, EventType, Stream
from events.payloads import (
    PAYLOAD_TYPES,
    GameCreated,
    MoveMade,
    PayloadError,
    read_payload,
)
from events.selectors import stream_verify
from events.services import stream_append_ruling, stream_open, stream_reshuffle_unseen
from events.states import ReshuffleRule
from tests.ratings.games import play_stream, play_to_end

pytestmark = [pytest.mark.services("postgres"), pytest.mark.django_db]

REAL_GAMES = sorted(game.id for game in engine.games())


def assert_round_trips(stream: Stream) -> set[str]:
    """Every event's payload survives the typed read and write unchanged; the types seen."""
    seen = set()
    for event in Event.objects.filter(stream=stream).order_by("seq"):
        typed = read_payload(event.type, event.payload)
        assert typed is not None, event.type
        assert typed.to_payload() == event.payload, (event.seq, event.type)
        seen.add(event.type)
    report = stream_verify(stream)
    assert report["ok"] is True, report
    return seen


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_a_real_game_payloads_round_trip_and_the_stream_still_verifies(
    game_id: str, players: list[Any], arbiter: Any
) -> None:
    game = engine.get(game_id)
    stream = play_to_end(players[: game.min_players], game_id=game_id, bot_seed=f"p-{game_id}")
    assert stream.is_finished
    stream_append_ruling(
        stream.pk, arbiter=arbiter, kind="uphold", reason="checked", data={"note": "ok"}
    )
    stream.refresh_from_db()
    seen = assert_round_trips(stream)
    assert {"GameCreated", "MoveMade", "GameEnded", "RulingMade"} <= seen


def test_a_continued_game_payloads_round_trip(players: list[Any]) -> None:
    stream = stream_open(
        game_id="toy-draw",
        seats=players[:2],
        options={"turns": 6},
        continues={"stream": "old", "after_move": 2, "deal_seed": "the old seed"},
    )
    stream = play_stream(stream, stop_after=2)
    stream_reshuffle_unseen(stream_id=stream.pk)
    stream = play_stream(stream)
    assert "UnseenReshuffled" in assert_round_trips(stream)
    created = GameCreated.from_payload(Event.objects.get(stream=stream, seq=1).payload)
    assert (created.deal_seed, created.continued_after) == ("the old seed", 2)


def test_every_event_type_has_one_payload_class() -> None:
    assert set(PAYLOAD_TYPES) == set(EventType.values)
    assert read_payload("SomethingElse", {"any": "thing"}) is None


def test_a_malformed_payload_is_refused_with_a_sentence() -> None:
    with pytest.raises(PayloadError, match="the MoveMade payload has no move"):
        MoveMade.from_payload({"seat": 0})
    with pytest.raises(PayloadError, match="not a JSON object"):
        GameCreated.from_payload(["game"])
    recorded = {"seat": 1, "move": {"type": "pass"}}  # an optional key absent stays absent
    assert MoveMade.from_payload(recorded).to_payload() == recorded


def test_the_reshuffle_rule_once_right_after_move_n() -> None:
    continued, own = ReshuffleRule(3), ReshuffleRule(None)
    assert continued.refuses_reshuffle(moves=3, reshuffled=False) is None
    assert "holds 2 moves" in str(continued.refuses_reshuffle(moves=2, reshuffled=False))
    assert "already" in str(continued.refuses_reshuffle(moves=3, reshuffled=True))
    assert "dealt with its own seed" in str(own.refuses_reshuffle(moves=0, reshuffled=False))
    assert continued.refuses_move(moves=3, reshuffled=False) is None
    assert continued.refuses_move(moves=4, reshuffled=False) == (
        "move 4 was played before the unseen cards were shuffled again"
    )
    assert continued.refuses_move(moves=4, reshuffled=True) is None
    assert own.refuses_move(moves=9, reshuffled=False) is None
