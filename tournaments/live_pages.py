"""The live pages of a tournament (issue #18): the fragments that redraw its live regions,
"my table" on the overview, and the projector's screen.

A live region of a page (``data-live-kinds`` + ``data-live-src``) is redrawn by
``tournaments/static/tournaments/live.js`` from its fragment view here whenever the tournament's
socket announces one of its kinds. A fragment is drawn with the same selectors and the same
viewer's rights as its page: a draft round is never in a public fragment, a player's own
table only in their own. Fragments are never cached (each viewer's own, and always fresh).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments import live_selectors, pages, selectors
from tournaments.club_pages import qr_data_uri
from tournaments.models import Round, Tournament


def _public_round(request: HttpRequest, tournament: Tournament, number: int) -> Round:
    """Round ``number`` if this viewer may see its pairings: published for everyone, any
    state for those who run the tournament; 404 otherwise (a draft is never public)."""
    round_ = selectors.round_live_for(tournament, number, request.user)
    if round_ is not None:
        return round_
    raise Http404(
        gettext("{name} has no published round {number}.").format(
            name=tournament.name, number=number
        )
    )


@never_cache
@require_GET
def standings_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings' live region."""
    tournament = get_object_or_404(Tournament, pk=pk)
    context = pages.standings_context(tournament, request.user)
    return render(request, "tournaments/_standings_region.html", context)


@never_cache
@require_GET
def pairings_fragment(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The pairings by table's live region."""
    tournament = get_object_or_404(Tournament, pk=pk)
    round_ = _public_round(request, tournament, number)
    context = pages.pairings_by_table_context(request, tournament, round_)
    return render(request, "tournaments/_pairings_by_table_region.html", context)


@never_cache
@require_GET
def pairings_by_name_fragment(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The pairings by name's live region."""
    tournament = get_object_or_404(Tournament, pk=pk)
    context = pages.pairings_by_name_context(tournament, _public_round(request, tournament, number))
    return render(request, "tournaments/_pairings_by_name_region.html", context)


@never_cache
@require_GET
def rounds_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The overview's table of rounds."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return render(request, "tournaments/_rounds_region.html", pages.rounds_context(tournament))


def my_table_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """What "your table" shows the signed-in user (``mine`` None: not registered)."""
    mine = live_selectors.my_seat(request.user, tournament)
    report = None
    if mine is not None and mine.table is not None and not mine.is_bye and not mine.stream_id:
        report = live_selectors.report_url(tournament, mine.table)
    timer = None
    if mine is not None and mine.round_number is not None and mine.table is not None:
        timer = live_selectors.timer_view(mine.table.round)
    return {"tournament": tournament, "mine": mine, "report_url": report, "timer": timer}


@never_cache
@require_GET
def my_table_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The overview's "your table" region for the signed-in user (empty for anyone else)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return render(request, "tournaments/_my_table.html", my_table_context(request, tournament))


def screen_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """The projector's drawing: the round on screen with its clock and pairings by name, or
    the standings between rounds."""
    round_ = live_selectors.round_on_screen(tournament)
    context: dict[str, Any] = {"tournament": tournament, "round": round_}
    if round_ is not None:
        context["timer"] = live_selectors.timer_view(round_)
        context["lines"] = selectors.pairings_by_name(selectors.pairings_by_table(round_))
    else:
        # The wall is public whoever opened it: a round not yet published counts for nothing.
        before = selectors.round_first_unpublished(tournament)
        context["standings"] = [
            line
            for line in selectors.tournament_standings(tournament, before=before)
            if not line.dropped
        ]
        context["played"] = live_selectors.round_published(tournament)
    return context


@never_cache
@require_GET
def screen(request: HttpRequest, pk: int) -> HttpResponse:
    """The projector's page: full screen, no site chrome, readable from across the room."""
    tournament = get_object_or_404(Tournament, pk=pk)
    page_url = request.build_absolute_uri(reverse("tournament-pages:overview", args=[pk]))
    context = screen_context(request, tournament)
    context.update(page_url=page_url, qr=qr_data_uri(page_url))
    return render(request, "tournaments/screen.html", context)


@never_cache
@require_GET
def screen_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The projector's live region."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return render(request, "tournaments/_screen_region.html", screen_context(request, tournament))
