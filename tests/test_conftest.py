"""The suite's own rules (tests/conftest.py): a test marked for a missing service is skipped,
says what it needs, and the summary counts such skips."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

INNER = """
import pytest

@pytest.mark.services("postgres", reason="a trigger")
def test_needs_postgres():
    pass

@pytest.mark.services("redis")
def test_needs_redis():
    pass

def test_needs_nothing():
    pass
"""


def test_skips_for_want_of_a_service_are_counted_and_say_why(tmp_path: Path) -> None:
    """Run on the embedded default (no DATABASE_URL, no REDIS_URL), as on a fresh machine."""
    (tmp_path / "conftest.py").write_text(
        "from tests.conftest import pytest_runtest_setup, pytest_terminal_summary\n"
    )
    (tmp_path / "test_inner.py").write_text(INNER)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"),
         "--rootdir", str(tmp_path), "-p", "no:cacheprovider", str(tmp_path)],
        check=False, cwd=ROOT, env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert "1 passed, 2 skipped" in out
    assert "needed for a trigger" in out
    assert "2 tests skipped: they need PostgreSQL or Redis (set DATABASE_URL/REDIS_URL)" in out
