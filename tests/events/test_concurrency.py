"""Sixteen clients at once through the real HTTP stack (pytest-django's threaded live server).

Each round, all sixteen read the stream, wait for each other, and post the next move at the
version they read: every accepted move gets its own seq with no gap, every refused one a 409,
and the final state equals a replay of the stored events. Then sixteen identical requests with
one Idempotency-Key store one event and all get the same answer.

It runs on PostgreSQL, and on a SQLite file (the embedded default of ``make run``):
test_concurrency_sqlite.py runs this module again in a subprocess with a SQLite DATABASE_URL.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from django.conf import settings
from django.contrib.auth.models import User

from events.models import Event, EventType, Stream
from events.states import current_state, game_of, replay_stream, state_cache
from tests.users import token_for


def _on_a_sqlite_file() -> bool:
    """A SQLite test database in a file: the live server's threads get their own connections."""
    database = settings.DATABASES["default"]
    name = str(database.get("TEST", {}).get("NAME") or "")
    return database["ENGINE"].endswith("sqlite3") and name not in {"", ":memory:"}


# In-memory SQLite shares one connection among the live server's threads: no real contention.
pytestmark = [
    *(
        []
        if _on_a_sqlite_file()
        else [
            pytest.mark.services(
                "postgres",
                reason="real contention (test_concurrency_sqlite.py runs it on a SQLite file)",
            )
        ]
    ),
    pytest.mark.django_db(transaction=True),
]

CLIENTS = 16
ROUNDS = 8
TIMEOUT = 30


class Player:
    """A client holding every seat's token, so it can always try the seat to act."""

    def __init__(self, base: str, stream: Stream, tokens: list[str]) -> None:
        self.base = f"{base}/api/v1/streams/{stream.pk}"
        self.sessions = []
        for token in tokens:
            session = requests.Session()
            session.headers["Authorization"] = f"Token {token}"
            self.sessions.append(session)

    def next_move(self) -> tuple[int, dict[str, Any], int]:
        """(seat to act, its first legal move, version) as read now."""
        to_act = self.sessions[0].get(f"{self.base}/view", timeout=TIMEOUT).json()["to_act"][0]
        view = self.sessions[to_act].get(f"{self.base}/view", timeout=TIMEOUT).json()
        return to_act, view["legal_moves"][0], view["version"]

    def post(self, seat: int, move: dict[str, Any], version: int, key: str) -> requests.Response:
        return self.sessions[seat].post(
            f"{self.base}/moves",
            json={"move": move, "expected_version": version},
            headers={"Idempotency-Key": key},
            timeout=TIMEOUT,
        )


@pytest.fixture
def table(live_server: Any, open_stream: Callable[..., Stream], players: list[User]) -> Any:
    stream = open_stream(turns=500)
    tokens = [token_for(user) for user in players[:2]]
    return stream, [Player(live_server.url, stream, tokens) for _ in range(CLIENTS)]


def contend(players: list[Player]) -> list[tuple[int, dict[str, Any]]]:
    """ROUNDS rounds in which every client reads, waits for the others, then posts."""
    read, posted = threading.Barrier(CLIENTS), threading.Barrier(CLIENTS)

    def client(player: Player) -> list[tuple[int, dict[str, Any]]]:
        answers = []
        for _ in range(ROUNDS):
            seat, move, version = player.next_move()
            read.wait(timeout=TIMEOUT)
            response = player.post(seat, move, version, key=uuid.uuid4().hex)
            answers.append((response.status_code, response.json()))
            posted.wait(timeout=TIMEOUT)
        return answers

    with ThreadPoolExecutor(CLIENTS) as pool:
        results = list(pool.map(client, players))
    return [answer for answers in results for answer in answers]


def test_concurrent_moves_get_distinct_gap_free_seqs_or_a_409(table: Any) -> None:
    stream, players = table
    answers = contend(players)
    accepted = [body["version"] for status, body in answers if status == 201]
    refused = [(status, body) for status, body in answers if status != 201]
    assert len(accepted) + len(refused) == CLIENTS * ROUNDS
    assert len(accepted) >= ROUNDS  # at least one winner per round
    assert len(set(accepted)) == len(accepted), "two moves got the same seq"
    assert all(s == 409 and b["error"] == "version_conflict" for s, b in refused), refused[:3]
    seqs = list(Event.objects.filter(stream=stream).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(accepted) + 2))
    assert sorted(accepted) == seqs[1:]
    stream.refresh_from_db()
    assert stream.version == seqs[-1]
    served = stream.snapshot
    state_cache.clear()
    Stream.objects.update(snapshot=None, snapshot_version=None)
    stream.refresh_from_db()
    replayed, _ = replay_stream(stream)
    game_state = current_state(stream)
    game = game_of(stream)
    assert game.state_to_json(replayed) == served == game.state_to_json(game_state)


def test_sixteen_identical_retries_store_one_event(table: Any) -> None:
    stream, players = table
    seat, move, version = players[0].next_move()
    start = threading.Barrier(CLIENTS)

    def retry(player: Player) -> tuple[int, dict[str, Any]]:
        start.wait(timeout=TIMEOUT)
        response = player.post(seat, move, version, key="one-key")
        return response.status_code, response.json()

    with ThreadPoolExecutor(CLIENTS) as pool:
        answers = list(pool.map(retry, players))
    assert {status for status, _ in answers} == {201}
    assert all(body == answers[0][1] for _, body in answers)
    stored = Event.objects.filter(stream=stream, type=EventType.MOVE_MADE)
    assert stored.count() == 1
    assert stored.get().idempotency_key == "one-key"
