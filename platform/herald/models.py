"""Platform-level records that belong to no game app."""

from django.conf import settings
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


class Invitation(models.Model):
    """A one-time link that lets a person claim an account made for them by an organiser.

    Only the SHA-256 digest of the link's token is stored: the token itself exists in the
    answer of the service that made it (``herald.invitations``), never in the database, so a
    copy of the database opens no account. Reissuing voids the older links of that account.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="invitations",
        verbose_name=_("account"),
    )
    digest = models.CharField(_("digest of the link"), max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invitations_made",
        verbose_name=_("made by"),
    )
    created_at = models.DateTimeField(_("made at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)
    voided_at = models.DateTimeField(
        _("voided at"), null=True, blank=True, help_text=_("When a newer link replaced it.")
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "used_at", "voided_at"])]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"invitation of {self.user_id} made {self.created_at:%Y-%m-%d}"
