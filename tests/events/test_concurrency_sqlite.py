"""The concurrency tests again, on the embedded default: a SQLite file, no Redis.

``make run`` serves a club from SQLite; sixteen clients racing on one stream must get their
409s there too, not a "database is locked" 500. The module runs in a subprocess because the
database is chosen when Django starts.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_concurrency_tests_pass_on_a_sqlite_file(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'herald.sqlite3'}",
        TEST_DATABASE_NAME=str(tmp_path / "test_herald.sqlite3"),
    )
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/events/test_concurrency.py", "-q",
         "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "2 passed" in result.stdout, result.stdout[-2000:]
