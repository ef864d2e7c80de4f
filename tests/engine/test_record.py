"""The offline verifier of game records (engine/record.py), with no Django and no database.

The records here are written by a small recorder that follows docs/records.md and the chain's
rule (engine.core.chain) on its own: bots play a game through the engine, each event is hashed
as the store hashes it. The verifier must accept them, name the event where an altered one
breaks, and refuse files that are not records, in words.
"""

from __future__ import annotations

import copy
import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.bots import RandomBot
from engine.core import seed_commitment
from engine.core.chain import (
    GENESIS_HASH,
    HASH_FORMAT_COMMITTED,
    HASH_FORMAT_FULL,
    chain_hash,
    event_body,
    hashed_payload,
    reveal_parts,
    timestamp_text,
)
from engine.record import CHECKS, GameRecord, main, verify_json

START = datetime(2026, 12, 1, 19, 30, tzinfo=UTC)


class Recorder:
    """Writes a game's events as the event store does: hashed payloads, commitments."""

    def __init__(self, stream: str, seed: str, hash_format: int) -> None:
        self.stream, self.seed, self.hash_format = stream, seed, hash_format
        self.events: list[dict[str, Any]] = []

    def add(self, type: str, seat: int | None, payload: dict[str, Any]) -> None:
        seq = len(self.events) + 1
        moment = START + timedelta(seconds=seq, microseconds=seq)
        prev = self.events[-1]["hash"] if self.events else GENESIS_HASH
        hashed = hashed_payload(
            stream_id=self.stream, seq=seq, type=type, payload=payload, seed=self.seed,
            hash_format=self.hash_format,
        )  # fmt: skip
        body = event_body(
            stream_id=self.stream, seq=seq, type=type, seat=seat, recorded_at=moment,
            payload=hashed,
        )  # fmt: skip
        shown = payload
        if self.hash_format == HASH_FORMAT_COMMITTED:
            shown = reveal_parts(
                stream_id=self.stream, seq=seq, type=type, payload=payload, seed=self.seed
            )
        self.events.append(
            {
                "seq": seq, "type": type, "seat": seat, "recorded_at": timestamp_text(moment),
                "payload": shown, "prev_hash": prev, "hash": chain_hash(prev, body),
            }
        )  # fmt: skip


def record_game(
    game_id: str, players: int, options: dict[str, Any] | None = None, *,
    seed: str = "offline", hash_format: int = HASH_FORMAT_COMMITTED,
) -> dict[str, Any]:  # fmt: skip
    """A finished game played by random bots, as a complete record's JSON."""
    game = engine.get(game_id)
    edition = game.check_setup(players, None)
    normalized = game.normalize_options(options)
    state = game.new_game(players=players, seed=seed, options=normalized, edition=edition)
    stream = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{game_id}/{seed}"))
    usernames = [f"p{i}" for i in range(players)]
    out = Recorder(stream, seed, hash_format)
    out.add("GameCreated", None, {
        "game": game.id, "edition": edition, "engine_version": game.engine_version,
        "options": normalized, "seats": usernames, "seed_commitment": seed_commitment(seed),
        "effects": [e.to_json() for e in state.effects],
    })  # fmt: skip
    bot = RandomBot(seed)
    while game.to_act(state):
        seat = game.to_act(state)[0]
        move = bot.choose(game, state, seat, game.legal_moves(state, seat))
        game.apply_in_place(state, seat, move)
        out.add("MoveMade", seat, {
            "seat": seat, "move": move.to_json(), "public_move": game.public_move(move, seat),
            "effects": [e.to_json() for e in state.effects],
        })  # fmt: skip
    result = game.result(state)
    assert result is not None
    out.add("GameEnded", None, {"result": result.to_json(), "seed": seed})
    record = GameRecord.from_json({
        "format": "herald-game-record", "format_version": 1, "complete": True,
        "stream": stream, "hash_format": hash_format,
        "setup": {
            "game": game.id, "game_name": game.name, "edition": edition,
            "engine_version": game.engine_version, "options": normalized,
            "players": [{"username": name, "name": name.upper()} for name in usernames],
            "seed_commitment": seed_commitment(seed),
        },
        "status": "finished", "version": len(out.events), "head_hash": out.events[-1]["hash"],
        "events": out.events, "seed": seed, "result": result.to_json(),
    })  # fmt: skip
    return record.to_json()


@pytest.fixture(scope="module", params=["les-7-blasons", "blazon", "13-couronnes"])
def record(request: pytest.FixtureRequest) -> dict[str, Any]:
    options = {"max_turns": 10} if request.param == "13-couronnes" else None
    return record_game(request.param, 3, options)


def verdict_of(data: dict[str, Any]) -> str:
    return verify_json(data).lines()[-1]


def test_a_record_written_from_the_spec_verifies(record: dict[str, Any]) -> None:
    report = verify_json(record)
    assert [check.name for check in report.checks] == list(CHECKS)
    assert report.complete, report.lines()
    assert report.lines()[-1] == "VERIFIED: the whole game checks out"
    assert "P0 (p0)" in report.lines()[0]  # the players by name


def test_a_record_of_the_old_full_payload_rule_verifies() -> None:
    report = verify_json(record_game("les-7-blasons", 3, hash_format=HASH_FORMAT_FULL))
    assert report.complete, report.lines()
    commitments = next(check for check in report.checks if check.name == "commitments")
    assert commitments.detail.startswith("none to check")  # format 1 hashes whole payloads


def test_the_report_reads_as_json_and_the_command_exits_by_the_verdict(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["verify", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True
    assert {c["name"]: c["ok"] for c in report["checks"]} == dict.fromkeys(CHECKS, True)
    broken = copy.deepcopy(record)
    broken["events"][3]["hash"] = "f" * 64
    path.write_text(json.dumps(broken), encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    assert "NOT VERIFIED: the record breaks at event 4 (hash_chain)" in capsys.readouterr().out


def test_a_missing_event_is_named(record: dict[str, Any]) -> None:
    broken = copy.deepcopy(record)
    del broken["events"][6]
    assert "at event 7 (hash_chain): event 7 is missing: event 8 follows" in verdict_of(broken)


def test_a_setup_that_is_not_event_1s_is_caught(record: dict[str, Any]) -> None:
    broken = copy.deepcopy(record)
    broken["setup"]["players"].reverse()
    assert "at event 1 (setup)" in verdict_of(broken)
    assert "seats" in verdict_of(broken)


def test_a_salt_chosen_after_the_fact_is_caught(record: dict[str, Any]) -> None:
    broken = copy.deepcopy(record)
    event = next(
        e for e in broken["events"] if any("salt" in x for x in e["payload"].get("effects", []))
    )
    effect = next(x for x in event["payload"]["effects"] if "salt" in x)
    effect["salt"] = "0" * 64
    assert f"at event {event['seq']} (commitments)" in verdict_of(broken)
    assert "is not the one the seed gives" in verdict_of(broken)


def test_a_status_that_contradicts_the_events_is_caught(record: dict[str, Any]) -> None:
    broken = copy.deepcopy(record)
    broken["status"] = "live"
    assert "(setup)" in verdict_of(broken)


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda r: r.update(format="pgn"), "this is not a Herald game record"),
        (lambda r: r.update(format_version=9), "record format version 9 is unknown"),
        (lambda r: r.update(stream="not-a-uuid"), "stream is not a stream id"),
        (lambda r: r.update(events=[]), "events is missing or empty"),
        (lambda r: r["events"][2].update(seq=-1), "events[2].seq is missing"),
        (lambda r: r["setup"].update(players="p0"), "setup.players is missing"),
        (lambda r: r["events"][1].update(payload=[]), "events[1].payload is not a JSON object"),
    ],
)
def test_a_file_that_is_not_a_record_is_refused_in_words(
    record: dict[str, Any], edit: Any, words: str
) -> None:
    broken = copy.deepcopy(record)
    edit(broken)
    report = verify_json(broken)
    assert not report.ok
    assert words in report.lines()[-1]
