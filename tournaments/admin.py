"""Admin: clubs, players, tournaments with their rounds and registrations, result history.

Results are read-only here: a correction is a new version made through the services (the
organiser's API), never an edit of a stored version.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import (
    Club,
    Player,
    Registration,
    Result,
    ResultConfirmation,
    Round,
    Stage,
    Table,
    TableSeat,
    Tournament,
)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user", "club"]
    list_filter = ["club"]
    search_fields = ["display_name", "user__username", "user__email"]
    autocomplete_fields = ["user", "club"]


class StageInline(admin.TabularInline):
    model = Stage
    extra = 0


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    fields = ["player", "seed", "checked_in", "late_entry_round", "dropped_after_round"]
    autocomplete_fields = ["player"]


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "attempt", "state", "confirmed_at", "released_at"]
    readonly_fields = fields
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game_id", "format", "status", "club", "created_at"]
    list_filter = ["status", "game_id", "format"]
    search_fields = ["name"]
    filter_horizontal = ["organisers"]
    inlines = [StageInline, RegistrationInline, RoundInline]


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    autocomplete_fields = ["registration"]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "seed", "checked_in", "dropped_after_round"]
    list_filter = ["tournament"]
    search_fields = ["player__display_name", "tournament__name"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "attempt", "state", "created_at"]
    list_filter = ["state", "tournament"]
    readonly_fields = ["quality", "warnings", "created_by", "created_at"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round", "number", "is_bye", "stream_id"]
    list_filter = ["round__tournament"]
    inlines = [TableSeatInline]


class ConfirmationInline(admin.TabularInline):
    model = ResultConfirmation
    extra = 0
    can_delete = False
    readonly_fields = ["user", "at"]


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    """Every version of every result, as history: nothing is added, changed or deleted here."""

    list_display = ["table", "version", "status", "source", "submitted_by", "submitted_at"]
    list_filter = ["status", "source", "table__round__tournament"]
    readonly_fields = [f.name for f in Result._meta.fields]
    inlines = [ConfirmationInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
