"""The event store: streams (one game each, with their state snapshot), seats, events, the outbox.

Events are append-only: the model and its queryset refuse updates and deletes, and on
PostgreSQL a trigger (migration 0002) refuses UPDATE, DELETE and TRUNCATE on the table itself.
Writes go through :mod:`events.services`; reads through :mod:`events.selectors`.
"""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from engine.core.chain import GENESIS_HASH


class AppendOnlyError(Exception):
    """Raised when code tries to change or remove a stored event."""


class StreamStatus(models.TextChoices):
    LIVE = "live", _("live")
    FINISHED = "finished", _("finished")


class Stream(models.Model):
    """One game: its setup, its version (the last event's seq) and the head of its hash chain.

    ``seed`` is sealed: it never leaves the server before the game ends (the first event
    carries only its SHA-256 commitment; ``GameEnded`` reveals it).
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.CharField(max_length=40)
    edition = models.CharField(max_length=60)
    engine_version = models.CharField(max_length=40)
    options = models.JSONField(default=dict)
    players = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(
        max_length=10, choices=StreamStatus.choices, default=StreamStatus.LIVE
    )
    version = models.PositiveIntegerField(default=0)
    head_hash = models.CharField(max_length=64, default=GENESIS_HASH)
    # The rule the chain was hashed with (events.hashing): 1, the full payload (streams stored
    # before hidden parts were committed to); 2, hidden parts as salted commitments.
    hash_format = models.PositiveSmallIntegerField(default=2, editable=False)
    seed = models.CharField(max_length=128, editable=False)
    seed_commitment = models.CharField(max_length=64)
    result = models.JSONField(null=True, blank=True)
    public = models.BooleanField(default=True, help_text=_("spectators may follow the public view"))
    context = models.JSONField(
        default=dict, blank=True, help_text=_("where the game belongs, e.g. a tournament table")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The snapshot: a cache of the state after event ``snapshot_version``, made by engine
    # ``snapshot_engine``. It lives in the stream row so the append's lock query brings it.
    # Clearing it changes no answer (events.states replays instead), only speed.
    snapshot = models.JSONField(null=True, blank=True, editable=False)
    snapshot_version = models.PositiveIntegerField(null=True, blank=True, editable=False)
    snapshot_engine = models.CharField(max_length=40, blank=True, default="", editable=False)

    class Meta:
        verbose_name = _("game stream")
        verbose_name_plural = _("game streams")
        ordering: ClassVar[list[str]] = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.game} {self.id} (v{self.version}, {self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status == StreamStatus.FINISHED

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise AppendOnlyError("a stream is part of the record and cannot be deleted")


class StreamSeat(models.Model):
    """The user sitting at seat ``seat`` (0-based) of a stream."""

    stream = models.ForeignKey(Stream, on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("stream seat")
        verbose_name_plural = _("stream seats")
        ordering: ClassVar[list[str]] = ["stream_id", "seat"]
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(fields=["stream", "seat"], name="events_seat_unique")
        ]

    def __str__(self) -> str:  # seats are counted from 1 wherever a person reads them
        return f"seat {self.seat + 1} of {self.stream_id}"


class EventType(models.TextChoices):
    """Known event types. The list is open: other apps append their own (e.g. rulings)."""

    GAME_CREATED = "GameCreated"
    MOVE_MADE = "MoveMade"
    GAME_ENDED = "GameEnded"
    RULING_MADE = "RulingMade"
    # a continued game's unseen cards shuffled with its own seed (see events.services)
    UNSEEN_RESHUFFLED = "UnseenReshuffled"


class EventQuerySet(models.QuerySet["Event"]):
    """Refuses bulk updates and deletes: events are never changed."""

    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError("events are append-only: they cannot be updated")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("events are append-only: they cannot be deleted")


class Event(models.Model):
    """One fact in a stream. ``hash = sha256(prev_hash || canonical JSON)``, see events.hashing."""

    # No index of its own: the (stream, seq) unique index serves every lookup by stream, and
    # one index less is one less to write on every move.
    stream = models.ForeignKey(
        Stream, on_delete=models.PROTECT, related_name="events", db_index=False
    )
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    payload = models.JSONField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    recorded_at = models.DateTimeField()
    # NULL, not "", means "no key": the partial unique constraint then ignores the row.
    idempotency_key = models.CharField(max_length=200, null=True, blank=True)  # noqa: DJ001
    request_digest = models.CharField(
        max_length=64, blank=True, default="", help_text=_("sha256 of the request that made it")
    )
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    objects = EventQuerySet.as_manager()

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering: ClassVar[list[str]] = ["stream_id", "seq"]
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(fields=["stream", "seq"], name="events_event_seq_unique"),
            models.UniqueConstraint(
                fields=["stream", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="events_event_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stream_id} #{self.seq} {self.type}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("events are append-only: a stored event cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise AppendOnlyError("events are append-only: a stored event cannot be deleted")


class OutboxEntry(models.Model):
    """Work for Celery, written in the same transaction as the fact that caused it."""

    topic = models.CharField(max_length=60)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    dispatched_at = models.DateTimeField(null=True, blank=True)
    # Set when the task reports success: until then the sweeper sends the entry again once it
    # has been out for HERALD_OUTBOX_REDELIVER_AFTER seconds (its worker may have died).
    done_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")

    class Meta:
        verbose_name = _("outbox entry")
        verbose_name_plural = _("outbox entries")
        ordering: ClassVar[list[str]] = ["id"]
        indexes: ClassVar[list[Any]] = [
            models.Index(
                fields=["id"],
                condition=models.Q(dispatched_at__isnull=True),
                name="events_outbox_pending",
            ),
            models.Index(
                fields=["dispatched_at"],
                condition=models.Q(done_at__isnull=True),
                name="events_outbox_undone",
            ),
        ]

    def __str__(self) -> str:
        state = "done" if self.done_at else "dispatched" if self.dispatched_at else "pending"
        return f"{self.topic} #{self.pk} ({state})"
