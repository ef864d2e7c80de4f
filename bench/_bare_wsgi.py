"""The bare transaction behind the thinnest possible WSGI app (for bench/append.py only).

``POST /bare/<n>`` reads the body, runs bench/append.py's bare transaction on stream ``n``
(lock the row, insert the event, bump the version) on a psycopg connection of its own thread,
and answers a small JSON body. No Django, no validation, no hashing: served by the same
gunicorn as the platform, it measures what gunicorn and an HTTP round trip cost on this machine,
so the benchmark can say how close to the bare transaction any application served this way can
come.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterable
from typing import Any

import psycopg

DATABASE_URL = os.environ["BENCH_DATABASE_URL"]
PAYLOAD = json.dumps(
    {"seat": 0, "move": {"type": "play", "card": 7}, "effects": [{"kind": "chance"}]}
)
_local = threading.local()


def _connection() -> psycopg.Connection[Any]:
    conn: psycopg.Connection[Any] | None = getattr(_local, "conn", None)
    if conn is None:
        conn = _local.conn = psycopg.connect(DATABASE_URL)
    return conn


def _append(index: int) -> int:
    conn = _connection()
    with conn.transaction():
        row = conn.execute(
            "SELECT version FROM bench_bare_stream WHERE id = %s FOR UPDATE", [index]
        ).fetchone()
        version: int = row[0] if row else 0
        conn.execute(
            "INSERT INTO bench_bare_event VALUES (%s, %s, %s, %s)",
            [index, version + 1, PAYLOAD, "0" * 64],
        )
        conn.execute(
            "UPDATE bench_bare_stream SET version = %s WHERE id = %s", [version + 1, index]
        )
    return version + 1


def application(
    environ: dict[str, Any], start_response: Callable[[str, list[tuple[str, str]]], Any]
) -> Iterable[bytes]:
    environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    index = int(environ["PATH_INFO"].rsplit("/", 1)[-1])
    body = json.dumps({"version": _append(index), "event": {"payload": PAYLOAD}}).encode()
    start_response(
        "201 Created", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
    )
    return [body]
