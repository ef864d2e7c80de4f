"""The database settings: the PostgreSQL backend's socket health check, the URL's switches."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from django.db import connections

ROOT = Path(__file__).resolve().parents[2]


def _settings_with(database_url: str) -> str:
    """The default database's engine and health-check switch, as settings read them."""
    code = (
        "from django.conf import settings; d = settings.DATABASES['default']; "
        "print(d['ENGINE'], repr(d.get('CONN_HEALTH_CHECKS')))"
    )
    env = dict(os.environ, DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="herald.settings")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "platform")])
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_postgresql_runs_on_herald_backend_and_the_health_check_switch_is_a_boolean() -> None:
    base = "postgres://u@127.0.0.1:5432/herald"
    assert _settings_with(f"{base}?conn_health_checks=true") == "herald.postgresql True"
    # django-environ leaves the switch as text, and the text "false" is true to Django.
    assert _settings_with(f"{base}?conn_health_checks=false") == "herald.postgresql False"
    assert _settings_with("sqlite:////tmp/x.sqlite3").startswith("django.db.backends.sqlite3")


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
def test_a_connection_postgresql_closed_is_found_unusable_without_a_query() -> None:
    wrapper = connections.create_connection("default")
    try:
        wrapper.ensure_connection()
        wrapper.health_check_enabled = True  # connecting sets it from the settings
        assert wrapper.is_usable()
        wrapper.health_check_done = False
        wrapper.close_if_health_check_failed()
        assert wrapper.connection is not None  # a sound connection is kept
        pid = wrapper.connection.info.backend_pid
        with psycopg.connect(**wrapper.get_connection_params(), autocommit=True) as other:
            other.execute("SELECT pg_terminate_backend(%s)", [pid])
        deadline = time.monotonic() + 5
        while wrapper.is_usable() and time.monotonic() < deadline:
            time.sleep(0.01)  # the server's goodbye crosses the loopback
        assert not wrapper.is_usable()
        wrapper.health_check_done = False
        wrapper.close_if_health_check_failed()
        assert wrapper.connection is None  # dropped: the next query opens a new one
        with wrapper.cursor() as cursor:
            cursor.execute("SELECT 1")
            assert cursor.fetchone() == (1,)
    finally:
        wrapper.close()
