"""Game records (docs/records.md): a stream exported as one self-contained file, and a record
imported from another Herald as a finished, verified game.

The format and its verifier are pure Python (:mod:`engine.record`); this module fills a record
from the store, for one viewer, and writes an imported one back into it.

- :func:`stream_record` (a read): what the caller may see, as the events API gives it to them.
  A finished game's record is complete (every hidden part with its salt, the revealed seed, the
  result); a running game's holds the caller's view only (a spectator's: commitments, no seed).
- :func:`record_import` (a write): refuses, with a sentence, a record that is not complete or
  does not verify, a game already here, a game or edition this Herald does not know; matches
  players by username or creates them as inactive accounts; stores the stream and its events
  exactly as recorded (same id, same hashes), checks them again with the store's own verifier,
  and sends the game to the verification worker as any finished game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext

import engine
from engine.core import UnknownGame
from engine.record import GameRecord, Player, RecordError, RecordEvent, verify
from events.access import StreamAccess
from events.errors import StreamError
from events.hashing import HASH_FORMAT_COMMITTED, stored_payload_from_full, timestamp_text
from events.models import Event, EventType, Stream, StreamSeat, StreamStatus
from events.outbox import outbox_publish
from events.selectors import _shows_hashes, payload_for_viewer, stream_verify
from herald.people import display_names

MAX_NAME = 150  # Django's first_name column


class RecordRefused(StreamError):
    """A record this Herald will not import; the sentence says why."""

    code = "record_refused"


# -- export ------------------------------------------------------------------------------------


def stream_record(access: StreamAccess, *, source: Mapping[str, Any] | None = None) -> GameRecord:
    """The stream's record as this caller may see it: the events as the events API gives them
    (every part in full once the game is over, or to arbiters and staff), the seed and the
    result once the game is over. ``source`` says where it comes from (the site)."""
    stream = access.stream
    full = access.sees_everything
    hashes = _shows_hashes(stream, full=full)
    events = Event.objects.filter(stream=stream).order_by("seq")
    return GameRecord(
        stream=str(stream.pk),
        hash_format=stream.hash_format,
        game=stream.game,
        game_name=_game_name(stream.game),
        edition=stream.edition,
        engine_version=stream.engine_version,
        options=stream.options,
        players=_players(stream),
        seed_commitment=stream.seed_commitment,
        status=stream.status,
        version=stream.version,
        head_hash=stream.head_hash if hashes else None,
        events=[
            _record_event(e, stream, full=full, seat=access.seat, hashes=hashes) for e in events
        ],
        seed=stream.seed if stream.is_finished else None,
        result=stream.result if stream.is_finished else None,
        viewer_seat=None if full else access.seat,
        complete=stream.is_finished,
        exported_at=timestamp_text(timezone.now()),
        source=dict(source or {}),
        public=stream.public,
    )


def complete_record(stream: Stream) -> GameRecord:
    """A finished game's complete record, as anyone may download it (the export command)."""
    if not stream.is_finished:
        raise StreamError(gettext("The game is not over: its complete record is not there yet."))
    return stream_record(StreamAccess(stream=stream, user=AnonymousUser(), seat=None))


def _players(stream: Stream) -> list[Player]:
    seats = list(StreamSeat.objects.filter(stream=stream).select_related("user").order_by("seat"))
    names = display_names(seat.user for seat in seats)
    return [
        Player(s.user.get_username(), names.get(s.user.pk, s.user.get_username())) for s in seats
    ]


def _record_event(
    event: Event, stream: Stream, *, full: bool, seat: int | None, hashes: bool
) -> RecordEvent:
    return RecordEvent(
        seq=event.seq,
        type=event.type,
        seat=event.seat,
        recorded_at=timestamp_text(event.recorded_at),
        payload=payload_for_viewer(event, stream, full=full, seat=seat),
        prev_hash=event.prev_hash if hashes else None,
        hash=event.hash if hashes else None,
    )


def _game_name(game_id: str) -> str:
    try:
        return engine.get(game_id).name
    except UnknownGame:
        return game_id


def record_filename(stream: Stream) -> str:
    """The file name a download suggests: the game, the day it was set up, the stream's first
    characters, e.g. ``les-7-blasons-2026-12-01-3fa1b2c4.json``."""
    day = timezone.localtime(stream.created_at).date().isoformat()
    return f"{slugify(stream.game) or 'game'}-{day}-{str(stream.pk)[:8]}.json"


# -- import ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportOutcome:
    """What an import stored: the stream, and which players were found or created."""

    stream: Stream
    matched: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)


def record_import(*, data: Any, by: AbstractBaseUser | None = None) -> ImportOutcome:
    """Store a finished game's record from another Herald as a finished, verified game.

    Refuses with :class:`RecordRefused` (nothing stored) a file that is not a record, a record
    that is not complete or does not verify offline, a game or edition this Herald does not
    know, a stream already here. Players are matched by username; a username this Herald does
    not have becomes an inactive account with no password (the record's display name as its
    full name), which an organiser can later invite. The stream keeps its id, every event its
    seq, time, payload and hashes, so its chain is the source's; the store's own verifier
    checks it again before the transaction commits, and the verification worker is told the
    game has ended (``game.ended``), as for a game played here.
    """
    record = _complete_record(data)
    if Stream.objects.filter(pk=record.stream).exists():
        raise _already_here(record)
    with transaction.atomic():
        users, matched, created = _seat_users(record.players)
        try:
            with transaction.atomic():
                stream = _store(record, users, by=by)
        except IntegrityError:  # the same record imported at the same moment by someone else
            raise _already_here(record) from None
        report = stream_verify(stream)
        if not report["ok"]:
            transaction.set_rollback(True)
            raise RecordRefused(_failed(report))
        outbox_publish(topic="game.ended", payload={"stream": str(stream.pk)})
    return ImportOutcome(stream, matched, created)


def _already_here(record: GameRecord) -> RecordRefused:
    return RecordRefused(
        gettext("This game is already here: stream {stream} exists.").format(stream=record.stream),
        status=409,
    )


def _complete_record(data: Any) -> GameRecord:
    """The record, read and verified offline: complete, every check passed."""
    try:
        record = GameRecord.from_json(data)
    except RecordError as exc:
        raise RecordRefused(
            gettext("This file is not a game record: {problem}").format(problem=exc)
        ) from None
    if not record.complete:
        raise RecordRefused(
            gettext(
                "Only a finished game's complete record can be imported: this one is a copy of "
                "a running game, without its seed."
            )
        )
    _check_known(record)
    report = verify(record)
    if not report.complete:
        # The verifier's sentence stays in English: it is the offline tool's own report.
        raise RecordRefused(
            gettext("The record does not verify, so it is not imported: it breaks {where}").format(
                where=report.breaks()
            )
        )
    return record


def _check_known(record: GameRecord) -> None:
    try:
        game = engine.get(record.game)
    except UnknownGame:
        raise RecordRefused(
            gettext("This Herald does not know the game {game}.").format(game=record.game)
        ) from None
    editions = game.info().editions
    if record.edition not in editions:
        raise RecordRefused(
            gettext("This Herald does not know the edition {edition} of {game}.").format(
                edition=record.edition, game=game.name
            )
        )


def _failed(report: Mapping[str, Any]) -> str:
    failed = [f"{name}: {c['detail']}" for name, c in report["checks"].items() if not c["ok"]]
    return gettext(
        "The imported game does not verify here, so it is not imported: {failed}"
    ).format(failed="; ".join(failed))


def _seat_users(players: Sequence[Player]) -> tuple[list[Any], list[str], list[str]]:
    """The users of the seats, in order: matched by username, else created inactive."""
    user_model = get_user_model()
    usernames = [player.username for player in players]
    if len(set(usernames)) != len(usernames):
        raise RecordRefused(gettext("The record seats one player twice."))
    found = {u.get_username(): u for u in user_model.objects.filter(username__in=usernames)}
    users, created = [], []
    for player in players:
        user = found.get(player.username)
        if user is None:
            user = user_model.objects.create_user(
                username=player.username, first_name=player.name[:MAX_NAME], is_active=False
            )
            created.append(player.username)
        users.append(user)
    matched = [name for name in usernames if name not in created]
    return users, matched, created


def _store(record: GameRecord, users: Sequence[Any], *, by: AbstractBaseUser | None) -> Stream:
    """The stream row, its seats and its events, exactly as recorded."""
    first, last = record.events[0], record.events[-1]
    ended = next(e for e in record.events if e.type == EventType.GAME_ENDED)
    stream = Stream(
        id=record.stream,
        game=record.game,
        edition=record.edition,
        engine_version=record.engine_version,
        options=record.options,
        players=len(record.players),
        status=StreamStatus.FINISHED,
        version=last.seq,
        head_hash=last.hash,
        hash_format=record.hash_format,
        seed=record.seed,
        seed_commitment=record.seed_commitment,
        result=record.result,
        public=record.public,
        context={"imported": _provenance(record, by)},
        created_by=by,
        created_at=datetime.fromisoformat(first.recorded_at),
        finished_at=datetime.fromisoformat(ended.recorded_at),
    )
    # raw: keep the recorded set-up time (created_at is auto_now_add for streams made here)
    stream.save_base(raw=True, force_insert=True)
    StreamSeat.objects.bulk_create(
        StreamSeat(stream=stream, seat=index, user=user) for index, user in enumerate(users)
    )
    Event.objects.bulk_create(_stored_event(stream, event, record) for event in record.events)
    return stream


def _stored_event(stream: Stream, event: RecordEvent, record: GameRecord) -> Event:
    payload = event.payload
    if record.hash_format == HASH_FORMAT_COMMITTED:
        payload = stored_payload_from_full(payload)
    return Event(
        stream=stream,
        seq=event.seq,
        type=event.type,
        payload=payload,
        seat=event.seat,
        recorded_at=datetime.fromisoformat(event.recorded_at),
        prev_hash=event.prev_hash,
        hash=event.hash,
    )


def _provenance(record: GameRecord, by: AbstractBaseUser | None) -> dict[str, Any]:
    """Where an imported game came from, kept in the stream's context."""
    return {
        "source": dict(record.source),
        "exported_at": record.exported_at,
        "imported_at": timestamp_text(timezone.now()),
        "by": by.get_username() if by is not None else None,
    }
