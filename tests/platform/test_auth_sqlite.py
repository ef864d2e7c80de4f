"""Tokens, the move endpoint's one-query token check and the login lockout on SQLite.

``make run`` serves from a SQLite file: a subprocess migrates a fresh one and logs in through
the real URLs (the raw query of the move endpoint reads SQLite's naive datetimes).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent(
    """
    import json
    import django
    django.setup()
    from django.core.management import call_command
    call_command("migrate", verbosity=0)
    from django.contrib.auth.models import User
    from django.test import Client
    from events.services import stream_open
    from tests.events import toy_game

    def login(password):
        body = json.dumps({"username": "ann", "password": password})
        return client.post("/api/v1/auth/token", body, content_type="application/json")

    with toy_game.registered():
        ann = User.objects.create_user("ann", password="pw-ann-secret")
        bob = User.objects.create_user("bob", password="pw-bob-secret")
        stream = stream_open(game_id="toy-draw", seats=[ann, bob], options={"turns": 4})
        client = Client()
        token = login("pw-ann-secret").json()["token"]
        auth = {"HTTP_AUTHORIZATION": "Token " + token}
        view = client.get(f"/api/v1/streams/{stream.pk}/view", **auth).json()
        body = json.dumps({"move": view["legal_moves"][0], "expected_version": view["version"]})
        moved = client.post(
            f"/api/v1/streams/{stream.pk}/moves", body, content_type="application/json", **auth
        )
        print("move", moved.status_code)
        print("wrong", [login("wrong").status_code for _ in range(3)])
        print("right", login("pw-ann-secret").status_code)
    """
)


def test_tokens_and_lockouts_work_on_sqlite(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'herald.sqlite3'}",
        DJANGO_SETTINGS_MODULE="herald.settings",
        PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "platform")]),
        HERALD_THROTTLE="true",
        HERALD_LOGIN_FAILURE_LIMIT="3",
    )
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    assert "move 201" in lines, result.stdout
    assert "wrong [400, 400, 429]" in lines, result.stdout
    assert "right 429" in lines, result.stdout
