"""Input and output shapes of the tournaments API. No business logic: services decide.

Named as in every app: ``<Thing>Serializer`` for what the API answers (``TournamentSerializer``,
``ResultSerializer``), ``<Thing><Action>Serializer`` for a request body, after the service it
feeds (``ResultEnterSerializer`` for ``services.result_enter``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from tournaments import games, selectors, services
from tournaments.models import (
    Format,
    LateEntryAward,
    Registration,
    Result,
    ResultEvent,
    Round,
    Stage,
    Table,
    Tournament,
)


# -- tournaments -------------------------------------------------------------------------------
class TournamentSerializer(serializers.ModelSerializer):
    club = serializers.CharField(
        source="club.name", default=None, allow_null=True, read_only=True, help_text="Null: none."
    )
    organisers = serializers.SerializerMethodField()
    game = serializers.CharField(source="game_id", read_only=True)
    game_name = serializers.SerializerMethodField(help_text="The game's name for people to read.")

    class Meta:
        model = Tournament
        fields = [
            "id", "name", "club", "organisers", "game", "game_name", "edition", "options",
            "format", "table_preferred", "table_allowed", "points_by_rank", "tiebreakers",
            "bye_points", "late_entry_award", "dispute_window_minutes", "rounds_planned",
            "status", "created_at",
        ]  # fmt: skip

    def get_organisers(self, obj: Tournament) -> list[str]:
        return [user.get_username() for user in obj.organisers.all()]

    def get_game_name(self, obj: Tournament) -> str:
        return games.game_name(obj.game_id)


class LateEntryAwardField(serializers.ChoiceField):
    """``none``, ``bye`` or ``half_bye``; anything else is refused with the choices in words."""

    default_error_messages = {"invalid_choice": services.LATE_ENTRY_AWARD_REFUSAL}

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault(
            "help_text", "What a late entrant earns for each round missed: none, bye, half_bye."
        )
        super().__init__(choices=LateEntryAward.choices, **kwargs)


def points_field(**kwargs: Any) -> serializers.FloatField:
    """A finite number within ``services.POINTS_LIMIT`` either way (points, bye points, scores)."""
    limit = services.POINTS_LIMIT
    return serializers.FloatField(min_value=-limit, max_value=limit, **kwargs)


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    game = serializers.CharField(max_length=40, help_text="Game id, as in GET /api/v1/games.")
    club = serializers.CharField(max_length=120, required=False, allow_blank=True)
    edition = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")
    options = serializers.DictField(required=False, default=dict)
    format = serializers.ChoiceField(choices=Format.choices, default="swiss")
    table_preferred = serializers.IntegerField(min_value=1, max_value=12, required=False)
    table_allowed = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=12), required=False, min_length=1
    )
    points_by_rank = serializers.ListField(
        child=points_field(), required=False, min_length=1, max_length=12
    )
    tiebreakers = serializers.ListField(
        child=serializers.CharField(), required=False, default=["opponents_points", "game_score"]
    )
    bye_points = points_field(required=False)
    late_entry_award = LateEntryAwardField(required=False)
    dispute_window_minutes = serializers.IntegerField(min_value=0, default=30)
    rounds_planned = serializers.IntegerField(min_value=1, max_value=99, required=False)
    pairing_seed = serializers.CharField(max_length=64, required=False, default="")


class TournamentUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False)
    table_preferred = serializers.IntegerField(min_value=1, max_value=12, required=False)
    table_allowed = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=12), required=False, min_length=1
    )
    points_by_rank = serializers.ListField(
        child=points_field(), required=False, min_length=1, max_length=12
    )
    tiebreakers = serializers.ListField(child=serializers.CharField(), required=False)
    bye_points = points_field(required=False)
    late_entry_award = LateEntryAwardField(required=False)
    dispute_window_minutes = serializers.IntegerField(min_value=0, required=False)
    rounds_planned = serializers.IntegerField(min_value=1, max_value=99, required=False)


# -- registrations -----------------------------------------------------------------------------
class RegistrationSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="player.display_name", read_only=True)
    username = serializers.CharField(source="player.user.username", read_only=True)
    club = serializers.CharField(
        source="player.club.name", default=None, allow_null=True, read_only=True
    )

    class Meta:
        model = Registration
        fields = [
            "id", "player", "name", "username", "club", "seed", "checked_in",
            "late_entry_round", "dropped_after_round",
        ]  # fmt: skip


class RegistrationEnterSerializer(serializers.Serializer):
    username = serializers.CharField(
        max_length=150, help_text="An existing account, or the username of a new player."
    )
    display_name = serializers.CharField(
        max_length=120, required=False, help_text="Required for a new player."
    )
    email = serializers.EmailField(required=False, allow_blank=True, default="")
    club = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    seed = serializers.IntegerField(min_value=0, default=0)
    checked_in = serializers.BooleanField(default=False)


class RegistrationCheckInSerializer(serializers.Serializer):
    checked_in = serializers.BooleanField(default=True)


class PlayersImportSerializer(serializers.Serializer):
    csv = serializers.CharField(
        help_text="CSV text with a header: display_name, username, email, club, seed.",
        trim_whitespace=False,
    )


# -- rounds and tables -------------------------------------------------------------------------
class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="0-based seat; seat 0 sits first.")
    registration = serializers.IntegerField(source="registration_id")
    name = serializers.CharField(source="registration.player.display_name")


class TableSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)
    result = serializers.SerializerMethodField()

    class Meta:
        model = Table
        fields = ["id", "number", "is_bye", "on_paper", "match_id", "stream_id", "seats", "result"]

    def get_result(self, obj: Table) -> dict[str, Any] | None:
        result = selectors.table_confirmed_result(obj)
        return None if result is None else {"ranks": result.ranks, "scores": result.scores}


class DrawWarningSerializer(serializers.Serializer):
    code = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    text = serializers.CharField()


class RoundSerializer(serializers.ModelSerializer):
    tables = serializers.SerializerMethodField()
    warnings = DrawWarningSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = [
            "id", "number", "attempt", "state", "quality", "warnings", "tables",
            "created_at", "confirmed_at", "released_at",
        ]  # fmt: skip

    def get_tables(self, obj: Round) -> list[dict[str, Any]]:
        data: list[dict[str, Any]] = TableSerializer(selectors.round_tables(obj), many=True).data
        return data


class RoundSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = ["id", "number", "attempt", "state", "created_at", "confirmed_at", "released_at"]


class RoundPairSerializer(serializers.Serializer):
    force = serializers.BooleanField(
        default=False, help_text="Pair even though earlier tables have no confirmed result."
    )
    beyond_planned = serializers.BooleanField(
        default=False, help_text="Pair a round after the tournament's rounds_planned."
    )


class TableEditSerializer(serializers.Serializer):
    registrations = serializers.ListField(
        child=serializers.IntegerField(), max_length=12, help_text="Registration ids, seat 0 first."
    )


class TableAddSerializer(serializers.Serializer):
    is_bye = serializers.BooleanField(default=False)


class TableEditOutcomeSerializer(serializers.Serializer):
    table = TableSerializer()
    warnings = DrawWarningSerializer(many=True)


# -- results -----------------------------------------------------------------------------------
class ResultEnterSerializer(serializers.Serializer):
    ranks = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=12), min_length=1, max_length=12
    )
    scores = serializers.ListField(
        child=points_field(), required=False, default=list, max_length=12
    )
    decide = serializers.BooleanField(
        default=False,
        help_text="Organisers: enter the result as final (settles a conflict) even if seated.",
    )
    reason = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=500,
        help_text="Organisers: why a result that was already reported or confirmed changes "
        "(required then; kept in the table's result stream).",
    )


# The event store's game result is the API's ``Result`` component; a table's is ``TableResult``.
@extend_schema_serializer(component_name="TableResult")
class ResultSerializer(serializers.ModelSerializer):
    submitted_by = serializers.CharField(
        source="submitted_by.username", default=None, allow_null=True, read_only=True
    )
    decided_by = serializers.CharField(
        source="decided_by.username", default=None, allow_null=True, read_only=True
    )
    confirmed_by = serializers.SerializerMethodField()

    class Meta:
        model = Result
        fields = [
            "id", "table", "version", "status", "source", "ranks", "scores", "submitted_by",
            "submitted_at", "decided_by", "decided_at", "confirmed_by",
        ]  # fmt: skip

    def get_confirmed_by(self, obj: Result) -> list[str]:
        return [c.user.get_username() for c in obj.confirmations.select_related("user")]


class ResultDisagreeSerializer(serializers.Serializer):
    reason = serializers.CharField(
        required=False, default="", allow_blank=True, max_length=500, help_text="For the organiser."
    )


class ResultEventSerializer(serializers.ModelSerializer):
    by = serializers.CharField(source="by.username", default=None, allow_null=True, read_only=True)

    class Meta:
        model = ResultEvent
        fields = ["seq", "kind", "ranks", "scores", "reason", "result", "by", "at"]


# -- standings ---------------------------------------------------------------------------------
class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    registration = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    points = serializers.FloatField()
    tiebreaks = serializers.DictField(child=serializers.FloatField())
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    byes = serializers.IntegerField()
    dropped = serializers.BooleanField()
    group = serializers.CharField(help_text="The player's group in a group stage, or empty.")
    late_byes = serializers.IntegerField(
        help_text="Rounds missed before a late entry that earned the late-entry award."
    )


# -- stages and brackets -----------------------------------------------------------------------
class StageSerializer(serializers.ModelSerializer):
    class Meta:
        model = Stage
        fields = ["id", "order", "name", "format", "cut_top", "advance", "groups", "bracket"]


class StageCutSerializer(serializers.Serializer):
    top = serializers.IntegerField(min_value=2, help_text="How many players go through.")
    bracket_format = serializers.ChoiceField(
        choices=["single_elimination", "double_elimination", "knockout"]
    )
    advance = serializers.IntegerField(
        min_value=1, required=False, help_text="Knockout: how many of each table go on."
    )


class StageGroupsSerializer(serializers.Serializer):
    groups = serializers.IntegerField(min_value=1, max_value=64)
