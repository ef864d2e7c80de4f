"""The admin of the ratings app: pools, ratings, history, verification, recompute jobs, disputes.

History, verification and jobs are read-only here (services write them). The arbiter reads a
dispute here, steps through the game with the audit endpoint linked from it, and rules on an
open dispute from its page ("Rule on this dispute"): the form calls the same service as the API
(POST /api/v1/disputes/{id}/ruling), ``ratings.disputes.dispute_rule``, which appends the ruling
to the stream. A ruled dispute's page shows the ruling, read-only.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from herald.admin import ReadOnlyAdmin
from ratings.dispute_selectors import replay_url
from ratings.disputes import DisputeError, check_may_rule, dispute_rule
from ratings.forms import RulingForm
from ratings.models import (
    Dispute,
    DisputeStatement,
    RatedGame,
    Rating,
    RatingChange,
    RatingPool,
    RecomputeJob,
    Verification,
)


def _audit_link(dispute: Dispute) -> str:
    """The replay viewer opened at the disputed move (move n counts moves, as everywhere)."""
    url = replay_url(dispute.stream_id, dispute.move)
    return format_html('<a href="{}">{}</a>', url, gettext("step through the game"))


@admin.register(RatingPool)
class RatingPoolAdmin(admin.ModelAdmin):
    list_display = [
        "game",
        "edition_family",
        "mu",
        "sigma",
        "beta",
        "tau",
        "draw_probability",
        "verified_only",
    ]


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ["player", "pool", "mu", "sigma", "conservative", "games", "updated_at"]
    list_filter = ["pool"]
    search_fields = ["player__username"]
    ordering = ["pool", "-mu"]


@admin.register(RatedGame)
class RatedGameAdmin(ReadOnlyAdmin):
    list_display = [
        "stream_id",
        "pool",
        "completed_at",
        "source",
        "status",
        "sequence",
        "excluded_reason",
    ]
    list_filter = ["pool", "status", "source"]
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
    list_display = ["stream_id", "ok", "verified_at", "reverified_at"]
    list_filter = ["ok"]
    search_fields = ["stream_id"]


class DisputeStatementInline(admin.TabularInline):
    """The other seated players' sides, read-only (the site's dispute page is where they add
    them)."""

    model = DisputeStatement
    fields = ["author", "made_at", "text"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Dispute)
class DisputeAdmin(ReadOnlyAdmin):
    list_display = ["id", "stream_id", "status", "opened_by", "failed_check", "ruling", "opened_at"]
    list_filter = ["status", "ruling", "failed_check"]
    search_fields = ["stream_id", "reason", "opened_by__username"]
    readonly_fields = ["audit"]
    inlines = [DisputeStatementInline]
    fieldsets = [
        (None, {"fields": ["stream_id", "audit", "status", "opened_by", "opened_at", "move",
                           "reason", "failed_check"]}),
        ("Ruling", {"fields": ["ruling", "ruling_reason", "ruled_by", "ruled_at", "ruling_seq",
                               "amended_ranks", "replay_from", "new_stream_id", "recompute"]}),
    ]  # fmt: skip

    @admin.display(description=_("audit"))
    def audit(self, dispute: Dispute) -> str:
        return _audit_link(dispute)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_staff)

    def may_rule(self, request: HttpRequest) -> bool:
        """Whoever the API lets rule (``check_may_rule``, the check ``dispute_rule`` makes).

        Whether they play in the dispute's game is checked when they rule: the form then shows
        the service's refusal (403).
        """
        try:
            check_may_rule(request.user)
        except DisputeError:
            return False
        return True

    def get_urls(self) -> list[URLPattern]:
        # Before the model's own URLs: their "<path:object_id>/" would take ".../ruling/" too.
        ruling = path(
            "<int:dispute_id>/ruling/",
            self.admin_site.admin_view(self.ruling_view),
            name="ratings_dispute_ruling",
        )
        return [ruling, *super().get_urls()]

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """The read-only page, with a "Rule on this dispute" link for those who may rule."""
        context = {**(extra_context or {}), "may_rule": self.may_rule(request)}
        return super().change_view(request, object_id, form_url, extra_context=context)

    def ruling_view(self, request: HttpRequest, dispute_id: int) -> HttpResponse:
        """The ruling form on an open dispute (the ruling, read-only, once ruled).

        A refusal by ``dispute_rule`` is shown as the form's error with the refusal's status;
        the service's transaction has then written nothing.
        """
        if not self.may_rule(request):
            raise PermissionDenied(gettext("Only an arbiter or staff member rules on disputes."))
        dispute = self._dispute(dispute_id)
        if request.method != "POST":
            return self._ruling_page(request, dispute, RulingForm(), status=200)
        form = RulingForm(request.POST)
        if not form.is_valid():
            return self._ruling_page(request, dispute, form, status=400)
        try:
            ruled = dispute_rule(
                dispute_id=dispute.pk, arbiter=request.user, **form.ruling_arguments()
            )
        except DisputeError as refusal:
            form.add_error(None, refusal.detail)
            # Read again: a 409 means another arbiter ruled meanwhile, and the page shows that.
            current = self._dispute(dispute_id)
            return self._ruling_page(request, current, form, status=refusal.status)
        self.message_user(request, _ruled_message(ruled), messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:ratings_dispute_change", args=[ruled.pk]))

    def _dispute(self, dispute_id: int) -> Dispute:
        related = ("opened_by", "ruled_by", "recompute")
        dispute = Dispute.objects.select_related(*related).filter(pk=dispute_id).first()
        if dispute is None:
            raise Http404(
                gettext("There is no dispute {dispute_id}.").format(dispute_id=dispute_id)
            )
        return dispute

    def _ruling_page(
        self, request: HttpRequest, dispute: Dispute, form: RulingForm, *, status: int
    ) -> TemplateResponse:
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Ruling on dispute {dispute}").format(dispute=dispute.pk),
            "opts": self.model._meta,
            "dispute": dispute,
            "is_open": dispute.status == Dispute.Status.OPEN,
            "form": form,
            "audit": _audit_link(dispute),
        }
        return TemplateResponse(
            request, "admin/ratings/dispute/ruling.html", context, status=status
        )


def _ruled_message(dispute: Dispute) -> str:
    """What the arbiter decided and what follows, for the message on the dispute's page."""
    ruling = Dispute.Ruling(dispute.ruling)
    if ruling == Dispute.Ruling.UPHOLD:
        decided = gettext("the result is upheld")
    elif ruling == Dispute.Ruling.ANNUL:
        decided = gettext("the game is annulled")
    elif ruling == Dispute.Ruling.AMEND:
        decided = gettext("the result is amended to ranks {ranks}").format(
            ranks=", ".join(map(str, dispute.amended_ranks or []))
        )
    else:
        decided = gettext(
            "the game is replayed from move {move} in the new stream {stream}"
        ).format(move=dispute.replay_from, stream=dispute.new_stream_id)
    said = gettext("Dispute {dispute} ruled: {decided} (event {seq} of the stream).").format(
        dispute=dispute.pk, decided=decided, seq=dispute.ruling_seq
    )
    if dispute.recompute is not None:
        said += " " + gettext(
            "The pool is re-rated from the game on (recompute job {job})."
        ).format(job=dispute.recompute.pk)
    return said
