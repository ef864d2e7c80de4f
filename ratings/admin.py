"""The admin of the ratings app: pools, ratings, history, verification, recompute jobs, disputes.

History, verification and jobs are read-only here (services write them). The arbiter reads a
dispute here, steps through the game with the audit endpoint linked from it, and rules through
the API (POST /api/v1/disputes/{id}/ruling), which appends the ruling to the stream.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from herald.admin import ReadOnlyAdmin
from ratings.models import (
    Dispute,
    RatedGame,
    Rating,
    RatingChange,
    RatingPool,
    RecomputeJob,
    Verification,
)


def _audit_link(stream_id: Any) -> str:
    url = reverse("stream-audit", kwargs={"stream_id": stream_id})
    return format_html('<a href="{}?at=1">step through the game</a>', url)


@admin.register(RatingPool)
class RatingPoolAdmin(admin.ModelAdmin):
    list_display = ["game", "edition_family", "mu", "sigma", "beta", "tau", "draw_probability"]


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ["player", "pool", "mu", "sigma", "conservative", "games", "updated_at"]
    list_filter = ["pool"]
    search_fields = ["player__username"]
    ordering = ["pool", "-mu"]


@admin.register(RatedGame)
class RatedGameAdmin(ReadOnlyAdmin):
    list_display = ["stream_id", "pool", "completed_at", "status", "sequence", "excluded_reason"]
    list_filter = ["pool", "status"]
    search_fields = ["stream_id"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["sequence", "pool", "player", "rank", "mu_before", "mu_after", "current"]
    list_filter = ["pool", "current"]
    search_fields = ["player__username", "stream_id"]


@admin.register(RecomputeJob)
class RecomputeJobAdmin(ReadOnlyAdmin):
    list_display = ["id", "pool", "status", "done", "total", "reason", "created_at"]
    list_filter = ["status", "pool"]


@admin.register(Verification)
class VerificationAdmin(ReadOnlyAdmin):
    list_display = ["stream_id", "ok", "verified_at"]
    list_filter = ["ok"]
    search_fields = ["stream_id"]


@admin.register(Dispute)
class DisputeAdmin(ReadOnlyAdmin):
    list_display = ["id", "stream_id", "status", "opened_by", "failed_check", "ruling", "opened_at"]
    list_filter = ["status", "ruling", "failed_check"]
    search_fields = ["stream_id", "reason", "opened_by__username"]
    readonly_fields = ["audit"]

    @admin.display(description="audit")
    def audit(self, dispute: Dispute) -> str:
        return _audit_link(dispute.stream_id)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_staff)
