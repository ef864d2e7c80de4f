"""The phone report page of a paper table: ``/tournaments/<id>/tables/<table>/report/``.

A seated player enters the ranks ("1st", "2nd"... ties allowed) and, if they like, the
scores; the other seats see the report on the same page and confirm it or disagree, and a
disagreement goes to the organiser. The services decide; this page only draws and forwards.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from tournaments import selectors, services
from tournaments.errors import TournamentError
from tournaments.models import Result, Table
from tournaments.result_forms import ResultForm, ordinal


def _table(pk: int, table_pk: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament__club"),
        pk=table_pk,
        round__tournament_id=pk,
        is_bye=False,
    )


def _refusal(request: HttpRequest, heading: str, detail: str, status: int) -> HttpResponse:
    context = {"heading": heading, "detail": detail}
    return render(request, "herald/refusal.html", context, status=status)


def _viewer_refusal(request: HttpRequest, table: Table) -> HttpResponse | None:
    """None when the viewer may see the page (seated, or runs the tournament), else the 4xx.

    A round not yet published is a 404 to its players too; its organisers may already enter
    a confirmed round's results here."""
    runs_it = selectors.user_is_organiser(request.user, table.round.tournament)
    shown = selectors.PUBLIC_STATES if not runs_it else selectors.LIVE_STATES
    if table.round.state not in shown:
        return _refusal(
            request,
            gettext("Not published yet"),
            gettext("Round {number} is not published yet: its tables report once it is.").format(
                number=table.round.number
            ),
            404,
        )
    if runs_it or selectors.user_seat(request.user, table) is not None:
        return None
    return _refusal(
        request,
        gettext("Not your table"),
        gettext("Only the players seated at table {number} report its result.").format(
            number=table.number
        ),
        403,
    )


def report_context(request: HttpRequest, table: Table, form: Any = None) -> dict[str, Any]:
    """What the page and its live region draw for this viewer."""
    status = selectors.table_result_state(table)
    me = request.user.pk
    seated = selectors.user_seat(request.user, table) is not None
    lines = []
    current = status.current
    seats = table.seats.select_related("registration__player").order_by("seat")
    for index, seat in enumerate(seats):
        user_id = seat.registration.player.user_id
        lines.append(
            {
                "name": seat.registration.player.display_name,
                "is_me": user_id == me,
                "place": ordinal(current.ranks[index]) if current else "",
                "score": current.scores[index] if current and current.scores else None,
                "agreed": user_id in status.agreed,
            }
        )
    may_report = seated and status.state == "waiting"
    may_answer = seated and status.state == "reported" and me not in status.agreed
    return {
        "tournament": table.round.tournament,
        "table": table,
        "status": status,
        "lines": lines,
        "seated": seated,
        "may_report": may_report,
        "may_answer": may_answer,
        "form": form if form is not None else (ResultForm(table=table) if may_report else None),
        "is_organiser": selectors.user_is_organiser(request.user, table.round.tournament),
    }


@login_required
@require_http_methods(["GET", "POST"])
def report(request: HttpRequest, pk: int, table_pk: int) -> HttpResponse:
    """The table's result for a seated player: report it, confirm it, or disagree."""
    table = _table(pk, table_pk)
    refusal = _viewer_refusal(request, table)
    if refusal is not None:
        return refusal
    if request.method == "GET":
        return render(request, "tournaments/results/report.html", report_context(request, table))
    action = request.POST.get("action", "")
    form = None
    try:
        if action == "report":
            form = ResultForm(request.POST, table=table)
            if not form.is_valid():
                context = report_context(request, table, form)
                context["refusal"] = gettext("Pick a place for every player.")
                return render(request, "tournaments/results/report.html", context, status=400)
            services.result_report(
                table=table, by=request.user, ranks=form.ranks(), scores=form.scores()
            )
        elif action in ("confirm", "disagree"):
            result = get_object_or_404(Result, pk=request.POST.get("result", "0") or 0, table=table)
            if action == "confirm":
                services.result_confirm(result=result, by=request.user)
            else:
                services.result_disagree(
                    result=result, by=request.user, reason=request.POST.get("reason", "")
                )
        else:
            context = report_context(request, table)
            context["refusal"] = gettext("Report, confirm or disagree: nothing else is asked here.")
            return render(request, "tournaments/results/report.html", context, status=400)
    except TournamentError as exc:
        context = report_context(request, table, form)
        context["refusal"] = str(exc)
        return render(request, "tournaments/results/report.html", context, status=exc.status)
    return redirect("tournament-pages:table-report", pk=pk, table_pk=table.pk)


@login_required
@require_GET
def report_live(request: HttpRequest, pk: int, table_pk: int) -> HttpResponse:
    """The page's live region alone (``data-live-src``), with the same rights as the page."""
    table = _table(pk, table_pk)
    refusal = _viewer_refusal(request, table)
    if refusal is not None:
        return refusal
    return render(
        request, "tournaments/results/_report_region.html", report_context(request, table)
    )
