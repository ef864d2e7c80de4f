"""Game records: every finished game downloads as one file that ``python -m engine.record verify``
checks offline (a subprocess, as a club member would run it), and every kind of tampering with
the file is caught at the event where it was done."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

import engine
from events.models import Event, Stream
from events.records import record_filename
from events.services import stream_continue_from, stream_open
from herald import demo
from tests.events.conftest import client_for, make_user
from tests.events.records import (
    GAMES,
    edit_move,
    finished_game,
    illegal_move_at,
    moves_of,
    play_some,
    play_to_the_end,
    rehash,
    verify_file,
    write,
)
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


def download(client: Any, stream: Stream) -> dict[str, Any]:
    response = client.get(f"/api/v1/streams/{stream.pk}/record")
    assert response.status_code == 200, response.content[:300]
    return json.loads(response.content)


@pytest.fixture
def small_demo(monkeypatch: pytest.MonkeyPatch, real_games_only: None) -> list[Stream]:
    """The demo night (``manage.py demo``'s own code) with fewer players and rounds, of the
    real games only (the toy game these tests register is no game a demo plays)."""
    small = {game.id: demo.DemoPlan(players=8, rounds=1) for game in engine.games()}
    small["13-couronnes"] = demo.DemoPlan(players=8, rounds=1, options={"max_turns": 6})
    monkeypatch.setattr(demo, "PLANS", small)
    demo.demo_populate(say=lambda line: None)
    return list(Stream.objects.order_by("created_at"))


def test_every_finished_demo_game_verifies_offline(
    small_demo: list[Stream], tmp_path: Path
) -> None:
    assert {stream.game for stream in small_demo} == {game.id for game in engine.games()}
    anonymous = Client()
    for stream in small_demo:
        assert stream.is_finished
        record = download(anonymous, stream)
        assert record["complete"] is True
        assert record["seed"] == stream.seed
        assert record["result"] == stream.result
        path = write(tmp_path / f"{stream.pk}.json", record)
        checked = verify_file(path)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "VERIFIED: the whole game checks out" in checked.stdout
        for name in ("hash_chain", "commitments", "seed_commitment", "replay", "result"):
            assert f"ok    {name}" in checked.stdout, checked.stdout


def test_the_download_is_a_file_named_after_the_game_and_day(players: list[User]) -> None:
    stream = finished_game("les-7-blasons", {}, players[:3])
    response = Client().get(f"/api/v1/streams/{stream.pk}/record")
    day = timezone.localtime(stream.created_at).date().isoformat()
    assert response["Content-Disposition"] == (
        f'attachment; filename="les-7-blasons-{day}-{str(stream.pk)[:8]}.json"'
    )
    record = json.loads(response.content)
    assert record["format"] == "herald-game-record"
    assert record["setup"]["players"][0]["username"] == "player0"
    assert [e["seq"] for e in record["events"]] == list(range(1, stream.version + 1))


@pytest.mark.parametrize(
    ("created_at", "day"),
    [
        (datetime(2026, 12, 1, 22, 59, tzinfo=UTC), "2026-12-01"),
        # Half past eleven at night in UTC is already the next day at the club (Europe/Paris):
        # the file is named after the club's day, the one the players remember.
        (datetime(2026, 12, 1, 23, 30, tzinfo=UTC), "2026-12-02"),
    ],
)
def test_the_file_is_named_after_the_clubs_day(
    created_at: datetime, day: str, settings: Any
) -> None:
    settings.TIME_ZONE = "Europe/Paris"
    stream = Stream(game="les-7-blasons", created_at=created_at)
    assert record_filename(stream) == f"les-7-blasons-{day}-{str(stream.pk)[:8]}.json"


def test_the_record_names_players_by_their_display_names(players: list[User]) -> None:
    named = tournaments.player_create(username="ann", display_name="Ann Martin")
    stream = finished_game("blazon", {}, [named.user, players[1]])
    record = download(Client(), stream)
    assert record["setup"]["players"] == [
        {"username": "ann", "name": "Ann Martin"},
        {"username": "player1", "name": "player1"},
    ]


# -- a running game: each viewer's copy --------------------------------------------------------


@pytest.fixture
def running(players: list[User]) -> Stream:
    stream = stream_open(game_id="les-7-blasons", seats=players[:3])
    return play_some(stream, 6)


def test_a_spectators_download_of_a_running_game_holds_only_what_a_spectator_sees(
    running: Stream, tmp_path: Path
) -> None:
    record = download(Client(), running)
    assert record["complete"] is False
    assert record["viewer_seat"] is None
    assert record["seed"] is None
    assert record["result"] is None
    text = json.dumps(record)
    assert running.seed not in text
    assert '"salt"' not in text
    assert '"move_salt"' not in text
    hidden = [
        effect
        for event in record["events"]
        for effect in event["payload"].get("effects", [])
        if "commitment" in effect
    ]
    assert hidden
    assert all("data" not in effect for effect in hidden)
    checked = verify_file(write(tmp_path / "live.json", record))
    assert checked.returncode == 0, checked.stdout
    assert "ok    hash_chain" in checked.stdout
    assert "--    replay" in checked.stdout
    assert "INTACT SO FAR" in checked.stdout


def test_a_players_download_holds_their_own_hidden_parts_and_no_one_elses(
    running: Stream, players: list[User], tmp_path: Path
) -> None:
    record = download(client_for(players[0]), running)
    assert record["viewer_seat"] == 0
    assert running.seed not in json.dumps(record)
    for event in record["events"]:
        for effect in event["payload"].get("effects", []):
            if "commitment" in effect:
                assert ("data" in effect) == (0 in effect["visible_to"]), effect
    checked = verify_file(write(tmp_path / "mine.json", record))
    assert checked.returncode == 0, checked.stdout
    assert "withheld from this copy" in checked.stdout


def test_a_private_games_record_is_not_found_for_outsiders(players: list[User]) -> None:
    stream = stream_open(game_id="les-7-blasons", seats=players[:3], public=False)
    outsider = make_user("nosy")
    response = client_for(outsider).get(f"/api/v1/streams/{stream.pk}/record")
    assert response.status_code == 404
    assert client_for(players[1]).get(f"/api/v1/streams/{stream.pk}/record").status_code == 200


# -- tampering ---------------------------------------------------------------------------------


@pytest.fixture(params=[game for game, _, _ in GAMES])
def exported(request: pytest.FixtureRequest, players: list[User]) -> dict[str, Any]:
    game_id, options, count = next(g for g in GAMES if g[0] == request.param)
    return download(Client(), finished_game(game_id, options, players[:count]))


def broken_at(tmp_path: Path, record: dict[str, Any]) -> str:
    checked = verify_file(write(tmp_path / "tampered.json", record))
    assert checked.returncode == 1, checked.stdout
    verdict = checked.stdout.strip().splitlines()[-1]
    assert verdict.startswith("NOT VERIFIED"), checked.stdout
    return verdict


def test_an_edited_move_is_caught_at_its_event(exported: dict[str, Any], tmp_path: Path) -> None:
    record = copy.deepcopy(exported)
    index = len(moves_of(record)) // 2
    event = moves_of(record)[index]
    event["payload"]["move"] = illegal_move_at(record, index)
    verdict = broken_at(tmp_path, record)
    assert f"at event {event['seq']} " in verdict
    assert f"move {index + 1}, seat {event['seat'] + 1}" in verdict
    assert "(hash_chain)" in verdict or "(commitments)" in verdict


def test_an_edited_move_with_its_hashes_recomputed_is_caught_by_the_replay(
    exported: dict[str, Any], tmp_path: Path
) -> None:
    record = copy.deepcopy(exported)
    index = len(moves_of(record)) // 2
    seq = edit_move(record, index, illegal_move_at(record, index))
    rehash(record, from_seq=seq)
    verdict = broken_at(tmp_path, record)
    assert f"at event {seq} (replay)" in verdict
    assert f"move {index + 1}" in verdict
    assert "the move is not legal" in verdict


def seats_ranked_apart(ranks: list[int]) -> tuple[int, int]:
    """Two seats whose ranks differ (the first seat and the first one ranked otherwise), so
    that trading their places changes the result; a game where everyone tied has none."""
    for other in range(1, len(ranks)):
        if ranks[other] != ranks[0]:
            return 0, other
    pytest.skip("everyone tied: no trade of places changes the result")


def traded(values: list[Any], first: int, second: int) -> list[Any]:
    changed = list(values)
    changed[first], changed[second] = values[second], values[first]
    return changed


def test_a_swapped_result_is_caught(exported: dict[str, Any], tmp_path: Path) -> None:
    record = copy.deepcopy(exported)
    ended = record["events"][-1]
    assert ended["type"] == "GameEnded"
    first, second = seats_ranked_apart(record["result"]["ranks"])
    for result in (record["result"], ended["payload"]["result"]):
        result["ranks"] = traded(result["ranks"], first, second)
        result["scores"] = traded(result["scores"], first, second)
    assert record["result"]["ranks"] != exported["result"]["ranks"]
    rehash(record, from_seq=ended["seq"])
    verdict = broken_at(tmp_path, record)
    assert f"at event {ended['seq']} (result)" in verdict


def test_a_swapped_result_outside_the_chain_is_caught(
    exported: dict[str, Any], tmp_path: Path
) -> None:
    record = copy.deepcopy(exported)
    first, second = seats_ranked_apart(record["result"]["ranks"])
    record["result"]["ranks"] = traded(record["result"]["ranks"], first, second)
    assert record["result"]["ranks"] != exported["result"]["ranks"]
    assert "(result)" in broken_at(tmp_path, record)


def test_a_wrong_seed_is_caught(exported: dict[str, Any], tmp_path: Path) -> None:
    record = copy.deepcopy(exported)
    record["seed"] = "0" * 64
    record["events"][-1]["payload"]["seed"] = record["seed"]
    rehash(record, from_seq=record["events"][-1]["seq"])
    verdict = broken_at(tmp_path, record)
    assert "at event 1 (seed_commitment)" in verdict


def test_a_file_that_is_not_a_record_is_refused_in_words(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text('{"format": "pgn"}', encoding="utf-8")
    checked = verify_file(path)
    assert checked.returncode == 1
    assert "this is not a Herald game record" in checked.stdout
    path.write_text("not json", encoding="utf-8")
    assert "is not JSON" in verify_file(path).stdout


def test_the_game_page_links_to_its_record(running: Stream) -> None:
    page = Client().get(f"/games/{running.pk}/").content.decode()
    link = f'href="/api/v1/streams/{running.pk}/record" download'
    assert link in page
    assert "Download the game record" in page


def test_a_game_replayed_from_a_move_verifies_with_its_reshuffle(
    players: list[User], tmp_path: Path
) -> None:
    """A "replay from move n" continuation: dealt with the old game's seed, reshuffled once with
    its own right after move n; the verifier follows the same rule, and refuses the reshuffle
    anywhere else."""
    old = finished_game("13-couronnes", {"max_turns": 8, "hidden_crowns": True}, players[:3])
    new = play_to_the_end(stream_continue_from(stream_id=old.pk, after_move=4), seed="again")
    record = download(Client(), new)
    types = [e["type"] for e in record["events"]]
    assert types[5] == "UnseenReshuffled"
    checked = verify_file(write(tmp_path / "continued.json", record))
    assert checked.returncode == 0, checked.stdout
    assert "VERIFIED" in checked.stdout
    moved = copy.deepcopy(record)
    reshuffle = moved["events"][5]
    reshuffle["payload"]["after_move"] = 5
    moved["events"][4], moved["events"][5] = reshuffle, moved["events"][4]
    for seq, event in enumerate(moved["events"], start=1):
        event["seq"] = seq
    rehash(moved)
    verdict = broken_at(tmp_path, moved)
    assert "at event 5 (replay)" in verdict
    assert "the unseen cards are shuffled again right after move 4" in verdict


def test_a_running_games_hidden_moves_stay_hidden_in_others_copies(players: list[User]) -> None:
    """13 Couronnes discards face down: the spectator's and the other players' copies carry the
    public move and its commitment, never the cards; the mover's copy carries them, salted."""
    stream = stream_open(game_id="13-couronnes", seats=players[:3], options={"max_turns": 60})
    mover = None
    for _ in range(300):
        stream = play_some(stream, 1, seed=f"hidden/{stream.version}")
        hidden = [
            e for e in Event.objects.filter(stream=stream, type="MoveMade")
            if e.payload["move"] != e.payload.get("public_move", e.payload["move"])
        ]  # fmt: skip
        if hidden:
            mover = hidden[0]
            break
    assert mover is not None, "no face-down move was played"
    assert not stream.is_finished
    others = [Client(), *(client_for(p) for p in players[:3] if p.pk != players[mover.seat].pk)]
    for client in others:
        record = download(client, stream)
        event = record["events"][mover.seq - 1]
        assert event["payload"]["move"] == mover.payload["public_move"]
        assert "move_commitment" in event["payload"]
        assert "move_salt" not in event["payload"]
        moves = [e["payload"]["move"] for e in record["events"] if e["type"] == "MoveMade"]
        assert mover.payload["move"] not in moves
    own = download(client_for(players[mover.seat]), stream)["events"][mover.seq - 1]["payload"]
    assert own["move"] == mover.payload["move"]
    assert "move_salt" in own


def test_an_arbiters_download_of_a_running_game_shows_every_part_but_no_seed(
    running: Stream, arbiter: User, tmp_path: Path
) -> None:
    record = download(client_for(arbiter), running)
    assert record["complete"] is False
    assert record["seed"] is None
    assert running.seed not in json.dumps(record)
    checked = verify_file(write(tmp_path / "desk.json", record))
    assert checked.returncode == 0, checked.stdout
    assert "an arbiter's (every part shown) copy of a running game" in checked.stdout
    assert "withheld" not in checked.stdout
    assert "INTACT SO FAR" in checked.stdout
