"""Game records: one self-contained JSON file per game, and the offline verifier.

A record (docs/records.md specifies it) holds a game's setup, every event with its hash, the
revealed seed and the result, the way chess has PGN. Anyone can check one with nothing but
this package: no Django, no database, no network::

    python -m engine.record verify FILE [--json]

The verifier checks, in order, the file's shape, that the setup it states is the one event 1
(hashed) records, the hash chain event by event (by the chain's own rule, engine.core.chain,
the one the event store hashes with), every hidden part against its commitment (salts derived
from the revealed seed), the seed against its commitment, that this engine may replay the
version the game was recorded with, every move's legality and chance outcomes by replaying the
game, and the result. It prints one line per check and, where the record breaks, the event
(``event 17, move 15``) and which check; the exit code is 0 when nothing failed, 1 otherwise.
A running game's record (a spectator's or a player's download) holds no seed: the checks that
need it are reported as not possible yet, and the rest must pass.
"""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import engine
from engine.core import EngineError, Game, ReplayError, Seat, SetupRecord, Text, replay_compatible
from engine.core import seed_commitment as commit_to_seed
from engine.core.chain import (
    GENESIS_HASH,
    HASH_FORMAT_COMMITTED,
    HASH_FORMAT_FULL,
    HASH_FORMATS,
    MOVE_PART,
    NotCanonical,
    chain_hash,
    commitment,
    effect_part,
    event_body,
    part_salt,
    sealed_payload_from_shown,
    stored_payload_from_full,
)
from engine.core.continuation import ReshuffleRule
from engine.core.replay import Replay
from engine.core.text import english

FORMAT = "herald-game-record"
FORMAT_VERSION = 1

GAME_CREATED, MOVE_MADE, GAME_ENDED = "GameCreated", "MoveMade", "GameEnded"
UNSEEN_RESHUFFLED, RULING_MADE = "UnseenReshuffled", "RulingMade"


class RecordError(ValueError):
    """A file that is not a game record of this format; the message says what is wrong."""


# -- the format ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """One seat's player: the username the events name, and the name people read."""

    username: str
    name: str

    def to_json(self) -> dict[str, str]:
        return {"username": self.username, "name": self.name}


@dataclass(frozen=True)
class RecordEvent:
    """One event as the record carries it: its payload as the record's viewer received it
    (every hidden part's value and salt in a complete record), its hashes as stored."""

    seq: int
    type: str
    seat: int | None
    recorded_at: str
    payload: dict[str, Any]
    prev_hash: str | None
    hash: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "type": self.type,
            "seat": self.seat,
            "recorded_at": self.recorded_at,
            "payload": self.payload,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }


@dataclass(frozen=True)
class GameRecord:
    """A game record (docs/records.md): :meth:`from_json` reads and checks a file's shape,
    :meth:`to_json` writes it."""

    stream: str
    hash_format: int
    game: str
    edition: str
    engine_version: str
    options: dict[str, Any]
    players: list[Player]
    seed_commitment: str
    status: str
    version: int
    head_hash: str | None
    events: list[RecordEvent]
    seed: str | None = None
    result: dict[str, Any] | None = None
    viewer_seat: int | None = None
    complete: bool = False
    exported_at: str = ""
    game_name: str = ""
    source: dict[str, Any] = field(default_factory=dict)
    public: bool = True

    def to_json(self) -> dict[str, Any]:
        """The file's JSON object, keys in the order docs/records.md lists them."""
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "complete": self.complete,
            "viewer_seat": self.viewer_seat,
            "exported_at": self.exported_at,
            "source": dict(self.source),
            "stream": self.stream,
            "public": self.public,
            "hash_format": self.hash_format,
            "setup": {
                "game": self.game,
                "game_name": self.game_name,
                "edition": self.edition,
                "engine_version": self.engine_version,
                "options": self.options,
                "players": [player.to_json() for player in self.players],
                "seed_commitment": self.seed_commitment,
            },
            "status": self.status,
            "version": self.version,
            "head_hash": self.head_hash,
            "events": [event.to_json() for event in self.events],
            "seed": self.seed,
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """A record from a file's JSON; :class:`RecordError` names the first field at fault."""
        top = _object(data, "the record")
        if top.get("format") != FORMAT:
            raise RecordError(f"this is not a Herald game record (its format is not {FORMAT!r})")
        version = top.get("format_version")
        if version != FORMAT_VERSION:
            raise RecordError(
                f"record format version {version!r} is unknown here (this verifier reads "
                f"version {FORMAT_VERSION})"
            )
        setup = _object(top.get("setup"), "setup")
        return cls(
            stream=_uuid(top.get("stream")),
            hash_format=_whole(top.get("hash_format"), "hash_format"),
            game=_text(setup.get("game"), "setup.game"),
            game_name=str(setup.get("game_name") or ""),
            edition=_text(setup.get("edition"), "setup.edition"),
            engine_version=_text(setup.get("engine_version"), "setup.engine_version"),
            options=dict(_object(setup.get("options"), "setup.options")),
            players=_players(setup.get("players")),
            seed_commitment=_text(setup.get("seed_commitment"), "setup.seed_commitment"),
            status=_text(top.get("status"), "status"),
            version=_whole(top.get("version"), "version"),
            head_hash=_optional_text(top.get("head_hash"), "head_hash"),
            events=_events(top.get("events")),
            seed=_optional_text(top.get("seed"), "seed"),
            result=None if top.get("result") is None else dict(_object(top["result"], "result")),
            viewer_seat=_optional_whole(top.get("viewer_seat"), "viewer_seat"),
            complete=top.get("complete") is True,
            exported_at=str(top.get("exported_at") or ""),
            source=dict(top.get("source") or {}),
            public=top.get("public") is not False,
        )

    @property
    def names(self) -> list[str]:
        """The players' usernames in seat order (the names the events use)."""
        return [player.username for player in self.players]

    def move_number(self, seq: int) -> int:
        """How many moves the record holds up to event ``seq`` (move n is the n-th move)."""
        return sum(1 for e in self.events if e.type == MOVE_MADE and e.seq <= seq)


def load(path: str | Path) -> GameRecord:
    """Read a record file; :class:`RecordError` when it is not JSON or not a record."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON: {exc}") from None
    return GameRecord.from_json(data)


def dumps(record: GameRecord) -> str:
    """The record as the file's text: JSON, indented so a person can read it, UTF-8."""
    return json.dumps(record.to_json(), ensure_ascii=False, indent=1) + "\n"


def _object(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"{what} is not a JSON object")
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise RecordError(f"{what} is missing or not a string")
    return value


def _optional_text(value: Any, what: str) -> str | None:
    return None if value is None else _text(value, what)


def _whole(value: Any, what: str) -> int:
    if type(value) is not int or value < 0:
        raise RecordError(f"{what} is missing or not a whole number")
    return value


def _optional_whole(value: Any, what: str) -> int | None:
    return None if value is None else _whole(value, what)


def _uuid(value: Any) -> str:
    try:
        return str(uuid.UUID(_text(value, "stream")))
    except ValueError:
        raise RecordError("stream is not a stream id (a UUID)") from None


def _players(value: Any) -> list[Player]:
    if not isinstance(value, list) or not value:
        raise RecordError("setup.players is missing or empty")
    players = []
    for index, item in enumerate(value):
        entry = _object(item, f"setup.players[{index}]")
        username = _text(entry.get("username"), f"setup.players[{index}].username")
        players.append(Player(username, str(entry.get("name") or username)))
    return players


def _events(value: Any) -> list[RecordEvent]:
    if not isinstance(value, list) or not value:
        raise RecordError("events is missing or empty")
    return [_event(item, index) for index, item in enumerate(value)]


def _event(item: Any, index: int) -> RecordEvent:
    where = f"events[{index}]"
    entry = _object(item, where)
    return RecordEvent(
        seq=_whole(entry.get("seq"), f"{where}.seq"),
        type=_text(entry.get("type"), f"{where}.type"),
        seat=_optional_whole(entry.get("seat"), f"{where}.seat"),
        recorded_at=_text(entry.get("recorded_at"), f"{where}.recorded_at"),
        payload=dict(_object(entry.get("payload"), f"{where}.payload")),
        prev_hash=_optional_text(entry.get("prev_hash"), f"{where}.prev_hash"),
        hash=_optional_text(entry.get("hash"), f"{where}.hash"),
    )


# -- checking ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """One check's verdict: ``ok`` True (passed), False (failed: ``seq`` names the event where
    the record breaks, when there is one) or None (not possible with this record)."""

    name: str
    ok: bool | None
    detail: str
    seq: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail, "seq": self.seq}


CHECKS = (
    "format", "setup", "hash_chain", "seed_commitment", "commitments", "engine_version",
    "replay", "result",
)  # fmt: skip


@dataclass
class Report:
    """The verifier's verdict on one record: its checks in :data:`CHECKS` order."""

    checks: list[Check]
    summary: str = ""

    @property
    def ok(self) -> bool:
        """Nothing failed (checks not possible with a running game's record do not fail)."""
        return all(check.ok is not False for check in self.checks)

    @property
    def complete(self) -> bool:
        """Every check ran and passed: the record of a finished game, verified in full."""
        return all(check.ok is True for check in self.checks)

    @property
    def first_failure(self) -> Check | None:
        return next((check for check in self.checks if check.ok is False), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "complete": self.complete,
            "summary": self.summary,
            "checks": [check.to_json() for check in self.checks],
        }

    def lines(self) -> list[str]:
        """The report as a person reads it: the game, one line per check, the verdict."""
        marks = {True: "ok  ", False: "FAIL", None: "--  "}
        width = max(len(name) for name in CHECKS)
        out = [self.summary] if self.summary else []
        out += [f"{marks[c.ok]}  {c.name:<{width}}  {c.detail}" for c in self.checks]
        out.append(self.verdict())
        return out

    def breaks(self) -> str:
        """Where and why the record breaks, e.g. ``at event 17 (replay): ...``; "" if nowhere."""
        failure = self.first_failure
        if failure is None:
            return ""
        where = f"at event {failure.seq} " if failure.seq is not None else ""
        return f"{where}({failure.name}): {failure.detail}"

    def verdict(self) -> str:
        if self.first_failure is not None:
            return f"NOT VERIFIED: the record breaks {self.breaks()}"
        if self.complete:
            return "VERIFIED: the whole game checks out"
        return (
            "INTACT SO FAR: nothing this record holds is wrong, but a running game's record "
            "cannot be verified in full until the game ends and its seed is revealed"
        )


class _Broken(Exception):
    """A check failed at an event: stops that check with its verdict."""

    def __init__(self, detail: str, seq: int | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.seq = seq


def verify(record: GameRecord) -> Report:
    """Every check of the record, in order; a check that depends on a failed one is not run."""
    verifier = _Verifier(record)
    return Report(list(verifier.run()), summary=verifier.summary())


def verify_json(data: Any) -> Report:
    """:func:`verify` of a record's JSON, a malformed one giving a failed ``format`` check."""
    try:
        record = GameRecord.from_json(data)
    except RecordError as exc:
        return Report([Check("format", False, str(exc))])
    return verify(record)


class _Verifier:
    """The checks of one record, run in order by :meth:`run`."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.events = record.events
        self.created: Mapping[str, Any] = {}
        self.ended: RecordEvent | None = None
        self.replayed_result: dict[str, Any] | None = None
        self.game: Game[Any] | None = None

    def summary(self) -> str:
        record = self.record
        players = ", ".join(
            f"{p.name} ({p.username})" if p.name != p.username else p.username
            for p in record.players
        )
        return (
            f"{record.game_name or record.game} ({record.edition}), stream {record.stream}: "
            f"{players}; {len(self.events)} events, {record.status}"
        )

    def run(self) -> Iterator[Check]:
        yield Check("format", True, f"{FORMAT} version {FORMAT_VERSION}, {self._kind()}")
        steps = (
            ("setup", self.check_setup),
            ("hash_chain", self.check_chain),
            ("seed_commitment", self.check_seed),
            ("commitments", self.check_commitments),
            ("engine_version", self.check_engine),
            ("replay", self.check_replay),
            ("result", self.check_result),
        )
        failed = False
        for name, step in steps:
            if failed and name in _NEEDS_A_SOUND_RECORD:
                yield Check(name, None, "not run: an earlier check failed")
                continue
            check = self._run(name, step)
            failed = failed or check.ok is False
            yield check

    def _kind(self) -> str:
        if self.record.complete:
            return "the complete record of a finished game"
        seat = self.record.viewer_seat
        if seat is not None:
            viewer = f"seat {seat + 1}'s"
        elif any(value is None for _, value, _, _ in self._all_hidden_parts()):
            viewer = "a spectator's"
        else:
            viewer = "an arbiter's (every part shown)"
        return f"{viewer} copy of a running game"

    def _all_hidden_parts(self) -> Iterator[tuple[str, Any, Any, str]]:
        for event in self.events:
            yield from _hidden_parts(event.payload)

    def _run(self, name: str, step: Any) -> Check:
        try:
            ok, detail = step()
        except _Broken as broken:
            return Check(name, False, broken.detail, broken.seq)
        return Check(name, ok, detail)

    # -- the setup: what the record says is what event 1 (hashed) records

    def check_setup(self) -> tuple[bool, str]:
        first = self.events[0]
        if first.seq != 1 or first.type != GAME_CREATED:
            raise _Broken("event 1 is not the game's setup (GameCreated)", first.seq)
        self.created = first.payload
        record, created = self.record, self.created
        stated = {
            "game": record.game,
            "edition": record.edition,
            "engine_version": record.engine_version,
            "options": record.options,
            "seats": record.names,
            "seed_commitment": record.seed_commitment,
        }
        for key, value in stated.items():
            if created.get(key) != value:
                raise _Broken(
                    f"the record's setup says {key} {value!r} but event 1 records "
                    f"{created.get(key)!r}",
                    1,
                )
        if record.hash_format not in HASH_FORMATS:
            raise _Broken(f"hash format {record.hash_format} is unknown (known: 1, 2)")
        ended = [e for e in self.events if e.type == GAME_ENDED]
        self.ended = ended[0] if ended else None
        self._check_status()
        return True, (
            f"event 1 sets up {record.game} ({record.edition}, engine {record.engine_version}) "
            f"for {', '.join(self._seat_names())}"
        )

    def _check_status(self) -> None:
        record, ended = self.record, self.ended
        if (record.status == "finished") != (ended is not None):
            raise _Broken(
                f"the record says the game is {record.status} but it "
                f"{'holds' if ended else 'has'} {'a' if ended else 'no'} GameEnded event"
            )
        if record.complete and (ended is None or record.seed is None):
            raise _Broken("the record says it is complete but holds no revealed seed")

    def _seat_names(self) -> list[str]:
        return [f"seat {i + 1} {p.username}" for i, p in enumerate(self.record.players)]

    # -- the hash chain

    def check_chain(self) -> tuple[bool | None, str]:
        record = self.record
        if any(e.hash is None or e.prev_hash is None for e in self.events):
            if record.hash_format == HASH_FORMAT_FULL and not record.complete:
                return None, (
                    "not in this copy: a running game hashed by the old rule (format 1) shows "
                    "its hashes only to arbiters and staff, or once it is over"
                )
            missing = next(e for e in self.events if e.hash is None or e.prev_hash is None)
            raise _Broken(f"event {missing.seq} has no hash", missing.seq)
        previous = GENESIS_HASH
        for expected, event in enumerate(self.events, start=1):
            self._link(event, expected, previous)
            previous = event.hash or ""
        if record.head_hash != previous or record.version != len(self.events):
            raise _Broken(
                "the record's head hash or version is not its last event's: events are missing "
                "at the end, or the head was altered"
            )
        return True, f"{len(self.events)} events chained from the genesis hash to the head"

    def _link(self, event: RecordEvent, expected: int, previous: str) -> None:
        where = self._where(event)
        if event.seq != expected:
            raise _Broken(f"event {expected} is missing: event {event.seq} follows", expected)
        if event.prev_hash != previous:
            raise _Broken(f"{where} does not link to event {event.seq - 1}", event.seq)
        try:
            computed = chain_hash(previous, self._body(event))
        except (NotCanonical, ValueError) as exc:
            raise _Broken(f"{where} cannot be hashed: {exc}", event.seq) from None
        if computed != event.hash:
            raise _Broken(f"{where} does not match its hash: it was altered", event.seq)

    def _body(self, event: RecordEvent) -> dict[str, Any]:
        payload = event.payload
        if self.record.hash_format == HASH_FORMAT_COMMITTED:
            payload = sealed_payload_from_shown(payload)
        return event_body(
            stream_id=self.record.stream,
            seq=event.seq,
            type=event.type,
            seat=event.seat,
            recorded_at=datetime.fromisoformat(event.recorded_at),
            payload=payload,
        )

    def _where(self, event: RecordEvent) -> str:
        """The event as a person finds it: its seq, and its move number and player for a move."""
        if event.type != MOVE_MADE:
            return f"event {event.seq} ({event.type})"
        move = self.record.move_number(event.seq)
        return f"event {event.seq} (move {move}, {self._seat_words(event.seat)})"

    def _seat_words(self, seat: int | None) -> str:
        names = self.record.names
        if seat is None or not 0 <= seat < len(names):
            return f"seat {seat}"
        return f"seat {seat + 1}, {names[seat]}"

    # -- hidden parts against their commitments

    def check_commitments(self) -> tuple[bool | None, str]:
        if self.record.hash_format != HASH_FORMAT_COMMITTED:
            # Nothing is hidden behind a commitment: the chain itself covered every part.
            return True, "none to check: the old rule (format 1) hashes whole payloads"
        checked = withheld = 0
        for event in self.events:
            for part, value, salt, committed in _hidden_parts(event.payload):
                if value is None or salt is None:
                    withheld += 1
                    if self.record.seed is not None:
                        raise _Broken(f"{self._where(event)}: {part} is withheld", event.seq)
                    continue
                self._check_part(event, part, (value, salt, committed))
                checked += 1
        derived = "from the revealed seed" if self.record.seed else "as given"
        detail = f"{checked} hidden parts match their commitments (salts {derived})"
        if withheld:
            return True, f"{detail}; {withheld} withheld from this copy"
        return True, detail

    def _check_part(self, event: RecordEvent, part: str, shown: tuple[Any, str, str]) -> None:
        value, salt, committed = shown
        seed = self.record.seed
        if seed is not None and salt != part_salt(seed, self.record.stream, event.seq, part):
            raise _Broken(
                f"{self._where(event)}: the salt of {part} is not the one the seed gives",
                event.seq,
            )
        if not isinstance(value, dict) or commitment(salt, value) != committed:
            raise _Broken(
                f"{self._where(event)}: {part} does not match its commitment: it was altered",
                event.seq,
            )

    # -- the seed

    def check_seed(self) -> tuple[bool | None, str]:
        seed = self.record.seed
        if seed is None:
            return None, "not revealed yet: the game is not over"
        if commit_to_seed(seed) != self.record.seed_commitment:
            raise _Broken("the seed does not match the commitment recorded in event 1", 1)
        ended = self.ended
        if ended is not None and ended.payload.get("seed") != seed:
            raise _Broken(f"event {ended.seq} reveals a seed that is not the record's", ended.seq)
        return True, "the revealed seed matches the commitment of event 1"

    # -- the engine

    def check_engine(self) -> tuple[bool, str]:
        try:
            self.game = engine.get(self.record.game)
        except EngineError as exc:
            raise _Broken(f"this engine cannot replay the game: {exc}") from None
        recorded, running = self.record.engine_version, self.game.engine_version
        if recorded == running:
            return True, f"replayed with engine version {running}, the one it was recorded with"
        if replay_compatible(recorded, running):
            return True, (
                f"recorded with engine version {recorded}, replayed with {running}: the same "
                "major version, which replays recorded games the same way"
            )
        raise _Broken(
            f"the game was recorded with engine version {recorded} but this engine is "
            f"{running}: its replay cannot vouch for it"
        )

    # -- the replay

    def check_replay(self) -> tuple[bool | None, str]:
        if self.record.seed is None:
            return None, "not possible yet: the replay needs the seed, revealed at the end"
        game = self.game
        assert game is not None  # check_engine ran and passed
        run = self._start(game)
        rule = ReshuffleRule(self._continued_after())
        reshuffled = False
        for event in self.events[1:]:
            if event.type == MOVE_MADE:
                self._replay_move(run, event)
                refusal = rule.refuses_move(moves=run.moves, reshuffled=reshuffled)
            elif event.type == UNSEEN_RESHUFFLED:
                refusal = rule.refuses_reshuffle(moves=run.moves, reshuffled=reshuffled)
                if refusal is None:
                    reshuffled = True
                    run.reshuffle()
                    self._compare_effects(run, event, "the reshuffle's effects")
            else:
                continue
            if refusal:
                raise _Broken(f"{self._where(event)}: {refusal}", event.seq)
        result = game.result(run.state)
        self.replayed_result = None if result is None else result.to_json()
        return True, f"{run.moves} moves replayed, each legal, with the same chance outcomes"

    def _continued_after(self) -> int | None:
        continues = self.created.get("continues") or {}
        if not continues.get("deal_seed"):
            return None
        try:
            return int(continues["after_move"])
        except (KeyError, TypeError, ValueError):
            raise _Broken("event 1 continues a game but says after no valid move", 1) from None

    def _start(self, game: Game[Any]) -> Replay:
        continues = self.created.get("continues") or {}
        setup = SetupRecord(
            game=self.record.game,
            edition=self.record.edition,
            players=len(self.record.players),
            options=self.record.options,
            seed=self.record.seed or "",
            deal_seed=str(continues.get("deal_seed") or ""),
            engine_version=self.record.engine_version,
        )
        try:
            run = Replay(game, setup)
        except (EngineError, ValueError, TypeError) as exc:
            raise _Broken(f"event 1 does not set the game up again: {exc}", 1) from None
        if _effects_json(run.state.effects) != _stored_effects(
            stored_payload_from_full(self.created)
        ):
            raise _Broken("event 1: the setup's chance outcomes differ from the replay's", 1)
        return run

    def _replay_move(self, run: Replay, event: RecordEvent) -> None:
        payload = stored_payload_from_full(event.payload)
        seat, move = payload.get("seat"), payload.get("move")
        if type(seat) is not int or seat != event.seat or not isinstance(move, dict):
            raise _Broken(f"{self._where(event)}: the move's seat or move is malformed", event.seq)
        try:
            run.move(seat, move)
        except ReplayError as exc:
            why = self._refusal_words(exc)
            raise _Broken(
                f"{self._where(event)}: the move is not legal: {why}", event.seq
            ) from None
        except (EngineError, KeyError, ValueError, TypeError) as exc:
            raise _Broken(
                f"{self._where(event)}: the move does not replay: {exc}", event.seq
            ) from None
        self._compare_effects(run, event, "the replay's effects (chance outcomes)")

    def _refusal_words(self, exc: ReplayError) -> str:
        """The engine's refusal with the players' names (it counts seats from 0)."""
        text = getattr(exc.__cause__, "text", None)
        if not isinstance(text, Text):
            return exc.reason
        return _words(text, self.record.names)

    def _compare_effects(self, run: Replay, event: RecordEvent, what: str) -> None:
        if _effects_json(run.state.effects) != _stored_effects(
            stored_payload_from_full(event.payload)
        ):
            raise _Broken(f"{self._where(event)}: {what} differ from the recorded ones", event.seq)

    # -- the result

    def check_result(self) -> tuple[bool | None, str]:
        ended, record = self.ended, self.record
        if record.seed is None:
            return None, "not possible yet: the game is not over"
        replayed = self.replayed_result
        if replayed is None:
            if ended is not None:
                raise _Broken(
                    "the game is recorded as over but the replay has not ended", ended.seq
                )
            return True, "the game goes on: no result yet"
        if ended is None:
            raise _Broken("the replay has ended but no GameEnded event was recorded")
        if ended.payload.get("result") != replayed:
            raise _Broken(f"event {ended.seq}'s result differs from the replay's", ended.seq)
        if record.result != replayed:
            raise _Broken(
                f"the record's result differs from the replay's (and event {ended.seq}'s)",
                ended.seq,
            )
        return True, f"the recorded result equals the replay's: {self._standing(replayed)}"

    def _standing(self, result: Mapping[str, Any]) -> str:
        ranks, scores = result.get("ranks") or [], result.get("scores") or []
        rows = sorted(zip(ranks, scores, self.record.names, strict=False))
        return "; ".join(f"{rank}. {name} ({score})" for rank, score, name in rows)


#: The checks not run once an earlier one failed: they would vouch for a record already known to
#: be wrong there (the seed is still checked: it stands on its own).
_NEEDS_A_SOUND_RECORD = frozenset(
    {"hash_chain", "commitments", "engine_version", "replay", "result"}
)


def _hidden_parts(payload: Mapping[str, Any]) -> Iterator[tuple[str, Any, Any, str]]:
    """(part, value, salt, commitment) of each hidden part a copy of a payload commits to."""
    if "move_commitment" in payload:
        yield MOVE_PART, payload.get("move"), payload.get("move_salt"), payload["move_commitment"]
    effects = payload.get("effects")
    for index, effect in enumerate(effects if isinstance(effects, list) else []):
        if isinstance(effect, dict) and "commitment" in effect:
            yield effect_part(index), effect.get("data"), effect.get("salt"), effect["commitment"]


def _effects_json(effects: Sequence[Any]) -> list[dict[str, Any]]:
    return [effect.to_json() for effect in effects]


def _stored_effects(payload: Mapping[str, Any]) -> Any:
    return payload.get("effects", [])


def _words(text: Text, names: Sequence[str]) -> str:
    """A :class:`Text` in English with each seat shown as its player's username."""

    def word(value: Any) -> str:
        if isinstance(value, Seat) and 0 <= value.index < len(names):
            return names[value.index]
        if isinstance(value, Text):
            return _words(value, names)
        if isinstance(value, tuple):
            return ", ".join(word(item) for item in value)
        return english(value)

    return text.msgid.format(**{key: word(value) for key, value in text.params.items()})


# -- the command -----------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m engine.record verify FILE [--json]``: 0 when nothing failed, else 1."""
    parser = argparse.ArgumentParser(
        prog="python -m engine.record", description="Check Herald game records offline."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("verify", help="verify a game record file")
    check.add_argument("file", help="the record (a .json file downloaded from Herald)")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    try:
        report = verify(load(args.file))
    except RecordError as exc:
        report = Report([Check("format", False, str(exc))])
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=1))
    else:
        print("\n".join(report.lines()))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
