"""Production hardening: check --deploy, the Content-Security-Policy, the API docs served from
the project's static files, and no inline script or style that the policy would refuse."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.tournaments.factories import make_tournament

ROOT = Path(__file__).resolve().parents[2]
# check --deploy reads the settings only: this Redis need not answer.
REDIS = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"

pytestmark = pytest.mark.django_db


def _production_env(**env: str) -> dict[str, str]:
    environment = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    environment.update(DJANGO_SETTINGS_MODULE="herald.settings_production", ALLOWED_HOSTS="x")
    environment.update(env)
    environment["PYTHONPATH"] = str(ROOT / "platform")
    return environment


def test_check_deploy_passes_with_the_production_settings() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=_production_env(SECRET_KEY=secrets.token_urlsafe(50), REDIS_URL=REDIS),
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_check_deploy_warns_of_a_channel_layer_other_processes_cannot_share() -> None:
    env = _production_env(SECRET_KEY=secrets.token_urlsafe(50))
    env.pop("REDIS_URL", None)
    env.pop("CHANNEL_LAYER_URL", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert result.returncode != 0
    assert "herald.W001" in result.stdout + result.stderr


@pytest.mark.parametrize(
    "key",
    [
        "abcde" * 11,
        "ab" * 30,
        "0123456789" * 6,
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabcdef",
    ],
)
def test_production_settings_refuse_a_low_entropy_secret_key(key: str) -> None:
    assert len(key) >= 50
    result = subprocess.run(
        [sys.executable, "-c", "import herald.settings_production"],
        cwd=ROOT, env=_production_env(SECRET_KEY=key),
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert result.returncode != 0
    assert "too weak" in result.stderr


def test_random_keys_pass_the_entropy_check() -> None:
    code = (
        "import secrets\n"
        "from django.core.management.utils import get_random_secret_key\n"
        "from herald.settings_production import _require_real_secret_key as check\n"
        "for _ in range(500):\n"
        "    check(secrets.token_urlsafe(50)); check(get_random_secret_key())\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT, env=_production_env(SECRET_KEY=secrets.token_urlsafe(50)),
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_pages_carry_a_content_security_policy_without_unsafe_inline() -> None:
    response = Client().get("/")
    assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["default-src"] == "'self'"
    assert "unsafe" not in policy


def test_the_api_docs_load_swagger_ui_from_static_files_not_a_cdn() -> None:
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assets = re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', html)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets), assets
    assert any(a.endswith("swagger-ui.css") for a in assets), assets
    for asset in assets:
        assert asset.startswith(("/static/", "/api/docs/?")), asset
    assert "cdn" not in html.lower()
    assert "@latest" not in html
    start_up = next(a for a in assets if a.startswith("/api/docs/?"))
    script = Client().get(start_up)
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()


def _inline_code(html: str) -> list[str]:
    """What CSP with 'self' only would refuse: inline scripts, <style>, style=, javascript:."""
    refused = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    refused += re.findall(r"<style\b", html)
    refused += re.findall(r"\sstyle=\"", html)
    refused += re.findall(r"\son[a-z]+=\"", html)
    refused += re.findall(r"javascript:", html)
    return refused


def test_the_sites_pages_have_no_inline_script_or_style() -> None:
    staff = User.objects.create_superuser("csp-admin", password="x")
    tournament = make_tournament()
    client = Client()
    urls = ["/", "/api/docs/", f"/tournaments/{tournament.pk}/", "/admin/login/"]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert _inline_code(response.content.decode()) == [], url
    client.force_login(staff)
    for url in ["/admin/", "/admin/events/stream/", "/admin/tournaments/tournament/add/"]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert _inline_code(response.content.decode()) == [], url
