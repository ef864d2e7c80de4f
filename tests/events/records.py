"""Helpers of the game-record tests: playing games with bots, running the offline verifier as a
person would (a subprocess), and tampering with a record file the way its holder could."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import engine
from engine.bots import RandomBot
from engine.core import SetupRecord
from engine.core.chain import (
    GENESIS_HASH,
    HASH_FORMAT_COMMITTED,
    chain_hash,
    event_body,
    reveal_parts,
    sealed_payload_from_shown,
    stored_payload_from_full,
)
from engine.core.replay import Replay
from events.models import Stream
from events.services import stream_append_move, stream_open
from events.states import current_state

ROOT = Path(__file__).resolve().parents[2]

#: One short game of each kind (options keep 13 Couronnes short).
GAMES = [
    ("les-7-blasons", {}, 3),
    ("blazon", {}, 2),
    ("13-couronnes", {"max_turns": 8, "hidden_crowns": True}, 3),
]


def play_to_the_end(stream: Stream, *, seed: str = "records", max_moves: int = 5000) -> Stream:
    """Random bots play ``stream`` to its end through the event store's service."""
    game = engine.get(stream.game)
    bot = RandomBot(seed)
    for _ in range(max_moves):
        stream.refresh_from_db()
        if stream.is_finished:
            return stream
        state = current_state(stream)
        seat = game.to_act(state)[0]
        move = bot.choose(game, state, seat, game.legal_moves(state, seat))
        stream_append_move(
            stream_id=stream.pk, seat=seat, move=move.to_json(), expected_version=stream.version
        )
    raise AssertionError(f"{stream.game} did not end in {max_moves} moves")


def play_some(stream: Stream, moves: int, *, seed: str = "records") -> Stream:
    """``moves`` random moves (the game must last that long)."""
    game = engine.get(stream.game)
    bot = RandomBot(seed)
    for _ in range(moves):
        stream.refresh_from_db()
        state = current_state(stream)
        seat = game.to_act(state)[0]
        move = bot.choose(game, state, seat, game.legal_moves(state, seat))
        stream_append_move(
            stream_id=stream.pk, seat=seat, move=move.to_json(), expected_version=stream.version
        )
    stream.refresh_from_db()
    return stream


def finished_game(game_id: str, options: dict[str, Any], users: list[Any]) -> Stream:
    stream = stream_open(game_id=game_id, seats=users, options=options)
    return play_to_the_end(stream, seed=f"records/{game_id}")


def verify_file(path: Path) -> subprocess.CompletedProcess[str]:
    """``python -m engine.record verify FILE`` as someone with a checkout of Herald runs it."""
    return subprocess.run(
        [sys.executable, "-m", "engine.record", "verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def write(path: Path, record: dict[str, Any]) -> Path:
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return path


# -- tampering --------------------------------------------------------------------------------


def rehash(record: dict[str, Any], *, from_seq: int = 1) -> None:
    """Recompute, from event ``from_seq`` on, each changed event's commitments (salts derived
    from the record's seed, as the store derives them) and the chain up to the head: what a
    holder of a finished game's record, who knows the rule and the seed, can do."""
    events = record["events"]
    previous = events[from_seq - 2]["hash"] if from_seq > 1 else GENESIS_HASH
    for event in events[from_seq - 1 :]:
        if record["hash_format"] == HASH_FORMAT_COMMITTED:
            stored = stored_payload_from_full(event["payload"])
            event["payload"] = reveal_parts(
                stream_id=record["stream"], seq=event["seq"], type=event["type"],
                payload=stored, seed=record["seed"],
            )  # fmt: skip
            hashed = sealed_payload_from_shown(event["payload"])
        else:
            hashed = event["payload"]
        body = event_body(
            stream_id=record["stream"], seq=event["seq"], type=event["type"],
            seat=event["seat"], recorded_at=_instant(event["recorded_at"]), payload=hashed,
        )  # fmt: skip
        event["prev_hash"] = previous
        event["hash"] = previous = chain_hash(previous, body)
    record["head_hash"] = previous


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text)


def moves_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in record["events"] if e["type"] == "MoveMade"]


def illegal_move_at(record: dict[str, Any], index: int) -> dict[str, Any]:
    """A move that is well formed but not legal for the mover of move ``index`` (0-based)
    where it stands: another move the same seat made elsewhere in the game, found by replaying
    the record up to there."""
    game = engine.get(record["setup"]["game"])
    setup = SetupRecord(
        game=game.id, edition=record["setup"]["edition"], players=len(record["setup"]["players"]),
        options=record["setup"]["options"], seed=record["seed"],
        engine_version=record["setup"]["engine_version"],
    )  # fmt: skip
    run = Replay(game, setup)
    moves = moves_of(record)
    for event in moves[:index]:
        run.move(event["seat"], stored_payload_from_full(event["payload"])["move"])
    seat = moves[index]["seat"]
    legal = [m.to_json() for m in game.legal_moves(run.state, seat)]
    for event in moves:
        candidate = stored_payload_from_full(event["payload"])["move"]
        if event["seat"] == seat and candidate not in legal:
            return dict(candidate)
    raise AssertionError("no illegal candidate found")


def edit_move(record: dict[str, Any], index: int, move: dict[str, Any]) -> int:
    """Put ``move`` in move ``index`` (0-based), as stored (the public move too, when the
    original showed everything); the event's seq."""
    event = moves_of(record)[index]
    stored = stored_payload_from_full(event["payload"])
    if stored.get("public_move") == stored["move"]:
        stored["public_move"] = move
    stored["move"] = move
    event["payload"] = stored
    return int(event["seq"])


Tamper = Callable[[dict[str, Any]], int]
