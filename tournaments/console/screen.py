"""The console's screen part: the round's clock on the projector (start, pause, resume,
extend, reset) at ``/tournaments/<id>/console/screen/timer/``.

POST only, with CSRF; a redirect to the hub's screen section after success (PRG); the
service's refusal is shown in the hub with its status (400, 403, 409) otherwise.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from tournaments import live_selectors, services
from tournaments.console.hub import organiser_tournament_or_refusal
from tournaments.errors import TournamentError, WrongState
from tournaments.models import Round, Tournament
from tournaments.services.timers import MAX_MINUTES

#: The extensions offered as one-click buttons (minutes).
EXTENSIONS = (1, 5)

ACTIONS = {
    "start": _("Start"),
    "pause": _("Pause"),
    "resume": _("Resume"),
    "extend": _("Extend"),
    "reset": _("Reset"),
}


class TimerForm(forms.Form):
    """One button of the clock's controls: what to do, and for start/extend how many minutes."""

    action = forms.ChoiceField(choices=list(ACTIONS.items()))
    minutes = forms.IntegerField(
        label=_("Minutes"), min_value=1, max_value=MAX_MINUTES, required=False
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("action") in {"start", "extend"} and not data.get("minutes"):
            self.add_error("minutes", gettext("Say how many minutes."))
        return data


def _run(form: TimerForm, round_: Round, request: HttpRequest) -> None:
    action, minutes, by = form.cleaned_data["action"], form.cleaned_data["minutes"], request.user
    if action == "start":
        services.timer_start(round_=round_, minutes=minutes, by=by)
    elif action == "extend":
        services.timer_extend(round_=round_, minutes=minutes, by=by)
    elif action == "pause":
        services.timer_pause(round_=round_, by=by)
    elif action == "resume":
        services.timer_resume(round_=round_, by=by)
    else:
        services.timer_reset(round_=round_, by=by)


def _refused(
    request: HttpRequest, tournament: Tournament, detail: str, status: int
) -> HttpResponse:
    context = {"tournament": tournament, "nav_section": "tournaments", "screen_refusal": detail}
    return render(request, "tournaments/console/hub.html", context, status=status)


@login_required
@require_POST
def timer(request: HttpRequest, pk: int) -> HttpResponse:
    """One of the clock's buttons, for the published round."""
    tournament, refusal = organiser_tournament_or_refusal(request, pk)
    if refusal is not None:
        return refusal
    assert tournament is not None
    form = TimerForm(request.POST)
    if not form.is_valid():
        problems = " ".join(str(error) for errors in form.errors.values() for error in errors)
        return _refused(request, tournament, problems, 400)
    round_ = live_selectors.round_published(tournament)
    try:
        if round_ is None:
            raise WrongState(gettext("No round is published yet: the clock waits for one."))
        _run(form, round_, request)
    except TournamentError as refused:
        return _refused(request, tournament, refused.detail, refused.status)
    hub = reverse("tournament-pages:console", args=[tournament.pk])
    return HttpResponseRedirect(f"{hub}#console-screen")


@login_required
@require_GET
def timer_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The clock's controls as a live region (another organiser's click shows here too)."""
    tournament, refusal = organiser_tournament_or_refusal(request, pk)
    if refusal is not None:
        return refusal
    assert tournament is not None
    round_ = live_selectors.round_published(tournament)
    if round_ is None:
        return HttpResponse(status=204)
    context = timer_context(tournament, round_)
    response = render(request, "tournaments/console/_screen_timer.html", context)
    add_never_cache_headers(response)
    return response


def timer_context(tournament: Tournament, round_: Round) -> dict[str, object]:
    """What the clock's controls draw."""
    return {
        "tournament": tournament,
        "round": round_,
        "timer": live_selectors.timer_view(round_),
        "default_minutes": live_selectors.DEFAULT_ROUND_MINUTES,
        "extensions": EXTENSIONS,
    }
