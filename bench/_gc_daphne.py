"""daphne, with each garbage collection it makes written down for bench/live.py.

``python -m bench._gc_daphne <daphne's arguments>`` runs daphne as ``python -m daphne`` does.
When ``BENCH_GC_LOG`` names a path, every collection adds a line to ``<path>.<pid>``: when it
ended (Unix time), its generation and how long it took (ms). bench/live.py reads the lines of
each level's timed window: a collection stops the event loop and the drawing thread while it
runs, and the push's slowest moves are the ones that met one. Its drawing processes write
theirs to ``<path>-drawing.<pid>``.
"""

from __future__ import annotations

import gc
import os
import time
from typing import Any

from daphne.cli import CommandLineInterface


def record_collections(path: str) -> None:
    """Append each collection of this process to ``<path>.<pid>``."""
    log = open(f"{path}.{os.getpid()}", "a", buffering=1)  # noqa: SIM115 - the process's life
    started = [0.0]

    def record(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        took = (time.perf_counter() - started[0]) * 1000
        log.write(f"{time.time():.4f} {info['generation']} {took:.2f}\n")

    gc.callbacks.append(record)


if __name__ == "__main__":
    if os.environ.get("BENCH_GC_LOG"):
        record_collections(os.environ["BENCH_GC_LOG"])
    CommandLineInterface.entrypoint()
elif __name__ == "__mp_main__" and os.environ.get("BENCH_GC_LOG"):
    # A drawing process (play.drawpool) spawned by this daphne: multiprocessing imports the
    # parent's main module under this name. Its collections stop its drawings, not the loop.
    record_collections(os.environ["BENCH_GC_LOG"] + "-drawing")
