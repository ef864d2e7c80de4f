"""A club's season pages: the ranking (public, like the club's page) and the organisers' form.

The ranking is ``selectors.season_standing``; the form writes through
``services.season_create`` / ``services.season_update``, which check the organiser again.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from herald.account_views import refusal
from tournaments import selectors, services
from tournaments.errors import TournamentError
from tournaments.forms import SeasonForm
from tournaments.models import Club, Season


def season_detail(request: HttpRequest, pk: int, season: int) -> HttpResponse:
    """The season's ranking: points, tournaments played, best place, each tournament's part."""
    club = get_object_or_404(Club, pk=pk)
    chosen = get_object_or_404(Season, pk=season, club=club)
    context = {
        "club": club,
        "season": chosen,
        "standing": selectors.season_standing(chosen),
        "points": " · ".join(f"{p:g}" for p in chosen.points_by_place),
        "may_edit": selectors.user_organises_club(request.user, club),
        "nav_section": "clubs",
    }
    return render(request, "tournaments/season.html", context)


@require_http_methods(["GET", "POST"])
def season_new(request: HttpRequest, pk: int) -> HttpResponse:
    """The form of a new season (the club's organisers and staff)."""
    club = get_object_or_404(Club, pk=pk)
    return _season_form(request, club, None)


@require_http_methods(["GET", "POST"])
def season_edit(request: HttpRequest, pk: int, season: int) -> HttpResponse:
    """The form of an existing season (the club's organisers and staff)."""
    club = get_object_or_404(Club, pk=pk)
    return _season_form(request, club, get_object_or_404(Season, pk=season, club=club))


def _season_form(request: HttpRequest, club: Club, season: Season | None) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not selectors.user_organises_club(request.user, club):
        detail = _("Only the organisers of %(club)s (or staff) set up its seasons.") % {
            "club": club.name
        }
        return refusal(request, _("Not yours to set up"), detail, status=403)
    initial = SeasonForm.initial_for(season) if season is not None else None
    data = request.POST if request.method == "POST" else None
    form = SeasonForm(data, club=club, initial=initial)
    status = 200
    if data is not None:
        status = 400
        if form.is_valid():
            try:
                saved = _save(request, club, season, form)
            except TournamentError as refused:
                form.add_error(None, refused.detail)
                status = refused.status
            else:
                url = reverse("club-pages:season", args=[club.pk, saved.pk])
                return HttpResponseRedirect(url)
    context = {"club": club, "season": season, "form": form, "nav_section": "clubs"}
    return render(request, "tournaments/season_form.html", context, status=status)


def _save(request: HttpRequest, club: Club, season: Season | None, form: SeasonForm) -> Season:
    """The season saved by the service (which may refuse: ``TournamentError``)."""
    fields = form.cleaned_data
    settings = {
        "name": fields["name"],
        "points_by_place": fields["points"],
        "tie_rule": fields["tie_rule"],
        "starts_on": fields["starts_on"],
        "ends_on": fields["ends_on"],
        "tournament_ids": [t.pk for t in fields["tournaments"]],
    }
    if season is None:
        return services.season_create(club=club, by=request.user, **settings)
    return services.season_update(season=season, by=request.user, **settings)
