"""The bare transaction, and the thinnest WSGI app around it (for bench/append.py only).

:func:`bare_append` is the benchmark's bare transaction (lock the stream row, insert the event,
bump the version). ``POST /bare/<n>`` runs it on stream ``n`` on a psycopg connection of its own
thread and answers a small JSON body. No Django, no validation, no hashing: served by the same
gunicorn as the platform, it measures what gunicorn and an HTTP round trip cost on this machine,
so the benchmark can say how close to the bare transaction any application served this way can
come. Both use the one function, so the ceiling runs exactly the bare transaction.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterable
from typing import Any

import psycopg

PAYLOAD = json.dumps(
    {"seat": 0, "move": {"type": "play", "card": 7}, "effects": [{"kind": "chance"}]}
)
_local = threading.local()


def bare_append(conn: psycopg.Connection[Any], index: int) -> int:
    """Lock stream ``index``'s row, insert its next event, bump its version; the new version."""
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


def _connection() -> psycopg.Connection[Any]:
    conn: psycopg.Connection[Any] | None = getattr(_local, "conn", None)
    if conn is None:
        conn = _local.conn = psycopg.connect(os.environ["BENCH_DATABASE_URL"])
    return conn


def application(
    environ: dict[str, Any], start_response: Callable[[str, list[tuple[str, str]]], Any]
) -> Iterable[bytes]:
    environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    index = int(environ["PATH_INFO"].rsplit("/", 1)[-1])
    version = bare_append(_connection(), index)
    body = json.dumps({"version": version, "event": {"payload": PAYLOAD}}).encode()
    start_response(
        "201 Created", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
    )
    return [body]
