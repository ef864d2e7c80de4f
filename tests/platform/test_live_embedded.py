"""`make run`'s server gets frames too: daphne's runserver on a SQLite file, the in-memory
channel layer and eager Celery, as a fresh clone serves (real processes, a real socket)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from websockets.sync.client import connect

from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
SETUP = """
import json
from django.contrib.auth.models import User
from django.test import Client
from events.services import stream_open
from herald.services import token_issue
users = [User.objects.create_user(name) for name in ("ann", "bob")]
stream = stream_open(game_id="blazon", seats=users, public=False)
client = Client()
client.force_login(users[0])
print(json.dumps({"stream": str(stream.pk), "tokens": [token_issue(u)[1] for u in users],
                  "cookie": client.cookies["sessionid"].value}))
"""


def embedded_env(database: Path) -> dict[str, str]:
    """The environment of `make run` on a fresh clone: no PostgreSQL, no Redis."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "CHANNEL_LAYER_URL", "HERALD_REQUIRE_SERVICES"}
    }
    env.update(DATABASE_URL=f"sqlite:///{database}", HERALD_THROTTLE="false")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "platform")])
    return env


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A migrated SQLite file with a private game, and runserver serving it."""
    folder = tmp_path_factory.mktemp("embedded")
    env = embedded_env(folder / "herald.sqlite3")
    manage(env, "migrate", "--noinput", "-v", "0")
    game = json.loads(manage(env, "shell", "-c", SETUP).strip().splitlines()[-1])
    port = free_port()
    log = (folder / "runserver.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
                    health = json.loads(answer.read())
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError((folder / "runserver.log").read_text()) from None
                time.sleep(0.3)
        yield {**game, "url": url, "ws": f"ws://127.0.0.1:{port}", "health": health}
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_make_runs_server_is_asgi_on_the_in_memory_layer(embedded: dict[str, Any]) -> None:
    assert embedded["health"] == {
        "database": "ok",
        "broker": "eager",
        "channel_layer": "in-memory",
    }


def test_a_player_gets_the_frame_after_a_move_on_make_run(embedded: dict[str, Any]) -> None:
    stream, url = embedded["stream"], embedded["url"]
    with connect(
        f"{embedded['ws']}/ws/games/{stream}/",
        origin=url,  # type: ignore[arg-type]
        additional_headers={"Cookie": f"sessionid={embedded['cookie']}"},
        open_timeout=10,
    ) as socket:
        assert json.loads(socket.recv(timeout=10))["type"] == "joined"
        version = None
        for token in embedded["tokens"]:
            headers = {"Authorization": f"Token {token}"}
            view = requests.get(f"{url}/api/v1/streams/{stream}/view", headers=headers, timeout=10)
            if view.json().get("legal_moves"):
                answer = requests.post(
                    f"{url}/api/v1/streams/{stream}/moves",
                    json={"move": view.json()["legal_moves"][0], "expected_version": 1},
                    headers=headers,
                    timeout=10,
                )
                assert answer.status_code == 201, answer.text
                version = answer.json()["version"]
                break
        assert version is not None
        assert json.loads(socket.recv(timeout=10)) == {
            "type": "advanced",
            "stream": stream,
            "version": version,
        }
