"""The console's hub page: ``/tournaments/<id>/console/``, for the tournament's organisers."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from tournaments import selectors
from tournaments.models import Tournament


def organiser_tournament_or_refusal(
    request: HttpRequest, pk: int
) -> tuple[Tournament | None, HttpResponse | None]:
    """The tournament ``pk`` if the signed-in user runs it, else the refusal page (403).

    Every console view starts here, so that "who runs this tournament" is one rule: the
    organisers of its club, and staff (``selectors.user_is_organiser``).
    """
    tournament = get_object_or_404(selectors.tournament_list(), pk=pk)
    if selectors.user_is_organiser(request.user, tournament):
        return tournament, None
    detail = gettext("Only the organisers of {name}'s club (or staff) run it.").format(
        name=tournament.name
    )
    context = {"heading": gettext("Not yours to run"), "detail": detail}
    return None, render(request, "herald/refusal.html", context, status=403)


@login_required
@require_GET
def hub(request: HttpRequest, pk: int) -> HttpResponse:
    """The console: each part of the evening draws its own section (its inclusion tag)."""
    tournament, refusal = organiser_tournament_or_refusal(request, pk)
    if refusal is not None:
        return refusal
    context = {"tournament": tournament, "nav_section": "tournaments"}
    return render(request, "tournaments/console/hub.html", context)
