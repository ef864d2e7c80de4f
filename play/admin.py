"""The admin for open games: read-only (the lobby's services write them), with their seats."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from herald.admin import ReadOnlyAdmin
from play.models import OpenGame, OpenSeat


class OpenSeatInline(admin.TabularInline):
    model = OpenSeat
    fields = ("number", "user", "house_bot", "joined_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(OpenGame)
class OpenGameAdmin(ReadOnlyAdmin):
    """Who set each open game up, its seats, and the stream it became once started."""

    list_display = ("id", "game", "players", "state", "public", "club", "created_by", "created_at")
    list_filter = ("game", "state", "public")
    search_fields = ("created_by__username",)
    inlines = (OpenSeatInline,)
    fields = (
        "game", "edition", "options", "players", "public", "club", "created_by", "created_at",
        "state", "started_at", "stream",
    )  # fmt: skip
    readonly_fields = fields
