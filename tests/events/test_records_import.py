"""Importing game records: a club moving servers exports its finished games from one Herald and
imports them into another, where each is the same stream (id, events, hashes) and verifies."""

from __future__ import annotations

import copy
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from engine.core.chain import HASH_FORMAT_FULL
from engine.record import GameRecord, dumps, load
from events.models import Event, OutboxEntry, Stream, StreamSeat
from events.records import RecordRefused, complete_record, record_import
from events.selectors import stream_verify
from events.services import stream_open
from ratings.models import Verification
from ratings.verification import game_verify
from tests.events.conftest import make_user
from tests.events.records import (
    GAMES,
    edit_move,
    finished_game,
    illegal_move_at,
    play_to_the_end,
    rehash,
    verify_file,
)

DOWNLOAD = "/api/v1/streams/{}/record"


def exported_games(players: list[User], folder: Path) -> list[Path]:
    """One finished game of each kind, exported with ``manage.py export_record``."""
    for game_id, options, count in GAMES:
        finished_game(game_id, options, players[:count])
    out = StringIO()
    call_command("export_record", "--all-finished", "--out", str(folder), stdout=out)
    assert f"{len(GAMES)} records written" in out.getvalue()
    return sorted(folder.glob("*.json"))


def stored_chain(stream_id: Any) -> list[tuple[Any, ...]]:
    events = Event.objects.filter(stream_id=stream_id).order_by("seq")
    return [(e.seq, e.type, e.seat, e.recorded_at, e.payload, e.prev_hash, e.hash) for e in events]


@pytest.mark.django_db(transaction=True)
def test_games_exported_from_one_herald_import_into_a_fresh_one_unchanged(
    players: list[User], tmp_path: Path
) -> None:
    files = exported_games(players, tmp_path)
    before = {
        str(s.pk): (stored_chain(s.pk), s.head_hash, s.result, s.seed) for s in Stream.objects.all()
    }
    call_command("flush", interactive=False)  # the other Herald: an empty database
    assert not Stream.objects.exists()
    make_user("player0")  # one of the players already has an account there
    out = StringIO()
    call_command("import_record", *map(str, files), stdout=out)
    said = out.getvalue()
    assert said.count("verified") == len(files)
    assert "players matched by username: player0" in said
    assert "players created as inactive accounts: player1" in said
    for stream in Stream.objects.all():
        chain, head, result, seed = before[str(stream.pk)]
        assert stored_chain(stream.pk) == chain
        assert (stream.head_hash, stream.result, stream.seed) == (head, result, seed)
        assert stream.is_finished
        assert stream_verify(stream)["ok"], stream_verify(stream)
        assert OutboxEntry.objects.filter(topic="game.ended", payload={"stream": str(stream.pk)})
        assert game_verify(stream_id=stream.pk).verification.ok
    assert Verification.objects.filter(ok=True).count() == len(files)
    created = User.objects.get(username="player1")
    assert not created.is_active
    assert not created.has_usable_password()
    assert User.objects.get(username="player0").is_active


@pytest.mark.django_db(transaction=True)
def test_an_imported_game_downloads_as_the_same_record(players: list[User], tmp_path: Path) -> None:
    stream = finished_game("13-couronnes", {"max_turns": 8, "hidden_crowns": True}, players[:3])
    exported = json.loads(Client().get(DOWNLOAD.format(stream.pk)).content)
    call_command("flush", interactive=False)
    record_import(data=exported)
    again = json.loads(Client().get(DOWNLOAD.format(stream.pk)).content)
    for key in (
        "stream",
        "hash_format",
        "setup",
        "status",
        "version",
        "head_hash",
        "events",
        "seed",
        "result",
    ):
        assert again[key] == exported[key], key
    path = tmp_path / "again.json"
    path.write_text(json.dumps(again), encoding="utf-8")
    assert verify_file(path).returncode == 0


# -- refusals: nothing is stored ---------------------------------------------------------------


@pytest.fixture
def record(players: list[User]) -> dict[str, Any]:
    stream = finished_game("les-7-blasons", {}, players[:3])
    return complete_record(stream).to_json()


def refused(data: Any) -> str:
    streams, events, users = Stream.objects.count(), Event.objects.count(), User.objects.count()
    with pytest.raises(RecordRefused) as caught:
        record_import(data=data)
    assert (Stream.objects.count(), Event.objects.count(), User.objects.count()) == (
        streams, events, users,
    )  # fmt: skip
    return caught.value.detail


@pytest.mark.django_db
def test_a_game_already_here_is_refused(record: dict[str, Any]) -> None:
    assert "This game is already here" in refused(record)


@pytest.mark.django_db
def test_a_record_that_does_not_verify_is_refused(record: dict[str, Any]) -> None:
    tampered = copy.deepcopy(record)
    tampered["stream"] = "00000000-0000-4000-8000-000000000001"  # as if new: not a duplicate
    detail = refused(tampered)
    assert "does not verify" in detail
    assert "at event 1 (hash_chain)" in detail  # the stream id is in every hash


@pytest.mark.django_db
def test_a_careful_tamper_is_refused_by_the_replay(record: dict[str, Any]) -> None:
    tampered = copy.deepcopy(record)
    seq = edit_move(tampered, 4, illegal_move_at(tampered, 4))
    rehash(tampered, from_seq=seq)
    assert Stream.objects.filter(pk=tampered["stream"]).exists()  # a duplicate too, but the
    detail = refused(tampered)  # record is refused first for what it is
    assert f"at event {seq} (replay)" in detail


@pytest.mark.django_db
def test_a_running_games_copy_is_refused(players: list[User]) -> None:
    stream = stream_open(game_id="les-7-blasons", seats=players[:3])
    copy_of_live = json.loads(Client().get(DOWNLOAD.format(stream.pk)).content)
    assert "Only a finished game's complete record" in refused(copy_of_live)


@pytest.mark.django_db
def test_a_game_or_edition_this_herald_does_not_know_is_refused(record: dict[str, Any]) -> None:
    unknown = copy.deepcopy(record)
    unknown["setup"]["game"] = unknown["events"][0]["payload"]["game"] = "chess"
    rehash(unknown)
    assert "does not know the game chess" in refused(unknown)
    edition = copy.deepcopy(record)
    edition["setup"]["edition"] = edition["events"][0]["payload"]["edition"] = "printed-2031"
    rehash(edition)
    assert "does not know the edition printed-2031" in refused(edition)


@pytest.mark.django_db
def test_a_file_that_is_not_a_record_is_refused(tmp_path: Path) -> None:
    assert "This file is not a game record" in refused({"format": "pgn"})
    path = tmp_path / "broken.json"
    path.write_text("{", encoding="utf-8")
    err = StringIO()
    with pytest.raises(Exception, match="1 of 1 records were not imported"):
        call_command("import_record", str(path), stderr=err)
    assert "cannot read it as JSON" in err.getvalue()


@pytest.mark.django_db
def test_the_written_file_reads_back_as_the_same_record(
    record: dict[str, Any], tmp_path: Path
) -> None:
    path = tmp_path / "r.json"
    path.write_text(dumps(GameRecord.from_json(record)), encoding="utf-8")
    assert load(path).to_json() == record
    assert StreamSeat.objects.filter(stream_id=record["stream"]).count() == 3


@pytest.mark.django_db(transaction=True)
def test_a_game_hashed_by_the_old_rule_exports_verifies_and_imports(
    players: list[User], tmp_path: Path
) -> None:
    stream = play_to_the_end(
        stream_open(game_id="les-7-blasons", seats=players[:3], hash_format=HASH_FORMAT_FULL)
    )
    exported = json.loads(Client().get(DOWNLOAD.format(stream.pk)).content)
    assert exported["hash_format"] == HASH_FORMAT_FULL
    path = tmp_path / "old.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    checked = verify_file(path)
    assert checked.returncode == 0, checked.stdout
    chain = stored_chain(stream.pk)
    call_command("flush", interactive=False)
    imported = record_import(data=exported).stream
    assert imported.hash_format == HASH_FORMAT_FULL
    assert stored_chain(imported.pk) == chain
    assert stream_verify(imported)["ok"]
