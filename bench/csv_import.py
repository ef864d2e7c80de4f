"""CSV import benchmark: a max-size players import (HERALD_IMPORT_MAX_ROWS rows), timed.

Runs in a throw-away test database (SQLite in memory by default; PostgreSQL's
``test_<name>`` when DATABASE_URL points at PostgreSQL), never the development database.
Prints the rows per second of ``services.players_import_csv`` (bulk inserts, one transaction)
and the queries it made, for ``--runs`` imports of the largest file one request may send.

    python bench/csv_import.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mydb python bench/csv_import.py --runs 5
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "herald.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from tournaments import services  # noqa: E402


def players_csv(rows: int, run: int) -> str:
    """``rows`` new players with every column filled, as a club's spreadsheet would be."""
    return "display_name,username,email,club,seed\n" + "".join(
        f"Player {run}-{i:04d},r{run}p{i:04d},r{run}p{i:04d}@example.org,Bench Club,{i + 1}\n"
        for i in range(rows)
    )


def bench_import(runs: int) -> None:
    max_rows, max_bytes = services.import_limits()
    staff = get_user_model().objects.create_user("bench-staff", is_staff=True)
    club = services.club_get_or_create(name="Bench Club")
    for run in range(runs):
        tournament = services.tournament_create(
            name=f"Bench night {run}", game_id="13-couronnes", organiser=staff, club=club
        )
        text = players_csv(max_rows, run)
        assert len(text.encode()) <= max_bytes, "the file must fit the byte cap"
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            regs = services.players_import_csv(tournament=tournament, text=text, by=staff)
            seconds = time.perf_counter() - started
        print(
            f"  run {run + 1}: {len(regs)} rows ({len(text.encode()):,} bytes) in {seconds:.3f} s"
            f" = {len(regs) / seconds:,.0f} rows/s, {len(queries.captured_queries)} queries"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="max-size imports to time")
    args = parser.parse_args()
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    print(
        f"database: {connection.vendor} (throw-away test database), Python {sys.version.split()[0]}"
    )
    try:
        bench_import(args.runs)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
