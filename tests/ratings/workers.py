"""Processes the fault tests own: a private redis-server and Celery workers in their own groups.

Everything here is started by the test and stopped or killed by it, by process id; the
machine's shared PostgreSQL and Redis are never touched.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import kombu.pools
import redis
from django.conf import settings

from herald.celery import app
from tests.conftest import ROOT, worker_environment


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """A throw-away ``redis-server`` on a spare port, without persistence."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--daemonize", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                redis.Redis.from_url(self.url, socket_timeout=0.5).ping()
                return
            except redis.RedisError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server on port {self.port} did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None


class FaultWorker:
    """A Celery worker in its own process group, so kill -9 takes its pool children too."""

    def __init__(self, *, queue: str, env: dict[str, str], log_path: Path) -> None:
        self.queue, self.env, self.log_path = queue, env, log_path
        self.process: subprocess.Popen[bytes] | None = None
        self.name = f"{queue}-{os.getpid()}-{time.monotonic_ns()}@{os.uname().nodename}"

    def start(self) -> None:
        log = self.log_path.open("ab")
        command = [
            sys.executable, "-m", "tests.ratings.fault_worker", "--loglevel=INFO",
            "--concurrency=1", "--pool=prefork", "--without-gossip", "--without-mingle",
            "-Q", self.queue, "-n", self.name,
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"worker exited early:\n{self.log_text()[-3000:]}")
            if " ready." in self.log_text():
                return
            time.sleep(0.1)
        raise RuntimeError(f"worker not ready after {timeout}s:\n{self.log_text()[-3000:]}")

    def kill(self) -> None:
        """kill -9 the worker and its pool children (its own process group)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def fault_worker(redis: RedisServer, log_path: Path, **env: str) -> FaultWorker:
    """A worker on the default queue of this test session, with ``redis`` as its broker."""
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    environment = worker_environment(queue, REDIS_URL=redis.url, **env)
    return FaultWorker(queue=queue, env=environment, log_path=log_path)


@contextmanager
def broker(url: str) -> Iterator[None]:
    """Point this process's Celery app (what the outbox sends with) at another broker."""

    def use(target: Any) -> None:
        app.conf.broker_url = target
        app.conf.broker_write_url = None
        # kombu keeps connection pools in a global registry: reset it (closing and forgetting
        # every pool) rather than closing one pool that later sends would find there, closed.
        kombu.pools.reset()
        app._pool = None
        app.amqp._producer_pool = None

    previous = app.conf.broker_url
    use(url)
    try:
        yield
    finally:
        use(previous)
