"""What a move costs the table sockets' server: a 4-seat table of Les 7 Blasons with 10 spectators.

Starts one daphne process (herald.asgi, the Redis channel layer), opens 14 table sockets
(``ws/games/<id>/table/``: the 4 players, logged in, and 10 anonymous spectators), then plays
``BENCH_MOVES`` moves (default 40) through the append service from this process. After each
move it waits until every socket has the ``table`` frame of the new version, and reads the
server's CPU time from /proc. Prints:

- frames per move (one ``table`` frame per socket) and drawings per move (each seat draws its
  own; the spectators share one public drawing per version: play.rendering.public_drawings);
- the server's CPU per move and per frame (ms), and the median time from the commit to the
  last socket's frame;
- in this process, without the socket: one seat's drawing, a spectator's first drawing of a
  version, and a spectator's drawing from the shared cache (median ms).

Needs PostgreSQL and Redis: ``DATABASE_URL`` (a database it may migrate and write, e.g.
postgres://postgres@127.0.0.1:5432/herald_live_bench, created if missing) and ``REDIS_URL``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import django
import psycopg
from websockets.sync.client import connect
from websockets.typing import Origin

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "herald.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/herald_live_bench")
os.environ.setdefault("HERALD_THROTTLE", "false")
django.setup()  # the apps' modules below need the settings

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from events.access import access_stream_for_user  # noqa: E402
from events.services import stream_append_move, stream_open  # noqa: E402
from events.states import current_state, game_of  # noqa: E402
from play.rendering import public_drawings, render_table  # noqa: E402
from tests.users import make_user  # noqa: E402

SPECTATORS = int(os.environ.get("BENCH_SPECTATORS", "10"))
SEATS = 4
MOVES = int(os.environ.get("BENCH_MOVES", "40"))
TICKS = os.sysconf("SC_CLK_TCK")


def ensure_database(url: str) -> None:
    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        found = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if not found:
            connection.execute(f'CREATE DATABASE "{name}"')


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (and its waited-for children), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) / TICKS


class Listener(threading.Thread):
    """One socket on the table, noting when each version's ``table`` frame arrives."""

    def __init__(self, url: str, origin: str, cookie: str) -> None:
        super().__init__(daemon=True)
        headers = {"Cookie": cookie} if cookie else {}
        self.connection = connect(url, origin=Origin(origin), additional_headers=headers)
        self.seen: dict[int, float] = {}
        self.frames = 0
        self.ready = threading.Event()

    def run(self) -> None:
        try:
            for message in self.connection:
                frame = json.loads(message)
                if frame["type"] == "presence":
                    self.ready.set()
                if frame["type"] == "table":
                    self.frames += 1
                    self.seen[frame["version"]] = time.perf_counter()
        except Exception:
            return


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    ensure_database(os.environ["DATABASE_URL"])
    call_command("migrate", verbosity=0)
    tag = str(int(time.time()))
    users = [make_user(f"bench-{tag}-{i}") for i in range(SEATS)]
    stream = stream_open(game_id="les-7-blasons", seats=users, public=True)
    port = 8700 + int(tag) % 200
    env = dict(os.environ, HERALD_SERVE_STATIC="true", DEBUG="false", LOG_LEVEL="WARNING")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "platform")])
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "--access-log", os.devnull, "herald.asgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        cookies = []
        for user in users:
            client = Client()
            client.force_login(user)
            cookies.append(f"sessionid={client.cookies['sessionid'].value}")
        socket_url = f"ws://127.0.0.1:{port}/ws/games/{stream.pk}/table/"
        listeners = [Listener(socket_url, base, c) for c in [*cookies, *[""] * SPECTATORS]]
        for listener in listeners:
            listener.start()
        for listener in listeners:
            listener.ready.wait(30)
        game = game_of(stream)
        cpu, lag = [], []
        for _ in range(MOVES):
            stream.refresh_from_db()
            state = current_state(stream)
            if not game.to_act(state):
                break
            seat = game.to_act(state)[0]
            move = game.legal_moves(state, seat)[0].to_json()
            before = cpu_seconds(server.pid)
            committed = time.perf_counter()
            version = stream_append_move(
                stream_id=stream.pk, seat=seat, move=move, expected_version=stream.version
            ).version
            deadline = time.monotonic() + 30
            while any(version not in item.seen for item in listeners):
                if time.monotonic() > deadline:
                    raise SystemExit(f"version {version} did not reach every socket")
                time.sleep(0.002)
            cpu.append(cpu_seconds(server.pid) - before)
            lag.append(max(item.seen[version] for item in listeners) - committed)
        moves = len(cpu)
        frames = sum(item.frames for item in listeners) / moves
        per_move = statistics.median(cpu) * 1000
        print(f"{SEATS} seats + {SPECTATORS} spectators, {moves} moves of Les 7 Blasons")
        public = " + 1 public" if SPECTATORS else ""
        print(f"  frames per move: {frames:.1f}; drawings per move: {SEATS} seats{public}")
        print(
            f"  server CPU per move: median {per_move:.1f} ms, mean {statistics.mean(cpu) * 1000:.1f} ms"
        )
        print(f"  server CPU per frame: {per_move / frames:.2f} ms")
        print(f"  commit to the last socket's frame: median {median_ms(lag):.1f} ms")
        for listener in listeners:
            listener.connection.close()
    finally:
        server.terminate()
        server.wait(20)

    stream.refresh_from_db()
    seat_times, cold, warm = [], [], []
    seat_access = access_stream_for_user(users[0], stream.pk)
    for _ in range(30):
        started = time.perf_counter()
        render_table(seat_access, "en", [True] * SEATS)
        seat_times.append(time.perf_counter() - started)
        public_drawings.clear()
        spectator = access_stream_for_user(None, stream.pk)
        started = time.perf_counter()
        render_table(spectator, "en", [True] * SEATS)
        cold.append(time.perf_counter() - started)
        spectator = access_stream_for_user(None, stream.pk)
        started = time.perf_counter()
        render_table(spectator, "en", [True] * SEATS)
        warm.append(time.perf_counter() - started)
    print("  in one process, without sockets (median of 30):")
    print(f"    a seat's drawing {median_ms(seat_times):.2f} ms; a spectator's first drawing of")
    print(f"    a version {median_ms(cold):.2f} ms, from the shared cache {median_ms(warm):.3f} ms")


if __name__ == "__main__":
    main()
