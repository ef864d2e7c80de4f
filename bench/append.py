"""Validated appends through the real HTTP stack (gunicorn + PostgreSQL), beside the bare ceiling.

Prints, at 1, 8 and 32 concurrent clients (each on its own stream):
- appends per second and p50/p99 latency of ``POST /api/v1/streams/{id}/moves`` served by
  gunicorn, each move validated by the engine (the toy game of tests/events/toy_game.py);
- the same figures for a bare psycopg transaction of the same shape (lock the stream row,
  insert the event, bump the version) at the same concurrency, and the ratio of the two;
- for scale, the rate of a DRF view that touches no database (``GET /api/v1/games``);
- the cost of an append around move 10 and around move 1,000 (median of 30 appends each,
  alternating between short and long streams so both see the same load), which the snapshot
  should keep flat.

Needs PostgreSQL (``BENCH_DATABASE_URL``, default postgres://postgres@127.0.0.1:5432/
herald_events_bench, created if missing and migrated). Runs a few seconds per level
(``BENCH_SECONDS``, default 5).
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/herald_events_bench"
)
SECONDS = float(os.environ.get("BENCH_SECONDS", "5"))
LEVELS = (1, 8, 32)
GUNICORN_WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))  # one per core
GUNICORN_THREADS = int(os.environ.get("BENCH_THREADS", "4"))
LONG_GAMES = 6  # streams for the flatness figure: 3 short, 3 played to move 1,000
PAYLOAD = {"seat": 0, "move": {"type": "play", "card": 7}, "effects": [{"kind": "chance"}]}


# -- set-up ---------------------------------------------------------------------------------


def ensure_database() -> None:
    import psycopg

    url = urlparse(DATABASE_URL)
    name = url.path.lstrip("/")
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def django_setup() -> None:
    os.environ["DATABASE_URL"] = DATABASE_URL
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "herald.settings")
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from engine import registry
    from tests.events.toy_game import GAME

    registry._load()
    registry._registry[GAME.id] = GAME


@dataclass
class Table:
    """One stream and both players' tokens; the client tracks hands from the answers."""

    stream_id: str
    tokens: list[str]
    version: int = 1
    hands: list[list[int]] = field(default_factory=list)


def make_tables(count: int) -> list[Table]:
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    from events.services import stream_open
    from events.states import current_state

    tables = []
    run = uuid.uuid4().hex[:8]
    for index in range(count):
        users = [User.objects.create(username=f"b{run}-{index}-{seat}") for seat in range(2)]
        stream = stream_open(game_id="toy-draw", seats=users, options={"turns": 100_000})
        state: Any = current_state(stream)
        tokens = [Token.objects.create(user=user).key for user in users]
        tables.append(Table(str(stream.pk), tokens, 1, [list(hand) for hand in state.hands]))
    return tables


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_gunicorn(port: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env.update(
        # Persistent connections, as production should run: a new PostgreSQL connection per
        # request would cost more than the append itself.
        DATABASE_URL=f"{DATABASE_URL}?conn_max_age=600&conn_health_checks=true",
        DEBUG="false",
        LOG_LEVEL="WARNING",
        PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "platform")]),
    )
    env.pop("REDIS_URL", None)
    command = [
        sys.executable, "-m", "gunicorn", "bench._toy_wsgi:application",
        "--bind", f"127.0.0.1:{port}", "--workers", str(GUNICORN_WORKERS),
        "--worker-class", "gthread", "--threads", str(GUNICORN_THREADS),
        "--keep-alive", "30", "--log-level", "warning",
    ]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("gunicorn did not start")


# -- the HTTP client ------------------------------------------------------------------------


class Client:
    """Plays one table over a keep-alive connection: one POST per move, nothing else."""

    def __init__(self, port: int, table: Table) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.table = table

    def append(self) -> None:
        table = self.table
        seat = (table.version - 1) % 2
        card = table.hands[seat][0]
        body = json.dumps(
            {"move": {"type": "play", "card": card}, "expected_version": table.version}
        )
        headers = {
            "Authorization": f"Token {table.tokens[seat]}",
            "Content-Type": "application/json",
            "Idempotency-Key": uuid.uuid4().hex,
        }
        status, answer = self._post(f"/api/v1/streams/{table.stream_id}/moves", body, headers)
        if status != 201:
            raise RuntimeError(f"append refused: {status} {answer}")
        table.hands[seat].remove(card)
        table.hands[seat].append(answer["event"]["payload"]["effects"][0]["data"]["card"])
        table.version = answer["version"]

    def _post(self, url: str, body: str, headers: dict[str, str]) -> tuple[int, Any]:
        """POST, reconnecting once if the server closed an idle keep-alive connection (the
        Idempotency-Key makes the retry safe)."""
        for attempt in range(2):
            try:
                self.conn.request("POST", url, body, headers)
                response = self.conn.getresponse()
                return response.status, json.loads(response.read())
            except (ConnectionError, http.client.HTTPException):
                self.conn.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")


class GamesClient:
    """GET /api/v1/games: a DRF view with no database work, the framework's own ceiling."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def append(self) -> None:
        self.conn.request("GET", "/api/v1/games")
        response = self.conn.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"GET /api/v1/games answered {response.status}")


# -- the bare transaction -------------------------------------------------------------------


def bare_setup(count: int) -> None:
    import psycopg

    with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS bench_bare_event, bench_bare_stream")
        conn.execute("CREATE TABLE bench_bare_stream (id int PRIMARY KEY, version int NOT NULL)")
        conn.execute(
            "CREATE TABLE bench_bare_event (stream_id int REFERENCES bench_bare_stream, "
            "seq int, payload jsonb, hash text, PRIMARY KEY (stream_id, seq))"
        )
        for index in range(count):
            conn.execute("INSERT INTO bench_bare_stream VALUES (%s, 0)", [index])


class BareClient:
    """Lock the stream row, insert the event, bump the version: one transaction."""

    def __init__(self, index: int) -> None:
        import psycopg

        self.conn = psycopg.connect(DATABASE_URL)
        self.index = index
        self.payload = json.dumps(PAYLOAD)

    def append(self) -> None:
        with self.conn.transaction():
            (version,) = self.conn.execute(
                "SELECT version FROM bench_bare_stream WHERE id = %s FOR UPDATE", [self.index]
            ).fetchone()  # type: ignore[misc]
            self.conn.execute(
                "INSERT INTO bench_bare_event VALUES (%s, %s, %s, %s)",
                [self.index, version + 1, self.payload, "0" * 64],
            )
            self.conn.execute(
                "UPDATE bench_bare_stream SET version = %s WHERE id = %s", [version + 1, self.index]
            )


# -- measuring ------------------------------------------------------------------------------


@dataclass
class Figures:
    rate: float
    p50_ms: float
    p99_ms: float

    def text(self) -> str:
        return f"{self.rate:8.0f}/s  p50 {self.p50_ms:6.1f} ms  p99 {self.p99_ms:6.1f} ms"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(clients: list[Any], seconds: float) -> Figures:
    """Every client appends in a loop for ``seconds``; rate and latency over all of them."""
    latencies: list[list[float]] = [[] for _ in clients]
    start = threading.Barrier(len(clients) + 1)
    stop_at: list[float] = []

    def run(index: int, client: Any) -> None:
        start.wait()
        while time.perf_counter() < stop_at[0]:
            began = time.perf_counter()
            client.append()
            latencies[index].append(time.perf_counter() - began)

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(clients)]
    for thread in threads:
        thread.start()
    began = time.perf_counter()
    stop_at.append(began + seconds)
    start.wait()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    every = [value for values in latencies for value in values]
    return Figures(
        len(every) / elapsed, 1000 * percentile(every, 0.5), 1000 * percentile(every, 0.99)
    )


def timed_append(client: Client) -> float:
    began = time.perf_counter()
    client.append()
    return time.perf_counter() - began


def play_to(client: Client, move: int) -> None:
    while client.table.version - 1 < move:
        client.append()


def flatness(port: int, tables: list[Table], window: int = 10) -> tuple[float, float]:
    """Median append latency (ms) around move 10 and around move 1,000.

    Half the streams are first played to move 995, the other half to move 5; then appends
    alternate between a short and a long stream, so both are timed under the same load.
    """
    half = len(tables) // 2
    short = [Client(port, table) for table in tables[:half]]
    long = [Client(port, table) for table in tables[half : 2 * half]]
    for client in short:
        play_to(client, 10 - window // 2)
    for client in long:
        play_to(client, 1000 - window // 2)
    early: list[float] = []
    late: list[float] = []
    for _ in range(window):
        for young, old in zip(short, long, strict=True):
            early.append(timed_append(young))
            late.append(timed_append(old))
    return 1000 * statistics.median(early), 1000 * statistics.median(late)


def postgres_problem() -> str | None:
    """Why the benchmark's PostgreSQL cannot be used, or None."""
    import psycopg

    admin = urlparse(DATABASE_URL)._replace(path="/postgres").geturl()
    try:
        psycopg.connect(admin, connect_timeout=3).close()
    except psycopg.Error as exc:
        return f"PostgreSQL at {admin} does not answer ({exc.__class__.__name__})"
    return None


def main() -> None:
    problem = postgres_problem()
    if problem:
        # `make bench` runs every script: on a laptop without PostgreSQL this one says why.
        print(f"skipped: {problem}; set BENCH_DATABASE_URL to a PostgreSQL server")
        return
    ensure_database()
    django_setup()
    tables = make_tables(max(LEVELS) * 2 + LONG_GAMES)
    bare_setup(max(LEVELS) * 2)
    port = free_port()
    server = start_gunicorn(port)
    try:
        print(
            f"gunicorn: {GUNICORN_WORKERS} workers x {GUNICORN_THREADS} threads; {SECONDS:.0f} s per level"
        )
        print(
            f"{'clients':>7}  {'validated appends over HTTP':<42}  {'bare psycopg transaction':<42}  ratio"
        )
        offset = 0
        for level in LEVELS:
            http_clients = [Client(port, table) for table in tables[offset : offset + level]]
            bare_clients = [BareClient(offset + i) for i in range(level)]
            for client in http_clients + bare_clients:
                client.append()  # connections open, caches warm
            http = measure(http_clients, SECONDS)
            bare = measure(bare_clients, SECONDS)
            ratio = http.rate / bare.rate
            p99_ratio = http.p99_ms / bare.p99_ms
            print(
                f"{level:>7}  {http.text():<42}  {bare.text():<42}  rate {ratio:.2f}, p99 {p99_ratio:.1f}x"
            )
            offset += level
        framework = measure([GamesClient(port) for _ in range(8)], SECONDS)
        print(f"for scale, GET /api/v1/games (no database) at 8 clients: {framework.text()}")
        early, late = flatness(port, tables[-LONG_GAMES:])
        print(
            f"append cost in a stream: move 10 {early:.2f} ms, move 1,000 {late:.2f} ms "
            f"(move 1,000 / move 10 = {late / early:.2f})"
        )
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
