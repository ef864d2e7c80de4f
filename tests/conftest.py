"""Shared fixtures: the `services` marker, a live Redis, a real Celery worker process.

Tests that need PostgreSQL or Redis carry ``@pytest.mark.services("postgres", "redis")``
(no names means both), with ``reason="..."`` saying what of it they need when that is not
obvious (``services("postgres", reason="its append-only triggers")``). Everything else runs on
the embedded default, SQLite and eager Celery, as ``make run`` serves it. Without those services
the marked tests are skipped with a reason, and the summary counts them; with
``HERALD_REQUIRE_SERVICES=1`` (CI) a missing service fails them instead.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
import redis
from django.conf import settings
from django.db import OperationalError, connection
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils import translation
from playwright.sync_api import sync_playwright

from herald.celery import app

ROOT = Path(__file__).resolve().parent.parent
KNOWN_SERVICES = ("postgres", "redis")


def services_required() -> bool:
    """True when CI demands the real services (HERALD_REQUIRE_SERVICES=1)."""
    return os.environ.get("HERALD_REQUIRE_SERVICES", "") not in {"", "0", "false", "no"}


def _postgres_problem() -> str | None:
    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" not in engine:
        return "PostgreSQL is not configured (set DATABASE_URL=postgres://...)"
    return None


def _redis_problem() -> str | None:
    url = settings.REDIS_URL
    if not url:
        return "Redis is not configured (set REDIS_URL=redis://...)"

    try:
        redis.Redis.from_url(url, socket_timeout=2).ping()
    except Exception as exc:
        return f"Redis at {url} (REDIS_URL) does not answer: {exc}"
    return None


_PROBES = {"postgres": _postgres_problem, "redis": _redis_problem}


def missing_service(names: tuple[str, ...]) -> str | None:
    """The first reason one of ``names`` is unavailable, or None."""
    for name in names or KNOWN_SERVICES:
        if name not in _PROBES:
            raise ValueError(f"unknown service {name!r}; known: {', '.join(KNOWN_SERVICES)}")
        problem = _PROBES[name]()
        if problem:
            return problem
    return None


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip (or, under HERALD_REQUIRE_SERVICES=1, fail) tests whose services are absent."""
    marker = item.get_closest_marker("services")
    if marker is None:
        return
    problem = missing_service(tuple(marker.args))
    if problem is None:
        return
    if marker.kwargs.get("reason"):
        problem = f"{problem}; needed for {marker.kwargs['reason']}"
    if services_required():
        pytest.fail(f"HERALD_REQUIRE_SERVICES=1 but {problem}", pytrace=False)
    pytest.skip(problem)


#: Every skip for want of a service names the variable that would provide it.
_SERVICE_HINTS = ("DATABASE_URL", "REDIS_URL")


def _skipped_for_want_of_a_service(report: pytest.TestReport) -> bool:
    longrepr = report.longrepr
    message = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return any(hint in message for hint in _SERVICE_HINTS)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say in one line how many tests did not run for want of PostgreSQL or Redis."""
    skipped = terminalreporter.stats.get("skipped", [])
    count = sum(1 for report in skipped if _skipped_for_want_of_a_service(report))
    if count:
        terminalreporter.write_sep(
            "-",
            f"{count} tests skipped: they need PostgreSQL or Redis (set DATABASE_URL/REDIS_URL)",
            yellow=True,
        )


@pytest.fixture
def redis_client() -> Iterator[Any]:
    """A client of the live Redis of REDIS_URL; keys it is given to clean are deleted after."""
    problem = _redis_problem()
    if problem:
        if services_required():
            pytest.fail(problem, pytrace=False)
        pytest.skip(problem)

    client = redis.Redis.from_url(settings.REDIS_URL)
    yield client
    client.close()


def database_url_for_worker() -> str:
    """DATABASE_URL pointing a subprocess at the database this test session uses."""
    params = connection.settings_dict
    user = params.get("USER") or ""
    password = params.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = params.get("HOST") or "127.0.0.1"
    port = params.get("PORT") or "5432"
    return f"postgres://{auth}{host}:{port}/{params['NAME']}"


def stop_process(process: subprocess.Popen[bytes] | None) -> None:
    """SIGTERM ``process`` (a worker's warm shutdown, a server's graceful stop), and kill it if
    it has not gone within 20 s."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


class WorkerProcess:
    """A real ``celery worker`` subprocess bound to the test database and the test queue."""

    def __init__(self, *, queue: str, env: dict[str, str], log_path: Path) -> None:
        self.queue = queue
        self.env = env
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> None:
        """Start the worker and wait until it answers a ping."""
        log = self.log_path.open("ab")
        command = [
            sys.executable, "-m", "celery", "-A", "herald", "worker",
            "--loglevel=INFO", "--concurrency=1", "--pool=prefork",
            "--without-gossip", "--without-mingle", "-Q", self.queue,
            "-n", f"{self.queue}@%h",
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"celery worker exited early; see {self.log_path}")
            replies = app.control.ping(
                destination=[f"{self.queue}@{os.uname().nodename}"], timeout=0.5
            )
            if replies:
                return
        raise RuntimeError(f"celery worker did not answer within {timeout}s; see {self.log_path}")

    def stop(self) -> None:
        """Ask the worker to finish (SIGTERM, warm shutdown), then make sure it is gone."""
        stop_process(self.process)

    def kill(self) -> None:
        """kill -9 the worker's process group leader (used by fault tests)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def worker_environment(queue: str, **overrides: str) -> dict[str, str]:
    """The environment of a worker subprocess: this session's database, Redis and queue."""
    env = dict(os.environ)
    # The queue below is already this xdist worker's own (herald.settings): not twice.
    env.pop("PYTEST_XDIST_WORKER", None)
    env.update(
        {
            "DATABASE_URL": database_url_for_worker(),
            "REDIS_URL": settings.REDIS_URL,
            "CELERY_QUEUE": queue,
            "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "platform")]),
        }
    )
    env.update(overrides)
    return env


@pytest.fixture(scope="session")
def celery_worker_process(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[WorkerProcess]:
    """A real Celery worker process on the test database and Redis, for the whole session.

    Tests using it need committed data: mark them ``django_db(transaction=True)``.
    """
    for problem in (_postgres_problem(), _redis_problem()):
        if problem:
            if services_required():
                pytest.fail(problem, pytrace=False)
            pytest.skip(problem)

    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    with django_db_blocker.unblock():
        # No periodic sweeps from the shared worker: it would send other tests' pending outbox
        # entries behind their backs (fault tests start their own sweeping workers).
        env = worker_environment(queue, HERALD_WORKER_SWEEPS="false")
    app.control.purge()
    worker = WorkerProcess(
        queue=queue, env=env, log_path=tmp_path_factory.mktemp("worker") / f"{uuid.uuid4().hex}.log"
    )
    worker.start()
    yield worker
    worker.stop()


def wait_for(
    predicate: Any, *, timeout: float = 30.0, interval: float = 0.1, what: str = ""
) -> Any:
    """Poll ``predicate`` until it returns something truthy; fail the test after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    pytest.fail(f"timed out after {timeout}s waiting for {what or predicate}")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> None:
    """Let Django's test flush TRUNCATE the append-only events table, on the test database only.

    events/migrations/0002 refuses TRUNCATE unless ``herald.allow_event_truncate`` is on.
    """
    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            name = connection.settings_dict["NAME"]
            with connection.cursor() as cursor:
                cursor.execute(f'ALTER DATABASE "{name}" SET herald.allow_event_truncate = on')
            connection.close()


T = TypeVar("T")


def run_async(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run the coroutine ``make()`` to its end on an event loop of its own thread: a browser
    test earlier in the session leaves Playwright's loop running in this one, where
    ``asyncio.run`` is refused."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()


FLUSH_ATTEMPTS = 5


@pytest.fixture(scope="session", autouse=True)
def flush_outlasts_a_deadlock() -> Iterator[None]:
    """A transactional test's teardown TRUNCATEs every table while the session's Celery worker
    may still be finishing a task that test queued (a rating, a live message): PostgreSQL then
    breaks the deadlock by aborting the TRUNCATE. The flush is tried again (the worker's
    transaction has gone through by then) rather than failing a test that passed."""
    flush = BaseDatabaseOperations.execute_sql_flush

    def patient_flush(ops: BaseDatabaseOperations, sql_list: list[str]) -> None:
        for attempt in range(1, FLUSH_ATTEMPTS + 1):
            try:
                flush(ops, sql_list)
                return
            except OperationalError as exc:
                if "deadlock detected" not in str(exc) or attempt == FLUSH_ATTEMPTS:
                    raise
                time.sleep(0.2 * attempt)

    BaseDatabaseOperations.execute_sql_flush = patient_flush
    yield
    BaseDatabaseOperations.execute_sql_flush = flush


@pytest.fixture(autouse=True)
def throttling_off(settings: Any) -> None:
    """Rate limits and the login lockout off (``HERALD_THROTTLE``): the suite sends many requests
    from one address and one user. Tests of throttling turn it back on (tests/platform/test_auth.py)."""
    settings.HERALD_THROTTLE = False
    settings.AXES_ENABLED = False


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    """Each test starts in the default language: a request with ``Accept-Language: fr`` leaves
    French active in the thread (LocaleMiddleware activates, nothing deactivates), and a later
    test rendering outside a request would read French."""
    translation.deactivate()
    yield
    translation.deactivate()


# -- a live ASGI server process -------------------------------------------------------------


def free_port() -> int:
    """A TCP port nobody listens on now (the server binds it right after)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class AsgiServer:
    """A real ASGI server process (daphne, as production's sockets service runs it) serving
    herald.asgi on a free port: HTTP, static files and the game sockets, on the test database
    and the Redis channel layer. ``url`` is its base URL, ``ws_url`` the same for sockets."""

    def __init__(self, *, env: dict[str, str], log_path: Path) -> None:
        self.env = env
        self.log_path = log_path
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> None:
        """Start the server and wait until /healthz answers 200."""
        log = self.log_path.open("ab")
        command = [
            sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
            "--access-log", os.devnull, "--websocket_connect_timeout", "30",
            "herald.asgi:application",
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the ASGI server exited early:\n{self.log_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the ASGI server did not answer within {timeout}s:\n{self.log_text()}")

    def stop(self) -> None:
        """Stop the server (SIGTERM), then make sure it is gone."""
        stop_process(self.process)

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def asgi_server_environment(**overrides: str) -> dict[str, str]:
    """A server process's environment: this session's database, Redis, channel layer and Celery
    queue, DEBUG off (the pages as a club sees them), static files served by the process."""
    env = worker_environment(settings.CELERY_TASK_DEFAULT_QUEUE)
    env.update(
        DJANGO_SETTINGS_MODULE="herald.settings",
        CHANNEL_LAYER_URL=settings.CHANNEL_LAYER_URL,
        DEBUG="false",
        HERALD_SERVE_STATIC="true",
        HERALD_THROTTLE="false",
        LOG_LEVEL="WARNING",
    )
    env.update(overrides)
    return env


def _require_postgres_and_redis() -> None:
    for found in (_postgres_problem(), _redis_problem()):
        if found:
            problem = f"{found}; needed for a live ASGI server on the test database"
            if services_required():
                pytest.fail(problem, pytrace=False)
            pytest.skip(problem)


@pytest.fixture(scope="session")
def asgi_server_factory(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Any]:
    """Starts ASGI server processes (:class:`AsgiServer`) on the test database; all are stopped
    at the end of the session. Tests using them need committed data:
    ``django_db(transaction=True)``."""
    servers: list[AsgiServer] = []

    def start(**env: str) -> AsgiServer:
        _require_postgres_and_redis()
        with django_db_blocker.unblock():
            environment = asgi_server_environment(**env)
        log_path = tmp_path_factory.mktemp("asgi") / f"{uuid.uuid4().hex}.log"
        server = AsgiServer(env=environment, log_path=log_path)
        servers.append(server)
        server.start()
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="session")
def asgi_server(asgi_server_factory: Any) -> AsgiServer:
    """One live ASGI server process for the session (PostgreSQL and Redis needed: skipped
    without them, failed under HERALD_REQUIRE_SERVICES=1)."""
    server: AsgiServer = asgi_server_factory()
    return server


# -- a real browser on the live ASGI server -------------------------------------------------

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Chromium's own calls home are refused by this network; without these flags it retries them.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
# Collects the page's Content-Security-Policy violations (securitypolicyviolation events).
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(e.violatedDirective + " " + e.blockedURI));
"""
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _browser_unavailable(reason: str) -> None:
    if services_required():
        pytest.fail(f"HERALD_REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Debian Chromium (Playwright) for the session; skipped without it (failed
    under HERALD_REQUIRE_SERVICES=1: `.ci/run` installs it)."""
    if not shutil.which(CHROMIUM):
        _browser_unavailable(f"Chromium is not installed ({CHROMIUM}; apt-get install chromium)")
    # Playwright's sync API keeps an event loop in this thread; Django's database calls in the
    # tests (fixtures, factories) are synchronous code beside it, not async code.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


class BrowserProblems:
    """What went wrong in the page while a test ran: console errors, uncaught exceptions,
    failed requests, answers of 400 and more, CSP violations. A test that expects one (a 404
    page) says so with :meth:`allow`."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.allowed: list[re.Pattern[str]] = []
        self.contexts: list[Any] = []

    def close_after_test(self, context: Any) -> Any:
        """Close the browser context ``context`` when the test ends, whatever the test did.
        A context left open keeps its pages' sockets reconnecting and their timers running in
        the session's Chromium for the rest of the run (45 such pages once took a core)."""
        self.contexts.append(context)
        return context

    def allow(self, fragment: str) -> None:
        """Problems whose text contains ``fragment`` are expected, not failures."""
        self.allowed.append(re.compile(re.escape(fragment)))

    def allow_pattern(self, pattern: str) -> None:
        """Problems whose text matches the regular expression ``pattern`` are expected."""
        self.allowed.append(re.compile(pattern))

    def add(self, text: str) -> None:
        self.seen.append(text)

    def unexpected(self) -> list[str]:
        return [p for p in self.seen if not any(allowed.search(p) for allowed in self.allowed)]


@pytest.fixture
def browser_problems() -> Iterator[BrowserProblems]:
    """The problems :func:`browser_page` watches; ``browser_problems.allow("404")``. The
    contexts handed to :meth:`BrowserProblems.close_after_test` close when the test ends."""
    problems = BrowserProblems()
    yield problems
    for context in problems.contexts:
        context.close()  # Playwright: closing a closed context does nothing


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Any:
    """Keep each phase's report on the item, so fixtures can tell that their test failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def watch_page(page: Any, problems: BrowserProblems) -> None:
    """Record in ``problems`` what goes wrong in ``page`` from now on."""

    def console(message: Any) -> None:
        if message.type == "error":
            problems.add(f"console error: {message.text} ({message.location.get('url', '')})")

    def response(answer: Any) -> None:
        if answer.status >= 400:
            problems.add(f"answer {answer.status}: {answer.request.method} {answer.url}")

    page.on("console", console)
    page.on("response", response)
    page.on("pageerror", lambda error: problems.add(f"uncaught exception: {error}"))

    def failed(request: Any) -> None:
        # Chromium asks for the icon after the load event, so going to the next page at once
        # aborts that request: a navigation's doing, not the site's. Any other abort counts.
        if request.failure == "net::ERR_ABORTED" and "/favicon" in request.url:
            return
        problems.add(f"request failed: {request.url} ({request.failure})")

    page.on("requestfailed", failed)


@pytest.fixture
def browser_page(
    browser: Any,
    asgi_server: AsgiServer,
    browser_problems: BrowserProblems,
    request: pytest.FixtureRequest,
    tmp_path: Path,
) -> Iterator[Any]:
    """A Playwright page at phone width (390 px; ``page.set_viewport_size(DESKTOP)`` for a
    desktop) on the live ASGI server: ``page.goto("/me/")`` is relative to it.

    The test fails on any console error, uncaught exception, failed request, answer of 400 or
    more, or CSP violation it did not :meth:`BrowserProblems.allow`, and a failed test leaves a
    screenshot (its path is in the failure). Tests need committed data:
    ``django_db(transaction=True)``.
    """
    context = browser.new_context(viewport=PHONE, base_url=asgi_server.url)
    page = context.new_page()
    page.add_init_script(WATCH_VIOLATIONS)
    watch_page(page, browser_problems)
    yield page
    try:
        violations = page.evaluate("window.__violations || []") if not page.is_closed() else []
    except Exception:  # the page navigated away or crashed: its other problems say why
        violations = []
    for violation in violations:
        browser_problems.add(f"CSP violation: {violation}")
    failed = getattr(request.node, "report_call", None)
    unexpected = browser_problems.unexpected()
    shot = tmp_path / "browser-failure.png"
    if (unexpected or (failed is not None and failed.failed)) and not page.is_closed():
        page.screenshot(path=str(shot), full_page=True)
        print(f"screenshot of the failed page: {shot}")
    context.close()
    if unexpected:
        pytest.fail(
            "the browser reported problems:\n  "
            + "\n  ".join(unexpected)
            + f"\nscreenshot: {shot}",
            pytrace=False,
        )
