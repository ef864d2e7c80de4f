"""Clubs, players, tournaments, stages, registrations, rounds, tables and results.

The models hold data and constraints only; every write goes through ``tournaments.services``
and every read worth naming through ``tournaments.selectors``. The pairing formats are pure
functions in ``tournaments.pairing``; ``services`` is the one bridge between the two.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    """A club that runs tournament nights."""

    name = models.CharField(max_length=120, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Off by default: a club's players are registered by its organisers (and invited);
    # a club that opens its doors lets anyone make an account and join it at /clubs/<pk>/join/.
    allow_signup = models.BooleanField(
        _("allow self sign-up"),
        default=False,
        help_text=_("Anyone may make an account and join this club from its sign-up page."),
    )

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ClubMembership(models.Model):
    """A user's place in a club: a member, or an organiser who runs the club's tournaments.

    Organisers are named by staff (in the admin); an organiser creates the club's tournaments,
    registers and imports its players, pairs and releases rounds and enters results. Only the
    club's members (and a user registering themself) may be entered by an existing account.
    """

    class Role(models.TextChoices):
        MEMBER = "member", _("Member")
        ORGANISER = "organiser", _("Organiser")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("club membership")
        verbose_name_plural = _("club memberships")
        ordering = ["club", "user"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="club_membership_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.club}"


class Player(models.Model):
    """A person who plays: a user account with the name printed on pairings, and a club."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    display_name = models.CharField(max_length=120)
    club = models.ForeignKey(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="players"
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["display_name"]

    def __str__(self) -> str:
        return self.display_name


class Format(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    ROUND_ROBIN = "round_robin", _("Round robin")
    SINGLE_ELIMINATION = "single_elimination", _("Single elimination")
    DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
    KNOCKOUT = "knockout", _("Multiplayer knockout (top K of each table advance)")
    STAGES = "stages", _("Stages (groups, then a cut to a bracket)")


class LateEntryAward(models.TextChoices):
    """What a late entrant earns for each round played before they entered."""

    NOTHING = "none", _("Nothing (0 points for the rounds missed)")
    BYE = "bye", _("A bye's points for each round missed")
    HALF_BYE = "half_bye", _("Half a bye's points for each round missed")


class TableMode(models.TextChoices):
    """Where a tournament's tables play unless the organiser says otherwise for one table."""

    HERALD = "herald", _("On Herald")
    PAPER = "paper", _("With physical cards (on paper)")


class Tournament(models.Model):
    """One tournament of one game, run by its organisers."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(max_length=200)
    club = models.ForeignKey(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="tournaments"
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_tournaments"
    )
    game_id = models.CharField(max_length=40)
    edition = models.CharField(max_length=60, blank=True)
    options = models.JSONField(default=dict, blank=True)
    format = models.CharField(max_length=24, choices=Format.choices, default=Format.SWISS)
    table_preferred = models.PositiveSmallIntegerField()
    table_allowed = models.JSONField(help_text=_("Table sizes allowed, e.g. [3, 4, 5]."))
    points_by_rank = models.JSONField(help_text=_("Points for 1st, 2nd, ... place; ties share."))
    tiebreakers = models.JSONField(default=list, blank=True)
    bye_points = models.FloatField(default=0)
    late_entry_award = models.CharField(
        max_length=8,
        choices=LateEntryAward.choices,
        default=LateEntryAward.NOTHING,
        help_text=_("What a late entrant earns for each round played before they entered."),
    )
    dispute_window_minutes = models.PositiveIntegerField(default=30)
    spectator_delay = models.PositiveSmallIntegerField(
        _("spectator delay"),
        default=0,
        help_text=_(
            "Spectators see each game as it was this many moves ago (0: live); players, "
            "arbiters and staff always see it live, and everyone once it is over."
        ),
    )
    rounds_planned = models.PositiveSmallIntegerField(null=True, blank=True)
    table_mode = models.CharField(
        _("tables play"),
        max_length=8,
        choices=TableMode.choices,
        default=TableMode.HERALD,
        help_text=_(
            "On Herald, each table's game opens when its round is published; with physical "
            "cards, players report their result. One table of a round can be changed."
        ),
    )
    pairing_seed = models.CharField(
        max_length=64, help_text=_("Seed of every draw: the same seed gives the same pairings.")
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    # The secret of the join link /tournaments/<id>/join/<token>/ (its QR code is on the
    # console): whoever has it registers themself. The organiser makes a new one at will.
    join_token = models.CharField(_("join link token"), max_length=43, blank=True)
    check_in_opens_at = models.DateTimeField(
        _("check-in opens at"),
        null=True,
        blank=True,
        help_text=_("From then on players check themselves in from their phone (empty: now)."),
    )
    check_in_closes_at = models.DateTimeField(
        _("check-in closes at"),
        null=True,
        blank=True,
        help_text=_("Players check themselves in until then (empty: until the end)."),
    )
    player_cap = models.PositiveSmallIntegerField(
        _("player cap"),
        null=True,
        blank=True,
        help_text=_("Registrations beyond it go on the waitlist, in order (empty: no cap)."),
    )
    winner = models.CharField(
        _("winner"),
        max_length=250,
        blank=True,
        help_text=_("Named when the tournament finishes (the pages read it from here)."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at", "name"]

    def __str__(self) -> str:
        return self.name


class Stage(models.Model):
    """A part of a tournament played in one format: e.g. groups, then a cut to playoffs."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    order = models.PositiveSmallIntegerField(default=1)
    name = models.CharField(max_length=80, default="Main")
    format = models.CharField(max_length=24, choices=Format.choices, default=Format.SWISS)
    rounds_planned = models.PositiveSmallIntegerField(null=True, blank=True)
    cut_top = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("How many players the cut sends to the next stage.")
    )
    advance = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Knockout: how many of each table advance.")
    )
    bracket = models.JSONField(
        null=True, blank=True, help_text=_("The bracket as the pairing made it.")
    )
    groups = models.JSONField(
        default=dict,
        blank=True,
        help_text=_(
            "Group stage: registration id (as text) -> group name; tables stay in a group."
        ),
    )

    class Meta:
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["tournament", "order"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "order"], name="stage_order_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.name}"


class Registration(models.Model):
    """A player entered in a tournament: seed, check-in, late entry and drop."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    seed = models.PositiveIntegerField(default=0, help_text=_("Lower is stronger; 0 is unseeded."))
    checked_in = models.BooleanField(default=False)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    late_entry_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("The first round a late entrant plays.")
    )
    dropped_after_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("The last round a dropped player played (0: none).")
    )
    # Beyond the tournament's player cap: not paired until a drop (or a raised cap) frees a
    # place; the earliest registered is promoted first.
    waitlisted = models.BooleanField(_("waitlisted"), default=False)
    fixed_table = models.PositiveSmallIntegerField(
        _("fixed table"),
        null=True,
        blank=True,
        help_text=_("The table this player always sits at (e.g. table 1, nearest the door)."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["tournament", "player__display_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="registration_player_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"

    @property
    def is_dropped(self) -> bool:
        return self.dropped_after_round is not None


class Round(models.Model):
    """One round's draw: draft → confirmed → released; a re-pair supersedes the draft."""

    class State(models.TextChoices):
        DRAFT = "draft", _("Draft")
        CONFIRMED = "confirmed", _("Confirmed")
        RELEASED = "released", _("Released")
        SUPERSEDED = "superseded", _("Superseded draft")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=12, choices=State.choices, default=State.DRAFT)
    attempt = models.PositiveSmallIntegerField(
        default=1, help_text=_("1 + re-pairs of this round.")
    )
    quality = models.JSONField(default=dict, blank=True)
    warnings = models.JSONField(default=list, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    released_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number", "attempt"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"],
                condition=~Q(state="superseded"),
                name="round_number_live_once",
            ),
            models.UniqueConstraint(
                fields=["tournament", "number", "attempt"], name="round_attempt_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}, round {self.number} ({self.state})"


class Table(models.Model):
    """A table of a round: its seats in order, or a bye; linked to its game stream if any."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    is_bye = models.BooleanField(default=False)
    match_id = models.CharField(
        max_length=40, blank=True, help_text=_("Bracket match this table plays, if any.")
    )
    # The event store's Stream id (a UUID). Kept as a plain value, not a foreign key, so the
    # tournaments app migrates without the events app; ``selectors.table_stream`` resolves it.
    stream_id = models.UUIDField(null=True, blank=True)
    on_paper = models.BooleanField(
        _("on paper"),
        default=False,
        help_text=_("Played with physical cards: no game opens on Herald for it."),
    )
    # A paper table's game in its rating pool (``RatedGame.stream_id``), set with its first
    # confirmed result: :attr:`report_stream_id`, stored so ratings pages can name the table.
    report_id = models.UUIDField(null=True, blank=True, unique=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "is_bye", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{'bye' if self.is_bye else 'table'} {self.number} of {self.round}"

    @property
    def report_stream_id(self) -> uuid.UUID:
        """The id a paper game of this table is rated under (``RatedGame.stream_id``).

        Derived from the table's id, so it is the same every time and never one of the event
        store's streams (those are random UUIDs)."""
        return uuid.uuid5(REPORT_NAMESPACE, f"table:{self.pk}")


#: The namespace of the tables' report ids (:attr:`Table.report_stream_id`).
REPORT_NAMESPACE = uuid.UUID("5f0c1c2e-6a52-4d8e-9d0b-2a1e8f7c4b18")


class TableSeat(models.Model):
    """One seat of a table: seat 0 is first to sit (and to play, where the game says so)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        verbose_name = _("table seat")
        verbose_name_plural = _("table seats")
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="seat_unique"),
            models.UniqueConstraint(fields=["table", "registration"], name="seat_player_once"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.registration.player}"


class Result(models.Model):
    """One version of a table's result. A correction is a new version; ranks never change.

    Statuses: ``submitted`` (waiting for the other seated players), ``conflict`` (two reports
    disagree: the organiser resolves), ``confirmed`` (counts in the standings) and
    ``discarded`` (superseded by a later version).
    """

    class Status(models.TextChoices):
        SUBMITTED = "submitted", _("Submitted")
        CONFLICT = "conflict", _("Conflict")
        CONFIRMED = "confirmed", _("Confirmed")
        DISCARDED = "discarded", _("Discarded")

    class Source(models.TextChoices):
        STREAM = "stream", _("Game stream")
        REPORTED = "reported", _("Reported by a player")
        ORGANISER = "organiser", _("Entered by the organiser")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="results")
    version = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices)
    source = models.CharField(max_length=10, choices=Source.choices)
    ranks = models.JSONField(help_text=_("Finishing rank per seat, 1-based; ties share."))
    scores = models.JSONField(default=list, blank=True, help_text=_("Game score per seat."))
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    submitted_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("result")
        verbose_name_plural = _("results")
        ordering = ["table", "version"]
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="result_version_unique"),
            models.UniqueConstraint(
                fields=["table"], condition=Q(status="confirmed"), name="result_confirmed_once"
            ),
        ]

    def __str__(self) -> str:
        return f"result v{self.version} of {self.table} ({self.status})"


class ResultConfirmation(models.Model):
    """A seated player agreeing with a submitted result (the reporter agrees by reporting)."""

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="confirmations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("result confirmation")
        verbose_name_plural = _("result confirmations")
        constraints = [
            models.UniqueConstraint(fields=["result", "user"], name="confirmation_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} confirms {self.result}"


class RoundTimer(models.Model):
    """The clock of a published round, kept by the server so that every screen and phone
    shows the same time: its length, the minutes added, when it started and when it was
    paused. ``selectors.timer_view`` works out what is left; the services change it.

    Idle: not started. Running: ``started_at`` set, ``paused_at`` not. Paused: both set. The
    time left is ``duration + extension - (now or paused_at - started_at - paused_seconds)``,
    ``paused_seconds`` being the pauses already over.
    """

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="timer")
    duration_seconds = models.PositiveIntegerField(_("duration (seconds)"))
    extension_seconds = models.PositiveIntegerField(_("extensions (seconds)"), default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_seconds = models.PositiveIntegerField(
        default=0, help_text=_("Seconds the clock stood still in pauses already over.")
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("round timer")
        verbose_name_plural = _("round timers")
        constraints = [
            models.CheckConstraint(
                condition=Q(paused_at__isnull=True) | Q(started_at__isnull=False),
                name="timer_paused_only_when_started",
            ),
        ]

    def __str__(self) -> str:
        return f"timer of {self.round}"


class Season(models.Model):
    """A club's season: a set of its tournaments scored by placement points.

    The season's tournaments are the club's finished ones played between ``starts_on`` and
    ``ends_on`` (either may be open), or, when ``tournaments`` lists some, exactly those.
    ``points_by_place`` gives the points for 1st, 2nd, ... final place (places beyond earn
    nothing); ``tie_rule`` scores players tied for a place (``tournaments.pairing.seasons``).
    """

    class TieRule(models.TextChoices):
        SHARE = "share", _("Tied players share the points of the places they occupy")
        HIGHER = "higher", _("Tied players each get the points of the place they tied for")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=120)
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    tournaments = models.ManyToManyField(
        Tournament,
        blank=True,
        related_name="seasons",
        verbose_name=_("tournaments"),
        help_text=_("When some are listed, the season is exactly these tournaments."),
    )
    points_by_place = models.JSONField(
        _("points by place"), help_text=_("Points for 1st, 2nd, ... final place.")
    )
    tie_rule = models.CharField(
        _("tie rule"), max_length=8, choices=TieRule.choices, default=TieRule.SHARE
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["club", "-starts_on", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_once_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class ResultEvent(models.Model):
    """One fact of a table's result stream, in order: reported, confirmed, disagreed, entered,
    corrected, decided, the game's result, discarded.

    Append-only: the model refuses to save a row twice or delete one, and on PostgreSQL a
    trigger (migration 0010) refuses UPDATE, DELETE and TRUNCATE. ``Result`` rows are the
    current view the services keep beside it; this is the history.
    """

    class Kind(models.TextChoices):
        REPORTED = "reported", _("Reported")
        CONFIRMED = "confirmed", _("Confirmed")
        DISAGREED = "disagreed", _("Disagreed")
        ENTERED = "entered", _("Entered by the organiser")
        CORRECTED = "corrected", _("Corrected by the organiser")
        DECIDED = "decided", _("Disagreement decided")
        GAME = "game", _("Result of the game on Herald")
        DISCARDED = "discarded", _("Discarded")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="result_events")
    seq = models.PositiveIntegerField(help_text=_("1, 2, 3... in the table's stream."))
    kind = models.CharField(max_length=10, choices=Kind.choices)
    ranks = models.JSONField(null=True, blank=True, help_text=_("Rank per seat, if any."))
    scores = models.JSONField(default=list, blank=True)
    reason = models.TextField(blank=True)
    result = models.ForeignKey(
        Result, on_delete=models.PROTECT, null=True, blank=True, related_name="events"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("result event")
        verbose_name_plural = _("result events")
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="result_event_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.seq} of {self.table}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise ValueError("a result event is never changed: append a new one")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise ValueError("a result event is never deleted")
