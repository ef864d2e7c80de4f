"""Hash-chain benchmark: what committing to hidden parts costs per event.

For each game, a random-bot game is played with the engine and its events' payloads are built
as the store builds them. Each event is then hashed by the old full-payload rule (hash format 1)
and by the commitment rule (format 2, an HMAC salt and a SHA-256 commitment per hidden part),
alternately in the same process, and a viewer's copy (``reveal_parts`` for one seat) is made as
``GET …/events`` makes it. Prints microseconds per event and the ratio of format 2 to format 1.

    python bench/hashing.py
"""

from __future__ import annotations

import secrets
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path[:0] = [
    str(Path(__file__).resolve().parent.parent),
    str(Path(__file__).resolve().parent.parent / "platform"),
]

import engine  # noqa: E402
from engine.bots import RandomBot  # noqa: E402
from events.hashing import (  # noqa: E402
    HASH_FORMAT_COMMITTED,
    HASH_FORMAT_FULL,
    chain_hash,
    event_body,
    hashed_payload,
    reveal_parts,
)

GAMES = [("les-7-blasons", {}, 4), ("blazon", {}, 3), ("13-couronnes", {"hidden_crowns": True}, 4)]
ROUNDS = 7


def recorded_payloads(
    game_id: str, options: dict[str, Any], players: int
) -> list[tuple[str, dict[str, Any], int | None]]:
    """(type, payload, seat) of every event of one random game, as the store records them."""
    game = engine.get(game_id)
    state = game.new_game(players=players, seed="bench-hash", options=options)
    events: list[tuple[str, dict[str, Any], int | None]] = [
        ("GameCreated", {"game": game_id, "effects": [e.to_json() for e in state.effects]}, None)
    ]
    bots = [RandomBot(f"h/{s}") for s in range(players)]
    while game.result(state) is None and len(events) < 2000:
        seat = game.to_act(state)[0]
        move = bots[seat].choose(game, state, seat, game.legal_moves(state, seat))
        game.apply_in_place(state, seat, move)
        payload = {
            "seat": seat,
            "move": move.to_json(),
            "public_move": game.public_move(move, seat),
            "effects": [e.to_json() for e in state.effects],
        }
        events.append(("MoveMade", payload, seat))
    return events


def per_event_us(events: list[tuple[str, dict[str, Any], int | None]], hash_format: int) -> float:
    stream_id, seed, moment = uuid.uuid4(), secrets.token_hex(32), datetime.now(UTC)
    start = time.perf_counter()
    prev = "0" * 64
    for seq, (kind, payload, seat) in enumerate(events, start=1):
        hashed = hashed_payload(
            stream_id=stream_id,
            seq=seq,
            type=kind,
            payload=payload,
            seed=seed,
            hash_format=hash_format,
        )
        body = event_body(
            stream_id=stream_id, seq=seq, type=kind, seat=seat, recorded_at=moment, payload=hashed
        )
        prev = chain_hash(prev, body)
    return (time.perf_counter() - start) / len(events) * 1e6


def viewer_copy_us(events: list[tuple[str, dict[str, Any], int | None]]) -> float:
    stream_id, seed = uuid.uuid4(), secrets.token_hex(32)
    start = time.perf_counter()
    for seq, (kind, payload, seat) in enumerate(events, start=1):
        reveal_parts(
            stream_id=stream_id,
            seq=seq,
            type=kind,
            payload=payload,
            seed=seed,
            shown=lambda part, s=seat: s == 0,
        )
    return (time.perf_counter() - start) / len(events) * 1e6


def main() -> None:
    for game_id, options, players in GAMES:
        game = engine.get(game_id)
        events = recorded_payloads(game.id, options, players)
        full, committed, viewer = [], [], []
        for _ in range(ROUNDS):  # alternate, so both rules see the same machine load
            full.append(per_event_us(events, HASH_FORMAT_FULL))
            committed.append(per_event_us(events, HASH_FORMAT_COMMITTED))
            viewer.append(viewer_copy_us(events))
        f, c, v = (
            sorted(full)[ROUNDS // 2],
            sorted(committed)[ROUNDS // 2],
            sorted(viewer)[ROUNDS // 2],
        )
        print(
            f"{game_id:14} {len(events):4} events: hash format 1 {f:6.1f} us/event, "
            f"format 2 {c:6.1f} us/event (ratio {c / f:4.2f}); a viewer's copy {v:5.1f} us/event"
        )


if __name__ == "__main__":
    main()
