"""Admin pieces shared by the apps."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from herald.models import Invitation


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows that services write (append-only records, histories): shown, never edited by hand."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    """Who was invited, by whom, when, and whether the link was used or voided. The links
    themselves are printed from the tournament's invitations sheet: only digests are stored."""

    list_display = ["user", "created_by", "created_at", "expires_at", "used_at", "voided_at"]
    list_filter = ["used_at", "voided_at"]
    search_fields = ["user__username"]
    exclude = ["digest"]
