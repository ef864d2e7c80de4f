"""The project's shape: settings safety, the stdlib `platform` module, docker/compose.yaml."""

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

from herald import settings as herald_settings

ROOT = Path(__file__).resolve().parents[2]


def _run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    environment.update(env)
    environment["PYTHONPATH"] = str(ROOT / "platform")
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


def test_stdlib_platform_is_not_shadowed_from_the_repository_root() -> None:
    result = subprocess.run(
        [sys.executable, "-c", "import platform, uuid; print(platform.system())"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()
    assert not (ROOT / "platform" / "__init__.py").exists()


def test_production_settings_refuse_to_start_without_a_secret_key() -> None:
    result = _run_python("import herald.settings_production")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_production_settings_refuse_a_weak_secret_key() -> None:
    result = _run_python("import herald.settings_production", SECRET_KEY="short")
    assert result.returncode != 0
    assert "too weak" in result.stderr


def test_production_settings_start_with_a_real_secret_key() -> None:
    key = "k3y-" + "".join(chr(97 + (i * 7) % 26) for i in range(60))
    result = _run_python("import herald.settings_production as s; print(s.DEBUG)", SECRET_KEY=key)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())


def _settings_env_names() -> set[str]:
    source = Path(herald_settings.__file__).read_text()
    source += Path(herald_settings.__file__).with_name("settings_production.py").read_text()
    return set(re.findall(r'\.(?:str|bool|int|list|db_url)\(\s*"([A-Z_]+)"', source))


def test_compose_has_every_service_with_a_healthcheck() -> None:
    services = _compose()["services"]
    assert set(services) == {"postgres", "redis", "web", "sockets", "worker"}
    for name, service in services.items():
        assert "healthcheck" in service, f"{name} has no healthcheck"


def test_compose_environment_matches_the_settings_module() -> None:
    services = _compose()["services"]
    known = _settings_env_names() | {"DJANGO_SETTINGS_MODULE"}
    assert {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS"} <= known
    for name in ("web", "sockets", "worker"):
        env = services[name]["environment"]
        assert set(env) <= known, (
            f"{name} sets variables the settings never read: {set(env) - known}"
        )
        assert {"DATABASE_URL", "REDIS_URL", "SECRET_KEY"} <= set(env)
        assert env["DJANGO_SETTINGS_MODULE"] == "herald.settings_production"


def test_compose_commands_name_the_real_modules() -> None:
    services = _compose()["services"]
    web = " ".join(services["web"]["command"])
    assert "manage.py migrate" in web
    assert "gunicorn herald.wsgi:application" in web
    # Threaded workers, the shape bench/append.py and bench/live.py measure.
    assert "--worker-class gthread" in web
    assert "--threads 4" in web
    # The sockets: daphne serving the ASGI application (Channels) on the Redis channel layer.
    sockets = services["sockets"]["command"]
    assert sockets[0] == "daphne"
    assert sockets[-1] == "herald.asgi:application"
    assert services["worker"]["command"][:4] == ["celery", "-A", "herald", "worker"]
    # No beat service: the worker sends the sweeps itself, so they must not be turned off.
    assert services["worker"]["environment"].get("HERALD_WORKER_SWEEPS", "true") == "true"
    assert "beat" not in services
    # The modules the commands name exist and import.
    result = _run_python(
        "import herald.wsgi, herald.asgi, herald.celery, daphne; print(herald.celery.app.main)"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "herald"


def test_dockerfile_runs_as_a_non_root_user_with_gunicorn() -> None:
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim", dockerfile, re.M)
    assert re.search(r"^USER (?!root)\w+", dockerfile, re.M)
    assert "gunicorn" in dockerfile
    assert '"--worker-class", "gthread"' in dockerfile


def test_the_image_holds_every_app_and_the_french_catalogue() -> None:
    """The image is built from the folders it copies: an app missing there (play once was)
    makes a server that fails at its start, and a missing locale/ a site in English only."""
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    copied = set(re.findall(r"^COPY (\S+) ", dockerfile, re.M))
    assert {"platform", "engine", "events", "tournaments", "ratings", "play", "locale"} <= copied


CONFLICT_MARKER = re.compile(r"^(<{7}|={7}|>{7})( |$)", re.M)
TEXT_SUFFIXES = {
    ".py",
    ".html",
    ".jinja",
    ".txt",
    ".css",
    ".js",
    ".md",
    ".po",
    ".toml",
    ".yaml",
    ".cfg",
}


def test_no_merge_conflict_marker_is_left_in_a_tracked_file() -> None:
    """A merge's leftover ``=======`` once sat in site.css and silently dropped the next rule."""
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.split()
    if not tracked:
        return  # not a git checkout (an unpacked archive): nothing to scan
    marked = [
        name
        for name in tracked
        if Path(name).suffix in TEXT_SUFFIXES
        and (ROOT / name).is_file()
        and CONFLICT_MARKER.search((ROOT / name).read_text(encoding="utf-8", errors="replace"))
    ]
    assert marked == []
