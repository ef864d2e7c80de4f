"""The dispute pages of the site (mounted at /disputes/, url names ``dispute-pages:…``).

A player files a dispute from their finished game and the other players add their side; the
arbiter lists the open disputes, reads one with its game named and its disputed move, rules,
sees what the ruling will change before confirming, and follows the re-rating until it is done.

The views read the request and call one service or selector: who may file, state or rule is
the services' decision (``ratings.disputes``), the same checks as the API's, and a refusal is
shown as its sentence with its status. Nothing here writes the database itself.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ratings import dispute_selectors as desk
from ratings.consequences import ruling_consequences
from ratings.disputes import (
    DisputeError,
    check_may_rule,
    check_ruling,
    dispute_open,
    dispute_open_refusal,
    dispute_rule,
    dispute_statement_add,
    moves_played,
)
from ratings.forms import DisputeOpenForm, SiteRulingForm, StatementForm
from ratings.models import Dispute


def _refused(request: HttpRequest, refusal: DisputeError, heading: str) -> HttpResponse:
    """The services' refusal as a page: its sentence, its status."""
    context = {"heading": heading, "detail": refusal.detail}
    return render(request, "herald/refusal.html", context, status=refusal.status)


def _dispute_or_404(request: HttpRequest, dispute_id: int) -> Dispute:
    dispute = desk.dispute_for(dispute_id=dispute_id, user=request.user)
    if dispute is None:
        raise Http404(gettext("There is no dispute {dispute_id}.").format(dispute_id=dispute_id))
    return dispute


# -- a player files a dispute ---------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def dispute_new(request: HttpRequest, stream: UUID) -> HttpResponse:
    """The form a seated player fills to dispute their finished game (the move, the claim)."""
    refusal = dispute_open_refusal(stream_id=stream, user=request.user)
    if refusal is not None:
        return _refused(request, refusal, gettext("This game cannot be disputed"))
    game = desk.disputed_games([stream])[stream]
    form = DisputeOpenForm(request.POST or None, moves=moves_played(stream))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                dispute = dispute_open(stream_id=stream, user=request.user, **form.cleaned_data)
            except DisputeError as exc:
                form.add_error(None, exc.detail)
                status = exc.status
            else:
                return redirect("dispute-pages:detail", dispute.pk)
        else:
            status = 400
    context = {"game": game, "form": form}
    return render(request, "ratings/disputes/new.html", context, status=status)


# -- the arbiter's list ---------------------------------------------------------------------------


@login_required
@require_GET
def dispute_list(request: HttpRequest) -> HttpResponse:
    """The open disputes, oldest first; ``?status=ruled`` the ruled ones. Arbiters and staff."""
    try:
        check_may_rule(request.user)
    except DisputeError as not_an_arbiter:
        return _refused(request, not_an_arbiter, gettext("Disputes"))
    status = request.GET.get("status", Dispute.Status.OPEN)
    if status not in Dispute.Status.values:
        bad_status = DisputeError(
            gettext(
                "Show open or ruled disputes (status=open or status=ruled), not {status}."
            ).format(status=repr(status))
        )
        return _refused(request, bad_status, gettext("Disputes"))
    context = {
        "lines": desk.dispute_desk(status=status),
        "status": status,
        "counts": desk.dispute_counts(),
    }
    return render(request, "ratings/disputes/list.html", context)


# -- one dispute ----------------------------------------------------------------------------------


def _ruling_form(page: desk.DisputePage, data: Any = None, initial: Any = None) -> SiteRulingForm:
    return SiteRulingForm(data, initial=initial, players=page.game.player_names)


def _initial_ruling(request: HttpRequest, page: desk.DisputePage) -> dict[str, Any]:
    """The ruling form's first values: what the preview's "change" sends back, else the
    game's own ranks and the move before the disputed one to replay from."""
    if request.GET.get("ruling"):
        return request.GET.dict()
    initial: dict[str, Any] = {
        SiteRulingForm.rank_field(seat.index): seat.rank for seat in page.game.seats
    }
    if page.dispute.move:
        initial["from_move"] = page.dispute.move - 1
    return initial


def _detail(
    request: HttpRequest,
    dispute: Dispute,
    *,
    ruling_form: SiteRulingForm | None = None,
    statement_form: StatementForm | None = None,
    ruling_refusal: str = "",
    statement_refusal: str = "",
    status: int = 200,
) -> HttpResponse:
    page = desk.dispute_page(dispute=dispute, user=request.user)
    context = {
        "page": page,
        "dispute": page.dispute,
        "game": page.game,
        "ruling_form": ruling_form or _ruling_form(page, initial=_initial_ruling(request, page)),
        "statement_form": statement_form or StatementForm(),
        "progress": desk.job_progress(page.job) if page.dispute.ruling else None,
        "ruling_refusal": ruling_refusal,
        "statement_refusal": statement_refusal,
    }
    return render(request, "ratings/disputes/detail.html", context, status=status)


@login_required
@require_GET
def dispute_detail(request: HttpRequest, dispute_id: int) -> HttpResponse:
    """The dispute with its game named, the disputed move, every side, and the ruling form for
    whoever may rule (or the ruling and the re-rating's progress once ruled)."""
    return _detail(request, _dispute_or_404(request, dispute_id))


@login_required
@require_POST
def dispute_statement(request: HttpRequest, dispute_id: int) -> HttpResponse:
    """Another seated player adds their side."""
    dispute = _dispute_or_404(request, dispute_id)
    form = StatementForm(request.POST)
    if not form.is_valid():
        return _detail(request, dispute, statement_form=form, status=400)
    try:
        dispute_statement_add(
            dispute_id=dispute.pk, user=request.user, text=form.cleaned_data["text"]
        )
    except DisputeError as refusal:
        return _detail(
            request,
            dispute,
            statement_form=form,
            statement_refusal=refusal.detail,
            status=refusal.status,
        )
    return redirect(reverse("dispute-pages:detail", args=[dispute.pk]) + "#statements")


@login_required
@require_POST
def dispute_preview(request: HttpRequest, dispute_id: int) -> HttpResponse:
    """What the ruling will change (standings rows, ratings), before the arbiter confirms it.

    The ruling is checked by the service as it will be made (``check_ruling``); nothing is
    written here.
    """
    dispute = _dispute_or_404(request, dispute_id)
    page = desk.dispute_page(dispute=dispute, user=request.user)
    form = _ruling_form(page, request.POST)
    if not form.is_valid():
        return _detail(request, dispute, ruling_form=form, status=400)
    arguments = form.ruling_arguments()
    try:
        ranks = check_ruling(dispute=dispute, arbiter=request.user, **arguments)
    except DisputeError as refusal:
        return _detail(
            request, dispute, ruling_form=form, ruling_refusal=refusal.detail, status=refusal.status
        )
    consequences = ruling_consequences(dispute=dispute, ruling=arguments["ruling"], ranks=ranks)
    context = {
        "page": page,
        "dispute": dispute,
        "game": page.game,
        "form": form,
        "arguments": arguments,
        "ruling_label": Dispute.Ruling(arguments["ruling"]).label,
        "ranks_words": desk.ranks_words(ranks, page.game.player_names) if ranks else "",
        "consequences": consequences,
    }
    return render(request, "ratings/disputes/preview.html", context)


@login_required
@require_POST
def dispute_rule_confirm(request: HttpRequest, dispute_id: int) -> HttpResponse:
    """The arbiter confirms: ``dispute_rule`` appends the ruling and queues the re-rating; the
    dispute's page then follows the job until it is done."""
    dispute = _dispute_or_404(request, dispute_id)
    page = desk.dispute_page(dispute=dispute, user=request.user)
    form = _ruling_form(page, request.POST)
    if not form.is_valid():
        return _detail(request, dispute, ruling_form=form, status=400)
    try:
        dispute_rule(dispute_id=dispute.pk, arbiter=request.user, **form.ruling_arguments())
    except DisputeError as refusal:
        # Read again: a 409 means another arbiter ruled meanwhile, and the page shows that.
        current = _dispute_or_404(request, dispute_id)
        return _detail(
            request, current, ruling_form=form, ruling_refusal=refusal.detail, status=refusal.status
        )
    return redirect(reverse("dispute-pages:detail", args=[dispute.pk]) + "#ruling")


@login_required
@require_GET
def dispute_progress(request: HttpRequest, dispute_id: int) -> JsonResponse:
    """The re-rating's progress after the ruling, as JSON the dispute's page polls."""
    dispute = _dispute_or_404(request, dispute_id)
    response = JsonResponse(desk.job_progress(dispute.recompute))
    response["Cache-Control"] = "no-store"
    return response
