"""The organiser's results: ``/tournaments/<id>/console/results/``.

Every table of a round with where its result stands (waiting, reported, confirmed,
disagreement), a form to enter or correct any result with its reason, the disputed versions
to decide between, and each table's result history; the round's result slips to print; and
reopening a finished tournament. Every view starts with ``organiser_tournament_or_refusal``
and calls the services with ``by=request.user``.
"""

from __future__ import annotations

from typing import Any

import segno
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from tournaments import selectors, services
from tournaments.console.hub import organiser_tournament_or_refusal
from tournaments.errors import TournamentError
from tournaments.models import Result, Round, Table, Tournament
from tournaments.result_forms import ResultForm, ordinal


def _round(tournament: Tournament, request: HttpRequest) -> Round | None:
    """The round asked for (``?round=N``), else the latest published or confirmed one."""
    rounds = selectors.tournament_rounds(tournament).filter(state__in=selectors.LIVE_STATES)
    number = request.GET.get("round", "")
    if number.isdigit():
        return rounds.filter(number=int(number)).first()
    return rounds.order_by("-number").first()


def _lines(state: Any) -> list[dict[str, Any]]:
    result = state.current or (state.disputed[0] if state.disputed else None)
    seats = state.table.seats.select_related("registration__player").order_by("seat")
    return [
        {
            "name": seat.registration.player.display_name,
            "place": ordinal(result.ranks[i]) if result is not None else "",
        }
        for i, seat in enumerate(seats)
    ]


def _version_text(result: Result, names: list[str]) -> str:
    return ", ".join(
        f"{ordinal(rank)} {name}" for rank, name in sorted(zip(result.ranks, names, strict=True))
    )


def results_context(
    request: HttpRequest,
    tournament: Tournament,
    round_: Round | None,
    *,
    failed: tuple[int, Any] | None = None,
) -> dict[str, Any]:
    """The page's context; ``failed`` is (table id, its bound form) after a refusal."""
    rows: list[dict[str, Any]] = []
    if round_ is not None:
        for state in selectors.round_result_states(round_):
            names = [line["name"] for line in _lines(state)]
            bound = failed[1] if failed is not None and failed[0] == state.table.pk else None
            rows.append(
                {
                    "state": state,
                    "lines": _lines(state),
                    "disputed": [(r, _version_text(r, names)) for r in state.disputed],
                    "objections": [
                        e
                        for e in state.events
                        if e.kind == "disagreed" and e.result in state.disputed
                    ],
                    "form": bound or _initial_form(state),
                }
            )
    counts = dict.fromkeys(selectors.RESULT_STATE_LABELS, 0)
    for row in rows:
        counts[row["state"].state] += 1
    return {
        "tournament": tournament,
        "round": round_,
        "rounds": selectors.tournament_rounds(tournament).filter(state__in=selectors.LIVE_STATES),
        "rows": rows,
        "counts": [(selectors.RESULT_STATE_LABELS[k], n) for k, n in counts.items()],
        "winner": tournament.winner if tournament.status == Tournament.Status.FINISHED else "",
        "nav_section": "tournaments",
    }


def _initial_form(state: Any) -> ResultForm:
    result = state.current or (state.disputed[0] if state.disputed else None)
    initial: dict[str, Any] = {}
    if result is not None:
        for i, seat in enumerate(state.table.seats.order_by("seat")):
            initial[f"rank_{seat.seat}"] = result.ranks[i]
            if result.scores:
                initial[f"score_{seat.seat}"] = result.scores[i]
    return ResultForm(table=state.table, reason=True, initial=initial, prefix=f"t{state.table.pk}")


@login_required
@require_GET
def results(request: HttpRequest, pk: int) -> HttpResponse:
    """Every table of the round and its result, with the forms to enter, correct, decide."""
    tournament, refusal = organiser_tournament_or_refusal(request, pk)
    if refusal is not None:
        return refusal
    assert tournament is not None
    context = results_context(request, tournament, _round(tournament, request))
    return render(request, "tournaments/console/results.html", context)


@login_required
@require_GET
def results_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The tables region alone (the page's ``data-live-src``)."""
    tournament, refusal = organiser_tournament_or_refusal(request, pk)
    if refusal is not None:
        return refusal
    assert tournament is not None
    context = results_context(request, tournament, _round(tournament, request))
    return render(request, "tournaments/console/_results_tables.html", context)


def _table(tournament: Tournament, table_pk: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round"),
        pk=table_pk,
        round__tournament=tournament,
        is_bye=False,
    )


def _back(tournament: Tournament, table: Table) -> HttpResponse:
    url = reverse("tournament-pages:console-results", args=[tournament.pk])
    return redirect(f"{url}?round={table.round.number}#table-{table.pk}")


def _refused(
    request: HttpRequest, tournament: Tournament, table: Table, exc: Any, form: Any = None
) -> HttpResponse:
    context = results_context(
        request, tournament, table.round, failed=(table.pk, form) if form is not None else None
    )
    context["refusal"] = str(exc)
    context["refused_table"] = table.pk
    status = getattr(exc, "status", 400)
    return render(request, "tournaments/console/results.html", context, status=status)


@login_required
@require_POST
def result_enter(request: HttpRequest, pk: int, table_pk: int) -> HttpResponse:
    """Enter or correct a table's result (a correction says why)."""
    tournament, refusal = organiser_tournament_or_refusal(request, pk)
    if refusal is not None:
        return refusal
    assert tournament is not None
    table = _table(tournament, table_pk)
    form = ResultForm(request.POST, table=table, reason=True, prefix=f"t{table.pk}")
    if not form.is_valid():
        return _refused(request, tournament, table, gettext("Pick a place for every player."), form)
    try:
        services.result_enter(
            table=table,
            by=request.user,
            ranks=form.ranks(),
            scores=form.scores(),
            reason=form.cleaned_data.get("reason", ""),
        )
    except TournamentError as exc:
        return _refused(request, tournament, table, exc, form)
    return _back(tournament, table)


@login_required
@require_POST
def result_decide(request: HttpRequest, pk: int, table_pk: int, result_pk: int) -> HttpResponse:
    """Decide a disagreement: one of the disputed versions becomes the result."""
    tournament, refusal = organiser_tournament_or_refusal(request, pk)
    if refusal is not None:
        return refusal
    assert tournament is not None
    table = _table(tournament, table_pk)
    result = get_object_or_404(Result, pk=result_pk, table=table)
    try:
        services.result_decide(
            result=result, by=request.user, reason=request.POST.get("reason", "")
        )
    except TournamentError as exc:
        return _refused(request, tournament, table, exc)
    return _back(tournament, table)


@login_required
@require_POST
def reopen(request: HttpRequest, pk: int) -> HttpResponse:
    """Reopen a finished tournament."""
    tournament, refusal = organiser_tournament_or_refusal(request, pk)
    if refusal is not None:
        return refusal
    assert tournament is not None
    try:
        services.tournament_reopen(tournament=tournament, by=request.user)
    except TournamentError as exc:
        context = results_context(request, tournament, _round(tournament, request))
        context["refusal"] = str(exc)
        return render(request, "tournaments/console/results.html", context, status=exc.status)
    return redirect("tournament-pages:console-results", pk=tournament.pk)


def _qr_svg(url: str) -> str:
    """A QR code of ``url`` as an SVG data URI (segno), for an ``<img>``."""
    return str(segno.make(url, error="m").svg_data_uri(scale=4, border=2))


@login_required
@require_GET
def slips(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The round's result slips, one per paper table, with a QR code to its report page."""
    tournament, refusal = organiser_tournament_or_refusal(request, pk)
    if refusal is not None:
        return refusal
    assert tournament is not None
    round_ = selectors.round_live(tournament, number)
    if round_ is None or round_.state not in selectors.LIVE_STATES:
        detail = gettext("Round {number} is not published: it has no slips to print.").format(
            number=number
        )
        context = {"heading": gettext("No such round"), "detail": detail}
        return render(request, "herald/refusal.html", context, status=404)
    cards = []
    for table in selectors.round_tables(round_).filter(is_bye=False, stream_id__isnull=True):
        url = request.build_absolute_uri(
            reverse("tournament-pages:table-report", args=[tournament.pk, table.pk])
        )
        seats = [seat.registration.player.display_name for seat in table.seats.all()]
        cards.append(
            {
                "table": table,
                "seats": seats,
                "url": url,
                "qr": _qr_svg(url),
            }
        )
    context = {
        "tournament": tournament,
        "round": round_,
        "cards": cards,
        "places": [
            ordinal(r) for r in range(1, 1 + max((len(c["seats"]) for c in cards), default=0))
        ],
        "nav_section": "tournaments",
    }
    return render(request, "tournaments/console/result_slips.html", context)
