"""Validated appends through the real HTTP stack (gunicorn + PostgreSQL), beside the bare ceiling.

Prints, at 1, 8 and 32 concurrent clients (each on its own stream):
- appends per second and p50/p99 latency of ``POST /api/v1/streams/{id}/moves`` served by
  gunicorn, each move validated by the engine (the toy game of tests/events/toy_game.py);
- the same figures for a bare psycopg transaction of the same shape (lock the stream row,
  insert the event, bump the version) at the same concurrency, and the ratio of the two;
- the same bare transaction behind the thinnest WSGI app (bench/_bare_wsgi.py: no Django, no
  validation) served by the same gunicorn: how close to the bare rate any application served
  this way can come on this machine, so the first ratio can be read against it;
- the CPU each append costs, by process group (gunicorn workers, PostgreSQL, the load
  generator), read from /proc: where the time goes;
- the cost of an append around move 10 and around move 1,000 (median of 30 appends each,
  alternating between short and long streams so both see the same load), which the snapshot
  should keep flat.

Needs PostgreSQL (``BENCH_DATABASE_URL``, default postgres://postgres@127.0.0.1:5432/
herald_events_bench, created if missing and migrated). Runs a few seconds per level
(``BENCH_SECONDS``, default 5).
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import psycopg

ROOT = Path(__file__).resolve().parent.parent
DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/herald_events_bench"
)
SECONDS = float(os.environ.get("BENCH_SECONDS", "5"))
LEVELS = (1, 8, 32)
GUNICORN_WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))  # one per core
GUNICORN_THREADS = int(os.environ.get("BENCH_THREADS", "4"))
LONG_GAMES = 6  # streams for the flatness figure: 3 short, 3 played to move 1,000
CEILING_BASE = 1000  # the bare-behind-gunicorn clients' streams: bare streams from here on


# -- set-up ---------------------------------------------------------------------------------


def ensure_database() -> None:
    url = urlparse(DATABASE_URL)
    name = url.path.lstrip("/")
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def analyze() -> None:
    """ANALYZE the benchmark's database once its data is made, as autovacuum would soon after.

    On a PostgreSQL with autovacuum off (this machine's), tables never analyzed keep the
    planner's default guesses: the move's token query joined every user by a sequential scan,
    and each run's new users made the next run's moves dearer (bench/live.py's PostgreSQL CPU
    per move went from 1.6 to 3.6 ms over one session's runs)."""
    with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
        conn.execute("ANALYZE")


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

    from events.services import stream_open
    from events.states import current_state
    from herald.services import token_issue

    tables = []
    run = uuid.uuid4().hex[:8]
    for index in range(count):
        users = [User.objects.create(username=f"b{run}-{index}-{seat}") for seat in range(2)]
        stream = stream_open(game_id="toy-draw", seats=users, options={"turns": 100_000})
        state: Any = current_state(stream)
        tokens = [token_issue(user)[1] for user in users]
        tables.append(Table(str(stream.pk), tokens, 1, [list(hand) for hand in state.hands]))
    return tables


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_gunicorn(port: int, **extra: str) -> subprocess.Popen[bytes]:
    env = server_environment(**extra)
    command = [
        sys.executable, "-m", "gunicorn", "bench._toy_wsgi:application",
        "--bind", f"127.0.0.1:{port}", "--workers", str(GUNICORN_WORKERS),
        "--worker-class", "gthread", "--threads", str(GUNICORN_THREADS),
        "--keep-alive", "30", "--log-level", "warning",
    ]  # fmt: skip
    return wait_listening(subprocess.Popen(command, cwd=ROOT, env=env), port, "gunicorn")


def server_environment(**extra: str) -> dict[str, str]:
    """A server process's environment: the benchmark's database, no throttle, no Redis for
    the cache and Celery (eager), the channel layer only if ``extra`` names one."""
    env = dict(os.environ)
    env.update(
        # Persistent connections, as production should run: a new PostgreSQL connection per
        # request would cost more than the append itself.
        DATABASE_URL=f"{DATABASE_URL}?conn_max_age=600&conn_health_checks=true",
        BENCH_DATABASE_URL=DATABASE_URL,
        # A load test: the per-user move limit (120/minute) would answer 429 within a second.
        # BENCH_THROTTLE=true measures the limit's own cost (its counters in the cache).
        HERALD_THROTTLE=os.environ.get("BENCH_THROTTLE", "false"),
        DEBUG="false",
        LOG_LEVEL="WARNING",
        PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "platform")]),
    )
    env.pop("REDIS_URL", None)
    env.pop("CHANNEL_LAYER_URL", None)
    env.setdefault("HERALD_LIVE_SEND", "off")
    env.update(extra)
    return env


def wait_listening(
    process: subprocess.Popen[bytes], port: int, name: str
) -> subprocess.Popen[bytes]:
    """The process, once something accepts connections on ``port``."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"{name} did not start")


# -- the HTTP client ------------------------------------------------------------------------


class KeepAliveConnection:
    """A minimal HTTP/1.1 keep-alive client over one socket.

    The load generator shares the machine's cores with gunicorn and PostgreSQL, so it should
    take as little CPU per request as it can: http.client took about three times as much,
    which the server's figures then paid for. Answers must carry a Content-Length (Django's
    CommonMiddleware and the bare app both set it).
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock: socket.socket | None = None
        self.buffer = b""

    def post(self, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        """POST, reconnecting once if the server closed an idle keep-alive connection (callers
        send an Idempotency-Key, which makes the retry safe)."""
        lines = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        request = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\n{lines}\r\n"
        ).encode() + body
        for attempt in range(2):
            try:
                if self.sock is None:
                    self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
                    self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                self.sock.sendall(request)
                return self._response()
            except (ConnectionError, EOFError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def _response(self) -> tuple[int, bytes]:
        while b"\r\n\r\n" not in self.buffer:
            self._receive()
        head, _, rest = self.buffer.partition(b"\r\n\r\n")
        fields = head.lower() + b"\r\n"
        start = fields.find(b"\r\ncontent-length:")
        if start < 0:
            raise RuntimeError(f"an answer without Content-Length: {head!r}")
        length = int(fields[start + 17 : fields.find(b"\r\n", start + 2)])
        self.buffer = rest
        while len(self.buffer) < length:
            self._receive()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        if b"\r\nconnection: close" in fields:
            self.close()
        return int(head[9:12]), body

    def _receive(self) -> None:
        assert self.sock is not None
        chunk = self.sock.recv(65536)
        if not chunk:
            raise EOFError("the server closed the connection")
        self.buffer += chunk

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock, self.buffer = None, b""


class Client:
    """Plays one table over a keep-alive connection: one POST per move, nothing else."""

    def __init__(self, port: int, table: Table) -> None:
        self.conn = KeepAliveConnection(port)
        self.table = table

    def append(self) -> None:
        table = self.table
        seat = (table.version - 1) % 2
        card = table.hands[seat][0]
        body = json.dumps(
            {"move": {"type": "play", "card": card}, "expected_version": table.version}
        ).encode()
        headers = {
            "Authorization": f"Token {table.tokens[seat]}",
            "Content-Type": "application/json",
            "Idempotency-Key": uuid.uuid4().hex,
        }
        url = f"/api/v1/streams/{table.stream_id}/moves"
        status, raw = self.conn.post(url, body, headers)
        if status != 201:
            raise RuntimeError(f"append refused: {status} {raw[:300]!r}")
        answer = json.loads(raw)
        table.hands[seat].remove(card)
        table.hands[seat].append(answer["event"]["payload"]["effects"][0]["data"]["card"])
        table.version = answer["version"]


class BareHttpClient:
    """The bare transaction over HTTP (bench/_bare_wsgi.py): a body of the same size as a move
    request, the same headers, a small JSON answer."""

    def __init__(self, port: int, index: int) -> None:
        self.conn = KeepAliveConnection(port)
        self.index = index

    def append(self) -> None:
        body = json.dumps({"move": {"type": "play", "card": 7}, "expected_version": 1}).encode()
        headers = {
            "Authorization": f"Token {'0' * 40}",
            "Content-Type": "application/json",
            "Idempotency-Key": uuid.uuid4().hex,
        }
        status, raw = self.conn.post(f"/bare/{self.index}", body, headers)
        if status != 201:
            raise RuntimeError(f"the bare app answered {status}: {raw[:200]!r}")
        json.loads(raw)


# -- the bare transaction -------------------------------------------------------------------


def bare_setup(count: int, ceiling_base: int) -> None:
    """Streams 0..count-1 for the bare transaction, ceiling_base.. for it behind gunicorn."""
    with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS bench_bare_event, bench_bare_stream")
        conn.execute("CREATE TABLE bench_bare_stream (id int PRIMARY KEY, version int NOT NULL)")
        conn.execute(
            "CREATE TABLE bench_bare_event (stream_id int REFERENCES bench_bare_stream, "
            "seq int, payload jsonb, hash text, PRIMARY KEY (stream_id, seq))"
        )
        indexes = [*range(count), *range(ceiling_base, ceiling_base + count)]
        with conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO bench_bare_stream VALUES (%s, 0)", [[i] for i in indexes]
            )


class BareClient:
    """Runs the bare transaction (``bench._bare_wsgi.bare_append``) on its own connection."""

    def __init__(self, index: int) -> None:
        from bench._bare_wsgi import bare_append  # importable once django_setup set the path

        self.conn = psycopg.connect(DATABASE_URL)
        self.index = index
        self.run = bare_append

    def append(self) -> None:
        self.run(self.conn, self.index)


# -- where the CPU goes ---------------------------------------------------------------------

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _process_stats() -> dict[int, tuple[str, int, float, float]]:
    """Every process's (command line, parent, CPU seconds so far, CPU seconds of its children
    that ended and were reaped), from /proc (Linux); {} elsewhere. PostgreSQL writes each
    backend's database into its command line."""
    stats = {}
    for entry in Path("/proc").glob("[0-9]*/stat") if Path("/proc/self/stat").exists() else []:
        try:
            text = entry.read_text()
            command = (entry.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, UnicodeDecodeError):
            continue  # the process ended
        fields = text[text.rindex(")") + 2 :].split()
        seconds = (int(fields[11]) + int(fields[12])) / _TICK
        children = (int(fields[13]) + int(fields[14])) / _TICK
        stats[int(entry.parent.name)] = (command, int(fields[1]), seconds, children)
    return stats


def _postgres_counts(command: str, database: str) -> bool:
    """A backend of the benchmark's database, or a PostgreSQL process serving every database
    (WAL writer, checkpointer...); other databases' backends are someone else's work."""
    words = command.split()
    if not words or words[0] != "postgres:":
        return False
    words = [word for word in words[1:] if not word.endswith(":")]  # the cluster's name
    is_backend = len(words) >= 3 and ("(" in words[2] or words[2] == "[local]")
    return not is_backend or words[1] == database


def postgres_seconds(stats: dict[int, tuple[str, int, float, float]], database: str) -> float:
    """CPU seconds so far of PostgreSQL's work: the benchmark database's live backends and the
    shared processes, plus every backend that has ended (the postmaster's reaped children). A
    server that opens a connection per request, as Django does under an ASGI server, leaves
    no live backend to read by the end of a run. Ended backends of other databases count too:
    the benchmarks run on a quiet machine, where there are none."""
    seconds, postmasters = 0.0, set()
    for command, parent, own, _ in stats.values():
        if command.startswith("postgres:"):
            postmasters.add(parent)
        if _postgres_counts(command, database):
            seconds += own
    return seconds + sum(stats[pid][3] for pid in postmasters if pid in stats)


def cpu_by_group(server_pid: int | Sequence[int] | None) -> dict[str, float]:
    """CPU seconds used so far by the server's processes (gunicorn's or an ASGI server's: the
    ``server_pid`` processes and their children), PostgreSQL (for the benchmark's database)
    and this process (the load generator, or the bare transaction's client)."""
    database = urlparse(DATABASE_URL).path.lstrip("/")
    servers = {server_pid} if isinstance(server_pid, int) else set(server_pid or ())
    groups = {"server": 0.0, "PostgreSQL": 0.0, "client": time.process_time()}
    stats = _process_stats()
    for pid, (_, parent, seconds, _) in stats.items():
        if pid in servers or parent in servers:
            groups["server"] += seconds
    groups["PostgreSQL"] = postgres_seconds(stats, database)
    if not servers:
        del groups["server"]
    return groups


# -- measuring ------------------------------------------------------------------------------


@dataclass
class Figures:
    rate: float
    p50_ms: float
    p99_ms: float
    cpu_ms: dict[str, float] = field(default_factory=dict)  # CPU per append, by process group

    def text(self) -> str:
        return f"{self.rate:8.0f}/s  p50 {self.p50_ms:6.1f} ms  p99 {self.p99_ms:6.1f} ms"

    def against(self, bare: Figures) -> str:
        return f"rate {self.rate / bare.rate:.2f}, p99 {self.p99_ms / bare.p99_ms:.1f}x"

    def cpu_text(self) -> str:
        return ", ".join(f"{name} {ms:.2f} ms" for name, ms in self.cpu_ms.items())


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(
    clients: list[Any], seconds: float, server_pid: int | Sequence[int] | None = None
) -> Figures:
    """Every client appends in a loop for ``seconds``; rate, latency and CPU per append."""
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
    cpu_before = cpu_by_group(server_pid)
    began = time.perf_counter()
    stop_at.append(began + seconds)
    start.wait()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    cpu_after = cpu_by_group(server_pid)
    every = [value for values in latencies for value in values]
    cpu_ms = {name: 1000 * (cpu_after[name] - cpu_before[name]) / len(every) for name in cpu_after}
    return Figures(
        len(every) / elapsed,
        1000 * percentile(every, 0.5),
        1000 * percentile(every, 0.99),
        cpu_ms,
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


def print_aim(runs: dict[int, tuple[Figures, Figures, Figures]]) -> None:
    """Issue #19's aim at 8 clients: validated appends against the bare transaction behind the
    same gunicorn (rate >= 0.7, p99 <= 2x), with the app's CPU per append beside the bare
    app's; and the bare psycopg transaction without any server, for scale."""
    if 8 not in runs:
        return
    http, bare, ceiling = runs[8]
    rate, p99 = http.rate / ceiling.rate, http.p99_ms / ceiling.p99_ms
    met = "met" if rate >= 0.7 and p99 <= 2.0 else "not met"
    app, thin = http.cpu_ms.get("server", 0.0), ceiling.cpu_ms.get("server", 0.0)
    print(
        f"aim at 8 clients (validated >= 0.70 of the bare transaction behind the same gunicorn, "
        f"p99 <= 2.0x): {met} (rate {rate:.2f}, p99 {p99:.1f}x); server CPU per append "
        f"{app:.2f} ms against the bare app's {thin:.2f} ms (aim: toward 1.5 ms); "
        f"against the bare transaction with no server: {http.against(bare)}"
    )


# -- the HTTP API under each server, and the live updates' cost ------------------------------

LIVE_LAYER_URL = os.environ.get("BENCH_CHANNEL_LAYER_URL", "redis://127.0.0.1:6379/0")


def asgi_environment(**extra: str) -> dict[str, str]:
    """An ASGI server's environment: psycopg's pool instead of persistent connections, which
    Django's ASGI handler would open once per request thread (PostgreSQL then refuses "too
    many clients"); without psycopg-pool, a connection per request."""
    env = server_environment(**extra)
    env["DATABASE_URL"] = DATABASE_URL
    if importlib.util.find_spec("psycopg_pool") is not None:
        env["DATABASE_POOL"] = "true"
    return env


def start_daphne(ports: Sequence[int], **extra: str) -> list[subprocess.Popen[bytes]]:
    """One daphne process per port (daphne has no workers: a site runs several behind its
    proxy); the clients are spread over the ports."""
    env = asgi_environment(**extra)
    return [
        wait_listening(
            subprocess.Popen(
                [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                 "--access-log", os.devnull, "bench._toy_asgi:application"],
                cwd=ROOT, env=env,
            ),
            port,
            "daphne",
        )
        for port in ports
    ]  # fmt: skip


def start_uvicorn(port: int, **extra: str) -> subprocess.Popen[bytes]:
    """uvicorn with as many worker processes as gunicorn has (uvloop and httptools)."""
    command = [
        sys.executable, "-m", "uvicorn", "bench._toy_asgi:application", "--host", "127.0.0.1",
        "--port", str(port), "--workers", str(GUNICORN_WORKERS), "--no-access-log",
        "--log-level", "warning", "--timeout-keep-alive", "30", "--lifespan", "off",
    ]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, env=asgi_environment(**extra))
    return wait_listening(process, port, "uvicorn")


def start_granian(port: int, **extra: str) -> subprocess.Popen[bytes]:
    """granian (a server written in Rust) serving the same WSGI application, with as many
    worker processes and threads as gunicorn has."""
    command = [
        sys.executable, "-m", "granian", "--interface", "wsgi", "--host", "127.0.0.1",
        "--port", str(port), "--workers", str(GUNICORN_WORKERS),
        "--blocking-threads", str(GUNICORN_THREADS), "--runtime-threads", "1", "--no-ws",
        "--log-level", "warning", "bench._toy_wsgi:application",
    ]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, env=server_environment(**extra))
    return wait_listening(process, port, "granian")


def live_problem() -> str | None:
    """Why the live rows cannot run (no Redis for the channel layer), or None."""
    import redis

    try:
        redis.Redis.from_url(LIVE_LAYER_URL, socket_timeout=2).ping()
    except Exception as exc:
        return f"Redis at {LIVE_LAYER_URL} (BENCH_CHANNEL_LAYER_URL) does not answer: {exc}"
    return None


def server_runs() -> list[tuple[str, str, dict[str, str]]]:
    """(label, server, environment) of each configuration the servers section measures."""
    live = {"CHANNEL_LAYER_URL": LIVE_LAYER_URL, "CHANNEL_LAYER_PREFIX": f"bench{os.getpid()}"}
    runs = [("gunicorn gthread, live updates off", "gunicorn", {"HERALD_LIVE_SEND": "off"})]
    if live_problem() is None:
        runs += [
            ("gunicorn gthread, live direct", "gunicorn", {**live, "HERALD_LIVE_SEND": "direct"}),
            ("gunicorn gthread, live outbox", "gunicorn", {**live, "HERALD_LIVE_SEND": "outbox"}),
            ("daphne, live direct", "daphne", {**live, "HERALD_LIVE_SEND": "direct"}),
        ]
        if importlib.util.find_spec("uvicorn") is not None:  # not a dependency: for comparison
            runs.append(("uvicorn, live direct", "uvicorn", {**live, "HERALD_LIVE_SEND": "direct"}))
        if importlib.util.find_spec("granian") is not None:  # not a dependency: for comparison
            runs.append(
                ("granian WSGI, live direct", "granian", {**live, "HERALD_LIVE_SEND": "direct"})
            )
    return runs


def compare_servers() -> None:
    """Validated appends at each level under each server and live-update mode, same machine,
    same run: gunicorn (today's HTTP server), daphne and uvicorn (ASGI), with
    ``GUNICORN_WORKERS`` processes each; the live modes as events.live sends them."""
    problem = live_problem()
    pool = importlib.util.find_spec("psycopg_pool") is not None
    print(
        f"servers ({GUNICORN_WORKERS} processes each; live rows on the Redis channel layer, "
        f"Celery eager; ASGI servers on {'psycopg_pool' if pool else 'a connection per request'}"
        "): validated appends over HTTP" + (f"; live rows skipped: {problem}" if problem else "")
    )
    for label, server, env in server_runs():
        ports = [free_port() for _ in range(GUNICORN_WORKERS)]
        if server == "gunicorn":
            processes = [start_gunicorn(ports[0], **env)]
            ports = ports[:1]
        elif server == "daphne":
            processes = start_daphne(ports, **env)
        elif server == "granian":
            processes = [start_granian(ports[0], **env)]
            ports = ports[:1]
        else:
            processes = [start_uvicorn(ports[0], **env)]
            ports = ports[:1]
        try:
            tables = make_tables(sum(LEVELS))
            analyze()
            offset = 0
            for level in LEVELS:
                clients = [
                    Client(ports[i % len(ports)], table)
                    for i, table in enumerate(tables[offset : offset + level])
                ]
                for client in clients:
                    client.append()
                figures = measure(clients, SECONDS, [p.pid for p in processes])
                for client in clients:
                    client.conn.close()
                print(f"  {label:<36} {level:>3} clients  {figures.text()}  {figures.cpu_text()}")
                offset += level
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                process.wait(timeout=60)


INTERLEAVED_APPENDS = int(os.environ.get("BENCH_INTERLEAVED", "300"))


def interleaved(title: str, starters: dict[str, Any]) -> None:
    """Configurations side by side: every server up at once, one client taking turns between
    them, so a busy machine's drift hits each alike. Median append latency and the server's
    CPU per append. ``starters``: label -> function(port) returning the server's processes."""
    ports = {label: free_port() for label in starters}
    servers = {label: start(ports[label]) for label, start in starters.items()}
    try:
        tables = make_tables(len(starters))
        analyze()
        clients = {
            label: Client(ports[label], table)
            for label, table in zip(starters, tables, strict=True)
        }
        times: dict[str, list[float]] = {label: [] for label in starters}
        cpu: dict[str, float] = dict.fromkeys(starters, 0.0)
        for client in clients.values():
            client.append()
        for _ in range(INTERLEAVED_APPENDS):
            for label, client in clients.items():
                pids = [process.pid for process in servers[label]]
                before = cpu_by_group(pids)["server"]
                times[label].append(timed_append(client))
                cpu[label] += cpu_by_group(pids)["server"] - before
        print(f"{title}, interleaved ({INTERLEAVED_APPENDS} appends each, one client):")
        for label in starters:
            median = 1000 * statistics.median(times[label])
            per_append = 1000 * cpu[label] / INTERLEAVED_APPENDS
            print(f"  {label:<36} p50 {median:6.2f} ms, server CPU {per_append:5.2f} ms per append")
        for client in clients.values():
            client.conn.close()
    finally:
        for processes in servers.values():
            for process in processes:
                process.terminate()
                process.wait(timeout=60)


def interleaved_runs() -> None:
    """The live modes on gunicorn, then gunicorn against the ASGI servers (live direct)."""
    if live_problem() is not None:
        return
    live = {"CHANNEL_LAYER_URL": LIVE_LAYER_URL, "CHANNEL_LAYER_PREFIX": f"bench{os.getpid()}"}
    interleaved(
        "live updates on gunicorn",
        {
            f"HERALD_LIVE_SEND={mode}": (
                lambda port, mode=mode: [start_gunicorn(port, **live, HERALD_LIVE_SEND=mode)]
            )
            for mode in ("off", "direct", "outbox")
        },
    )
    direct = {**live, "HERALD_LIVE_SEND": "direct"}
    servers: dict[str, Any] = {
        "gunicorn gthread": lambda port: [start_gunicorn(port, **direct)],
        "daphne": lambda port: start_daphne([port], **direct),
    }
    if importlib.util.find_spec("uvicorn") is not None:
        servers["uvicorn"] = lambda port: [start_uvicorn(port, **direct)]
    if importlib.util.find_spec("granian") is not None:
        servers["granian (WSGI)"] = lambda port: [start_granian(port, **direct)]
    interleaved("the HTTP API under each server (live direct)", servers)


def postgres_problem() -> str | None:
    """Why the benchmark's PostgreSQL cannot be used, or None."""
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
    bare_setup(max(LEVELS) * 2, CEILING_BASE)
    analyze()
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
        runs: dict[int, tuple[Figures, Figures, Figures]] = {}
        for level in LEVELS:
            http_clients = [Client(port, table) for table in tables[offset : offset + level]]
            bare_clients = [BareClient(offset + i) for i in range(level)]
            ceiling_clients = [
                BareHttpClient(port, CEILING_BASE + offset + i) for i in range(level)
            ]
            for client in http_clients + bare_clients + ceiling_clients:
                client.append()  # connections open, caches warm
            http = measure(http_clients, SECONDS, server.pid)
            bare = measure(bare_clients, SECONDS)
            ceiling = measure(ceiling_clients, SECONDS, server.pid)
            for client in http_clients + ceiling_clients:
                client.conn.close()  # idle keep-alives would hold gunicorn's shutdown
            print(f"{level:>7}  {http.text():<42}  {bare.text():<42}  {http.against(bare)}")
            print(
                f"{'':>7}  {'ceiling: the bare transaction behind gunicorn, no Django:':<86}"
                f"  {ceiling.against(bare)}  ({ceiling.text().strip()})"
            )
            runs[level] = (http, bare, ceiling)
            offset += level
        print_aim(runs)
        print("CPU per append (the load generator is 'client', and psycopg for the bare one):")
        for level, (http, bare, ceiling) in runs.items():
            print(f"{level:>7}  validated: {http.cpu_text()}")
            print(f"{'':>7}  bare:      {bare.cpu_text()}")
            print(f"{'':>7}  ceiling:   {ceiling.cpu_text()}")
        early, late = flatness(port, tables[-LONG_GAMES:])
        print(
            f"append cost in a stream: move 10 {early:.2f} ms, move 1,000 {late:.2f} ms "
            f"(move 1,000 / move 10 = {late / early:.2f})"
        )
    finally:
        server.terminate()
        server.wait(timeout=60)
    if os.environ.get("BENCH_SERVERS", "true").lower() not in {"0", "false", "no"}:
        compare_servers()
        interleaved_runs()


if __name__ == "__main__":
    main()
