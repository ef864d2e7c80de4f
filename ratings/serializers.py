"""Input and output shapes of the ratings API (one pair per operation, beside its view)."""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ratings.models import Dispute, RatingChange, RatingPool, RecomputeJob


class PoolSerializer(serializers.ModelSerializer[RatingPool]):
    class Meta:
        model = RatingPool
        fields = [
            "id",
            "game",
            "edition_family",
            "mu",
            "sigma",
            "beta",
            "tau",
            "draw_probability",
            "verified_only",
        ]


class LeaderboardRowSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    player_id = serializers.IntegerField()
    username = serializers.CharField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    conservative = serializers.FloatField(help_text="μ − 3σ, what the board sorts on.")
    games = serializers.IntegerField()
    provisional = serializers.BooleanField(
        help_text="Fewer games than settings.HERALD_PROVISIONAL_GAMES."
    )
    reported = serializers.IntegerField(
        help_text="Of those games, how many were reported from paper tables (not replay-verified)."
    )


class LeaderboardSerializer(serializers.Serializer[Any]):
    pool = PoolSerializer()
    provisional_games = serializers.IntegerField()
    rows = LeaderboardRowSerializer(many=True)


class PlayerRatingSerializer(serializers.Serializer[Any]):
    pool = PoolSerializer()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    conservative = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()


class ChangeSerializer(serializers.ModelSerializer[RatingChange]):
    stream = serializers.SerializerMethodField(
        help_text="The game's stream; null for a private game the viewer may not see."
    )
    completed_at = serializers.DateTimeField(source="game.completed_at")
    source = serializers.CharField(
        source="game.source",
        help_text='"verified": played on Herald and replay-verified; "reported": a paper '
        "table's confirmed result (stream is then the table's report id).",
    )

    class Meta:
        model = RatingChange
        fields = [
            "sequence",
            "stream",
            "completed_at",
            "source",
            "seat",
            "rank",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
        ]

    @extend_schema_field(OpenApiTypes.UUID)
    def get_stream(self, change: RatingChange) -> str | None:
        """The stream id, unless the view says the viewer may not see that game."""
        if change.stream_id in self.context.get("hidden_streams", ()):
            return None
        return str(change.stream_id)


class HistorySerializer(serializers.Serializer[Any]):
    pool = PoolSerializer()
    username = serializers.CharField()
    changes = ChangeSerializer(many=True)


class RecomputeJobSerializer(serializers.ModelSerializer[RecomputeJob]):
    progress = serializers.SerializerMethodField()

    class Meta:
        model = RecomputeJob
        fields = [
            "id",
            "pool",
            "status",
            "done",
            "total",
            "progress",
            "reason",
            "from_stream_id",
            "error",
            "created_at",
            "started_at",
            "finished_at",
        ]
        # Shown to arbiters and staff only (PublicRecomputeJobSerializer leaves them out).
        extra_kwargs: ClassVar[dict[str, Any]] = {
            name: {"required": False, "help_text": "arbiters and staff only"}
            for name in ("reason", "from_stream_id", "error")
        }

    def get_progress(self, job: RecomputeJob) -> float:
        """Share done, 0 to 1 (1 for a finished job with nothing to do)."""
        if job.status == RecomputeJob.Status.DONE:
            return 1.0
        return job.done / job.total if job.total else 0.0


class PublicRecomputeJobSerializer(RecomputeJobSerializer):
    """A job as anyone but arbiters and staff sees it: its progress, not why it runs.

    The reason names the dispute and who opened it, and ``from_stream_id`` the game.
    """

    class Meta(RecomputeJobSerializer.Meta):
        fields = [
            name
            for name in RecomputeJobSerializer.Meta.fields
            if name not in {"reason", "from_stream_id", "error"}
        ]


class RecomputeJobCreateSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(max_length=300)


class DisputeSerializer(serializers.ModelSerializer[Dispute]):
    stream = serializers.UUIDField(source="stream_id")
    opened_by = serializers.SerializerMethodField()
    ruled_by = serializers.SerializerMethodField()
    automatic = serializers.SerializerMethodField()

    class Meta:
        model = Dispute
        fields = [
            "id",
            "stream",
            "status",
            "automatic",
            "opened_by",
            "reason",
            "move",
            "failed_check",
            "opened_at",
            "ruling",
            "ruling_reason",
            "ruled_by",
            "ruled_at",
            "ruling_seq",
            "amended_ranks",
            "replay_from",
            "new_stream_id",
            "recompute",
        ]

    def get_opened_by(self, dispute: Dispute) -> str | None:
        return dispute.opened_by.get_username() if dispute.opened_by else None

    def get_ruled_by(self, dispute: Dispute) -> str | None:
        return dispute.ruled_by.get_username() if dispute.ruled_by else None

    def get_automatic(self, dispute: Dispute) -> bool:
        """True when a failed verification opened it."""
        return dispute.opened_by_id is None


class DisputeOpenSerializer(serializers.Serializer[Any]):
    stream = serializers.UUIDField()
    reason = serializers.CharField(max_length=4000)
    move = serializers.IntegerField(
        min_value=1, required=False, help_text="The move it is about: the game's n-th move."
    )


class RulingSerializer(serializers.Serializer[Any]):
    ruling = serializers.ChoiceField(choices=Dispute.Ruling.choices)
    reason = serializers.CharField(max_length=4000)
    ranks = serializers.ListField(
        child=serializers.IntegerField(min_value=1), required=False, help_text="For amend."
    )
    scores = serializers.ListField(child=serializers.FloatField(), required=False)
    from_move = serializers.IntegerField(min_value=0, required=False, help_text="For replay.")


class RulingOutcomeSerializer(serializers.Serializer[Any]):
    dispute = DisputeSerializer()
    recompute = RecomputeJobSerializer(allow_null=True)


class VerificationSerializer(serializers.Serializer[Any]):
    stream = serializers.UUIDField()
    verified = serializers.BooleanField(allow_null=True, help_text="None: not verified yet.")
    checks = serializers.DictField(allow_null=True)
    verified_at = serializers.DateTimeField(allow_null=True)
    counts = serializers.BooleanField(help_text="False once annulled or replaced by a ruling.")
    rating_status = serializers.CharField(allow_null=True)
