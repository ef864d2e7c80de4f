"""The Celery application. Configuration comes from Django settings (``CELERY_*``).

Every worker also sends the periodic sweeps of ``CELERY_BEAT_SCHEDULE`` itself (the
``PeriodicSweeps`` step below), so a club that runs only ``make worker`` still recovers: the
outbox sweeper sends again, within a minute, a task whose worker was killed.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import Celery, bootsteps
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "herald.settings")

logger = logging.getLogger(__name__)

app = Celery("herald")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class PeriodicSweeps(bootsteps.StartStopStep):
    """Send each task of the beat schedule every ``schedule`` seconds from this worker.

    The sweeps are safe to run from several workers at once (they lock rows with SKIP LOCKED
    and their tasks are idempotent), so no single beat process is needed. Each message
    expires after one period: a busy worker does not pile sweeps up. ``HERALD_WORKER_SWEEPS=
    false`` turns it off (then run ``celery beat``).
    """

    requires = {"celery.worker.components:Timer"}

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.enabled = bool(getattr(settings, "HERALD_WORKER_SWEEPS", True))
        self.timers: list[Any] = []

    def start(self, parent: Any) -> None:
        for name, entry in parent.app.conf.beat_schedule.items():
            seconds = entry["schedule"]
            if not isinstance(seconds, int | float):
                logger.warning("periodic %s is not in seconds: left to celery beat", name)
                continue
            timer = parent.timer.call_repeatedly(
                float(seconds), self.send, (parent.app, entry["task"], float(seconds))
            )
            self.timers.append(timer)
        logger.info("periodic sweeps sent by this worker: %s", ", ".join(self.names(parent)))

    def stop(self, parent: Any) -> None:
        for timer in self.timers:
            timer.cancel()
        self.timers = []

    @staticmethod
    def names(parent: Any) -> list[str]:
        return [entry["task"] for entry in parent.app.conf.beat_schedule.values()]

    @staticmethod
    def send(celery_app: Celery, task: str, seconds: float) -> None:
        """Queue one sweep; a broker fault is logged, the next period tries again."""
        try:
            celery_app.send_task(task, expires=seconds, retry=False)
        except Exception as exc:
            logger.warning("periodic %s not sent: %s", task, exc)


app.steps["worker"].add(PeriodicSweeps)
