"""gunicorn's configuration for bench/live.py: each HTTP worker writes down its garbage
collections, as the socket servers do (bench/_gc_daphne.py).

``gunicorn -c bench/_gc_gunicorn.py ...``: when ``BENCH_GC_LOG`` names a path, every collection
of a worker adds a line to ``<path>-http.<pid>`` (when it ended, its generation, how long it
took). A collection stops every thread of its worker, so the POSTs it serves meanwhile wait
for it together.
"""

from __future__ import annotations

import os
from typing import Any

from bench._gc_daphne import record_collections


def post_fork(server: Any, worker: Any) -> None:
    """(gunicorn's hook, in each worker as it starts.)"""
    path = os.environ.get("BENCH_GC_LOG")
    if path:
        record_collections(path + "-http")
