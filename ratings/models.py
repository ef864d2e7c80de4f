"""Rating pools, ratings and their history, verification records, recompute jobs, disputes.

The source of truth for a pool is its list of :class:`RatedGame` rows (which game, when it was
completed, who sat where and the ranks it counts with). Ratings and :class:`RatingChange` rows
are derived from it by rating those games one at a time in completion order; a recompute
supersedes the changes from one game on and rates the stored history again.

Games are referenced by their event-store stream id (a UUID value, not a foreign key), as the
tournaments app does, so this app migrates independently of ``events``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ratings.rating import EnvParams, Skill


class RatingPool(models.Model):
    """One TrueSkill pool: a game and an edition family, with its environment parameters."""

    game = models.CharField(max_length=40)
    edition_family = models.CharField(max_length=60)
    mu = models.FloatField(default=EnvParams.mu)
    sigma = models.FloatField(default=EnvParams.sigma)
    beta = models.FloatField(default=EnvParams.beta)
    tau = models.FloatField(default=EnvParams.tau)
    draw_probability = models.FloatField(default=EnvParams.draw_probability)
    verified_only = models.BooleanField(
        _("verified games only"),
        default=False,
        help_text=_(
            "Rate only games played on Herald and verified by replay; results reported from "
            "paper tables are listed but not rated."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rating pool")
        verbose_name_plural = _("rating pools")
        ordering = ["game", "edition_family"]
        constraints = [
            models.UniqueConstraint(fields=["game", "edition_family"], name="pool_per_family"),
        ]

    def __str__(self) -> str:
        return f"{self.game} ({self.edition_family})"

    @property
    def params(self) -> EnvParams:
        """The TrueSkill environment parameters of this pool."""
        return EnvParams(
            mu=self.mu,
            sigma=self.sigma,
            beta=self.beta,
            tau=self.tau,
            draw_probability=self.draw_probability,
        )


class Rating(models.Model):
    """A player's current rating in one pool."""

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["pool", "player"]
        constraints = [
            models.UniqueConstraint(fields=["pool", "player"], name="rating_per_pool"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.pool}: μ={self.mu:.2f} σ={self.sigma:.2f}"

    @property
    def skill(self) -> Skill:
        return Skill(self.mu, self.sigma)

    @property
    def conservative(self) -> float:
        """μ − 3σ."""
        return self.mu - 3 * self.sigma


class RatedGame(models.Model):
    """A finished, verified game entered in its pool, in completion order.

    ``players`` and ``ranks`` are the seat-ordered user ids and ranks the game counts with:
    the stored result, or the arbiter's amended one. A game is rated at most once per pass
    (``status`` goes ready → rated inside one transaction holding the pool's lock); an annulled
    or held game is ``excluded`` and skipped.
    """

    class Status(models.TextChoices):
        READY = "ready", _("Waiting to be rated")
        RATED = "rated", _("Rated")
        EXCLUDED = "excluded", _("Not rated (annulled or under dispute)")

    class Source(models.TextChoices):
        VERIFIED = "verified", _("Verified by replay")
        REPORTED = "reported", _("Reported (not replay-verified)")

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="games")
    stream_id = models.UUIDField(unique=True)
    source = models.CharField(
        max_length=10,
        choices=Source.choices,
        default=Source.VERIFIED,
        help_text=_(
            "Verified: a game played on Herald, replayed and checked. Reported: a paper "
            "table's confirmed result (stream_id is the table's report id)."
        ),
    )
    completed_at = models.DateTimeField()
    players = models.JSONField(help_text=_("User ids in seat order."))
    ranks = models.JSONField(help_text=_("Rank per seat, 1-based, ties share."))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.READY)
    excluded_reason = models.CharField(max_length=200, blank=True)
    sequence = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("Position among the pool's rated games, from 1.")
    )
    rated_at = models.DateTimeField(null=True, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rated game")
        verbose_name_plural = _("rated games")
        ordering = ["pool", "completed_at", "stream_id"]
        indexes = [
            models.Index(fields=["pool", "completed_at", "stream_id"], name="rated_game_order"),
            models.Index(fields=["pool", "status"], name="rated_game_status"),
        ]

    def __str__(self) -> str:
        return f"game {self.stream_id} in {self.pool} ({self.status})"


class RatingChange(models.Model):
    """One player's rating before and after one game. Superseded rows stay, marked not current.

    The partial unique constraint is what "a game is rated once" means in the database: one
    current change per (game, player).
    """

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="changes")
    game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="changes")
    # Not indexed: changes are looked up through their game, or by player (change_history).
    stream_id = models.UUIDField()
    sequence = models.PositiveIntegerField(help_text=_("The game's position in pool order."))
    # No index of its own: change_history starts with the player, which serves every lookup
    # by player (and the cascade when a user is deleted). Each index costs every change
    # written and every change a recompute marks superseded.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_index=False,
    )
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    current = models.BooleanField(default=True)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["pool", "sequence", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "player"], condition=Q(current=True), name="change_rated_once"
            ),
        ]
        indexes = [
            models.Index(fields=["player", "pool", "current", "sequence"], name="change_history"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in game {self.stream_id}: {self.mu_before:.2f} → {self.mu_after:.2f}"


class RecomputeJob(models.Model):
    """Re-rating a pool from one game on, with progress the API shows."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="recomputes")
    from_stream_id = models.UUIDField(null=True, blank=True)
    from_completed_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=300)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("recompute job")
        verbose_name_plural = _("recompute jobs")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"recompute of {self.pool} ({self.status} {self.done}/{self.total})"


class Verification(models.Model):
    """The outcome of verifying one finished stream (the same checks as GET /verify)."""

    stream_id = models.UUIDField(unique=True)
    ok = models.BooleanField()
    checks = models.JSONField()
    verified_at = models.DateTimeField(auto_now=True)
    reverified_at = models.DateTimeField(
        null=True,
        blank=True,
        db_index=True,
        help_text=_("When the periodic re-verification last checked the game again."),
    )

    class Meta:
        verbose_name = _("verification")
        verbose_name_plural = _("verifications")
        ordering = ["-verified_at"]

    def __str__(self) -> str:
        return f"verification of {self.stream_id}: {'ok' if self.ok else 'FAILED'}"


class Dispute(models.Model):
    """A dispute on a finished game: opened by a seated player or by a failed verification."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RULED = "ruled", _("Ruled")

    class Ruling(models.TextChoices):
        UPHOLD = "uphold", _("Uphold the result")
        ANNUL = "annul", _("Annul the game")
        AMEND = "amend", _("Amend the result")
        REPLAY = "replay", _("Replay from move n")

    stream_id = models.UUIDField(db_index=True)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="disputes_opened",
        help_text=_("Empty when verification opened it."),
    )
    reason = models.TextField()
    move = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_("The move it is about (move n is the game's n-th move); empty when not said."),
    )
    failed_check = models.CharField(max_length=40, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    opened_at = models.DateTimeField(auto_now_add=True)
    ruling = models.CharField(max_length=8, choices=Ruling.choices, blank=True)
    ruling_reason = models.TextField(blank=True)
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="disputes_ruled",
    )
    ruled_at = models.DateTimeField(null=True, blank=True)
    ruling_seq = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("Sequence number of the ruling event in the stream.")
    )
    amended_ranks = models.JSONField(null=True, blank=True)
    replay_from = models.PositiveIntegerField(null=True, blank=True)
    new_stream_id = models.UUIDField(null=True, blank=True)
    recompute = models.ForeignKey(
        RecomputeJob,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text=_("The job re-rating the pool after the ruling."),
    )

    class Meta:
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")
        ordering = ["-opened_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["stream_id"], condition=Q(status="open"), name="dispute_open_once"
            ),
        ]

    def __str__(self) -> str:
        who = self.opened_by or "verification"
        return f"dispute on {self.stream_id} by {who} ({self.status})"


class DisputeStatement(models.Model):
    """What another player seated in the disputed game says about it (one each).

    The opener's statement is the dispute's ``reason``; the others may add theirs while the
    dispute is open, so the arbiter reads every side before ruling.
    """

    dispute = models.ForeignKey(Dispute, on_delete=models.CASCADE, related_name="statements")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="dispute_statements"
    )
    text = models.TextField()
    made_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("dispute statement")
        verbose_name_plural = _("dispute statements")
        ordering = ["dispute", "made_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["dispute", "author"], name="statement_per_player"),
        ]

    def __str__(self) -> str:
        return f"statement by {self.author} on dispute {self.dispute_id}"
