"""Live tables at scale: from a move's POST to every socket's frame, against the real stack.

Starts the platform as deployed (docker/compose.yaml): gunicorn serving HTTP, daphne serving the
table sockets (``ws/games/<id>/table/``) on the Redis channel layer and drawing them in two
drawing processes of its own (``HERALD_DRAWING_PROCESSES``, play.drawpool), a Celery worker, all on
PostgreSQL and Redis. Then, per level, opens T tables of Les 7 Blasons × 4 seats of WebSocket
clients (each logged in as its seat's player) plus spectators (logged-in users who are not
seated), and bots that POST moves to ``/api/v1/streams/<id>/moves`` at a set total rate. Per
move it measures the time from the POST to the last seat's frame and to the last spectator's
frame showing that version (p50, p99, max), beside the POST's own latency (the validated
append at the same rate); the CPU per move of each process group (server, Redis, PostgreSQL,
worker, load generator); the sockets held and the server's memory per socket; whether every
client ended on its stream's version with its versions in order; and the socket servers'
garbage collections in the timed window (bench/_gc_daphne.py), which stop a server's drawings
while they run.

    python bench/live.py                  # the three levels of issue #19
    BENCH_LEVELS=1 BENCH_SECONDS=10 python bench/live.py
    BENCH_SOCKET_SERVERS=2 python bench/live.py   # the sockets spread over two daphne processes
    BENCH_SOCKET_SERVERS=2 BENCH_SPREAD=table python bench/live.py  # a table's sockets together
    HERALD_DRAWING_PROCESSES=0 python bench/live.py  # daphne draws in its own thread
    CHANNEL_LAYER_BACKEND=herald.layers.RedisChannelLayer python bench/live.py  # the core layer
    BENCH_ARRIVALS=random python bench/live.py  # each bot's moves a Poisson stream
    BENCH_GAME=blazon python bench/live.py  # the tables play Blazon (or 13-couronnes)
    BENCH_NICE=10 python bench/live.py  # the load generator yields the cores to the servers

Levels: 1 = 10 tables × 4 seats at 4 moves/s (a club night), 2 = 100 × 4 at 20 moves/s,
3 = 250 × 4 plus 250 spectators (1,250 sockets) at 40 moves/s. Aims, at every level: p99 push
latency within 2× the append's p99 at the same rate, and within 100 ms; no frame lost or out
of order. Last, in this process: what one seat's drawing and a spectator's cost, and per game
what a move's drawings cost the socket server (``BENCH_LEVELS=`` prints these alone).

Needs PostgreSQL (``BENCH_DATABASE_URL``, default postgres://postgres@127.0.0.1:5432/
herald_live_bench, created if missing and migrated) and Redis (``BENCH_REDIS_URL``, default
redis://127.0.0.1:6379/5: the broker, the cache and the channel layer, under a prefix of its own).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import queue
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/herald_live_bench"
)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5")
SECONDS = float(os.environ.get("BENCH_SECONDS", "20"))
SOCKET_SERVERS = int(os.environ.get("BENCH_SOCKET_SERVERS", "1"))
# How sockets land on the socket servers: "socket", one after another as a load balancer deals
# new connections (a table's seats on different processes, each drawing its own seats at once),
# or "table", every socket of a table on the same process (the figures before 2026-12-06's
# fourth session).
SPREAD = os.environ.get("BENCH_SPREAD", "socket")
# A path: each level's moves (seconds into the run, push and POST in seconds) written to
# ``<path>.<level>.json``.
TIMELINE = os.environ.get("BENCH_TIMELINE", "")
# How each bot spaces its moves: "even", one every ``tables / rate`` seconds from a random start
# (the figures of every session before 2026-12-07's eleventh), or "random", intervals drawn
# from an exponential distribution of the same mean (players thinking for as long as they
# like: the total is then a Poisson stream of moves). The starts come from a fixed seed, so
# with even spacing the instants where several bots' starts fall close together recur every
# interval of every run (at level 2, 12 bots within 0.2 s); random spacing draws the bursts
# anew all along the run; it gave no better ratios in 2026-12-07's runs.
ARRIVALS = os.environ.get("BENCH_ARRIVALS", "even")
# Each daphne's drawing processes (play.drawpool), as docker/compose.yaml runs the sockets
# service; 0 draws in daphne's own thread (the figures before 2026-12-07's session).
DRAWING_PROCESSES = int(os.environ.get("HERALD_DRAWING_PROCESSES", "2"))
# The stack's channel layer (settings.CHANNEL_LAYER_BACKEND): CHANNEL_LAYER_BACKEND=
# herald.layers.RedisChannelLayer runs the core layer Herald ran before 2026-12-06.
LAYER = "pub/sub" if "pubsub" in os.environ.get("CHANNEL_LAYER_BACKEND", "pubsub") else "core"
POSTERS = 8  # threads posting moves, each on its own keep-alive connection
# BENCH_NICE=n lowers the load generator's priority (this process, its bots and sockets) by n,
# so that on a busy machine the servers under test take the cores first; 0: the same priority.
LOAD_NICENESS = int(os.environ.get("BENCH_NICE", "0"))
# The game every table plays: Les 7 Blasons unless BENCH_GAME names another (blazon's frames are
# about six times as large and its seats' drawings twice as long).
GAME = os.environ.get("BENCH_GAME", "les-7-blasons")
SEATS = 4
PREFIX = f"livebench{os.getpid()}"

os.environ["DATABASE_URL"] = DATABASE_URL
os.environ["REDIS_URL"] = REDIS_URL
os.environ["CHANNEL_LAYER_PREFIX"] = PREFIX
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "herald.settings")
os.environ.setdefault("HERALD_THROTTLE", "false")
# As the servers run (stack_environment): the in-process figures below then time what a
# socket server does, without DEBUG's logging of every query.
os.environ.setdefault("DEBUG", "false")
os.environ["BENCH_DATABASE_URL"] = DATABASE_URL  # bench.append's helpers read it

import django  # noqa: E402

django.setup()  # the apps' modules below need the settings

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.typing import Origin  # noqa: E402

from bench.append import (  # noqa: E402
    KeepAliveConnection,
    _process_stats,
    analyze,
    ensure_database,
    free_port,
    percentile,
    postgres_seconds,
)
from engine import registry  # noqa: E402
from events.access import access_stream_for_user  # noqa: E402
from events.models import Stream  # noqa: E402
from events.services import stream_append_move, stream_open  # noqa: E402
from events.states import current_state, state_cache  # noqa: E402
from herald.services import token_issue  # noqa: E402
from play.drawings import DRAWINGS  # noqa: E402
from play.moments import read_moment  # noqa: E402
from play.rendering import public_drawings, render_table  # noqa: E402


@dataclass(frozen=True)
class Level:
    number: int
    tables: int
    spectators: int  # one per table, on the first `spectators` tables
    rate: float  # moves per second, over all tables


LEVELS = (Level(1, 10, 0, 4.0), Level(2, 100, 0, 20.0), Level(3, 250, 250, 40.0))
LATENCY_AIM_MS = 100.0
RATIO_AIM = 2.0


# -- the stack ------------------------------------------------------------------------------


def stack_environment() -> dict[str, str]:
    """Every server process's environment: the benchmark's database (persistent connections,
    as production runs), Redis for the broker, the cache and the channel layer."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"{DATABASE_URL}?conn_max_age=600&conn_health_checks=true",
        DEBUG="false",
        LOG_LEVEL="WARNING",
        HERALD_LIVE_SEND="direct",
        HERALD_DRAWING_PROCESSES=str(DRAWING_PROCESSES),
        CELERY_QUEUE=f"{PREFIX}-celery",
        PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "platform")]),
    )
    return env


@dataclass
class Stack:
    http_port: int
    socket_ports: list[int]
    processes: dict[str, list[subprocess.Popen[bytes]]] = field(default_factory=dict)

    def pids(self, group: str) -> set[int]:
        return {process.pid for process in self.processes.get(group, [])}

    def stop(self) -> None:
        for group in self.processes.values():
            for process in group:
                process.terminate()
        for group in self.processes.values():
            for process in group:
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()


def wait_listening(
    process: subprocess.Popen[bytes], port: int, name: str
) -> subprocess.Popen[bytes]:
    """The process, once something accepts connections on ``port`` (a loaded machine may take
    a minute to import Django three times over)."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            time.sleep(0.3)
    process.kill()
    raise RuntimeError(f"{name} did not start on port {port}")


#: Where the socket servers write down their garbage collections (bench/_gc_daphne.py).
GC_LOG = f"/tmp/herald-live-bench-gc-{os.getpid()}"


def socket_server_collections(since: float, until: float, of: str = "") -> dict[int, list[float]]:
    """The socket servers' collections (``of="-drawing"``: their drawing processes') that ended
    between the Unix times ``since`` and ``until``: their lengths in ms, by generation."""
    found: dict[int, list[float]] = {0: [], 1: [], 2: []}
    for path in Path(GC_LOG).parent.glob(f"{Path(GC_LOG).name}{of}.*"):
        for line in path.read_text().splitlines():
            ended, generation, took = line.split()
            if since <= float(ended) <= until:
                found[int(generation)].append(float(took))
    return found


def start_stack() -> Stack:
    """gunicorn (HTTP, 2 workers × 4 threads: one per core), daphne × BENCH_SOCKET_SERVERS
    (sockets), one Celery worker."""
    stack = Stack(free_port(), [free_port() for _ in range(SOCKET_SERVERS)])
    try:
        start_processes(stack)
    except BaseException:
        stack.stop()
        raise
    return stack


def start_processes(stack: Stack) -> None:
    env = stack_environment()
    gunicorn = [
        sys.executable, "-m", "gunicorn", "herald.wsgi:application",
        "--bind", f"127.0.0.1:{stack.http_port}", "--workers", "2",
        "--worker-class", "gthread", "--threads", "4", "--keep-alive", "30",
        "--log-level", "warning", "--config", str(ROOT / "bench" / "_gc_gunicorn.py"),
    ]  # fmt: skip
    http_env = {**env, "BENCH_GC_LOG": GC_LOG}
    stack.processes["server"] = [subprocess.Popen(gunicorn, cwd=ROOT, env=http_env)]
    wait_listening(stack.processes["server"][0], stack.http_port, "gunicorn")
    for port in stack.socket_ports:
        daphne = [
            sys.executable, "-m", "bench._gc_daphne", "-b", "127.0.0.1", "-p", str(port),
            "--access-log", os.devnull, "--websocket_connect_timeout", "60",
            "herald.asgi:application",
        ]  # fmt: skip
        log = open(f"/tmp/herald-live-bench-daphne-{port}.log", "wb")  # noqa: SIM115
        gc_log = {**env, "BENCH_GC_LOG": GC_LOG}
        process = subprocess.Popen(daphne, cwd=ROOT, env=gc_log, stderr=log, stdout=log)
        stack.processes["server"].append(process)
        wait_listening(process, port, "daphne")
    worker = [
        sys.executable, "-m", "celery", "-A", "herald", "worker", "--concurrency", "1",
        "--loglevel", "WARNING", "-Q", env["CELERY_QUEUE"], "--without-heartbeat",
        "--without-gossip", "--without-mingle",
    ]  # fmt: skip
    stack.processes["worker"] = [
        subprocess.Popen(worker, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ]  # fmt: skip
    settle(stack)


def settle(stack: Stack, quiet: float = 0.05) -> None:
    """Wait until the processes have finished starting (their CPU use falls under ``quiet``
    seconds per second), so that no import or warm-up is counted against the moves."""
    deadline = time.monotonic() + 180
    last = cpu_by_group(stack)
    while time.monotonic() < deadline:
        time.sleep(1)
        now = cpu_by_group(stack)
        busy = ("HTTP server", "socket server", "worker")
        if all(now[group] - last[group] < quiet for group in busy):
            return
        last = now


def cpu_by_group(stack: Stack) -> dict[str, float]:
    """CPU seconds so far of each process group: the servers (gunicorn, daphne, with their
    children), Redis, PostgreSQL (the benchmark database's backends and the shared processes),
    the Celery worker and this process (the load generator)."""
    database = urlparse(DATABASE_URL).path.lstrip("/")
    servers, workers = stack.pids("server"), stack.pids("worker")
    http = {stack.processes["server"][0].pid}  # gunicorn (its workers are its children)
    groups = {"HTTP server": 0.0, "socket server": 0.0, "Redis": 0.0, "PostgreSQL": 0.0}
    groups["worker"] = 0.0
    groups["load generator"] = time.process_time()
    stats = _process_stats()
    for pid, (command, parent, seconds, _) in stats.items():
        if pid in http or parent in http:
            groups["HTTP server"] += seconds
        elif pid in servers or parent in servers:
            groups["socket server"] += seconds
        elif pid in workers or parent in workers:
            groups["worker"] += seconds
        elif command.startswith("redis-server") or "/redis-server" in command.split(" ")[0]:
            groups["Redis"] += seconds
    groups["PostgreSQL"] = postgres_seconds(stats, database)
    return groups


def drawing_pids(stack: Stack) -> set[int]:
    """The socket servers' drawing processes (play.drawpool: spawned by multiprocessing)."""
    servers = stack.pids("server")
    return {
        pid
        for pid, (command, parent, _, _) in _process_stats().items()
        if parent in servers and "spawn_main" in command
    }


def resident_kib(pids: set[int]) -> int:
    """The resident memory of the socket servers (daphne processes), KiB."""
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


# -- the tables -----------------------------------------------------------------------------


@dataclass
class BenchTable:
    """One table: its stream, its seats' tokens and cookies, the state the bots play on."""

    stream_id: str
    tokens: list[str]
    cookies: list[str]
    spectator_cookie: str | None
    state: Any
    version: int
    posted: dict[int, float] = field(default_factory=dict)  # version -> POST started
    answered: dict[int, float] = field(default_factory=dict)  # version -> POST answered


def make_tables(level: Level) -> list[BenchTable]:
    run = uuid.uuid4().hex[:8]

    def cookie(user: Any) -> str:
        client = Client()
        client.force_login(user)
        return f"sessionid={client.cookies['sessionid'].value}"

    tables = []
    for index in range(level.tables):
        users = [User.objects.create(username=f"l{run}-{index}-{seat}") for seat in range(SEATS)]
        stream = stream_open(game_id=GAME, seats=users, public=True, seed=f"{run}-{index}")
        watcher = None
        if index < level.spectators:
            watcher = cookie(User.objects.create(username=f"l{run}-{index}-w"))
        tables.append(
            BenchTable(
                stream_id=str(stream.pk),
                tokens=[token_issue(user)[1] for user in users],
                cookies=[cookie(user) for user in users],
                spectator_cookie=watcher,
                state=current_state(stream),
                version=stream.version,
            )
        )
    return tables


# -- the load generator ---------------------------------------------------------------------


@dataclass
class Socket:
    """One client's table socket: when each version's frame arrived, in arrival order."""

    table: BenchTable
    spectator: bool
    versions: list[int] = field(default_factory=list)
    arrived: list[float] = field(default_factory=list)

    def first_showing(self, version: int) -> float | None:
        """When this socket first showed ``version`` or a later one (a drawing made after a
        later commit stands for the versions it skipped)."""
        for seen, when in zip(self.versions, self.arrived, strict=True):
            if seen >= version:
                return when
        return None


async def listen(
    client: Socket,
    *,
    url: str,
    origin: str,
    cookie: str,
    ready: asyncio.Event,
    arriving: asyncio.Semaphore,
) -> None:
    """One socket for the whole level; ``arriving`` bounds the handshakes under way, as
    players reach their tables a few at a time rather than all in the same millisecond."""
    await arriving.acquire()
    async with connect(
        url, origin=Origin(origin), additional_headers={"Cookie": cookie}, max_size=2**22,
        open_timeout=120, ping_interval=None,
    ) as connection:  # fmt: skip
        async for message in connection:
            frame = json.loads(message)
            if frame["type"] == "presence" and not ready.is_set():
                ready.set()
                arriving.release()
            elif frame["type"] == "table":
                client.arrived.append(time.perf_counter())
                client.versions.append(int(frame["version"]))


class Poster:
    """POSTs moves from a few threads, each with its own keep-alive connection to gunicorn."""

    def __init__(self, port: int) -> None:
        self.jobs: queue.Queue[tuple[BenchTable, int, dict[str, Any], Future[int]] | None]
        self.jobs = queue.Queue()
        self.threads = [
            threading.Thread(target=self.run, args=(KeepAliveConnection(port),), daemon=True)
            for _ in range(POSTERS)
        ]
        for thread in self.threads:
            thread.start()

    def run(self, connection: KeepAliveConnection) -> None:
        while (job := self.jobs.get()) is not None:
            table, seat, move, done = job
            body = json.dumps({"move": move, "expected_version": table.version}).encode()
            headers = {
                "Authorization": f"Token {table.tokens[seat]}",
                "Content-Type": "application/json",
                "Idempotency-Key": uuid.uuid4().hex,
            }
            posted = time.perf_counter()
            try:
                status, raw = connection.post(
                    f"/api/v1/streams/{table.stream_id}/moves", body, headers
                )
                if status != 201:
                    raise RuntimeError(f"move refused: {status} {raw[:300]!r}")
                version = int(json.loads(raw)["version"])
                table.posted[version] = posted
                table.answered[version] = time.perf_counter()
                done.set_result(version)
            except Exception as exc:
                done.set_exception(exc)

    def close(self) -> None:
        for _ in self.threads:
            self.jobs.put(None)


async def bot(
    table: BenchTable, poster: Poster, interval: float, stop_at: float, rng: random.Random
) -> None:
    """Plays the table at one move per ``interval`` seconds on average (random legal moves),
    staggered; evenly spaced or at random (``BENCH_ARRIVALS``)."""
    game = registry.get(GAME)
    await asyncio.sleep(rng.random() * interval)
    next_at = time.perf_counter()
    while time.perf_counter() < stop_at and game.result(table.state) is None:
        seats = game.to_act(table.state)
        if not seats:
            return
        seat = seats[0]
        move = rng.choice(game.legal_moves(table.state, seat))
        done: Future[int] = Future()
        poster.jobs.put((table, seat, move.to_json(), done))
        table.version = await asyncio.wrap_future(done)
        table.state = game.apply(table.state, seat, move)
        next_at += rng.expovariate(1 / interval) if ARRIVALS == "random" else interval
        # Not past the end: the level's rate is its moves over the time the bots played, and a
        # bot waiting out its last interval (6.25 s at level 3) made 40 moves/s read as 36.
        await asyncio.sleep(max(0.0, min(next_at, stop_at) - time.perf_counter()))


@dataclass
class LevelFigures:
    level: Level
    moves: int
    rate: float
    append_ms: tuple[float, float, float]
    seat_ms: tuple[float, float, float]
    spectator_ms: tuple[float, float, float] | None
    cpu_ms: dict[str, float]
    sockets: int
    kib_per_socket: float
    drawing_mib: list[float]  # each drawing process's resident memory, MiB
    lost: int  # sockets not ending on their stream's version
    out_of_order: int  # sockets whose versions went backwards
    # The answer to the last seat's frame: the socket server's part of the push, without the
    # append's own time (a slow POST makes a slow push; this says what the sockets added).
    after_answer_ms: tuple[float, float, float]
    # (seconds into the run, s to the last seat, s of the POST) of the slowest pushes
    slowest: list[tuple[float, float, float]]
    # The socket servers' garbage collections in the timed window: ms each, by generation
    collections: dict[int, list[float]]
    # Their drawing processes' (play.drawpool): each stops that process's drawings
    drawing_collections: dict[int, list[float]]
    # The HTTP server's workers' (bench/_gc_gunicorn.py): each stops that worker's POSTs
    http_collections: dict[int, list[float]]


async def last_frames(sockets: list[Socket], patience: float = 30.0) -> None:
    """Wait until every socket shows its stream's last version, or ``patience`` runs out
    (the sockets still behind then count as lost)."""
    deadline = time.perf_counter() + patience
    while time.perf_counter() < deadline:
        if all(
            not s.table.posted or (s.versions and s.versions[-1] >= s.table.version)
            for s in sockets
        ):
            return
        await asyncio.sleep(0.05)


def spread(values: list[float]) -> tuple[float, float, float]:
    return (percentile(values, 0.5) * 1000, percentile(values, 0.99) * 1000, max(values) * 1000)


async def run_level(level: Level, stack: Stack, tables: list[BenchTable]) -> LevelFigures:
    sockets: list[Socket] = []
    tasks: list[asyncio.Task[None]] = []
    ready: list[asyncio.Event] = []
    arriving = asyncio.Semaphore(8)
    baseline = resident_kib(stack.pids("server") - {stack.processes["server"][0].pid})
    dealt = 0
    for index, table in enumerate(tables):
        clients = [(cookie, False) for cookie in table.cookies]
        if table.spectator_cookie:
            clients.append((table.spectator_cookie, True))
        for cookie, spectator in clients:
            port = stack.socket_ports[(dealt if SPREAD == "socket" else index) % SOCKET_SERVERS]
            dealt += 1
            url = f"ws://127.0.0.1:{port}/ws/games/{table.stream_id}/table/"
            origin = f"http://127.0.0.1:{port}"
            client = Socket(table, spectator)
            event = asyncio.Event()
            sockets.append(client)
            ready.append(event)
            tasks.append(
                asyncio.create_task(
                    listen(
                        client,
                        url=url,
                        origin=origin,
                        cookie=cookie,
                        ready=event,
                        arriving=arriving,
                    )
                )
            )
    await asyncio.wait_for(asyncio.gather(*(event.wait() for event in ready)), 300)
    await asyncio.sleep(1)
    held = resident_kib(stack.pids("server") - {stack.processes["server"][0].pid}) - baseline

    poster = Poster(stack.http_port)
    interval = level.tables / level.rate
    # This process's own full collections (a hundred ms and more over its sockets) would stall
    # every client at once and count as the server's latency: none while the moves are timed.
    gc.collect()
    gc.freeze()
    gc.disable()
    before = cpu_by_group(stack)
    # On stderr, for a profiler to attach to the timed moves (the sockets took a while).
    print(f"level {level.number}: {len(sockets)} sockets open; timing moves", file=sys.stderr)
    started, wall_started = time.perf_counter(), time.time()
    rng = random.Random(level.number)
    await asyncio.gather(
        *(bot(t, poster, interval, started + SECONDS, random.Random(rng.random())) for t in tables)
    )
    elapsed = time.perf_counter() - started
    await last_frames(sockets)
    after = cpu_by_group(stack)
    collections = socket_server_collections(wall_started, time.time())
    drawing_collections = socket_server_collections(wall_started, time.time(), of="-drawing")
    http_collections = socket_server_collections(wall_started, time.time(), of="-http")
    gc.enable()
    gc.unfreeze()
    poster.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    moves = sum(len(table.posted) for table in tables)
    appends: list[float] = []
    seats: list[float] = []
    spectators: list[float] = []
    seats_when: list[tuple[float, float, float]] = []
    after_answer: list[float] = []
    for table in tables:
        mine = [client for client in sockets if client.table is table]
        for version, posted in table.posted.items():
            appends.append(table.answered[version] - posted)
            for group, into in ((False, seats), (True, spectators)):
                shown = [
                    client.first_showing(version) for client in mine if client.spectator is group
                ]
                if shown and all(when is not None for when in shown):
                    into.append(max(when for when in shown if when is not None) - posted)
                    if not group:
                        answer = table.answered[version] - posted
                        seats_when.append((posted - started, into[-1], answer))
                        after_answer.append(into[-1] - answer)
    if TIMELINE:  # every move's (seconds in, push, POST), for a look at when the slow ones came
        Path(f"{TIMELINE}.{level.number}.json").write_text(json.dumps(sorted(seats_when)))
    lost = sum(
        1
        for s in sockets
        if s.table.posted and (not s.versions or s.versions[-1] != s.table.version)
    )
    disordered = sum(
        1 for s in sockets if any(b <= a for a, b in zip(s.versions, s.versions[1:], strict=False))
    )
    return LevelFigures(
        level=level,
        moves=moves,
        rate=moves / elapsed,
        append_ms=spread(appends),
        seat_ms=spread(seats) if seats else (0.0, 0.0, 0.0),
        after_answer_ms=spread(after_answer) if after_answer else (0.0, 0.0, 0.0),
        spectator_ms=spread(spectators) if spectators else None,
        cpu_ms={name: (after[name] - before[name]) * 1000 / max(moves, 1) for name in before},
        sockets=len(sockets),
        kib_per_socket=held / len(sockets),
        drawing_mib=[resident_kib({pid}) / 1024 for pid in sorted(drawing_pids(stack))],
        lost=lost,
        out_of_order=disordered,
        slowest=sorted(seats_when, key=lambda pair: -pair[1])[:8],
        collections=collections,
        drawing_collections=drawing_collections,
        http_collections=http_collections,
    )  # fmt: skip


def collections_text(collections: dict[int, list[float]]) -> str:
    """How many collections of each generation, and how long they took."""
    return ", ".join(
        f"{name} {len(times)}"
        + (f" (max {max(times):.0f} ms, {sum(times):.0f} ms in all)" if times else "")
        for name, times in zip(("young", "middle", "full"), collections.values(), strict=True)
    )


def print_level(figures: LevelFigures) -> None:
    level = figures.level
    spectators = f" + {level.spectators} spectators" if level.spectators else ""
    dealt = f", dealt by {SPREAD}" if SOCKET_SERVERS > 1 else ""
    drawing = (
        f"{DRAWING_PROCESSES} drawing processes each"
        if DRAWING_PROCESSES
        else "drawing in its own thread"
    )
    print(
        f"level {level.number}: {level.tables} tables of {GAME} × {SEATS} seats{spectators} "
        f"({figures.sockets} sockets on {SOCKET_SERVERS} daphne{dealt}, {drawing}, "
        f"{LAYER} layer), "
        f"aim {level.rate:g} moves/s" + (", spaced at random" if ARRIVALS == "random" else "")
    )
    print(f"  moves: {figures.moves} in {SECONDS:g} s ({figures.rate:.1f}/s)")
    names = ("p50", "p99", "max")

    def line(label: str, values: tuple[float, float, float]) -> None:
        print(
            f"  {label:<34}"
            + "  ".join(f"{n} {v:6.1f} ms" for n, v in zip(names, values, strict=True))
        )

    line("POST (the validated append)", figures.append_ms)
    line("POST → last seat's frame", figures.seat_ms)
    line("  of which answer → last seat", figures.after_answer_ms)
    if figures.spectator_ms is not None:
        line("POST → last spectator's frame", figures.spectator_ms)
    cpu = ", ".join(f"{name} {ms:.1f} ms" for name, ms in figures.cpu_ms.items())
    print(f"  CPU per move: {cpu}")
    print(f"  server memory per socket: {figures.kib_per_socket:.0f} KiB", end="")
    if figures.drawing_mib:
        each = ", ".join(f"{mib:.0f}" for mib in figures.drawing_mib)
        print(f"; its drawing processes: {each} MiB resident", end="")
    print()
    # When the slowest pushes came tells a periodic stall (heartbeats, collections) from a burst.
    slowest = ", ".join(
        f"{push * 1000:.0f} ms (POST {post * 1000:.0f}) at {at:.1f} s"
        for at, push, post in figures.slowest
    )
    print(f"  slowest pushes: {slowest}")
    # Each collection stops a socket server's loop and drawings while it runs (herald.quietgc).
    print(f"  socket servers' collections: {collections_text(figures.collections)}")
    if DRAWING_PROCESSES:
        print(f"  drawing processes' collections: {collections_text(figures.drawing_collections)}")
    print(f"  HTTP server's collections: {collections_text(figures.http_collections)}")
    worst = max(figures.seat_ms[1], figures.spectator_ms[1] if figures.spectator_ms else 0.0)
    ratio = worst / figures.append_ms[1] if figures.append_ms[1] else float("inf")
    checks = [
        (f"p99 push {worst:.1f} ms ≤ {RATIO_AIM:g}× the append's p99 ({ratio:.2f}×)", ratio <= RATIO_AIM),
        (f"p99 push {worst:.1f} ms ≤ {LATENCY_AIM_MS:g} ms", worst <= LATENCY_AIM_MS),
        (
            f"every socket ends on its stream's version, in order ({figures.lost} lost, "
            f"{figures.out_of_order} out of order)",
            figures.lost == 0 and figures.out_of_order == 0,
        ),
    ]  # fmt: skip
    for text, met in checks:
        print(f"  aim: {text}: {'met' if met else 'not met'}")


# -- in one process -------------------------------------------------------------------------


def drawing_costs(table: BenchTable) -> None:
    """What a seat's drawing and a spectator's cost without the sockets (median of 30)."""
    stream = Stream.objects.get(pk=table.stream_id)
    seat_user = stream.seats.order_by("seat").first().user
    seat_times, cold, warm = [], [], []
    for _ in range(30):
        access = access_stream_for_user(seat_user, stream.pk)
        started = time.perf_counter()
        render_table(access, "en", [True] * SEATS)
        seat_times.append(time.perf_counter() - started)
        public_drawings.clear()
        started = time.perf_counter()
        render_table(access_stream_for_user(None, stream.pk), "en", [True] * SEATS)
        cold.append(time.perf_counter() - started)
        started = time.perf_counter()
        render_table(access_stream_for_user(None, stream.pk), "en", [True] * SEATS)
        warm.append(time.perf_counter() - started)
    ms = [statistics.median(samples) * 1000 for samples in (seat_times, cold, warm)]
    print("in one process, without sockets (median of 30):")
    print(
        f"  a seat's drawing {ms[0]:.2f} ms; a spectator's first drawing of a version {ms[1]:.2f} ms,"
    )
    print(f"  a spectator's from the shared cache {ms[2]:.3f} ms")


DRAWN_MOVES = 60  # how far into each game the socket server's drawings are measured


class RandomGame:
    """A 4-seat game of ``game_id`` whose seats make random moves through the event store."""

    def __init__(self, game_id: str, run: str, rng: random.Random) -> None:
        self.users = [
            User.objects.create(username=f"d{run}-{game_id}-{seat}") for seat in range(SEATS)
        ]
        self.stream = stream_open(
            game_id=game_id, seats=self.users, public=True, seed=f"{run}-{game_id}"
        )
        self.game, self.state = registry.get(game_id), current_state(self.stream)
        self.rng = rng

    @property
    def over(self) -> bool:
        return self.game.result(self.state) is not None

    def move(self) -> None:
        seat = self.game.to_act(self.state)[0]
        chosen = self.rng.choice(self.game.legal_moves(self.state, seat))
        stream_append_move(
            stream_id=self.stream.pk,
            seat=seat,
            move=chosen.to_json(),
            expected_version=self.stream.version,
        )
        self.stream.refresh_from_db(fields=["version"])
        self.state = self.game.apply(self.state, seat, chosen)


def socket_drawing_costs() -> None:
    """Per game, what a move costs the socket server's database thread, as it draws
    (play.consumers.draw_for): reading the stream's new moment once, then drawing each seat
    from it. A 4-seat game (Les 7 Blasons, Blazon, 13 Couronnes), from 60 random moves in;
    each of 30 moves timed after it is appended, with the state cache emptied as in a socket
    server (its cache holds the version before); median of 30."""
    print("per move in the socket server, 4 seats, from 60 moves in (median of 30 moves):")
    rng = random.Random(19)
    run = uuid.uuid4().hex[:8]
    for game_id in sorted(DRAWINGS):
        played = RandomGame(game_id, run, rng)
        for _ in range(DRAWN_MOVES):
            played.move()
        reads, seats = [], []
        moment = read_moment(played.stream.pk)
        for _ in range(30):
            if played.over:
                break
            played.move()
            state_cache.clear()
            started = time.perf_counter()
            # As after a move: the previous moment lends the seats' names and the events.
            moment = read_moment(played.stream.pk, moment)
            reads.append(time.perf_counter() - started)
            started = time.perf_counter()
            for seat, user in enumerate(played.users):
                render_table(moment.access(user, seat), "en", [True] * SEATS, moment)
            seats.append((time.perf_counter() - started) / SEATS)
        read_ms, seat_ms = (statistics.median(samples) * 1000 for samples in (reads, seats))
        print(
            f"  {game_id:14} the moment {read_ms:5.2f} ms, a seat's drawing {seat_ms:5.2f} ms:"
            f" {read_ms + SEATS * seat_ms:5.1f} ms per move"
        )


def chosen_levels() -> Sequence[Level]:
    wanted = os.environ.get("BENCH_LEVELS", "1,2,3")
    numbers = {int(part) for part in wanted.split(",") if part.strip()}
    return [level for level in LEVELS if level.number in numbers]


def main() -> None:
    ensure_database()
    call_command("migrate", verbosity=0)
    levels = chosen_levels()
    if levels:
        stack = start_stack()
        if LOAD_NICENESS:
            # After the stack has started: its processes keep the usual priority.
            os.nice(LOAD_NICENESS)
        try:
            for level in levels:
                tables = make_tables(level)
                analyze()
                print_level(asyncio.run(run_level(level, stack, tables)))
        finally:
            stack.stop()
            for path in Path(GC_LOG).parent.glob(f"{Path(GC_LOG).name}*"):
                path.unlink(missing_ok=True)
        drawing_costs(tables[0])
    socket_drawing_costs()


if __name__ == "__main__":
    main()
