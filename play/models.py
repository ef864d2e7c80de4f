"""Open games: casual games outside tournaments, waiting in the lobby for their players.

An :class:`OpenGame` is set up (game, number of seats, options, who may join) and its seats
(:class:`OpenSeat`) fill as people take them, or with house bots. Once it starts, its game
stream is opened (``events.services.stream_open``) and the open game only remembers which
stream it became. Writes go through :mod:`play.services`; reads through :mod:`play.lobby`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class OpenGame(models.Model):
    """A game waiting for players in the lobby, then the stream it became."""

    class State(models.TextChoices):
        OPEN = "open", _("open")
        STARTED = "started", _("started")
        CANCELLED = "cancelled", _("cancelled")

    game = models.CharField(_("game"), max_length=40)
    edition = models.CharField(_("edition"), max_length=60)
    options = models.JSONField(_("options"), default=dict, blank=True)
    players = models.PositiveSmallIntegerField(_("players"))
    # Public: anyone may join and watch. Otherwise only the members of ``club`` may join, and
    # the stream is private (its players, arbiters and staff see it).
    public = models.BooleanField(_("public"), default=True)
    club = models.ForeignKey(
        "tournaments.Club",
        verbose_name=_("club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.OPEN)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    stream = models.OneToOneField(
        "events.Stream",
        verbose_name=_("game stream"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="open_game",
    )

    class Meta:
        verbose_name = _("open game")
        verbose_name_plural = _("open games")
        ordering: ClassVar[list[str]] = ["-created_at", "-id"]
        indexes: ClassVar[list[Any]] = [
            models.Index(fields=["state", "-created_at"], name="play_opengame_state"),
        ]

    def __str__(self) -> str:
        return f"{self.game} open game {self.pk} ({self.state})"

    @property
    def is_open(self) -> bool:
        return self.state == self.State.OPEN


class OpenSeat(models.Model):
    """Seat ``number`` (0-based, the stream's seat once it starts) of an open game, taken."""

    open_game = models.ForeignKey(OpenGame, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.PROTECT, related_name="+"
    )
    house_bot = models.BooleanField(_("house bot"), default=False)
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)

    class Meta:
        verbose_name = _("open seat")
        verbose_name_plural = _("open seats")
        ordering: ClassVar[list[str]] = ["open_game_id", "number"]
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(fields=["open_game", "number"], name="play_seat_number_once"),
            models.UniqueConstraint(fields=["open_game", "user"], name="play_seat_user_once"),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of open game {self.open_game_id}"
