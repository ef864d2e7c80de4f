"""Platform-level records that belong to no game app."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Heartbeat(models.Model):
    """A row written by a Celery worker: proof that a task made the round trip.

    ``make test`` and the health tooling enqueue ``herald.tasks.record_heartbeat`` with a token
    and then look for the row the worker wrote.
    """

    token = models.CharField(max_length=64, unique=True)
    worker = models.CharField(max_length=200, blank=True)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("worker heartbeat")
        verbose_name_plural = _("worker heartbeats")
        ordering = ["-recorded_at"]

    def __str__(self) -> str:
        return f"heartbeat {self.token} from {self.worker or 'eager'}"
